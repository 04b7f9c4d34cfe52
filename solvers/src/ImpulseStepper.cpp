// Impulse-based time stepping with projected Gauss–Seidel; the scheme is described in
// ImpulseStepper.h (seed 004 ch. 8–10; Erleben 2005 ch. 6; Catto 2005/2006/2011).

#include <mbdae/solvers/ImpulseStepper.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include <mbdae/formulations/ContactGeometry.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae {

namespace {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

struct Vel {
  Vec3 v = Vec3::Zero(), w = Vec3::Zero();
};

struct JRow {
  int a = -1, b = -1;
  Vec3 ja_v, ja_w, jb_v, jb_w;
  double k = 0;  // J M⁻¹ Jᵀ
  double c = 0;  // position error
  double lam = 0, lam_p = 0;
};

struct CRow {
  int a = -1, b = -1;
  Vec3 n, t1, t2, ra, rb;
  double kn = 0, bn = 0, bp = 0, lam_n = 0, lam_p = 0, mu = 0, mur = 0;
  Mat2 Kt, Kt_inv, Kr, Kr_inv;
  Vec2 lam_t = Vec2::Zero(), lam_r = Vec2::Zero();
  std::uint64_t key = 0;
};

struct Prev {
  std::uint64_t key;
  double lam_n;
  Vec3 P_t, P_r;
  bool operator<(const Prev& o) const { return key < o.key; }
};

/// Unit vector orthogonal to n.
Vec3 any_orthogonal(const Vec3& n) {
  const Vec3 t = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (t - n * n.dot(t)).normalized();
}

std::string at_time(double t) {
  std::ostringstream s;
  s.precision(10);
  s << "t = " << t << " s: ";
  return s.str();
}

}  // namespace

