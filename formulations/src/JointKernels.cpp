// Joint constraint kernels; equations in JointKernels.h. Sources: Nikravesh, Computer-Aided
// Analysis of Mechanical Systems (1988), ch. 7 (joint constraints and their γ terms); the
// Exudyn joint documentation for the marker/joint-frame convention.

#include "JointKernels.h"

#include <algorithm>
#include <cmath>

#include <mbdae/model/math/Rotation.h>

namespace mbdae::detail {

using Row6 = Eigen::Matrix<double, 1, 6>;

JointGeometry make_joint_geometry(const Joint& j, const Mat3& Ra, const Vec3& pa, const Mat3& Rb,
                                  const Vec3& pb) {
  const JointLayout l = joint_layout(j);
  JointGeometry g;
  g.xa = Ra.transpose() * (l.point_a - pa);
  g.xb = Rb.transpose() * (l.point_b - pb);
  g.Aa = Ra.transpose() * l.frame_a;
  g.Ab = Rb.transpose() * l.frame_b;
  g.L0 = l.length;
  g.radius = l.radius;
  g.rows = l.equations;
  g.driven = static_cast<bool>(j.motion) || static_cast<bool>(j.speed);
  return g;
}

DriveState drive_state(const TimeFunction* motion, const std::array<TimeFunction, 6>* offsets, double t,
                       const TimeFunction* speed) {
  DriveState d;
  if (motion && *motion) {
    d.s = (*motion)(t);
    d.sd = motion->derivative(t);
    d.sdd = motion->second_derivative(t);
  } else if (speed && *speed) {
    d.s = (*speed)(t);
    d.sd = speed->derivative(t);
  }
  if (offsets) {
    Vec3 a = Vec3::Zero(), ad = Vec3::Zero(), add = Vec3::Zero();  // rotation offsets
    for (size_t k = 0; k < 6; ++k) {
      const TimeFunction& f = (*offsets)[k];
      if (!f) continue;
      const double v = f(t), vd = f.derivative(t), vdd = f.second_derivative(t);
      const int i = static_cast<int>(k % 3);
      if (k < 3) {
        d.o[i] = v;
        d.od[i] = vd;
        d.odd[i] = vdd;
      } else {
        a[i] = v;
        ad[i] = vd;
        add[i] = vdd;
      }
    }
    // Q = X Y Z with X = Rx(a0), X' = ȧ0 [e_x]× X, X'' = (ä0 [e_x]× + ȧ0² [e_x]×²) X, and so on;
    // (XYZ)'' = X''YZ + XY''Z + XYZ'' + 2 (X'Y'Z + X'YZ' + XY'Z').
    const Mat3 F[3] = {math::rot_x(a[0]), math::rot_y(a[1]), math::rot_z(a[2])};
    Mat3 F1[3], F2[3];
    for (int i = 0; i < 3; ++i) {
      const Mat3 S = math::skew(Vec3::Unit(i));
      F1[i] = ad[i] * S * F[i];
      F2[i] = (add[i] * S + ad[i] * ad[i] * S * S) * F[i];
    }
    d.Q = F[0] * F[1] * F[2];
    d.Qd = F1[0] * F[1] * F[2] + F[0] * F1[1] * F[2] + F[0] * F[1] * F1[2];
    d.Qdd = F2[0] * F[1] * F[2] + F[0] * F2[1] * F[2] + F[0] * F[1] * F2[2] +
            2 * (F1[0] * F1[1] * F[2] + F1[0] * F[1] * F1[2] + F[0] * F1[1] * F1[2]);
  }
  return d;
}

void eval_joint(const JointGeometry& jd, const FrameKin& ka, const FrameKin& kb, bool with_gamma,
                JointEval& out) {
  eval_joint(jd, ka, kb, with_gamma, DriveState{}, out);
}

void eval_joint(const JointGeometry& jd, const FrameKin& ka, const FrameKin& kb, bool with_gamma,
                const DriveState& ds, JointEval& out) {
  const Vec3 ra = ka.R * jd.xa, rb = kb.R * jd.xb;
  const Vec3 d = kb.p + rb - ka.p - ra;
  const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
  // d̈ without the second derivatives of the coordinates:
  const Vec3 ddh = kb.ah.cross(rb) + kb.w.cross(kb.w.cross(rb)) - ka.ah.cross(ra) -
                   ka.w.cross(ka.w.cross(ra));
  out.nr = static_cast<int>(jd.rows.size());
  for (int r = 0; r < out.nr; ++r) {
    const RowDef& rd = jd.rows[static_cast<size_t>(r)];
    double c = 0, g = 0, ct = 0;
    Row6 wa = Row6::Zero(), wb = Row6::Zero();
    switch (rd.kind) {
      case RowKind::TransWorld: {
        const Vec3 e = Vec3::Unit(rd.i);
        c = d[rd.i] - rd.offset;
        wa << -e.transpose(), -ra.cross(e).transpose();
        wb << e.transpose(), rb.cross(e).transpose();
        if (with_gamma) g = -ddh[rd.i];
        break;
      }
      case RowKind::TransFrame: {
        const Vec3 e = ka.R * jd.Aa.col(rd.i);
        c = e.dot(d) - rd.offset;
        wa << -e.transpose(), (e.cross(d) - ra.cross(e)).transpose();
        wb << e.transpose(), rb.cross(e).transpose();
        if (with_gamma) {
          const Vec3 ed = ka.w.cross(e);
          const Vec3 edd = ka.ah.cross(e) + ka.w.cross(ed);
          g = -(edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddh));
        }
        break;
      }
      case RowKind::Rot: {
        const Vec3 e1 = ka.R * jd.Aa.col(rd.i), e2 = kb.R * jd.Ab.col(rd.j);
        c = e1.dot(e2) - rd.offset;
        const Vec3 x = e1.cross(e2);
        wa.tail<3>() = x.transpose();
        wb.tail<3>() = -x.transpose();
        if (with_gamma) {
          const Vec3 e1d = ka.w.cross(e1), e2d = kb.w.cross(e2);
          const Vec3 e1dd = ka.ah.cross(e1) + ka.w.cross(e1d);
          const Vec3 e2dd = kb.ah.cross(e2) + kb.w.cross(e2d);
          g = -(e1dd.dot(e2) + 2 * e1d.dot(e2d) + e1.dot(e2dd));
        }
        break;
      }
      case RowKind::Distance: {
        const double L = d.norm();
        const Vec3 nn = d / L;
        c = L - jd.L0;
        wa << -nn.transpose(), -ra.cross(nn).transpose();
        wb << nn.transpose(), rb.cross(nn).transpose();
        if (with_gamma) {
          const double dv = d.dot(dd);
          g = -((dd.dot(dd) + d.dot(ddh)) / L - dv * dv / (L * L * L));
        }
        break;
      }
      case RowKind::TransDriven: {
        const Vec3 e = ka.R * jd.Aa.col(0);
        c = e.dot(d) - ds.s;
        ct = -ds.sd;
        wa << -e.transpose(), (e.cross(d) - ra.cross(e)).transpose();
        wb << e.transpose(), rb.cross(e).transpose();
        if (with_gamma) {
          const Vec3 ed = ka.w.cross(e);
          const Vec3 edd = ka.ah.cross(e) + ka.w.cross(ed);
          g = -(edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddh)) + ds.sdd;
        }
        break;
      }
      case RowKind::TransOffset: {
        const Vec3 e = ka.R * jd.Aa.col(rd.i);
        c = e.dot(d) - ds.o[rd.i];
        ct = -ds.od[rd.i];
        wa << -e.transpose(), (e.cross(d) - ra.cross(e)).transpose();
        wb << e.transpose(), rb.cross(e).transpose();
        if (with_gamma) {
          const Vec3 ed = ka.w.cross(e);
          const Vec3 edd = ka.ah.cross(e) + ka.w.cross(ed);
          g = -(edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddh)) + ds.odd[rd.i];
        }
        break;
      }
      case RowKind::RotOffset: {
        // e1 = R_a A_a Q(t) e_i; its explicit rate e1t = R_a A_a Q̇ e_i, so ė1 = ω_a × e1 + e1t and
        // ë1 = ω̇_a × e1 + ω_a × (ω_a × e1) + 2 ω_a × e1t + R_a A_a Q̈ e_i.
        const Mat3 RA = ka.R * jd.Aa;
        const Vec3 e1 = RA * ds.Q.col(rd.i), e1t = RA * ds.Qd.col(rd.i);
        const Vec3 e2 = kb.R * jd.Ab.col(rd.j);
        c = e1.dot(e2);
        ct = e1t.dot(e2);
        const Vec3 x = e1.cross(e2);
        wa.tail<3>() = x.transpose();
        wb.tail<3>() = -x.transpose();
        if (with_gamma) {
          const Vec3 e1d = ka.w.cross(e1) + e1t;
          const Vec3 e1dd = ka.ah.cross(e1) + ka.w.cross(ka.w.cross(e1)) + 2 * ka.w.cross(e1t) +
                            RA * ds.Qdd.col(rd.i);
          const Vec3 e2d = kb.w.cross(e2);
          const Vec3 e2dd = kb.ah.cross(e2) + kb.w.cross(e2d);
          g = -(e1dd.dot(e2) + 2 * e1d.dot(e2d) + e1.dot(e2dd));
        }
        break;
      }
      case RowKind::RotDriven: {
        // e1 = R_a A_a w̄(s), w̄ = (−sin s, cos s, 0); e1' = ∂e1/∂s = −R_a A_a ū, ū = (cos s, sin s, 0);
        // ∂²e1/∂s² = −e1.
        const double cs = std::cos(ds.s), sn = std::sin(ds.s);
        const Mat3 RA = ka.R * jd.Aa;
        const Vec3 e1 = RA * Vec3(-sn, cs, 0), e1p = -(RA * Vec3(cs, sn, 0));
        const Vec3 e2 = kb.R * jd.Ab.col(0);
        c = e1.dot(e2);
        ct = ds.sd * e1p.dot(e2);
        const Vec3 x = e1.cross(e2);
        wa.tail<3>() = x.transpose();
        wb.tail<3>() = -x.transpose();
        if (with_gamma) {
          const Vec3 e1d = ka.w.cross(e1) + ds.sd * e1p;
          const Vec3 e1dd = ka.ah.cross(e1) + ka.w.cross(e1d) + ds.sdd * e1p +
                            ds.sd * ka.w.cross(e1p) - ds.sd * ds.sd * e1;
          const Vec3 e2d = kb.w.cross(e2);
          const Vec3 e2dd = kb.ah.cross(e2) + kb.w.cross(e2d);
          g = -(e1dd.dot(e2) + 2 * e1d.dot(e2d) + e1.dot(e2dd));
        }
        break;
      }
      case RowKind::RateDriven: {
        // Velocity level: c = 0; the row is W·twist + ct with ct = −w(t); γ = −(d/dt of the row
        // without the coordinates' second derivatives) + ẇ(t).
        const Vec3 e = ka.R * jd.Aa.col(rd.i);
        ct = -ds.s;
        if (rd.j == 1) {  // rotation about e: e·(ω_b − ω_a)
          wa.tail<3>() = -e.transpose();
          wb.tail<3>() = e.transpose();
          if (with_gamma) g = -(ka.w.cross(e).dot(kb.w - ka.w) + e.dot(kb.ah - ka.ah)) + ds.sd;
        } else {  // translation along e: e·ḋ + (ω_a × e)·d, the rate of e·d (TransDriven's W and γ)
          wa << -e.transpose(), (e.cross(d) - ra.cross(e)).transpose();
          wb << e.transpose(), rb.cross(e).transpose();
          if (with_gamma) {
            const Vec3 ed = ka.w.cross(e);
            const Vec3 edd = ka.ah.cross(e) + ka.w.cross(ed);
            g = -(edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddh)) + ds.sd;
          }
        }
        break;
      }
      case RowKind::RollNormal:
      case RowKind::RollTangent: {
        // Plane on a (ground): normal n and tangents t_i are a's marker axes; disc on b.
        const Mat3 RA = ka.R * jd.Aa;
        const Vec3 n = RA.col(2);
        const Vec3 w = kb.R * jd.Ab.col(2);
        const Vec3 u = n - n.dot(w) * w;
        const double rho = u.norm();
        const Vec3 gh = -u / rho;
        const Vec3 rc = rb + jd.radius * gh;  // from b's reference point to the contact point
        const Vec3 e = rd.kind == RowKind::RollNormal ? n : Vec3(RA.col(rd.i));
        if (rd.kind == RowKind::RollNormal) c = n.dot(kb.p + rc - ka.p - ra);
        wb << e.transpose(), rc.cross(e).transpose();
        if (with_gamma) {
          const Vec3 wd = kb.w.cross(w);
          const Vec3 ud = -n.dot(wd) * w - n.dot(w) * wd;
          const double rhod = u.dot(ud) / rho;
          const Vec3 ghd = -ud / rho + u * (rhod / (rho * rho));
          const Vec3 rcd = kb.w.cross(rb) + jd.radius * ghd;
          g = -e.dot(kb.ah.cross(rc) + kb.w.cross(rcd));
        }
        break;
      }
    }
    out.ct[static_cast<size_t>(r)] = ct;
    out.c[static_cast<size_t>(r)] = c;
    out.gamma[static_cast<size_t>(r)] = g;
    out.Wa.row(r) = wa;
    out.Wb.row(r) = wb;
  }
}

}  // namespace mbdae::detail
