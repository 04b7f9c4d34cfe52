/// @file cases_convergence.cpp
/// Observed orders of convergence, each on two problems with three step sizes (or five
/// tolerances for IDA):
///   generalized-α (order 2): heavy top, IFToMM A01 pendulum, SUNDIALS slider-crank;
///   trapezoidal index 2 (order 2): IFToMM A01 pendulum, SUNDIALS slider-crank;
///   RK4 on Newton–Euler bodies (order 4) and Lie-group RKMK4 (order 4): the torque-free body in
///   both regimes (precession about the axis of the largest and of the smallest moment);
///   IDA: the error follows the requested tolerance (SUNDIALS slider-crank, Andrews' squeezer).
/// Order p between two runs = log(e1/e2)/log(h1/h2). Tolerance on |p − p_expected|: 0.2 (the
/// steps are chosen in the asymptotic range; the measured values are in validation/README.md).

#include <algorithm>
#include <cmath>
#include <vector>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Analytic.h>
#include <mbdae/validation/Andrews.h>
#include <mbdae/validation/Models.h>
#include <mbdae/validation/References.h>
#include <mbdae/validation/SliderCrankGgl.h>

#include "CaseSupport.h"

namespace mbdae::validation::suite {
namespace {

namespace models = mbdae::validation::models;

/// Rows "observed order" for successive pairs of (h, error), and the work points.
void OrderRows(Context& ctx, const std::string& solver, const std::string& problem, const std::vector<double>& h,
               const std::vector<double>& err, const std::vector<double>& wall, double expected, double tol) {
  for (size_t k = 0; k < h.size(); ++k) ctx.add_work(solver + " " + problem, "h", h[k], err[k], wall[k]);
  for (size_t k = 0; k + 1 < h.size(); ++k) {
    const double p = Order(err[k], err[k + 1], h[k], h[k + 1]);
    ctx.add(solver + " h=" + Num(h[k], 3) + "→" + Num(h[k + 1], 3), problem + ": observed order",
            Num(expected, 2) + " (errors " + Num(err[k], 3) + " → " + Num(err[k + 1], 3) + ")", Num(p, 4),
            std::abs(p - expected), tol, "|p − " + Num(expected, 2) + "|", wall[k] + wall[k + 1]);
  }
}

// ---- problems for the implicit solvers ---------------------------------------------------------

/// Heavy top, 0.5 s: error of the COM and R at the end against IDA rtol 1e-12.
double HeavyTopError(const SimulationSettings& s, double& wall) {
  namespace ht = refs::heavy_top;
  const Vec3 X(ht::kComOffset_B[0], ht::kComOffset_B[1], ht::kComOffset_B[2]);
  auto run = [&](const SimulationSettings& st, Vec3& u, Mat3& R) {
    PreparedSystem p = prepare(models::HeavyTop());
    Stopwatch w;
    const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, st, [&](const StateView& v) {
      u = p.system->position(0, v.q, X);
      R = p.system->rotation(0, v.q);
      return true;
    });
    wall = w.seconds();
    return r.ok();
  };
  static const std::pair<Vec3, Mat3> ref = [&] {
    Vec3 u;
    Mat3 R;
    double w = 0;
    (void)w;
    run(Settings(SolverType::Ida, 0.5, 1e-12, 0.0), u, R);
    return std::make_pair(u, R);
  }();
  Vec3 u;
  Mat3 R;
  if (!run(s, u, R)) return std::nan("");
  return std::max((u - ref.first).cwiseAbs().maxCoeff(), (R - ref.second).cwiseAbs().maxCoeff());
}

/// IFToMM A01 pendulum (revolute link), t = 2 s: mass position against the closed form.
double A01Error(const SimulationSettings& s, double& wall) {
  namespace a01 = refs::iftomm::a01;
  PreparedSystem p = prepare(models::IftommA01(models::A01Link::Revolute));
  Vec3 x = Vec3::Zero();
  Stopwatch w;
  const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, s, [&](const StateView& v) {
    x = p.system->position(0, v.q);
    return true;
  });
  wall = w.seconds();
  if (!r.ok()) return std::nan("");
  const auto& smp = a01::kPositions[1];  // t = 2
  return MaxAbs(x.x() - smp.x, x.y() - smp.y);
}

/// SUNDIALS slider-crank, t = 10 s: (q, x, p) against the converged reference.
double GglError(const SimulationSettings& s, double& wall) {
  namespace sc = slider_crank_ggl;
  const GenericDae sys = sc::make_system();
  VecX q0(3), v0(3), q;
  sys.initial_state(q0, v0);
  Stopwatch w;
  const SolveResult r = simulate(sys, 0, q0, v0, s, [&](const StateView& v) {
    q = v.q;
    return true;
  });
  wall = w.seconds();
  if (!r.ok()) return std::nan("");
  double e = 0;
  for (int i = 0; i < 3; ++i) e = std::max(e, std::abs(q[i] - sc::ref_t10[static_cast<size_t>(i)]));
  return e;
}

