#include <mbdae/solvers/SolverCommon.h>

#include <algorithm>
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

namespace {

/// The work of the force elements along a run (RunChecks::energy_minus_work), by the trapezoidal
/// rule over the states it is given (every accepted step, and the output times): per element the
/// work of its non-conservative part (total − elastic power) and of its elastic part, whose sum
/// with the change of its potential is the energy it made from nothing (0 for the exact motion).
class WorkLedger {
 public:
  explicit WorkLedger(StateMonitor& m) : m_(m), n_(m.force_names().size()) {}
  bool active() const { return n_ > 0; }
  void sample(const StateView& s) {
    m_.force_powers(s, p_);
    if (p_.total.size() != n_) return;  // the monitor measures none
    if (!started_) {
      started_ = true;
      t_ = s.t;
      V0_ = p_.potential;
      nc_.assign(n_, 0.0);
      el_.assign(n_, 0.0);
      Wnc_.assign(n_, 0.0);
      Wel_.assign(n_, 0.0);
      for (size_t e = 0; e < n_; ++e) {
        nc_[e] = p_.total[e] - p_.elastic[e];
        el_[e] = p_.elastic[e];
      }
      return;
    }
    const double dt = s.t - t_;
    if (!(dt > 0)) return;
    double stored = 0;
    for (size_t e = 0; e < n_; ++e) {
      const double nc = p_.total[e] - p_.elastic[e], el = p_.elastic[e];
      Wnc_[e] += 0.5 * dt * (nc_[e] + nc);
      Wel_[e] += 0.5 * dt * (el_[e] + el);
      gross_ += 0.5 * dt * (std::abs(nc_[e]) + std::abs(nc));
      nc_[e] = nc;
      el_[e] = el;
      stored += std::abs(p_.potential[e]);
    }
    max_stored_ = std::max(max_stored_, stored);
    t_ = s.t;
  }
  /// Σ of the non-conservative work so far, J.
  double work() const {
    double W = 0;
    for (double w : Wnc_) W += w;
    return W;
  }
  double gross() const { return gross_; }            ///< ∫ Σ|P_nc| dt, J
  double max_stored() const { return max_stored_; }  ///< the largest Σ|V_e| seen, J
  /// The element that made the most energy from nothing (∫P_elastic + ΔV, J; −1 if none made any).
  int worst(double& made) const {
    int w = -1;
    made = 0;
    for (size_t e = 0; e < std::min(n_, Wel_.size()); ++e) {
      const double m = Wel_[e] + p_.potential[e] - V0_[e];
      if (m > made) {
        made = m;
        w = static_cast<int>(e);
      }
    }
    return w;
  }
  const std::string& name(int e) const { return m_.force_names()[static_cast<size_t>(e)]; }

 private:
  StateMonitor& m_;
  size_t n_;
  ForcePowers p_;
  bool started_ = false;
  double t_ = 0, gross_ = 0, max_stored_ = 0;
  std::vector<double> V0_, nc_, el_, Wnc_, Wel_;
};

}  // namespace

SolveResult run_to_end(StateMonitor& monitor, Integrator& integ, double t_end, double output_every,
                       const Observer& obs, const RunChecks& checks, double grid_origin) {
  SolveResult res;
  const double t0 = integ.time();
  res.t_reached = t0;
  // The work of the force elements, on the step grid where the integrator hands out its steps.
  WorkLedger ledger(monitor);
  const bool count_work = ledger.active() && monitor.has_energy() && checks.measure_work;
  struct HookReset {  // the hook reads `ledger`: it goes with it
    Integrator& i;
    ~HookReset() { i.set_step_observer({}); }
  } hook_reset{integ};
  if (count_work) integ.set_step_observer([&](const StateView& s) { ledger.sample(s); });
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
    if (!monitor.has_energy()) return {};
    const double E0 = res.stats.energy_initial;
    double W = 0, made = 0;
    int worst = -1;
    if (count_work) {
      ledger.sample(s);
      res.stats.force_work = W = ledger.work();
      worst = ledger.worst(made);
    }
    // E − W: the energy less the work the force elements' non-conservative parts put in (loads,
    // motors, user forces; dampers take it out). With no source it may only fall.
    const double excess = e - W - E0;
    const bool with_work = checks.energy_minus_work && count_work;
    const double growth_limit = checks.max_energy_growth + checks.max_energy_growth_relative * std::abs(E0) +
                                (with_work ? checks.max_energy_growth_work * ledger.gross() : 0.0);
    auto blame = [&] {
      if (worst >= 0 && made > 0.25 * excess)
        why << "; force element '" << ledger.name(worst) << "' gave " << made
            << " J more work than its stored energy lost (too stiff for the step?)";
    };
    if ((with_work || std::isfinite(checks.max_energy_growth)) && excess > growth_limit) {
      if (with_work)
        why << "the energy less the work of the force elements grew by " << excess << " J (energy " << E0
            << " J to " << e << " J, work " << W << " J; growth limit " << growth_limit
            << " J): the solution is unstable";
      else
        why << "the energy grew from " << E0 << " J to " << e << " J with no source of energy in the model"
            << " (growth limit " << growth_limit << " J" << (W != 0 ? ", the dampers' work counted" : "")
            << "): the solution is unstable";
      blame();
      return why.str();
    }
    // An element with a potential that makes energy: stopped by name once the run has gained a
    // quarter of its energy scale (|E(t0)|, the largest stored energy, the work exchanged) and
    // that element made at least a quarter of the gain.
    const double scale = std::abs(E0) + ledger.max_stored() + ledger.gross();
    if ((with_work || std::isfinite(checks.max_energy_growth)) && worst >= 0 && excess > 0.25 * scale &&
        made > 0.25 * excess && made > 1e-9 * scale) {
      why << "force element '" << ledger.name(worst) << "' gave " << made
          << " J more work than its stored energy lost, and the energy less the work of the force elements grew by "
          << excess << " J (from " << E0 << " J): the element is too stiff for the step (the solution is unstable)";
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
    res.stats.force_work = measured.force_work;
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
