// Explicit integrators: RK4 and Dormand–Prince 5(4) through Boost.Odeint for Newton–Euler bodies,
// and Lie-group Euler / Runge–Kutta–Munthe-Kaas 4 (Munthe-Kaas, BIT 38, 1998; Iserles, Munthe-Kaas,
// Nørsett, Zanna, "Lie-group methods", Acta Numerica 2000, §5) for bodies on SE(3) or SO(3)×R³.

#include <mbdae/solvers/Explicit.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <vector>

#include <boost/numeric/odeint.hpp>

namespace mbdae {

namespace odeint = boost::numeric::odeint;

const char* to_string(ExplicitMethod m) { return m == ExplicitMethod::RK4 ? "rk4" : "dopri5"; }
const char* to_string(LieGroupMethod m) { return m == LieGroupMethod::RK4 ? "lie_rk4" : "lie_euler"; }

namespace {

using Clock = std::chrono::steady_clock;

void check_common(double t0, double t_end, double step, double output_every) {
  if (!(t_end > t0)) {
    std::ostringstream s;
    s << "explicit solver: t_end must be > t0, got t0 = " << t0 << ", t_end = " << t_end;
    throw SolverSettingsError(s.str());
  }
  if (!(step > 0) || !std::isfinite(step))
    throw SolverSettingsError("explicit solver: step must be > 0, got " + std::to_string(step));
  if (output_every < 0)
    throw SolverSettingsError("explicit solver: output_every must be >= 0, got " +
                              std::to_string(output_every));
}

std::string at_time(double t) {
  std::ostringstream s;
  s.precision(10);
  s << "t = " << t << " s: ";
  return s.str();
}

}  // namespace

SolveResult solve_explicit(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                           const ExplicitOptions& opt, const Observer& obs) {
  check_common(t0, opt.t_end, opt.step, opt.output_every);
  if (q0.size() != sys.num_q() || v0.size() != sys.num_v())
    throw SolverSettingsError("solve_explicit: expected q of size " + std::to_string(sys.num_q()) +
                              " and v of size " + std::to_string(sys.num_v()) + ", got " +
                              std::to_string(q0.size()) + " and " + std::to_string(v0.size()));
  if (opt.method == ExplicitMethod::Dopri5 && !(opt.rtol > 0 && opt.atol > 0))
    throw SolverSettingsError("solve_explicit: rtol and atol must be > 0");
  const auto wall0 = Clock::now();
  const int nq = sys.num_q(), nv = sys.num_v(), ny = nq + nv;
  const bool joints = sys.num_joint_rows() > 0;

  SolveResult res;
  SolverStats& st = res.stats;
  VecX q = q0, v = v0, qd(nq), vd(nv), c, cd;
  const VecX empty;
  std::vector<double> y(static_cast<size_t>(ny));
  auto to_y = [&] {
    Eigen::Map<VecX>(y.data(), nq) = q;
    Eigen::Map<VecX>(y.data() + nq, nv) = v;
  };
  auto from_y = [&](const std::vector<double>& x) {
    q = Eigen::Map<const VecX>(x.data(), nq);
    v = Eigen::Map<const VecX>(x.data() + nq, nv);
  };
  // Right-hand side in odeint's form. Exceptions (singular joint system) propagate to the loop.
  VecX rq(nq), rv(nv);
  auto rhs = [&](const std::vector<double>& x, std::vector<double>& dxdt, double t) {
    rq = Eigen::Map<const VecX>(x.data(), nq);
    rv = Eigen::Map<const VecX>(x.data() + nq, nv);
    sys.derivative(t, rq, rv, qd, vd);
    Eigen::Map<VecX>(dxdt.data(), nq) = qd;
    Eigen::Map<VecX>(dxdt.data() + nq, nv) = vd;
    ++st.residual_evaluations;
  };
  auto record = [&](double t) -> bool {
    if (joints) {
      sys.joint_violation(t, q, c);
      sys.joint_velocity_violation(t, q, v, cd);
      st.max_position_violation = std::max(st.max_position_violation, c.cwiseAbs().maxCoeff());
      st.max_velocity_violation = std::max(st.max_velocity_violation, cd.cwiseAbs().maxCoeff());
    }
    st.energy_final = sys.energy(q, v);
    return obs ? obs(StateView{t, q, v, empty, empty}) : true;
  };
  auto finish = [&](SolveStatus s, double t, const std::string& msg) {
    res.status = s;
    res.t_reached = t;
    res.message = msg;
    st.wall_time = std::chrono::duration<double>(Clock::now() - wall0).count();
    return res;
  };

  st.energy_initial = sys.energy(q, v);
  if (!record(t0)) return finish(SolveStatus::StoppedByObserver, t0, at_time(t0) + "stopped by the observer");
  to_y();

  const OutputGrid grid(t0, opt.t_end, opt.output_every);
  odeint::runge_kutta4<std::vector<double>> rk4;
  auto dopri = odeint::make_controlled(opt.atol, opt.rtol, odeint::runge_kutta_dopri5<std::vector<double>>());
  double t = t0, h = opt.step;
  try {
    for (int k = 1; k < grid.size(); ++k) {
      const double t_out = grid.time(k);
      while (t < t_out) {
        if (st.steps >= opt.max_steps)
          return finish(SolveStatus::TooMuchWork, t, at_time(t) + "step limit " + std::to_string(opt.max_steps) + " reached");
        const double remaining = t_out - t;
        if (opt.method == ExplicitMethod::RK4) {
          // Land on the output time (a step within 1e-9 h of it is taken to it exactly).
          const double hs = (remaining <= opt.step * (1 + 1e-9)) ? remaining : opt.step;
          rk4.do_step(rhs, y, t, hs);
          t = (hs == remaining) ? t_out : t + hs;
          st.last_step = hs;
        } else {
          const bool last = h >= remaining;
          double hs = last ? remaining : h;
          const double t_before = t;
          const odeint::controlled_step_result r = dopri.try_step(rhs, y, t, hs);
          if (r == odeint::fail) {
            ++st.rejected_steps;
            ++st.error_test_failures;
            h = hs;
            if (h < opt.min_step)
              return finish(SolveStatus::StepTooSmall, t, at_time(t) + "step size " + std::to_string(h) +
                                                          " s fell below min_step (error test)");
            continue;
          }
          st.last_step = t - t_before;
          if (last) t = t_out;
          h = last ? std::max(h, hs) : hs;  // keep the controller's suggestion
        }
        ++st.steps;
        from_y(y);
        bool changed = false;
        if (opt.renormalize) {
          sys.normalize_quaternions(q);
          changed = true;
        }
        if (joints && opt.project_positions) {
          sys.project_positions(t, q, opt.projection_tol);
          changed = true;
        }
        if (joints && opt.project_velocities) {
          sys.project_velocities(t, q, v);
          changed = true;
        }
        if (!q.allFinite() || !v.allFinite())
          return finish(SolveStatus::ResidualFailure, t, at_time(t) + "the state became non-finite");
        if (changed) {
          to_y();
          if (opt.method == ExplicitMethod::Dopri5) dopri.reset();  // FSAL derivative is stale
        }
      }
      if (!record(t_out)) return finish(SolveStatus::StoppedByObserver, t, at_time(t) + "stopped by the observer");
    }
  } catch (const std::exception& e) {
    return finish(SolveStatus::SingularMatrix, t, at_time(t) + e.what());
  }
  return finish(SolveStatus::Success, t, "");
}

SolveResult solve_lie_group(const LieGroupBodies& sys, double t0, const LieGroupState& s0,
                            const LieGroupOptions& opt, const Observer& obs,
                            LieGroupState* final_state) {
  check_common(t0, opt.t_end, opt.step, opt.output_every);
  const int n = sys.num_bodies();
  if (static_cast<int>(s0.g.size()) != n || s0.xi.size() != 6 * n)
    throw SolverSettingsError("solve_lie_group: state does not match the " + std::to_string(n) + " bodies");
  const auto wall0 = Clock::now();
  SolveResult res;
  SolverStats& st = res.stats;
  LieGroupState s = s0, stage = s0;
  VecX q, v, L1(6 * n), L2(6 * n), L3(6 * n), L4(6 * n);
  std::vector<Vec6> K1(static_cast<size_t>(n)), K2 = K1, K3 = K1, K4 = K1;
  const VecX empty;
  auto record = [&](double t) -> bool {
    st.energy_final = sys.energy(s);
    if (!obs) return true;
    sys.to_coordinates(s, q, v);
    return obs(StateView{t, q, v, empty, empty});
  };
  auto finish = [&](SolveStatus status, double t, const std::string& msg) {
    res.status = status;
    res.t_reached = t;
    res.message = msg;
    st.wall_time = std::chrono::duration<double>(Clock::now() - wall0).count();
    if (final_state) *final_state = s;
    return res;
  };
  // Stage: g_i = g_n exp(a θ_prev), ξ_i = ξ_n + a L_prev; returns K = dexp⁻¹_{−θ}(ξ_i), L = ξ̇(t_i).
  auto eval_stage = [&](double ts, double a, const std::vector<Vec6>* Kp, const VecX* Lp,
                        std::vector<Vec6>& K, VecX& L) {
    for (int i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      const Vec6 th = Kp ? Vec6(a * (*Kp)[k]) : Vec6::Zero();
      stage.g[k] = Kp ? sys.retract(s.g[k], th) : s.g[k];
      stage.xi.segment<6>(6 * i) = s.xi.segment<6>(6 * i) + (Lp ? Vec6(a * Lp->segment<6>(6 * i)) : Vec6::Zero());
      K[k] = sys.dexpinv(th, stage.xi.segment<6>(6 * i));
    }
    sys.twist_rate(ts, stage, L);
    ++st.residual_evaluations;
  };

  st.energy_initial = sys.energy(s);
  if (!record(t0)) return finish(SolveStatus::StoppedByObserver, t0, at_time(t0) + "stopped by the observer");
  const OutputGrid grid(t0, opt.t_end, opt.output_every);
  double t = t0;
  for (int k = 1; k < grid.size(); ++k) {
    const double t_out = grid.time(k);
    while (t < t_out) {
      if (st.steps >= opt.max_steps)
        return finish(SolveStatus::TooMuchWork, t, at_time(t) + "step limit reached");
      const double remaining = t_out - t;
      const double h = (remaining <= opt.step * (1 + 1e-9)) ? remaining : opt.step;
      if (opt.method == LieGroupMethod::Euler) {
        // g ← g exp(h ξ), ξ ← ξ + h ξ̇ (Bauer, seed 002).
        sys.twist_rate(t, s, L1);
        ++st.residual_evaluations;
        for (int i = 0; i < n; ++i) {
          const size_t b = static_cast<size_t>(i);
          s.g[b] = sys.retract(s.g[b], h * s.xi.segment<6>(6 * i));
        }
        s.xi += h * L1;
      } else {
        // RKMK4: θ = h/6 (K1 + 2K2 + 2K3 + K4), ξ_{n+1} = ξ_n + h/6 (L1 + 2L2 + 2L3 + L4).
        eval_stage(t, 0, nullptr, nullptr, K1, L1);
        eval_stage(t + h / 2, h / 2, &K1, &L1, K2, L2);
        eval_stage(t + h / 2, h / 2, &K2, &L2, K3, L3);
        eval_stage(t + h, h, &K3, &L3, K4, L4);
        for (int i = 0; i < n; ++i) {
          const size_t b = static_cast<size_t>(i);
          const Vec6 th = (h / 6) * (K1[b] + 2 * K2[b] + 2 * K3[b] + K4[b]);
          s.g[b] = sys.retract(s.g[b], th);
        }
        s.xi += (h / 6) * (L1 + 2 * L2 + 2 * L3 + L4);
      }
      t = (h == remaining) ? t_out : t + h;
      st.last_step = h;
      ++st.steps;
      if (!s.xi.allFinite())
        return finish(SolveStatus::ResidualFailure, t, at_time(t) + "the twist became non-finite");
    }
    if (!record(t_out)) return finish(SolveStatus::StoppedByObserver, t, at_time(t) + "stopped by the observer");
  }
  return finish(SolveStatus::Success, t, "");
}

}  // namespace mbdae