using ErrorFn = double (*)(const SimulationSettings&, double&);

void ImplicitOrder(Context& ctx, SolverType type, const std::string& problem, ErrorFn fn, double t_end,
                   const std::vector<double>& hs, double rho_inf) {
  std::vector<double> err, wall;
  for (double h : hs) {
    double w = 0;
    err.push_back(fn(Settings(type, t_end, h, 0.0, rho_inf), w));
    wall.push_back(w);
  }
  OrderRows(ctx, to_string(type), problem, hs, err, wall, 2.0, 0.2);
}

void GeneralizedAlphaOrder(Context& ctx) {
  ImplicitOrder(ctx, SolverType::GeneralizedAlpha, "heavy top (0.5 s, vs IDA 1e-12)", HeavyTopError, 0.5,
                {2e-4, 1e-4, 5e-5}, 0.9);
  ImplicitOrder(ctx, SolverType::GeneralizedAlpha, "A01 pendulum (t = 2 s, vs exact)", A01Error, 2.0,
                {4e-3, 2e-3, 1e-3}, 0.8);
  ImplicitOrder(ctx, SolverType::GeneralizedAlpha, "SUNDIALS slider-crank (t = 10 s)", GglError, 10.0,
                {2e-3, 1e-3, 5e-4}, 0.8);
}

void TrapezoidalOrder(Context& ctx) {
  ImplicitOrder(ctx, SolverType::TrapezoidalIndex2, "A01 pendulum (t = 2 s, vs exact)", A01Error, 2.0,
                {4e-3, 2e-3, 1e-3}, 0.8);
  ImplicitOrder(ctx, SolverType::TrapezoidalIndex2, "SUNDIALS slider-crank (t = 10 s)", GglError, 10.0,
                {2e-3, 1e-3, 5e-4}, 0.8);
}

// ---- explicit: torque-free body in both regimes ------------------------------------------------

/// Error at t_end against the closed form: max of |Ω_P − Ω_exact| and |R J w_exact − L0| (the
/// spatial angular momentum is constant: this vanishes only if R(t) is right up to a rotation
/// about L0).
double TorqueFreeError(const Vec3& w0_P, double t, const Mat3& R, const Vec3& w_B) {
  const Mat3 P = models::TorqueFreeBodyPrincipalAxes();
  const Vec3 I = models::TorqueFreeBodyMoments();
  const Mat3 J = P * I.asDiagonal() * P.transpose();
  const TorqueFreeBody exact(I, w0_P);
  const System s = models::TorqueFreeBodyModel(RotationParametrization::EulerParameters, w0_P);
  const Mat3& R0 = s.bodies()[0].orientation;
  const Vec3 L0 = R0 * J * (P * w0_P);
  const Vec3 w_exact_B = P * exact.Calc_w_B(t);
  return std::max((P.transpose() * w_B - exact.Calc_w_B(t)).cwiseAbs().maxCoeff(), (R * J * w_exact_B - L0).norm());
}

const Vec3 kRegimeAxis3(1.0, 0.2, 2.0);  // M² > 2E I2
const Vec3 kRegimeAxis1(2.0, 0.2, 1.0);  // M² < 2E I2

std::string Regime(const Vec3& w0) {
  return w0 == kRegimeAxis3 ? "torque-free body, M² > 2E I2 (2 s)" : "torque-free body, M² < 2E I2 (2 s)";
}

void Rk4Order(Context& ctx) {
  for (const Vec3& w0 : {kRegimeAxis3, kRegimeAxis1}) {
    const std::vector<double> hs = {0.04, 0.02, 0.01};
    std::vector<double> err, wall;
    for (double h : hs) {
      NewtonEulerSystem ne(models::TorqueFreeBodyModel(RotationParametrization::EulerParameters, w0));
      VecX q0, v0;
      ne.initial_state(q0, v0);
      ExplicitOptions o;
      o.method = ExplicitMethod::RK4;
      o.step = h;
      o.t_end = 2.0;
      double e = std::nan("");
      Stopwatch w;
      const SolveResult r = solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
        if (st.t == o.t_end) e = TorqueFreeError(w0, st.t, ne.rotation(0, st.q), ne.angular_velocity_body(0, st.v));
        return true;
      });
      wall.push_back(w.seconds());
      err.push_back(r.ok() ? e : std::nan(""));
    }
    OrderRows(ctx, "newton_euler rk4", Regime(w0), hs, err, wall, 4.0, 0.2);
  }
}

