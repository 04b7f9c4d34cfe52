#pragma once
/// @file SolverCommon.h
/// What every solver reports: statistics, a status with a message, and the states it hands to an
/// observer at the output times.

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/model/Types.h>

namespace mbdae {

/// Counters and measures of one solver run. Every solver fills what applies; the rest stays 0.
struct SolverStats {
  long steps = 0;                 ///< accepted time steps
  long rejected_steps = 0;        ///< steps repeated with a smaller step (Newton failure, error test)
  long newton_iterations = 0;     ///< total Newton iterations
  long residual_evaluations = 0;  ///< calls of the residual
  long jacobian_evaluations = 0;  ///< assemblies of the iteration matrix
  long factorizations = 0;        ///< numeric LU factorizations
  long error_test_failures = 0;   ///< adaptive solvers
  double max_position_violation = 0;  ///< max over output times of ‖C(q)‖∞
  double max_velocity_violation = 0;  ///< max over output times of ‖C_q v + C_t‖∞
  double energy_initial = std::numeric_limits<double>::quiet_NaN();
  double energy_final = std::numeric_limits<double>::quiet_NaN();
  double wall_time = 0;           ///< seconds spent in the solve call
  double last_step = 0;           ///< step size of the last accepted step (s)
};

enum class SolveStatus {
  Success,
  NewtonFailure,      ///< Newton did not converge even at the minimum step
  StepTooSmall,       ///< step size fell below the minimum
  SingularMatrix,     ///< the iteration matrix could not be factorised
  ResidualFailure,    ///< the residual returned NaN/Inf or failed
  TooMuchWork,        ///< step limit reached before the end time
  InconsistentInitialConditions,
  StoppedByObserver,  ///< the observer asked to stop (e.g. interrupt)
  OtherFailure,
};

const char* to_string(SolveStatus s);

/// Outcome of a solve: the status, a message that names the time, the cause and, where known,
/// the joint or body, the time reached and the statistics. Results up to t_reached have been
/// handed to the observer.
struct SolveResult {
  SolveStatus status = SolveStatus::Success;
  double t_reached = 0;
  std::string message;
  SolverStats stats;
  bool ok() const { return status == SolveStatus::Success; }
};

/// A state handed to an observer. a and lambda may be empty (size 0) for solvers that do not
/// compute them.
struct StateView {
  double t;
  const VecX& q;
  const VecX& v;
  const VecX& a;
  const VecX& lambda;
};

/// Called at t0 and at every output time; return false to stop the run (status StoppedByObserver).
using Observer = std::function<bool(const StateView&)>;

/// Thrown for invalid solver settings (negative step, end time before start, ...).
class SolverSettingsError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Output times t0, t0 + every, ..., t_end (the last one exactly t_end). every <= 0: only t_end.
class OutputGrid {
 public:
  OutputGrid(double t0, double t_end, double every);
  int size() const { return n_; }
  double time(int k) const;

 private:
  double t0_, t_end_, every_;
  int n_;
};

/// A time integrator a host program can advance step by step (e.g. to change loads between
/// steps from a controller). Created by make_integrator() (Simulation.h) or a solver's make_*.
class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Integrates from time() to t (≥ time()), landing on t exactly. Returns false on failure:
  /// status() and message() say why, and the state stays at the last accepted step.
  virtual bool advance_to(double t) = 0;
  /// Current time, s.
  virtual double time() const = 0;
  /// Current state (q, v, q̈, λ); valid until the next advance_to().
  virtual StateView state() const = 0;
  /// Counters so far (steps, Newton iterations, factorizations, wall time in advance_to()).
  virtual const SolverStats& stats() const = 0;
  /// Success while the integrator can go on.
  virtual SolveStatus status() const = 0;
  virtual const std::string& message() const = 0;
};

/// Advances `integ` from its current time to t_end, handing the state to `obs` at the start and
/// at every output time (OutputGrid), and measures the constraint violation at those times and
/// the energy at the start and the end. The result's message names the time and cause of a
/// failure; the observer has received every state up to it.
SolveResult run_to_end(const ConstrainedSystem& sys, Integrator& integ, double t_end,
                       double output_every, const Observer& obs);

}  // namespace mbdae