ImpulseResult solve_impulse(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                            const ImpulseOptions& opt, const Observer& obs) {
  if (!(opt.t_end > t0)) throw SolverSettingsError("solve_impulse: t_end must be > t0");
  if (!(opt.step > 0)) throw SolverSettingsError("solve_impulse: step must be > 0, got " + std::to_string(opt.step));
  if (!(opt.relaxation > 0 && opt.relaxation < 2))
    throw SolverSettingsError("solve_impulse: relaxation must be in (0, 2), got " + std::to_string(opt.relaxation));
  if (opt.pgs_max_iterations < 1) throw SolverSettingsError("solve_impulse: pgs_max_iterations must be >= 1");
  if (opt.friction == FrictionModel::Pyramid && opt.pyramid_sides < 3)
    throw SolverSettingsError("solve_impulse: pyramid_sides must be >= 3, got " + std::to_string(opt.pyramid_sides));
  if (q0.size() != sys.num_q() || v0.size() != sys.num_v())
    throw SolverSettingsError("solve_impulse: state size does not match the system");
  const auto wall0 = std::chrono::steady_clock::now();

  const int nb = sys.num_bodies();
  const int nj = static_cast<int>(sys.model().joints().size());
  const double h = opt.step, omega = opt.relaxation;
  ContactDetector detector(sys);

  ImpulseResult out;
  SolverStats& st = out.result.stats;
  ImpulseStats& ps = out.pgs;
  const OutputGrid grid(t0, opt.t_end, opt.output_every);
  if (opt.record_per_step)
    ps.per_step.reserve(static_cast<size_t>(std::ceil((opt.t_end - t0) / h)) + static_cast<size_t>(grid.size()) + 2);

  VecX q = q0, v = v0, cvec, cdvec;
  const VecX empty;
  std::vector<Vel> u(static_cast<size_t>(nb)), up(static_cast<size_t>(nb)), u0(static_cast<size_t>(nb));
  std::vector<double> im(static_cast<size_t>(nb));
  std::vector<Mat3> Iw(static_cast<size_t>(nb)), Rb(static_cast<size_t>(nb));
  std::vector<Vec3> xc(static_cast<size_t>(nb));
  for (int i = 0; i < nb; ++i) im[static_cast<size_t>(i)] = 1.0 / sys.mass(i);
  std::vector<JRow> jrows(static_cast<size_t>(sys.num_joint_rows()));
  std::vector<ContactPoint> cps;
  std::vector<CRow> crows;
  std::vector<Prev> prev, prev_next;
  JointRowsWorld jw;

  // Friction polygon: facet normals at angles 2πj/k; vertices between facets j−1 and j at
  // (L / cos(π/k)) (cos(2πj/k − π/k), sin(…)).
  const int ksides = opt.pyramid_sides;
  std::vector<Vec2> vert(static_cast<size_t>(std::max(ksides, 3))), facet(static_cast<size_t>(std::max(ksides, 3)));
  for (int j = 0; j < ksides; ++j) {
    const double ang = 2 * M_PI * j / ksides - M_PI / ksides;
    vert[static_cast<size_t>(j)] = Vec2(std::cos(ang), std::sin(ang)) / std::cos(M_PI / ksides);
    facet[static_cast<size_t>(j)] = Vec2(std::cos(2 * M_PI * j / ksides), std::sin(2 * M_PI * j / ksides));
  }
  // k = 4: the facets are t1 = ±L, t2 = ±L, a square, whose nearest point is the clamped one.
  const bool box_pyramid = opt.friction == FrictionModel::Pyramid && ksides == 4;
  auto project_friction = [&](Vec2& x, double L) {
    if (L <= 0) {
      x.setZero();
      return;
    }
    if (opt.friction == FrictionModel::Cone) {
      const double nx = x.norm();
      if (nx > L) x *= L / nx;
      return;
    }
    if (box_pyramid) {
      x.x() = std::clamp(x.x(), -L, L);
      x.y() = std::clamp(x.y(), -L, L);
      return;
    }
    bool inside = true;
    for (int j = 0; j < ksides && inside; ++j)
      if (facet[static_cast<size_t>(j)].dot(x) > L) inside = false;
    if (inside) return;
    Vec2 best = Vec2::Zero();
    double bd = 1e300;
    for (int j = 0; j < ksides; ++j) {
      const Vec2 p0 = L * vert[static_cast<size_t>(j)], p1 = L * vert[static_cast<size_t>((j + 1) % ksides)];
      const Vec2 e = p1 - p0;
      const double s = std::clamp((x - p0).dot(e) / e.squaredNorm(), 0.0, 1.0);
      const Vec2 c = p0 + s * e;
      const double d = (x - c).squaredNorm();
      if (d < bd) {
        bd = d;
        best = c;
      }
    }
    x = best;
  };

  // Velocity helpers on a velocity set U (u or up).
  auto point_vel = [&](const std::vector<Vel>& U, int body, const Vec3& r) -> Vec3 {
    if (body < 0) return Vec3::Zero();
    const Vel& b = U[static_cast<size_t>(body)];
    return b.v + b.w.cross(r);
  };
  auto ang_vel = [&](const std::vector<Vel>& U, int body) -> Vec3 {
    return body < 0 ? Vec3::Zero() : U[static_cast<size_t>(body)].w;
  };
  auto apply_impulse = [&](std::vector<Vel>& U, const CRow& c, const Vec3& P) {
    if (c.b >= 0) {
      Vel& b = U[static_cast<size_t>(c.b)];
      b.v += im[static_cast<size_t>(c.b)] * P;
      b.w += Iw[static_cast<size_t>(c.b)] * c.rb.cross(P);
    }
    if (c.a >= 0) {
      Vel& a = U[static_cast<size_t>(c.a)];
      a.v -= im[static_cast<size_t>(c.a)] * P;
      a.w -= Iw[static_cast<size_t>(c.a)] * c.ra.cross(P);
    }
  };
  auto apply_torque = [&](std::vector<Vel>& U, const CRow& c, const Vec3& T) {
    if (c.b >= 0) U[static_cast<size_t>(c.b)].w += Iw[static_cast<size_t>(c.b)] * T;
    if (c.a >= 0) U[static_cast<size_t>(c.a)].w -= Iw[static_cast<size_t>(c.a)] * T;
  };
  auto apply_joint = [&](std::vector<Vel>& U, const JRow& r, double dl) {
    if (r.a >= 0) {
      Vel& a = U[static_cast<size_t>(r.a)];
      a.v += im[static_cast<size_t>(r.a)] * dl * r.ja_v;
      a.w += Iw[static_cast<size_t>(r.a)] * (dl * r.ja_w);
    }
    if (r.b >= 0) {
      Vel& b = U[static_cast<size_t>(r.b)];
      b.v += im[static_cast<size_t>(r.b)] * dl * r.jb_v;
      b.w += Iw[static_cast<size_t>(r.b)] * (dl * r.jb_w);
    }
  };
  auto joint_vel = [&](const std::vector<Vel>& U, const JRow& r) {
    double s = 0;
    if (r.a >= 0) s += r.ja_v.dot(U[static_cast<size_t>(r.a)].v) + r.ja_w.dot(U[static_cast<size_t>(r.a)].w);
    if (r.b >= 0) s += r.jb_v.dot(U[static_cast<size_t>(r.b)].v) + r.jb_w.dot(U[static_cast<size_t>(r.b)].w);
    return s;
  };
  auto k_dir = [&](const CRow& c, const Vec3& d1, const Vec3& d2) {
    double k = 0;
    if (c.a >= 0) k += im[static_cast<size_t>(c.a)] * d1.dot(d2) + c.ra.cross(d1).dot(Iw[static_cast<size_t>(c.a)] * c.ra.cross(d2));
    if (c.b >= 0) k += im[static_cast<size_t>(c.b)] * d1.dot(d2) + c.rb.cross(d1).dot(Iw[static_cast<size_t>(c.b)] * c.rb.cross(d2));
    return k;
  };
  auto k_ang = [&](const CRow& c, const Vec3& d1, const Vec3& d2) {
    double k = 0;
    if (c.a >= 0) k += d1.dot(Iw[static_cast<size_t>(c.a)] * d2);
    if (c.b >= 0) k += d1.dot(Iw[static_cast<size_t>(c.b)] * d2);
    return k;
  };

  auto record = [&](double t) -> bool {
    if (nj > 0) {
      sys.joint_violation(q, cvec);
      sys.joint_velocity_violation(q, v, cdvec);
      st.max_position_violation = std::max(st.max_position_violation, cvec.cwiseAbs().maxCoeff());
      st.max_velocity_violation = std::max(st.max_velocity_violation, cdvec.cwiseAbs().maxCoeff());
    }
    st.energy_final = sys.energy(q, v);
    return obs ? obs(StateView{t, q, v, empty, empty}) : true;
  };
  auto finish = [&](SolveStatus s, double t, const std::string& msg) {
    out.result.status = s;
    out.result.t_reached = t;
    out.result.message = msg;
    st.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return out;
  };

  st.energy_initial = sys.energy(q, v);
  if (!record(t0)) return finish(SolveStatus::StoppedByObserver, t0, at_time(t0) + "stopped by the observer");

  double t = t0;
  for (int k = 1; k < grid.size(); ++k) {
    const double t_out = grid.time(k);
    while (t < t_out - 1e-9 * h) {
      if (st.steps >= opt.max_steps)
        return finish(SolveStatus::TooMuchWork, t, at_time(t) + "step limit reached");
      // ---- 1. kinematics and contacts at q_n ----
      for (int i = 0; i < nb; ++i) {
        const size_t s = static_cast<size_t>(i);
        Rb[s] = sys.rotation(i, q);
        Iw[s] = Rb[s] * sys.inertia_com_inv(i) * Rb[s].transpose();
        xc[s] = sys.com_position(i, q);
        u0[s].v = v.segment<3>(6 * i);
        u0[s].w = Rb[s] * v.segment<3>(6 * i + 3);
      }
      detector.detect(q, opt.contact_margin, cps);
      // ---- 2. free velocities ----
      for (int i = 0; i < nb; ++i) {
        const size_t s = static_cast<size_t>(i);
        Vec3 F, tau;
        sys.applied_wrench(i, t, q, v, F, tau);
        const Vec3 wB = v.segment<3>(6 * i + 3);
        const Mat3& J = sys.inertia_com(i);
        const Vec3 wB1 = wB + h * (sys.inertia_com_inv(i) * (tau - wB.cross(J * wB)));
        u[s].v = u0[s].v + h * im[s] * F;
        u[s].w = Rb[s] * wB1;
        up[s] = Vel{};
      }
      // ---- 3a. joint rows ----
      int row = 0;
      for (int j = 0; j < nj; ++j) {
        sys.joint_rows_world(j, q, v, jw);
        for (int r = 0; r < jw.nr; ++r, ++row) {
          JRow& jr = jrows[static_cast<size_t>(row)];
          const double lam_old = jr.lam;
          jr.a = jw.a;
          jr.b = jw.b;
          jr.ja_v = jw.Wa.block<1, 3>(r, 0).transpose();
          jr.ja_w = jw.Wa.block<1, 3>(r, 3).transpose();
          jr.jb_v = jw.Wb.block<1, 3>(r, 0).transpose();
          jr.jb_w = jw.Wb.block<1, 3>(r, 3).transpose();
          jr.k = 0;
          if (jr.a >= 0) jr.k += im[static_cast<size_t>(jr.a)] * jr.ja_v.squaredNorm() + jr.ja_w.dot(Iw[static_cast<size_t>(jr.a)] * jr.ja_w);
          if (jr.b >= 0) jr.k += im[static_cast<size_t>(jr.b)] * jr.jb_v.squaredNorm() + jr.jb_w.dot(Iw[static_cast<size_t>(jr.b)] * jr.jb_w);
          jr.c = jw.c[r];
          jr.lam = opt.warm_start ? lam_old : 0.0;
          jr.lam_p = 0;
        }
      }
      // ---- 3b. contact rows ----
      crows.resize(cps.size());
      double max_pen = 0;
      for (size_t ci = 0; ci < cps.size(); ++ci) {
        const ContactPoint& cp = cps[ci];
        CRow& c = crows[ci];
        c.a = cp.a;
        c.b = cp.b;
        c.n = cp.n;
        c.ra = cp.a >= 0 ? Vec3(cp.p - xc[static_cast<size_t>(cp.a)]) : Vec3::Zero();
        c.rb = cp.b >= 0 ? Vec3(cp.p - xc[static_cast<size_t>(cp.b)]) : Vec3::Zero();
        c.key = cp.key();
        c.mu = cp.friction;
        c.mur = cp.rolling_resistance * cp.r_eff;
        max_pen = std::max(max_pen, -cp.depth);
        // Tangent basis: t1 along the slip after the free update, else along the carried friction.
        const Vec3 rv = point_vel(u, c.b, c.rb) - point_vel(u, c.a, c.ra);
        Vec3 vt = rv - c.n * c.n.dot(rv);
        const Prev* pv = nullptr;
        if (opt.warm_start && !prev.empty()) {
          auto it = std::lower_bound(prev.begin(), prev.end(), Prev{c.key, 0, Vec3::Zero(), Vec3::Zero()});
          if (it != prev.end() && it->key == c.key) pv = &*it;
        }
        if (vt.norm() > 1e-9) c.t1 = vt.normalized();
        else if (pv && (pv->P_t - c.n * c.n.dot(pv->P_t)).norm() > 0)
          c.t1 = -(pv->P_t - c.n * c.n.dot(pv->P_t)).normalized();
        else c.t1 = any_orthogonal(c.n);
        c.t2 = c.n.cross(c.t1);
        c.kn = k_dir(c, c.n, c.n);
        c.Kt << k_dir(c, c.t1, c.t1), k_dir(c, c.t1, c.t2), k_dir(c, c.t2, c.t1), k_dir(c, c.t2, c.t2);
        c.Kt_inv = c.Kt.inverse();
        if (c.mur > 0) {
          c.Kr << k_ang(c, c.t1, c.t1), k_ang(c, c.t1, c.t2), k_ang(c, c.t2, c.t1), k_ang(c, c.t2, c.t2);
          c.Kr_inv = c.Kr.inverse();
        }
        // Normal target: Newton restitution from the pre-step approach speed, or closing a gap.
        const double vn_pre = c.n.dot(point_vel(u0, c.b, c.rb) - point_vel(u0, c.a, c.ra));
        if (vn_pre < -opt.restitution_threshold && cp.restitution > 0) c.bn = -cp.restitution * vn_pre;
        else c.bn = cp.depth > 0 ? -cp.depth / h : 0.0;
        c.bp = opt.split_impulse ? opt.position_beta * std::max(-cp.depth - opt.slop, 0.0) / h : 0.0;
        c.lam_n = pv ? pv->lam_n : 0.0;
        c.lam_t = pv ? Vec2(c.t1.dot(pv->P_t), c.t2.dot(pv->P_t)) : Vec2::Zero();
        c.lam_r = (pv && c.mur > 0) ? Vec2(c.t1.dot(pv->P_r), c.t2.dot(pv->P_r)) : Vec2::Zero();
        c.lam_p = 0;
      }
      // ---- warm start ----
      if (opt.warm_start) {
        for (const JRow& jr : jrows) apply_joint(u, jr, jr.lam);
        for (CRow& c : crows) {
          project_friction(c.lam_t, c.mu * c.lam_n);
          apply_impulse(u, c, c.n * c.lam_n + c.t1 * c.lam_t.x() + c.t2 * c.lam_t.y());
          if (c.mur > 0) {
            const double L = c.mur * c.lam_n;
            if (c.lam_r.norm() > L) c.lam_r *= L / c.lam_r.norm();
            apply_torque(u, c, c.t1 * c.lam_r.x() + c.t2 * c.lam_r.y());
          }
        }
      }
      // ---- 3c. projected Gauss–Seidel on velocities ----
      int it = 0;
      double res = 0;
      for (it = 1; it <= opt.pgs_max_iterations; ++it) {
        res = 0;
        for (JRow& jr : jrows) {
          const double dl = -omega * joint_vel(u, jr) / jr.k;
          jr.lam += dl;
          apply_joint(u, jr, dl);
          res = std::max(res, std::abs(dl) * jr.k);
        }
        for (CRow& c : crows) {
          const double vn = c.n.dot(point_vel(u, c.b, c.rb) - point_vel(u, c.a, c.ra));
          const double ln = std::max(0.0, c.lam_n - omega * (vn - c.bn) / c.kn);
          const double dn = ln - c.lam_n;
          c.lam_n = ln;
          apply_impulse(u, c, c.n * dn);
          res = std::max(res, std::abs(dn) * c.kn);
          if (c.mu > 0) {
            const Vec3 rv = point_vel(u, c.b, c.rb) - point_vel(u, c.a, c.ra);
            const Vec2 vt(c.t1.dot(rv), c.t2.dot(rv));
            Vec2 cand = c.lam_t - omega * (c.Kt_inv * vt);
            project_friction(cand, c.mu * c.lam_n);
            const Vec2 dt = cand - c.lam_t;
            c.lam_t = cand;
            apply_impulse(u, c, c.t1 * dt.x() + c.t2 * dt.y());
            res = std::max(res, (c.Kt * dt).cwiseAbs().maxCoeff());
          }
          if (c.mur > 0) {
            const Vec3 wr = ang_vel(u, c.b) - ang_vel(u, c.a);
            const Vec2 vr(c.t1.dot(wr), c.t2.dot(wr));
            Vec2 cand = c.lam_r - omega * (c.Kr_inv * vr);
            const double L = c.mur * c.lam_n;
            if (cand.norm() > L) cand *= (L > 0 ? L / cand.norm() : 0.0);
            const Vec2 dr = cand - c.lam_r;
            c.lam_r = cand;
            apply_torque(u, c, c.t1 * dr.x() + c.t2 * dr.y());
            res = std::max(res, (c.Kr * dr).cwiseAbs().maxCoeff());
          }
        }
        if (res <= opt.pgs_tolerance) break;
      }
      if (it > opt.pgs_max_iterations) {
        it = opt.pgs_max_iterations;
        ++ps.steps_at_cap;
      }
      // ---- 4. split impulse: pseudo-velocities for the position error ----
      int pit = 0;
      if (opt.split_impulse && (nj > 0 || !crows.empty())) {
        for (pit = 1; pit <= opt.position_iterations; ++pit) {
          double pres = 0;
          for (JRow& jr : jrows) {
            const double target = -opt.position_beta * jr.c / h;
            const double dl = -omega * (joint_vel(up, jr) - target) / jr.k;
            jr.lam_p += dl;
            apply_joint(up, jr, dl);
            pres = std::max(pres, std::abs(dl) * jr.k);
          }
          for (CRow& c : crows) {
            const double vn = c.n.dot(point_vel(up, c.b, c.rb) - point_vel(up, c.a, c.ra));
            const double lp = std::max(0.0, c.lam_p - omega * (vn - c.bp) / c.kn);
            const double dp = lp - c.lam_p;
            c.lam_p = lp;
            apply_impulse(up, c, c.n * dp);
            pres = std::max(pres, std::abs(dp) * c.kn);
          }
          if (pres <= opt.pgs_tolerance) break;
        }
        pit = std::min(pit, opt.position_iterations);
      }
      // ---- 5. positions (symplectic Euler with a Lie-group rotation update) ----
      for (int i = 0; i < nb; ++i) {
        const size_t s = static_cast<size_t>(i);
        q.segment<3>(7 * i) += h * (u[s].v + up[s].v);
        const Vec4 Q = q.segment<4>(7 * i + 3);
        Vec4 Qn = math::ep_multiply(math::ep_from_rotvec(h * (u[s].w + up[s].w)), Q);
        Qn /= Qn.norm();
        q.segment<4>(7 * i + 3) = Qn;
        v.segment<3>(6 * i) = u[s].v;
        v.segment<3>(6 * i + 3) = math::ep_to_matrix(Qn).transpose() * u[s].w;
      }
      // Keep the impulses for the next step's warm start.
      prev_next.clear();
      for (const CRow& c : crows)
        prev_next.push_back(Prev{c.key, c.lam_n, c.t1 * c.lam_t.x() + c.t2 * c.lam_t.y(),
                                 c.t1 * c.lam_r.x() + c.t2 * c.lam_r.y()});
      std::sort(prev_next.begin(), prev_next.end());
      prev.swap(prev_next);

      t = (t_out - t < 1.5 * h) && (std::abs(t + h - t_out) < 1e-9 * h) ? t_out : t + h;
      ++st.steps;
      st.last_step = h;
      ps.total_iterations += it;
      ps.max_iterations = std::max(ps.max_iterations, it);
      ps.max_residual = std::max(ps.max_residual, res);
      ps.max_contacts = std::max(ps.max_contacts, static_cast<int>(crows.size()));
      ps.max_penetration = std::max(ps.max_penetration, max_pen);
      if (opt.record_per_step)
        ps.per_step.push_back(PgsStepStats{t, it, res, pit, static_cast<int>(crows.size()), max_pen});
      if (!q.allFinite() || !v.allFinite())
        return finish(SolveStatus::ResidualFailure, t, at_time(t) + "the state became non-finite");
    }
    t = t_out;
    if (!record(t_out)) return finish(SolveStatus::StoppedByObserver, t, at_time(t) + "stopped by the observer");
  }
  return finish(SolveStatus::Success, t, "");
}

}  // namespace mbdae
