#include <mbdae/solvers/SolverCommon.h>

#include <cmath>

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
    case SolveStatus::OtherFailure: return "solver failure";
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

}  // namespace mbdae
