/// @file cases_benchmarks.cpp
/// Validation-suite cases on published rigid-body benchmarks, through the rigid-body formulation
/// (Models.h) and every implicit solver that applies: heavy top (validation/heavy_top), IFToMM
/// A01, A02 (N = 2, 40), A04 Bricard and the spatial slider-crank (validation/iftomm,
/// validation/bricard), the Chrono/ADAMS joint pendulums (validation/joints_adams), and the
/// cross-check of the rotation parametrizations.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/numeric/odeint.hpp>

#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Analytic.h>
#include <mbdae/validation/Models.h>
#include <mbdae/validation/References.h>

#include "CaseSupport.h"

namespace mbdae::validation::suite {
namespace {

namespace models = mbdae::validation::models;

Vec3 V3(const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); }

/// Runs `s` on a prepared model, calling `obs` at every output; returns the result and wall time.
struct Timed {
  SolveResult res;
  double wall = 0;
};
template <class Obs>
Timed Run(const PreparedSystem& p, const SimulationSettings& s, Obs&& obs) {
  Timed t;
  Stopwatch w;
  t.res = simulate(*p.system, 0.0, p.q0, p.v0, s, [&](const StateView& st) {
    obs(st);
    return true;
  });
  t.wall = w.seconds();
  return t;
}

// ------------------------------------------------------------------------------------------------
// Heavy top
// ------------------------------------------------------------------------------------------------
namespace ht = refs::heavy_top;

/// Independent solution at t = 2 s: quaternion kinematics + Euler's equations about the fixed
/// point, Runge–Kutta–Fehlberg 7(8) at 1e-12 (as in validation/tests/test_core_heavy_top.cpp).
std::pair<Vec3, Vec4> HeavyTopIndependent() {
  namespace odeint = boost::numeric::odeint;
  using State = std::vector<double>;
  const Vec3 X = V3(ht::kComOffset_B);
  const Mat3 J = V3(ht::kInertiaFixedPoint).asDiagonal().toDenseMatrix();
  const Mat3 J_inv = J.inverse();
  const Vec3 mg = ht::kMass * V3(ht::kGravity_W);
  auto rhs = [&](const State& x, State& dx, double) {
    const Eigen::Quaterniond e(x[0], x[1], x[2], x[3]);
    const Vec3 W(x[4], x[5], x[6]);
    const Mat3 R = e.normalized().toRotationMatrix();
    const Eigen::Quaterniond ed = e * Eigen::Quaterniond(0.0, W.x(), W.y(), W.z());
    const Vec3 Wd = J_inv * (X.cross(R.transpose() * mg) - W.cross(J * W));
    dx = {0.5 * ed.w(), 0.5 * ed.x(), 0.5 * ed.y(), 0.5 * ed.z(), Wd.x(), Wd.y(), Wd.z()};
  };
  State x{1, 0, 0, 0, ht::kOmega0_B[0], ht::kOmega0_B[1], ht::kOmega0_B[2]};
  auto stepper = odeint::make_controlled(1e-12, 1e-12, odeint::runge_kutta_fehlberg78<State>());
  odeint::integrate_adaptive(stepper, rhs, x, 0.0, ht::kTimeRef, 1e-4);
  const Eigen::Quaterniond e = Eigen::Quaterniond(x[0], x[1], x[2], x[3]).normalized();
  return {e.toRotationMatrix() * X - X, Vec4(e.w(), e.x(), e.y(), e.z())};
}

Vec4 Aligned(const Vec4& e, const Vec4& ref) { return e.dot(ref) < 0 ? Vec4(-e) : e; }

// Tolerances: the published t = 2 s state is good to ~1.2e-6 in u and ~8e-7 in the quaternion
// (it differs from a converged RKF 7(8) solution by 1.19e-6 and 7.6e-7, README). Against it:
// quaternion 1e-6 (the required limit), u 1.3e-6 (the reference's own error + 1e-7; 1e-6 cannot be
// met by any converged solution). Against the converged solution: 1e-7 at IDA rtol 1e-12
// (measured 5e-8 / 6e-8). Invariants (Ω_y, E, H_z, relative): IDA rtol 1e-12 holds them to
// ~1e-10 (rows 1e-8).
void HeavyTop(Context& ctx) {
  const auto [u_ind, e_ind0] = HeavyTopIndependent();
  const Vec4 e_ref(ht::kQuaternionAt2[0], ht::kQuaternionAt2[1], ht::kQuaternionAt2[2], ht::kQuaternionAt2[3]);
  const Vec3 u_ref = V3(ht::kComDisplacementAt2);
  const Vec4 e_ind = Aligned(e_ind0, e_ref);
  const Vec3 X = V3(ht::kComOffset_B);
  const Mat3 J = V3(ht::kInertiaFixedPoint).asDiagonal().toDenseMatrix();
  const Vec3 mg = ht::kMass * V3(ht::kGravity_W);
  ctx.add("odeint rkf78 tol 1e-12", "u(2 s): independent solution vs published [m]",
          Tuple({u_ref.x(), u_ref.y(), u_ref.z()}, 12), Tuple({u_ind.x(), u_ind.y(), u_ind.z()}, 12),
          (u_ind - u_ref).cwiseAbs().maxCoeff(), 1.3e-6, "max abs (reference precision)", 0);

  struct Setting {
    SolverType type;
    double v;
    double tol_q, tol_u_ind, tol_inv;
  };
  // generalized-α h = 2e-5 (ρ∞ = 0.9, 100000 steps): second-order error of the 300 rad spin
  // phase, measured 3.7e-6 (e vs published), 4.3e-6 (vs RKF78), invariants ≤ 8.8e-7; tolerances
  // are these with a margin of ~3.
  for (const Setting& st : {Setting{SolverType::Ida, 1e-12, 1e-6, 1e-7, 1e-8},
                            Setting{SolverType::GeneralizedAlpha, 2e-5, 1.2e-5, 1.2e-5, 3e-6}}) {
    PreparedSystem p = prepare(models::HeavyTop());
    const MultibodySystem& mb = *p.system;
    SimulationSettings s = Settings(st.type, ht::kTimeRef, st.v, 0.01, ht::kRhoInf);
    double d_wy = 0, d_E = 0, d_Hz = 0;
    Vec3 u = Vec3::Zero();
    Vec4 e = Vec4::Zero();
    const Timed r = Run(p, s, [&](const StateView& v) {
      const Mat3 R = mb.rotation(0, v.q);
      const Vec3 W = R.transpose() * mb.angular_velocity(0, v.q, v.v);
      d_wy = std::max(d_wy, std::abs(W.y() - ht::kOmegaY) / ht::kOmegaY);
      d_E = std::max(d_E, std::abs(0.5 * W.dot(J * W) - mg.dot(R * X) - ht::kEnergy) / ht::kEnergy);
      d_Hz = std::max(d_Hz, std::abs((R * J * W).z() - ht::kAngularMomentumZ) / std::abs(ht::kAngularMomentumZ));
      u = mb.position(0, v.q, X) - X;
      e = mb.euler_parameters(0, v.q);
    });
    if (!r.res.ok()) {
      ctx.add_failure(Label(s), "state at t = 2 s", r.res.message, r.wall);
      continue;
    }
    e = Aligned(e, e_ref);
    const std::string L = Label(s);
    ctx.add(L, "Euler parameters at t = 2 s vs published", Tuple({e_ref[0], e_ref[1], e_ref[2], e_ref[3]}, 12),
            Tuple({e[0], e[1], e[2], e[3]}, 12), (e - e_ref).cwiseAbs().maxCoeff(), st.tol_q, "max abs", r.wall);
    ctx.add(L, "COM displacement u at t = 2 s vs published [m]", Tuple({u_ref.x(), u_ref.y(), u_ref.z()}, 12),
            Tuple({u.x(), u.y(), u.z()}, 12), (u - u_ref).cwiseAbs().maxCoeff(), std::max(st.tol_q, 1.3e-6),
            "max abs", r.wall);
    ctx.add(L, "u and e at t = 2 s vs converged RKF78", "RKF78 1e-12", "-",
            std::max((u - u_ind).cwiseAbs().maxCoeff(), (e - e_ind).cwiseAbs().maxCoeff()), st.tol_u_ind,
            "max abs", r.wall);
    ctx.add(L, "Ω_y drift (exact invariant 150 rad/s)", "150", "-", d_wy, st.tol_inv, "max rel", r.wall);
    ctx.add(L, "energy drift (exact 5435.696790865547 J)", Num(ht::kEnergy, 16), "-", d_E, st.tol_inv,
            "max rel", r.wall);
    ctx.add(L, "H_z drift (exact −70.3124296875)", Num(ht::kAngularMomentumZ, 12), "-", d_Hz, st.tol_inv,
            "max rel", r.wall);
    ctx.add(L, "max |C(q)| at the outputs", "0", Num(r.res.stats.max_position_violation, 3),
            r.res.stats.max_position_violation, st.type == SolverType::Ida ? 1e-10 : 1e-10, "max abs", r.wall);
  }
}

// ------------------------------------------------------------------------------------------------
// IFToMM A01 simple pendulum
// ------------------------------------------------------------------------------------------------
namespace a01 = refs::iftomm::a01;

// The benchmark's high-precision limit is 1e-3; each setting is also held to its own accuracy
// (measured, validation/tests/test_core_iftomm.cpp: GA 1.2e-4 at h = 1e-3, 1.3e-6 at 1e-4;
// trapezoidal 7e-5 and 7e-7; IDA 5e-7 at rtol 1e-9, 5e-8 at 1e-10; tolerance = measured × ~5).
void IftommA01(Context& ctx) {
  struct Setting {
    SolverType type;
    double v;
    double tight;
    models::A01Link link;
  };
  const std::vector<Setting> settings = {
      {SolverType::GeneralizedAlpha, 1e-3, 6e-4, models::A01Link::Revolute},
      {SolverType::GeneralizedAlpha, 1e-4, 6e-6, models::A01Link::Revolute},
      {SolverType::TrapezoidalIndex2, 1e-3, 4e-4, models::A01Link::Revolute},
      {SolverType::TrapezoidalIndex2, 1e-4, 4e-6, models::A01Link::Revolute},
      {SolverType::Ida, 1e-9, 3e-6, models::A01Link::Revolute},
      {SolverType::Ida, 1e-10, 3e-7, models::A01Link::Revolute},
      {SolverType::GeneralizedAlpha, 1e-4, 6e-6, models::A01Link::Distance},
      {SolverType::Ida, 1e-10, 3e-7, models::A01Link::Distance}};
  std::vector<double> ref, got;
  for (const auto& smp : a01::kPositions) {
    ref.push_back(smp.x);
    ref.push_back(smp.y);
  }
  // The table itself against the closed form (Analytic.h).
  {
    const auto exact = Pendulum::Libration(std::sqrt(a01::kGravity / a01::kLength), M_PI / 2);
    double err = 0;
    for (const auto& smp : a01::kPositions) {
      const double phi = exact.CalcState(smp.t).phi;
      err = std::max({err, std::abs(std::sin(phi) - smp.x), std::abs(-std::cos(phi) - smp.y)});
    }
    ctx.add("closed form (Jacobi sn)", "tabulated positions vs φ(t) = 2 asin(k sn(K − ω0 t))",
            Tuple(ref, 12), "-", err, 1e-9, "max abs", 0);
  }
  for (const Setting& st : settings) {
    PreparedSystem p = prepare(models::IftommA01(st.link));
    SimulationSettings s = Settings(st.type, 10.0, st.v, 1.0, 0.8);
    double err = 0, E0 = 0, dE = 0;
    std::vector<double> res;
    auto ws = p.system->make_workspace();
    const Timed r = Run(p, s, [&](const StateView& v) {
      const double E = p.system->energy(ws, v.t, v.q, v.v);
      if (v.t == 0) E0 = E;
      dE = std::max(dE, std::abs(E - E0));
      for (const auto& smp : a01::kPositions)
        if (std::abs(v.t - smp.t) < 1e-9) {
          const Vec3 x = p.system->position(0, v.q);
          res.push_back(x.x());
          res.push_back(x.y());
          err = std::max({err, std::abs(x.x() - smp.x), std::abs(x.y() - smp.y), std::abs(x.z())});
        }
    });
    const std::string L = Label(s) + (st.link == models::A01Link::Distance ? " (distance link)" : "");
    if (!r.res.ok() || res.size() != 6) {
      ctx.add_failure(L, "mass position at t = 1, 2, 10 s", r.res.message, r.wall);
      continue;
    }
    ctx.add(L, "mass (x, y) at t = 1, 2, 10 s [m]", Tuple(ref, 12), Tuple(res, 12), err, st.tight,
            "max abs", r.wall);
    // Energy: generalized-α with ρ∞ = 0.8 dissipates at O(h²)… measured; others conserve to
    // their accuracy. Relative to m g L = 9.81 J.
    const double e_tol = st.type == SolverType::Ida ? 1e-6 : (st.v >= 1e-3 ? 1e-3 : 1e-5);
    ctx.add(L, "energy drift over 10 s / (m g L)", "0", Num(dE / 9.81, 3), dE / 9.81, e_tol, "max rel", r.wall);
    ctx.add(L, "max |C(q)| at the outputs", "0", Num(r.res.stats.max_position_violation, 3),
            r.res.stats.max_position_violation, st.type == SolverType::TrapezoidalIndex2 ? 1e-5 : 1e-8,
            "max abs", r.wall);
    ctx.add_work(std::string(to_string(st.type)) + (st.link == models::A01Link::Distance ? " distance" : ""),
                 st.type == SolverType::Ida ? "rtol" : "h", st.v, err, r.wall);
  }
}

// ------------------------------------------------------------------------------------------------
// IFToMM A02 N-four-bar
// ------------------------------------------------------------------------------------------------
namespace a02 = refs::iftomm::a02;

// Generalized-α, index 3, ρ∞ = 0.95 (as Exudyn), default Newton settings, through the singular
// (horizontal) positions. Benchmark limit 1e-3 on B0 and Ḃ0 at t = 10 s. Branch check: on the
// parallelogram branch every crank has the angle of crank0; the largest spread over the run must
// stay below 1e-3 rad (leaving the branch gives O(1)). At the singular positions C_q loses rank
// (by N: one per loop) and the multipliers of the remaining rows grow without bound; steps whose
// Newton iteration fails there are repeated with slightly compliant constraints
// (NewmarkOptions::singular_regularization). Returns the B0 error at t = 10 s (NaN on failure).
double A02(Context& ctx, int n, double h) {
  const auto& ref = n == 2 ? a02::kN2At10 : a02::kN40At10;
  PreparedSystem p = prepare(models::IftommA02(n));
  SimulationSettings s = Settings(SolverType::GeneralizedAlpha, 10.0, h, 0.01, 0.95);
  Vec3 x = Vec3::Zero(), xd = Vec3::Zero();
  double min_abs_y = 1, spread = 0, E0 = 0, dE = 0;
  auto ws = p.system->make_workspace();
  const Timed r = Run(p, s, [&](const StateView& v) {
    x = p.system->position(0, v.q, models::IftommA02TipB0());
    xd = p.system->velocity(0, v.q, v.v, models::IftommA02TipB0());
    min_abs_y = std::min(min_abs_y, std::abs(x.y()));
    const Mat3 R0 = p.system->rotation(0, v.q);
    const double a0 = std::atan2(R0(1, 0), R0(0, 0));
    for (int i = 1; i <= n; ++i) {
      const Mat3 R = p.system->rotation(i, v.q);
      spread = std::max(spread, std::abs(std::remainder(std::atan2(R(1, 0), R(0, 0)) - a0, 2 * M_PI)));
    }
    const double E = p.system->energy(ws, v.t, v.q, v.v);
    if (v.t == 0) E0 = E;
    dE = std::max(dE, std::abs(E - E0) / std::abs(E0));
  });
  const std::string L = Label(s);
  if (!r.res.ok()) {
    ctx.add_failure(L, "B0 at t = 10 s", r.res.message, r.wall);
    ctx.add(L, "crank-angle spread up to t = " + Num(r.res.t_reached, 4) + " s (branch)", "0", Num(spread, 3), spread,
            1e-3, "max abs [rad]", r.wall);
    return std::numeric_limits<double>::quiet_NaN();
  }
  const double err = MaxAbs(x.x() - ref.x, x.y() - ref.y);
  ctx.add(L, "B0 (x, y) at t = 10 s [m]", Tuple({ref.x, ref.y}), Tuple({x.x(), x.y()}), err, 1e-3,
          "max abs (benchmark limit)", r.wall);
  ctx.add(L, "B0 velocity at t = 10 s [m/s]", Tuple({ref.x_dot, ref.y_dot}), Tuple({xd.x(), xd.y()}),
          MaxAbs(xd.x() - ref.x_dot, xd.y() - ref.y_dot), 1e-3, "max abs (benchmark limit)", r.wall);
  if (n == 2 && h == 1e-3) {
    // Exudyn's generalized-α, same ρ∞ and h = 1e-3 (10 digits): the same method at the same step
    // must give the same discretization error; 1e-5 allows for the step-size and Newton details.
    const auto& ex = a02::kExudynN2At10[0];
    ctx.add(L, "B0 at t = 10 s vs Exudyn generalized-α h = 1e-3 [m]", Tuple({ex.x, ex.y}), Tuple({x.x(), x.y()}),
            MaxAbs(x.x() - ex.x, x.y() - ex.y), 1e-5, "max abs", r.wall);
  }
  ctx.add(L, "crank-angle spread (parallelogram branch)", "0", Num(spread, 3), spread, 1e-3, "max abs [rad]",
          r.wall);
  ctx.add(L, "min |y_B0| (passes the singular positions)", "0", Num(min_abs_y, 3), min_abs_y, 0.05,
          "must be ≤ (reached)", r.wall);
  // ρ∞ = 0.95 dissipates little: relative energy loss over 10 s (measured 1e-5 for N = 2).
  ctx.add(L, "energy drift over 10 s", "0", Num(dE, 3), dE, 1e-4, "max rel", r.wall);
  ctx.add(L, "rejected steps; steps with compliant constraints (singular positions)", "-",
          std::to_string(r.res.stats.rejected_steps) + "; " + std::to_string(r.res.stats.regularized_steps), 0, 0,
          "info", r.wall);
  return err;
}

// N = 40 at h = 1e-3, 5e-4, 2.5e-4: each meets the benchmark, and the B0 error shrinks at the
// order of the method (2) although every run crosses all the singular positions of the 10 s.
void A02N40(Context& ctx) {
  const double e1 = A02(ctx, 40, 1e-3), e2 = A02(ctx, 40, 5e-4), e3 = A02(ctx, 40, 2.5e-4);
  if (!(std::isfinite(e1) && std::isfinite(e2) && std::isfinite(e3))) return;
  const double order = std::log(e1 / e3) / std::log(4.0);
  ctx.add("generalized_alpha h=1e-3..2.5e-4 rho=0.95", "observed order of the B0 error at t = 10 s", "2",
          Num(order, 3) + " (errors " + Num(e1, 3) + ", " + Num(e2, 3) + ", " + Num(e3, 3) + ")",
          std::abs(order - 2.0), 0.3, "abs", 0);
}

// ------------------------------------------------------------------------------------------------
// A04 Bricard
// ------------------------------------------------------------------------------------------------
// Energy and constraint drift and the agreement of the three implicit solvers over 10 s
// (validation/bricard/README.md: no published trajectory). Tolerances as in
// validation/tests/test_core_bricard.cpp: relative energy drift IDA 1e-8, generalized-α and
// trapezoidal 2e-6 (measured 2.4e-10, 2.2e-7, 8.9e-8); COMs within 1e-4 m of IDA (measured 8e-6);
// |C| 1e-10 (index 3, GGL), 1e-5 (index 2).
void Bricard(Context& ctx) {
  PreparedSystem p = prepare(models::Bricard());
  ctx.add("prepare()", "redundant equations found (rank of C_q)", "1 (joint J5)",
          std::to_string(p.redundancy.dependent_rows.size()),
          std::abs(static_cast<double>(p.redundancy.dependent_rows.size()) - 1.0), 0.0, "count", 0);
  struct Out {
    std::vector<VecX> com;
    double E0 = 0, dE = 0;
    Timed r;
  };
  auto run = [&](const SimulationSettings& s) {
    Out o;
    auto ws = p.system->make_workspace();
    o.r = Run(p, s, [&](const StateView& v) {
      const double E = p.system->energy(ws, v.t, v.q, v.v);
      if (v.t == 0) o.E0 = E;
      o.dE = std::max(o.dE, std::abs(E - o.E0));
      VecX c(15);
      for (int i = 0; i < 5; ++i) c.segment<3>(3 * i) = p.system->position(i, v.q);
      o.com.push_back(c);
    });
    return o;
  };
  const SimulationSettings si = Settings(SolverType::Ida, 10.0, 1e-10, 0.1);
  const Out ida = run(si);
  if (!ida.r.res.ok()) {
    ctx.add_failure(Label(si), "Bricard 10 s", ida.r.res.message, ida.r.wall);
    return;
  }
  const double E0 = std::abs(ida.E0);
  ctx.add(Label(si), "energy drift over 10 s", "0", Num(ida.dE / E0, 3), ida.dE / E0, 1e-8, "max rel", ida.r.wall);
  ctx.add(Label(si), "max |C(q)|", "0", Num(ida.r.res.stats.max_position_violation, 3),
          ida.r.res.stats.max_position_violation, 1e-10, "max abs", ida.r.wall);
  for (SolverType t : {SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2}) {
    const SimulationSettings s = Settings(t, 10.0, 1e-3, 0.1, 0.8);
    const Out o = run(s);
    if (!o.r.res.ok()) {
      ctx.add_failure(Label(s), "Bricard 10 s", o.r.res.message, o.r.wall);
      continue;
    }
    double d = 0;
    for (size_t k = 0; k < std::min(o.com.size(), ida.com.size()); ++k)
      d = std::max(d, (o.com[k] - ida.com[k]).cwiseAbs().maxCoeff());
    ctx.add(Label(s), "COMs of the 5 rods vs IDA rtol 1e-10, t ∈ [0, 10] [m]", "IDA", "-", d, 1e-4, "max abs",
            o.r.wall);
    ctx.add(Label(s), "energy drift over 10 s", "0", Num(o.dE / E0, 3), o.dE / E0, 2e-6, "max rel", o.r.wall);
    ctx.add(Label(s), "max |C(q)|", "0", Num(o.r.res.stats.max_position_violation, 3),
            o.r.res.stats.max_position_violation, t == SolverType::TrapezoidalIndex2 ? 1e-5 : 1e-10, "max abs",
            o.r.wall);
  }
}

// ------------------------------------------------------------------------------------------------
// Spatial slider-crank (IFToMM, Cardan rod–slider joint)
// ------------------------------------------------------------------------------------------------
namespace ssc = refs::iftomm::spatial_slider_crank;

void SpatialSliderCrankCase(Context& ctx, double t_end) {
  PreparedSystem p = prepare(models::SpatialSliderCrank());
  auto ws = p.system->make_workspace();
  const double E0 = p.system->energy(ws, 0.0, p.q0, p.v0);
  if (t_end < 1.0)
    ctx.add("model", "initial total energy [J]", Num(ssc::kTotalEnergy, 8), Num(E0, 10),
            std::abs(E0 - ssc::kTotalEnergy) / ssc::kTotalEnergy, 1e-8, "rel", 0);
  struct Setting {
    SolverType type;
    double v;
    double e_tol;
  };
  // Energy: IDA rtol 1e-10 conserves it to ~4e-9 J; generalized-α ρ∞ = 1 at h = 1e-4 has an O(h²)
  // energy error, measured 8.6e-6 J (tolerance 2e-5 relative).
  for (const Setting& st : {Setting{SolverType::GeneralizedAlpha, ssc::kStep, 2e-5},
                            Setting{SolverType::Ida, 1e-10, 1e-6}}) {
    if (t_end > 1.0 && st.type != SolverType::Ida) continue;
    SimulationSettings s = Settings(st.type, t_end, st.v, ssc::kStep, 1.0);
    std::vector<double> ts, xs;
    double dE = 0;
    const Timed r = Run(p, s, [&](const StateView& v) {
      ts.push_back(v.t);
      xs.push_back(p.system->position(2, v.q).x());
      dE = std::max(dE, std::abs(p.system->energy(ws, v.t, v.q, v.v) - E0));
    });
    const std::string L = Label(s);
    if (!r.res.ok()) {
      ctx.add_failure(L, "slider x(t)", r.res.message, r.wall);
      continue;
    }
    // Slider x at time t: the output samples (every kStep), linearly interpolated for times off
    // the grid (Masoudi's; error ~ ẍ h²/8 ~ 1e-9 m).
    auto sample = [&](double t) {
      const double u = t / ssc::kStep, k = std::floor(u + 1e-6), w = std::max(0.0, u - k);
      auto at = [&](double kk) {
        const auto i = static_cast<size_t>(kk);
        return i < xs.size() ? xs[i] : std::nan("");
      };
      return w < 1e-6 ? at(k) : (1 - w) * at(k) + w * at(k + 1);
    };
    ctx.add(L, "energy drift over " + Num(t_end, 2) + " s", Num(ssc::kTotalEnergy, 8), Num(dE, 3),
            dE / ssc::kTotalEnergy, st.e_tol, "max rel", r.wall);
    // One row per reference curve: its samples up to t_end against ours.
    auto compare = [&](const auto& samples, const std::string& against, double tol, const char* norm) {
      std::vector<double> rr, gg;
      double e = 0;
      std::string times;
      for (const auto& tx : samples) {
        if (tx[0] > t_end + 1e-12) continue;
        rr.push_back(tx[1]);
        gg.push_back(sample(tx[0]));
        e = std::max(e, std::abs(gg.back() - tx[1]));
        times += (times.empty() ? "" : ", ") + Num(tx[0], 4);
      }
      ctx.add(L, "slider x at t = " + times + " s vs " + against + " [m]", Tuple(rr, 9), Tuple(gg, 9), e, tol, norm,
              r.wall);
    };
    // The PH model's curve (h = 0.01): our model agrees to ~2e-5 m, a second-order method's error
    // at h = 0.01 (validation/iftomm/README.md). Tolerance 1e-4 m.
    if (t_end < 1.0) compare(ssc::kPortHamiltonianX, "port-Hamiltonian model", 1e-4, "max abs");
    // IFToMM submissions (References.h): Gonzalez and Masarati agree with each other to 6e-6 m;
    // the tolerance 2e-5 m allows for that and for generalized-α's O(h²) phase error at
    // h = 1e-4 (validation/iftomm/README.md has the measured values).
    compare(ssc::kGonzalezX, "IFToMM submission (Gonzalez)", 2e-5, "max abs");
    compare(ssc::kMasaratiX, "IFToMM submission (Masarati)", 2e-5, "max abs");
    // Masoudi's submission and the curve reference/iftomm.md gives (the PH file's pos_ref2 column,
    // which starts at ẋ = 0.260 m/s where this problem's initial state has 0.240): reported, not
    // compared (README).
    if (st.type == SolverType::GeneralizedAlpha && t_end < 1.0) {
      compare(ssc::kMasoudiX, "IFToMM submission (Masoudi)", 0, "info");
      compare(ssc::kSliderX, "curve of reference/iftomm.md (other initial state)", 0, "info");
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Chrono/ADAMS joint pendulums
// ------------------------------------------------------------------------------------------------
namespace ja = refs::joints_adams;

// Exact physical-pendulum solution (matches ADAMS to its 6 digits). Tolerances: COM 1e-6 m at
// h = 1.25e-4 / rtol 1e-10 (the published values carry 8–9 digits; the methods reach ~1e-7);
// reaction force 1e-5 m g; Chrono's own limits vs ADAMS are 1e-3 (position), 1e-2 (energy).
void AdamsPendulums(Context& ctx) {
  const auto exact = Pendulum::Libration(ja::revolute1::kOmega0, M_PI / 2);
  {
    const double phi = exact.CalcState(0.5).phi;
    const double ex = std::max(std::abs(ja::kComDistance * std::sin(phi) - ja::revolute1::kAdamsAt0_5.x),
                               std::abs(-ja::kComDistance * std::cos(phi) - ja::revolute1::kAdamsAt0_5.z));
    ctx.add("MSC ADAMS (6 digits)", "revolute 1: COM (x, z) at 0.5 s, ADAMS vs closed form [m]",
            Tuple({ja::revolute1::kAdamsAt0_5.x, ja::revolute1::kAdamsAt0_5.z}, 7),
            Tuple({ja::kComDistance * std::sin(phi), -ja::kComDistance * std::cos(phi)}, 10), ex, 5e-6,
            "max abs (6 digits)", 0);
  }
  for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2, SolverType::Ida}) {
    const SimulationSettings s = Settings(type, 2.5, type == SolverType::Ida ? 1e-10 : 1.25e-4, 0.5, 0.6);
    const std::string L = Label(s);
    {  // revolute 1, EP and Tait–Bryan
      for (auto param : {RotationParametrization::EulerParameters, RotationParametrization::TaitBryan}) {
        PreparedSystem p = prepare(models::AdamsPendulum(JointType::Revolute, V3(ja::revolute1::kJoint),
                                                         V3(ja::revolute1::kAxis), V3(ja::revolute1::kCom0), param));
        double pos = 0, force = 0, E0 = 0, dE = 0;
        auto ws = p.system->make_workspace();
        const Timed r = Run(p, s, [&](const StateView& v) {
          const auto e = exact.CalcState(v.t);
          const double d = ja::kComDistance;
          const Vec3 com(d * std::sin(e.phi), 0, -d * std::cos(e.phi));
          pos = std::max(pos, (p.system->position(0, v.q) - com).cwiseAbs().maxCoeff());
          const Vec3 acc(d * (e.phi_ddot * std::cos(e.phi) - e.phi_dot * e.phi_dot * std::sin(e.phi)), 0,
                         d * (e.phi_ddot * std::sin(e.phi) + e.phi_dot * e.phi_dot * std::cos(e.phi)));
          const Vec3 F = ja::kMass * (acc - Vec3(0, 0, -ja::kGravity));
          if (v.lambda.size())
            force = std::max(force, (p.system->reaction(0, v.t, v.q, v.lambda).force_W - F).cwiseAbs().maxCoeff());
          const double E = p.system->energy(ws, v.t, v.q, v.v);
          if (v.t == 0) E0 = E;
          dE = std::max(dE, std::abs(E - E0));
        });
        const std::string LL = L + " " + to_string(param);
        if (!r.res.ok()) {
          ctx.add_failure(LL, "revolute 1", r.res.message, r.wall);
          continue;
        }
        ctx.add(LL, "revolute 1: COM at t = 0…2.5 s vs exact [m]", "closed form", "-", pos, 1e-6, "max abs", r.wall);
        ctx.add(LL, "revolute 1: joint reaction force vs exact [N]", "closed form", "-", force,
                1e-5 * ja::kMass * ja::kGravity, "max abs", r.wall);
        ctx.add(LL, "revolute 1: energy drift / (m g d)", "0", Num(dE, 3), dE / (ja::kMass * ja::kGravity * 2),
                1e-6, "max rel", r.wall);
        ctx.add(LL, "revolute 1: max |C(q)|", "0", Num(r.res.stats.max_position_violation, 3),
                r.res.stats.max_position_violation, type == SolverType::TrapezoidalIndex2 ? 1e-7 : 1e-8,
                "max abs (Chrono: 1e-5)", r.wall);
      }
    }
    {  // revolute 2 (tilted axis)
      PreparedSystem p = prepare(models::AdamsPendulum(JointType::Revolute, V3(ja::revolute2::kJoint),
                                                       V3(ja::revolute2::kAxis), V3(ja::revolute2::kCom0)));
      double err = 0;
      std::vector<double> ref, got;
      const Timed r = Run(p, s, [&](const StateView& v) {
        for (const auto& smp : ja::revolute2::kCom)
          if (std::abs(v.t - smp.t) < 1e-12) {
            const Vec3 c = p.system->position(0, v.q);
            err = std::max(err, (c - Vec3(smp.x, smp.y, smp.z)).cwiseAbs().maxCoeff());
          }
      });
      if (!r.res.ok()) ctx.add_failure(L, "revolute 2", r.res.message, r.wall);
      else
        ctx.add(L, "revolute 2 (axis (0,1,1)/√2): COM at t = 0.5, 1, 2 s [m]", "8–9 digit table", "-", err, 1e-6,
                "max abs", r.wall);
    }
    {  // spherical 1
      PreparedSystem p = prepare(models::AdamsPendulum(JointType::Spherical, V3(ja::spherical1::kJoint),
                                                       Vec3::UnitY(), V3(ja::spherical1::kCom0)));
      double err = 0;
      const Timed r = Run(p, s, [&](const StateView& v) {
        for (const auto& smp : ja::spherical1::kCom)
          if (std::abs(v.t - smp.t) < 1e-12)
            err = std::max(err, (p.system->position(0, v.q) - Vec3(smp.x, 0, smp.z)).cwiseAbs().maxCoeff());
      });
      if (!r.res.ok()) ctx.add_failure(L, "spherical 1", r.res.message, r.wall);
      else
        ctx.add(L, "spherical 1: COM at t = 0.5, 1, 2, 2.5 s [m]", "exact (= revolute 1)", "-", err, 1e-6,
                "max abs", r.wall);
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Rotation parametrizations: Euler parameters vs Tait–Bryan vs rotation vector
// ------------------------------------------------------------------------------------------------
// Same model (spatial double pendulum of Models.h, 2 s; heavy top, 0.5 s), three rotation sets:
// COM and R of every body at every output. Tolerances (validation/tests/test_core_parametrizations):
// 1e-7 at IDA rtol 1e-10 (measured 1.5e-9 / 6.5e-9), 1e-6 at generalized-α h = 1e-4 (measured
// 3.9e-8 / 1.7e-8): both solvers' own accuracy at these settings, far below the differences an
// error in one parametrization would cause.
void Parametrizations(Context& ctx) {
  auto poses = [&](const System& model, const SimulationSettings& s, double& wall, std::string& msg) {
    PreparedSystem p = prepare(model);
    const int nb = static_cast<int>(model.bodies().size());
    std::vector<VecX> out;
    const Timed r = Run(p, s, [&](const StateView& v) {
      VecX x(12 * nb);
      for (int i = 0; i < nb; ++i) {
        x.segment<3>(12 * i) = p.system->position(i, v.q, model.bodies()[static_cast<size_t>(i)].com);
        const Mat3 R = p.system->rotation(i, v.q);
        x.segment<9>(12 * i + 3) = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(R.data());
      }
      out.push_back(x);
    });
    wall += r.wall;
    if (!r.res.ok()) msg = r.res.message;
    return out;
  };
  auto diff = [](const std::vector<VecX>& a, const std::vector<VecX>& b) {
    if (a.size() != b.size() || a.empty()) return std::nan("");
    double d = 0;
    for (size_t k = 0; k < a.size(); ++k) d = std::max(d, (a[k] - b[k]).cwiseAbs().maxCoeff());
    return d;
  };
  struct Setting {
    SolverType type;
    double v, tol;
  };
  for (const Setting& st : {Setting{SolverType::Ida, 1e-10, 1e-7}, Setting{SolverType::GeneralizedAlpha, 1e-4, 1e-6}}) {
    const SimulationSettings s = Settings(st.type, 2.0, st.v, 0.05, 0.8);
    double wall = 0;
    std::string msg;
    const auto ep = poses(models::SpatialDoublePendulum(RotationParametrization::EulerParameters), s, wall, msg);
    const auto tb = poses(models::SpatialDoublePendulum(RotationParametrization::TaitBryan), s, wall, msg);
    const auto rv = poses(models::SpatialDoublePendulum(RotationParametrization::RotationVector), s, wall, msg);
    if (!msg.empty()) {
      ctx.add_failure(Label(s), "spatial double pendulum", msg, wall);
      continue;
    }
    ctx.add(Label(s), "double pendulum: Tait–Bryan vs Euler parameters (COM, R; 2 s)", "EP run", "TB run",
            diff(tb, ep), st.tol, "max abs", wall);
    ctx.add(Label(s), "double pendulum: rotation vector vs Euler parameters", "EP run", "RV run", diff(rv, ep),
            st.tol, "max abs", wall);
  }
  {
    // 0.5 s = 12 turns of the 150 rad/s spin: at rtol 1e-10 the spin phase of each run is only
    // good to ~1e-6 (heavy_top case), so the parametrizations are compared at rtol 1e-12.
    const SimulationSettings s = Settings(SolverType::Ida, 0.5, 1e-12, 0.01);
    double wall = 0;
    std::string msg;
    const auto ep = poses(models::HeavyTop(RotationParametrization::EulerParameters), s, wall, msg);
    const auto rv = poses(models::HeavyTop(RotationParametrization::RotationVector), s, wall, msg);
    if (!msg.empty()) ctx.add_failure(Label(s), "heavy top", msg, wall);
    else
      ctx.add(Label(s), "heavy top (|rotation vector| passes π): rotation vector vs EP, 0.5 s", "EP run", "RV run",
              diff(rv, ep), 1e-7, "max abs", wall);
  }
}

}  // namespace

void AddBenchmarkCases(std::vector<Case>& cases) {
  cases.push_back({"heavy_top", "Heavy top (Brüls-Cardona): t = 2 s state, exact invariants", false, HeavyTop});
  cases.push_back({"iftomm_a01_pendulum", "IFToMM A01 simple pendulum (libration, exact): positions at 1, 2, 10 s",
                   false, IftommA01});
  cases.push_back({"iftomm_a02_n2", "IFToMM A02 N-four-bar, N = 2, generalized-α through the singular positions",
                   false, [](Context& c) { (void)A02(c, 2, 1e-3); }});
  cases.push_back({"iftomm_a02_n40",
                   "IFToMM A02 N-four-bar, N = 40 (81 rods), generalized-α h = 1e-3, 5e-4, 2.5e-4", true,
                   [](Context& c) { A02N40(c); }});
  cases.push_back({"iftomm_a04_bricard", "IFToMM A04 Bricard (redundant): energy, drift, solvers agree", false,
                   Bricard});
  cases.push_back({"spatial_slider_crank", "IFToMM spatial slider-crank (Cardan joint): energy, slider curve", false,
                   [](Context& c) { SpatialSliderCrankCase(c, 0.5); }});
  cases.push_back({"spatial_slider_crank_5s", "IFToMM spatial slider-crank: 5 s energy conservation (IDA)", true,
                   [](Context& c) { SpatialSliderCrankCase(c, ssc::kEndTime); }});
  cases.push_back({"adams_joint_pendulums", "Chrono/ADAMS revolute 1, revolute 2, spherical 1 pendulums", false,
                   AdamsPendulums});
  cases.push_back({"parametrizations", "Euler parameters vs Tait-Bryan vs rotation vector (same trajectories)", false,
                   Parametrizations});
}

}  // namespace mbdae::validation::suite
