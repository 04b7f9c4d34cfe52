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

namespace {

// What every row of one joint reads: the frames, the drive, the marker arms r = R x̄ and the
// separation d with its rate and its second rate without the coordinates' second derivatives.
struct RowArgs {
  const JointGeometry& jd;
  const FrameKin& ka;
  const FrameKin& kb;
  const DriveState& ds;
  bool with_gamma;
  Vec3 ra, rb, d, dd, ddh;
};

// One row: constraint c, its explicit time rate ct, γ and the Jacobian blocks on a and b.
struct RowValue {
  double c = 0, g = 0, ct = 0;
  Row6 wa = Row6::Zero(), wb = Row6::Zero();
};

void trans_world(const RowArgs& x, const RowDef& rd, RowValue& v) {
  const Vec3 e = Vec3::Unit(rd.i);
  v.c = x.d[rd.i] - rd.offset;
  v.wa << -e.transpose(), -x.ra.cross(e).transpose();
  v.wb << e.transpose(), x.rb.cross(e).transpose();
  if (x.with_gamma) v.g = -x.ddh[rd.i];
}

// The W rows of e·d for the unit e fixed in a, and γ of e·d without a drive's term.
void along_axis_of_a(const RowArgs& x, const Vec3& e, RowValue& v) {
  v.wa << -e.transpose(), (e.cross(x.d) - x.ra.cross(e)).transpose();
  v.wb << e.transpose(), x.rb.cross(e).transpose();
  if (x.with_gamma) {
    const Vec3 ed = x.ka.w.cross(e);
    const Vec3 edd = x.ka.ah.cross(e) + x.ka.w.cross(ed);
    v.g = -(edd.dot(x.d) + 2 * ed.dot(x.dd) + e.dot(x.ddh));
  }
}

// TransFrame (target rd.offset), TransDriven (s(t) along x_a) and TransOffset (o_i(t)).
void trans_frame(const RowArgs& x, const RowDef& rd, RowValue& v) {
  const int i = rd.kind == RowKind::TransDriven ? 0 : rd.i;
  const Vec3 e = x.ka.R * x.jd.Aa.col(i);
  along_axis_of_a(x, e, v);
  if (rd.kind == RowKind::TransFrame) {
    v.c = e.dot(x.d) - rd.offset;
    return;
  }
  const bool driven = rd.kind == RowKind::TransDriven;
  v.c = e.dot(x.d) - (driven ? x.ds.s : x.ds.o[i]);
  v.ct = -(driven ? x.ds.sd : x.ds.od[i]);
  if (x.with_gamma) v.g += driven ? x.ds.sdd : x.ds.odd[i];
}

// W of e1·e2 (e1 fixed in a, e2 in b) and γ from e1's first two rates (e2 turns with b only).
void angle_of_axes(const RowArgs& x, const Vec3& e1, const Vec3& e1d, const Vec3& e1dd, const Vec3& e2,
                   RowValue& v) {
  const Vec3 c = e1.cross(e2);
  v.wa.tail<3>() = c.transpose();
  v.wb.tail<3>() = -c.transpose();
  if (x.with_gamma) {
    const Vec3 e2d = x.kb.w.cross(e2);
    const Vec3 e2dd = x.kb.ah.cross(e2) + x.kb.w.cross(e2d);
    v.g = -(e1dd.dot(e2) + 2 * e1d.dot(e2d) + e1.dot(e2dd));
  }
}

void rot(const RowArgs& x, const RowDef& rd, RowValue& v) {
  const Vec3 e1 = x.ka.R * x.jd.Aa.col(rd.i), e2 = x.kb.R * x.jd.Ab.col(rd.j);
  v.c = e1.dot(e2) - rd.offset;
  Vec3 e1d = Vec3::Zero(), e1dd = Vec3::Zero();
  if (x.with_gamma) {
    e1d = x.ka.w.cross(e1);
    e1dd = x.ka.ah.cross(e1) + x.ka.w.cross(e1d);
  }
  angle_of_axes(x, e1, e1d, e1dd, e2, v);
}

void distance(const RowArgs& x, RowValue& v) {
  const double L = x.d.norm();
  const Vec3 nn = x.d / L;
  v.c = L - x.jd.L0;
  v.wa << -nn.transpose(), -x.ra.cross(nn).transpose();
  v.wb << nn.transpose(), x.rb.cross(nn).transpose();
  if (x.with_gamma) {
    const double dv = x.d.dot(x.dd);
    v.g = -((x.dd.dot(x.dd) + x.d.dot(x.ddh)) / L - dv * dv / (L * L * L));
  }
}

void rot_offset(const RowArgs& x, const RowDef& rd, RowValue& v) {
  // e1 = R_a A_a Q(t) e_i; its explicit rate e1t = R_a A_a Q̇ e_i, so ė1 = ω_a × e1 + e1t and
  // ë1 = ω̇_a × e1 + ω_a × (ω_a × e1) + 2 ω_a × e1t + R_a A_a Q̈ e_i.
  const FrameKin& ka = x.ka;
  const Mat3 RA = ka.R * x.jd.Aa;
  const Vec3 e1 = RA * x.ds.Q.col(rd.i), e1t = RA * x.ds.Qd.col(rd.i);
  const Vec3 e2 = x.kb.R * x.jd.Ab.col(rd.j);
  v.c = e1.dot(e2);
  v.ct = e1t.dot(e2);
  Vec3 e1d = Vec3::Zero(), e1dd = Vec3::Zero();
  if (x.with_gamma) {
    e1d = ka.w.cross(e1) + e1t;
    e1dd = ka.ah.cross(e1) + ka.w.cross(ka.w.cross(e1)) + 2 * ka.w.cross(e1t) + RA * x.ds.Qdd.col(rd.i);
  }
  angle_of_axes(x, e1, e1d, e1dd, e2, v);
}

void rot_driven(const RowArgs& x, RowValue& v) {
  // e1 = R_a A_a w̄(s), w̄ = (−sin s, cos s, 0); e1' = ∂e1/∂s = −R_a A_a ū, ū = (cos s, sin s, 0);
  // ∂²e1/∂s² = −e1.
  const FrameKin& ka = x.ka;
  const DriveState& ds = x.ds;
  const double cs = std::cos(ds.s), sn = std::sin(ds.s);
  const Mat3 RA = ka.R * x.jd.Aa;
  const Vec3 e1 = RA * Vec3(-sn, cs, 0), e1p = -(RA * Vec3(cs, sn, 0));
  const Vec3 e2 = x.kb.R * x.jd.Ab.col(0);
  v.c = e1.dot(e2);
  v.ct = ds.sd * e1p.dot(e2);
  Vec3 e1d = Vec3::Zero(), e1dd = Vec3::Zero();
  if (x.with_gamma) {
    e1d = ka.w.cross(e1) + ds.sd * e1p;
    e1dd = ka.ah.cross(e1) + ka.w.cross(e1d) + ds.sdd * e1p + ds.sd * ka.w.cross(e1p) - ds.sd * ds.sd * e1;
  }
  angle_of_axes(x, e1, e1d, e1dd, e2, v);
}

void rate_driven(const RowArgs& x, const RowDef& rd, RowValue& v) {
  // Velocity level: c = 0; the row is W·twist + ct with ct = −w(t); γ = −(d/dt of the row
  // without the coordinates' second derivatives) + ẇ(t).
  const FrameKin &ka = x.ka, &kb = x.kb;
  const Vec3 e = ka.R * x.jd.Aa.col(rd.i);
  v.ct = -x.ds.s;
  if (rd.j == 1) {  // rotation about e: e·(ω_b − ω_a)
    v.wa.tail<3>() = -e.transpose();
    v.wb.tail<3>() = e.transpose();
    if (x.with_gamma) v.g = -(ka.w.cross(e).dot(kb.w - ka.w) + e.dot(kb.ah - ka.ah)) + x.ds.sd;
  } else {  // translation along e: e·ḋ + (ω_a × e)·d, the rate of e·d (TransDriven's W and γ)
    along_axis_of_a(x, e, v);
    if (x.with_gamma) v.g += x.ds.sd;
  }
}

void roll(const RowArgs& x, const RowDef& rd, RowValue& v) {
  // Plane on a (ground): normal n and tangents t_i are a's marker axes; disc on b.
  const FrameKin &ka = x.ka, &kb = x.kb;
  const Mat3 RA = ka.R * x.jd.Aa;
  const Vec3 n = RA.col(2);
  const Vec3 w = kb.R * x.jd.Ab.col(2);
  const Vec3 u = n - n.dot(w) * w;
  const double rho = u.norm();
  const Vec3 gh = -u / rho;
  const Vec3 rc = x.rb + x.jd.radius * gh;  // from b's reference point to the contact point
  const Vec3 e = rd.kind == RowKind::RollNormal ? n : Vec3(RA.col(rd.i));
  if (rd.kind == RowKind::RollNormal) v.c = n.dot(kb.p + rc - ka.p - x.ra);
  v.wb << e.transpose(), rc.cross(e).transpose();
  if (x.with_gamma) {
    const Vec3 wd = kb.w.cross(w);
    const Vec3 ud = -n.dot(wd) * w - n.dot(w) * wd;
    const double rhod = u.dot(ud) / rho;
    const Vec3 ghd = -ud / rho + u * (rhod / (rho * rho));
    const Vec3 rcd = kb.w.cross(x.rb) + x.jd.radius * ghd;
    v.g = -e.dot(kb.ah.cross(rc) + kb.w.cross(rcd));
  }
}

void eval_row(const RowArgs& x, const RowDef& rd, RowValue& v) {
  switch (rd.kind) {
    case RowKind::TransWorld: trans_world(x, rd, v); break;
    case RowKind::TransFrame:
    case RowKind::TransDriven:
    case RowKind::TransOffset: trans_frame(x, rd, v); break;
    case RowKind::Rot: rot(x, rd, v); break;
    case RowKind::Distance: distance(x, v); break;
    case RowKind::RotOffset: rot_offset(x, rd, v); break;
    case RowKind::RotDriven: rot_driven(x, v); break;
    case RowKind::RateDriven: rate_driven(x, rd, v); break;
    case RowKind::RollNormal:
    case RowKind::RollTangent: roll(x, rd, v); break;
  }
}

}  // namespace

void eval_joint(const JointGeometry& jd, const FrameKin& ka, const FrameKin& kb, bool with_gamma,
                const DriveState& ds, JointEval& out) {
  const Vec3 ra = ka.R * jd.xa, rb = kb.R * jd.xb;
  const Vec3 d = kb.p + rb - ka.p - ra;
  const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
  // d̈ without the second derivatives of the coordinates:
  const Vec3 ddh = kb.ah.cross(rb) + kb.w.cross(kb.w.cross(rb)) - ka.ah.cross(ra) -
                   ka.w.cross(ka.w.cross(ra));
  const RowArgs x{jd, ka, kb, ds, with_gamma, ra, rb, d, dd, ddh};
  out.nr = static_cast<int>(jd.rows.size());
  for (int r = 0; r < out.nr; ++r) {
    RowValue v;
    eval_row(x, jd.rows[static_cast<size_t>(r)], v);
    out.ct[static_cast<size_t>(r)] = v.ct;
    out.c[static_cast<size_t>(r)] = v.c;
    out.gamma[static_cast<size_t>(r)] = v.g;
    out.Wa.row(r) = v.wa;
    out.Wb.row(r) = v.wb;
  }
}

}  // namespace mbdae::detail