void LieRk4Order(Context& ctx) {
  for (LieGroupType g : {LieGroupType::SE3, LieGroupType::SO3xR3})
    for (const Vec3& w0 : {kRegimeAxis3, kRegimeAxis1}) {
      const std::vector<double> hs = {0.04, 0.02, 0.01};
      std::vector<double> err, wall;
      for (double h : hs) {
        LieGroupBodies lb(models::TorqueFreeBodyModel(RotationParametrization::EulerParameters, w0), g);
        LieGroupOptions o;
        o.method = LieGroupMethod::RK4;
        o.step = h;
        o.t_end = 2.0;
        double e = std::nan("");
        Stopwatch w;
        const SolveResult r = solve_lie_group(lb, 0, lb.initial_state(), o, [&](const StateView& st) {
          if (st.t == o.t_end)
            e = TorqueFreeError(w0, st.t, math::so3_exp(st.q.segment<3>(3)), st.v.segment<3>(3));
          return true;
        });
        wall.push_back(w.seconds());
        err.push_back(r.ok() ? e : std::nan(""));
      }
      OrderRows(ctx, std::string("lie_group rk4 ") + to_string(g), Regime(w0), hs, err, wall, 4.0, 0.2);
    }
}

// ---- IDA: error vs requested tolerance ---------------------------------------------------------
// For rtol = 1e-5 … 1e-9 (atol = rtol/100 for the slider-crank, = rtol for Andrews as in the Test
// Set): the least-squares slope of log(error) against log(rtol) must be 1 ± 0.25 (BDF codes
// control the local error, so the global error is proportional to the tolerance, not equal), and
// every error within 100 rtol.
void IdaTolerance(Context& ctx) {
  const std::vector<double> tols = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
  for (int problem = 0; problem < 2; ++problem) {
    const std::string name = problem == 0 ? "SUNDIALS slider-crank (t = 10 s)" : "Andrews squeezer (t = 0.03 s, q)";
    std::vector<double> err, wall;
    for (double tol : tols) {
      double w = 0, e = std::nan("");
      if (problem == 0) {
        e = GglError(Settings(SolverType::Ida, 10.0, tol, 0.0), w);
      } else {
        const GenericDae sys = andrews::make_system();
        SimulationSettings s = Settings(SolverType::Ida, andrews::t_end, tol, 0.0);
        s.atol = tol;
        VecX q;
        Stopwatch sw;
        const SolveResult r = simulate(sys, 0, andrews::to_vec(andrews::q0), andrews::to_vec(andrews::qd0), s,
                                       [&](const StateView& v) {
                                         q = v.q;
                                         return true;
                                       });
        w = sw.seconds();
        if (r.ok()) e = std::pow(10.0, -andrews::mixed_error_digits(q, andrews::to_vec(andrews::q_ref)));
      }
      err.push_back(e);
      wall.push_back(w);
      ctx.add_work("ida " + name, "rtol", tol, e, w);
      ctx.add("ida rtol=" + Num(tol, 2), name + ": error ≤ 100 rtol", Num(100 * tol, 2), Num(e, 3), e, 100 * tol,
              problem == 0 ? "max abs" : "mixed error", w);
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = static_cast<double>(tols.size());
    for (size_t k = 0; k < tols.size(); ++k) {
      const double x = std::log10(tols[k]), y = std::log10(err[k]);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    double total = 0;
    for (double w : wall) total += w;
    ctx.add("ida rtol=1e-5…1e-9", name + ": slope of log error vs log rtol", "1", Num(slope, 4), std::abs(slope - 1),
            0.25, "|slope − 1|", total);
  }
}

}  // namespace

void AddConvergenceCases(std::vector<Case>& cases) {
  cases.push_back({"order_generalized_alpha", "Observed order of generalized-α (2): heavy top, A01, slider-crank",
                   false, GeneralizedAlphaOrder});
  cases.push_back({"order_trapezoidal_index2", "Observed order of the trapezoidal index-2 rule (2): A01, slider-crank",
                   false, TrapezoidalOrder});
  cases.push_back({"order_rk4", "Observed order of Newton-Euler RK4 (4): torque-free body, both regimes", false,
                   Rk4Order});
  cases.push_back({"order_lie_rk4", "Observed order of Lie-group RKMK4 (4) on SE(3), SO(3)xR3: torque-free body",
                   false, LieRk4Order});
  cases.push_back({"order_ida_tolerance", "IDA: error follows the requested tolerance (slider-crank, Andrews)", false,
                   IdaTolerance});
}

}  // namespace mbdae::validation::suite
