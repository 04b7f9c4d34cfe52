#include <mbdae/solvers/SolverCommon.h>

#include <cmath>
#include <sstream>

namespace mbdae {

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Success: return "success";
    case SolveStatus::NewtonFailure: return "Newton iteration did not converge";
    case SolveStatus::StepTooSmall: return "step size below the minimum";
    case SolveStatus::SingularMatrix: return "singular iteration matrix";
    case SolveStatus::ResidualFailure: return "residual evaluation failed (NaN or Inf)";
    case SolveStatus::TooMuchWork: return "step limit reached";
    case SolveStatus::InconsistentInitialConditions: return "inconsistent initial conditions";
    case SolveStatus::StoppedByObserver: return "stopped by the observer";
    case SolveStatus::Interrupted: return "interrupted";
    case SolveStatus::OtherFailure: return "solver failure";
    case SolveStatus::CheckFailed: return "solution check failed";
  }
  return "unknown";
}

OutputGrid::OutputGrid(double t0, double t_end, double every) : t0_(t0), t_end_(t_end), every_(every) {
  if (!(t_end >= t0)) throw SolverSettingsError("end time must not be before the start time");
  if (every <= 0 || !std::isfinite(every)) {
    n_ = t_end > t0 ? 2 : 1;
    every_ = t_end - t0;
    return;
  }
  // Number of whole intervals, tolerant of round-off (1e-9 relative): 1.0/0.01 gives 100.
  const double r = (t_end - t0) / every;
  long k = static_cast<long>(std::floor(r + 1e-9));
  const bool partial = (r - static_cast<double>(k)) > 1e-9;
  n_ = static_cast<int>(k) + 1 + (partial ? 1 : 0);
}

double OutputGrid::time(int k) const {
  if (k >= n_ - 1) return t_end_;
  return t0_ + every_ * k;
}

ConstrainedSystemMonitor::ConstrainedSystemMonitor(const ConstrainedSystem& sys)
    : sys_(sys), ws_(sys.make_workspace()), c_(sys.num_constraints()) {}

ConstraintViolation ConstrainedSystemMonitor::constraint_violation(const StateView& s) {
  auto inf = [](const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; };
  ConstraintViolation out;
  sys_.constraints(ws_, s.t, s.q, c_);
  out.position = inf(c_);
  sys_.constraint_velocity(ws_, s.t, s.q, s.v, c_);
  out.velocity = inf(c_);
  return out;
}

SolveResult run_to_end(StateMonitor& monitor, Integrator& integ, double t_end, double output_every,
                       const Observer& obs, const RunChecks& checks, double grid_origin) {
  SolveResult res;
  const double t0 = integ.time();
  res.t_reached = t0;
  // Measures the state; returns why it fails `checks` (empty if it passes).
  auto measure = [&](const StateView& s) -> std::string {
    std::ostringstream why;
    why.precision(6);
    why << "t = " << s.t << " s: ";
    if (checks.finite && !(s.q.allFinite() && s.v.allFinite())) {
      why << "the state is not finite (NaN or Inf)";
      return why.str();
    }
    const ConstraintViolation cv = monitor.constraint_violation(s);
    res.stats.max_position_violation = std::max(res.stats.max_position_violation, cv.position);
    res.stats.max_velocity_violation = std::max(res.stats.max_velocity_violation, cv.velocity);
    double e = std::numeric_limits<double>::quiet_NaN();
    if (monitor.has_energy()) res.stats.energy_final = e = monitor.energy(s);
    if (checks.finite && !(std::isfinite(cv.position) && std::isfinite(cv.velocity) &&
                           (!monitor.has_energy() || std::isfinite(e)))) {
      why << "the energy or the constraint violation is not finite (NaN or Inf)";
      return why.str();
    }
    if (cv.position > checks.max_position_violation) {
      why << "the position constraint violation " << cv.position << " exceeds its bound "
          << checks.max_position_violation << " (the constraints no longer hold)";
      return why.str();
    }
    if (cv.velocity > checks.max_velocity_violation) {
      why << "the velocity constraint violation " << cv.velocity << " exceeds its bound "
          << checks.max_velocity_violation << " (the constraints no longer hold)";
      return why.str();
    }
    const double growth_limit =
        checks.max_energy_growth + checks.max_energy_growth_relative * std::abs(res.stats.energy_initial);
    if (monitor.has_energy() && e - res.stats.energy_initial > growth_limit) {
      why << "the energy grew from " << res.stats.energy_initial << " J to " << e
          << " J with no source of energy in the model (growth limit " << growth_limit
          << " J): the solution is unstable";
      return why.str();
    }
    return {};
  };
  auto finish = [&](SolveStatus st, const std::string& msg) {
    const SolverStats measured = res.stats;
    res.stats = integ.stats();
    res.stats.max_position_violation = measured.max_position_violation;
    res.stats.max_velocity_violation = measured.max_velocity_violation;
    res.stats.energy_initial = measured.energy_initial;
    res.stats.energy_final = measured.energy_final;
    res.status = st;
    res.message = msg;
    return res;
  };
  auto stopped = [&](double t) {
    std::ostringstream m;
    m << "stopped by the observer at t = " << t << " s";
    return finish(SolveStatus::StoppedByObserver, m.str());
  };
  if (integ.status() != SolveStatus::Success) return finish(integ.status(), integ.message());
  if (!(t_end >= t0)) throw SolverSettingsError("end time must not be before the start time");
  {
    const StateView s0 = integ.state();
    if (monitor.has_energy()) res.stats.energy_initial = monitor.energy(s0);
    if (std::string why = measure(s0); !why.empty()) return finish(SolveStatus::CheckFailed, why);
    if (obs && !obs(s0)) return stopped(t0);
  }
  const bool own_grid = !(grid_origin <= t0);
  const OutputGrid grid(own_grid ? t0 : grid_origin, t_end, output_every);
  int k = 1;
  if (!own_grid)  // continue the grid after t0 (which is one of its times, or between two)
    for (k = 0; k < grid.size() - 1 && grid.time(k) <= t0 + 1e-9 * std::abs(output_every); ++k) {
    }
  for (; k < grid.size(); ++k) {
    const bool ok = integ.advance_to(grid.time(k));
    if (!ok) {
      res.t_reached = integ.time();
      return finish(integ.status(), integ.message());
    }
    const StateView s = integ.state();
    // The failing state is not handed out: the results end at the last state that passed.
    if (std::string why = measure(s); !why.empty()) return finish(SolveStatus::CheckFailed, why);
    res.t_reached = s.t;
    if (obs && !obs(s)) return stopped(s.t);
  }
  return finish(SolveStatus::Success, "");
}

SolveResult run_to_end(StateMonitor& monitor, Integrator& integ, const RunSettings& run, const Observer& obs,
                       const RunChecks& checks, double grid_origin) {
  return run_to_end(monitor, integ, run.t_end, run.output_every, obs, checks, grid_origin);
}

SolveResult run_to_end(const ConstrainedSystem& sys, Integrator& integ, const RunSettings& run,
                       const Observer& obs) {
  ConstrainedSystemMonitor monitor(sys);
  return run_to_end(monitor, integ, run, obs);
}

}  // namespace mbdae
