#pragma once
/// @file SolverCommon.h
/// What every solver reports: statistics, a status with a message, and the states it hands to an
/// observer at the output times.

#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/formulations/State.h>
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
  /// generalized-α / trapezoidal: steps taken with compliant constraints at singular
  /// configurations (NewmarkOptions::singular_regularization)
  long regularized_steps = 0;
  double max_position_violation = 0;  ///< max over output times of ‖C(q)‖∞
  double max_velocity_violation = 0;  ///< max over output times of ‖C_q v + C_t‖∞
  /// ConstrainedSystem::energy() at the start, J (NaN if the system has no energy).
  double energy_initial = std::numeric_limits<double>::quiet_NaN();
  /// Energy at the last output time reached, J (NaN if the system has no energy).
  double energy_final = std::numeric_limits<double>::quiet_NaN();
  /// Work of the loads and the force elements' non-conservative parts (motors, user forces,
  /// dampers) from the start to the last output time reached, J, by the trapezoidal rule on the
  /// step grid (run_to_end(); NaN if the monitor measures no force element).
  double force_work = std::numeric_limits<double>::quiet_NaN();
  double wall_time = 0;           ///< seconds spent in the solve call
  double last_step = 0;           ///< step size of the last accepted step (s)
};

/// How a solve ended.
enum class SolveStatus {
  Success,            ///< reached the end time
  NewtonFailure,      ///< Newton did not converge even at the minimum step
  StepTooSmall,       ///< step size fell below the minimum
  SingularMatrix,     ///< the iteration matrix could not be factorised
  ResidualFailure,    ///< the residual returned NaN/Inf or failed
  TooMuchWork,        ///< step limit reached before the end time
  InconsistentInitialConditions,  ///< initial state could not be made consistent
  StoppedByObserver,  ///< the observer asked to stop
  Interrupted,        ///< the interrupt flag was raised (Integrator::set_interrupt_flag)
  OtherFailure,       ///< any other failure; the message says which
  CheckFailed,        ///< a state failed a check of RunChecks (NaN, energy growth, constraint violation)
};

/// Short description of `s` (e.g. "success", "step limit reached"). No throw.
const char* to_string(SolveStatus s);

/// Outcome of a solve: the status, a message that names the time, the cause and, where known,
/// the joint or body, the time reached and the statistics. Results up to t_reached have been
/// handed to the observer.
struct SolveResult {
  SolveStatus status = SolveStatus::Success;  ///< how the run ended
  double t_reached = 0;  ///< time of the last accepted state, s
  std::string message;   ///< empty on success; else time, cause and, where known, joint or body
  SolverStats stats;     ///< counters and measures of the run
  /// status == Success.
  bool ok() const { return status == SolveStatus::Success; }
};

/// Called at t0 and at every output time; return false to stop the run (status StoppedByObserver).
using Observer = std::function<bool(const StateView&)>;

/// Thrown for invalid solver settings (negative step, end time before start, ...).
class SolverSettingsError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Output times t0, t0 + every, ..., t_end (the last one exactly t_end; a last interval shorter
/// than `every` is kept). every <= 0 or not finite: t0 and t_end only (just t0 if t_end == t0).
/// A remainder below 1e-9 · every is treated as round-off (1.0/0.01 gives 101 times).
class OutputGrid {
 public:
  /// @param t0 start time, s
  /// @param t_end end time, s, ≥ t0
  /// @param every output interval, s
  /// @throws SolverSettingsError if t_end < t0 (or either is NaN).
  OutputGrid(double t0, double t_end, double every);
  /// Number of output times, ≥ 1 (t0 included).
  int size() const { return n_; }
  /// Output time k ∈ [0, size()), s; k ≥ size() − 1 gives t_end. k is not checked otherwise.
  double time(int k) const;

 private:
  double t0_, t_end_, every_;
  int n_;
};

/// What an integrator carries from step to step beyond its state (t, q, v, q̈, λ), for a restart
/// file that continues a run as if it had not stopped: named arrays of numbers (scalars are
/// arrays of one).
struct IntegratorHistory {
  std::vector<std::pair<std::string, std::vector<double>>> arrays;  ///< name, values
  /// The array called `name`, or nullptr.
  const std::vector<double>* find(const std::string& name) const {
    for (const auto& [n, v] : arrays)
      if (n == name) return &v;
    return nullptr;
  }
};

/// A time integrator a host program can advance step by step (e.g. to change loads between
/// steps from a controller). Every solver is one: generalized-α, the trapezoidal index-2 rule
/// and IDA (make_integrator() in Simulation.h), RK4 and Dormand–Prince (make_explicit()), the
/// Lie-group methods (make_lie_group()) and the impulse stepper (make_impulse()). The state's
/// layout is that of the solver's formulation; run_to_end() is the one loop over output times.
class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Integrates from time() to t (≥ time()), landing on t exactly. Returns false on failure:
  /// status() and message() say why, and the state stays at the last accepted step.
  virtual bool advance_to(double t) = 0;
  /// Current time, s.
  virtual double time() const = 0;
  /// Current state (q, v, and where the solver has them q̈ and λ); valid until the next
  /// advance_to().
  virtual StateView state() const = 0;
  /// Counters so far (steps, Newton iterations, factorizations, wall time in advance_to()).
  virtual const SolverStats& stats() const = 0;
  /// Success while the integrator can go on.
  virtual SolveStatus status() const = 0;
  /// Why the integrator stopped (empty while status() is Success).
  virtual const std::string& message() const = 0;

  /// The history beyond state() that this integrator needs to take, from its current state, the
  /// same steps as it would have taken had it not stopped (generalized-α: its algorithmic
  /// accelerations, the last two steps' accelerations and multipliers, its step sizes and the
  /// point where its iteration matrix was formed). Empty (the default) for integrators that
  /// continue from the state alone: the one-step explicit methods exactly, IDA and the others by
  /// starting their history anew (within their tolerance).
  virtual IntegratorHistory history() const { return {}; }
  /// Restores history() into an integrator of the same kind and formulation, started at the
  /// saved state. The default takes an empty history.
  /// @throws std::invalid_argument for a history of another kind or with arrays of the wrong size.
  virtual void restore_history(const IntegratorHistory& h) {
    if (!h.arrays.empty()) throw std::invalid_argument("this solver keeps no history; got " + h.arrays.front().first);
  }

  /// A flag (e.g. set by a signal handler or another thread) that the integrator reads between
  /// its steps: once it is true, advance_to() stops at the last accepted step with status
  /// Interrupted. nullptr (the default) disables the check. The flag must outlive the
  /// integrator's use.
  void set_interrupt_flag(const std::atomic<bool>* flag) { interrupt_ = flag; }

  /// Called with state() after every accepted step, for what is integrated along the run on the
  /// step grid (run_to_end(): the work of the force elements). Empty (the default): not called.
  /// The generalized-α family and the explicit methods call it; integrators that do not (IDA, the
  /// Lie-group and impulse steppers) leave run_to_end() to integrate on the output grid.
  void set_step_observer(std::function<void(const StateView&)> f) { step_observer_ = std::move(f); }

 protected:
  /// True once the interrupt flag is set.
  bool interrupted() const { return interrupt_ && interrupt_->load(std::memory_order_relaxed); }
  /// Hands state() to the step observer (after an accepted step).
  void step_taken() const {
    if (step_observer_) step_observer_(state());
  }

 private:
  const std::atomic<bool>* interrupt_ = nullptr;
  std::function<void(const StateView&)> step_observer_;
};

/// What the integrators of this library share: their statistics, status and message, a failure
/// helper and the wall-clock accounting of advance_to().
class IntegratorBase : public Integrator {
 public:
  const SolverStats& stats() const override { return stats_; }
  SolveStatus status() const override { return status_; }
  const std::string& message() const override { return message_; }

 protected:
  /// Records why the integrator stopped; returns false (for `return fail(...)` in advance_to()).
  bool fail(SolveStatus s, std::string msg) {
    status_ = s;
    message_ = std::move(msg);
    return false;
  }
  /// Adds the time from its construction to its destruction to stats_.wall_time (one per
  /// advance_to() call).
  class WallTimer {
   public:
    /// Starts the clock; `s` gets the elapsed time added to its wall_time at destruction.
    explicit WallTimer(SolverStats& s) : s_(s), start_(std::chrono::steady_clock::now()) {}
    /// Adds the elapsed time.
    ~WallTimer() { s_.wall_time += elapsed(); }
    /// Seconds since construction.
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    WallTimer(const WallTimer&) = delete;
    WallTimer& operator=(const WallTimer&) = delete;

   private:
    SolverStats& s_;
    std::chrono::steady_clock::time_point start_;
  };

  SolverStats stats_;                          ///< counters so far
  SolveStatus status_ = SolveStatus::Success;  ///< Success while the integrator can go on
  std::string message_;                        ///< why it stopped
};

/// The state monitor of a ConstrainedSystem: its energy() and the violations of C and
/// C_q v + C_t over all rows. Keeps a reference to `sys`.
class ConstrainedSystemMonitor final : public StateMonitor {
 public:
  /// @param sys the system whose states are measured (kept by reference)
  explicit ConstrainedSystemMonitor(const ConstrainedSystem& sys);
  bool has_energy() const override { return sys_.has_energy(); }
  double energy(const StateView& s) override { return sys_.energy(ws_, s.t, s.q, s.v); }
  ConstraintViolation constraint_violation(const StateView& s) override;
  const std::vector<std::string>& force_names() const override { return sys_.force_names(); }
  void force_powers(const StateView& s, ForcePowers& p) override { sys_.force_powers(ws_, s.t, s.q, s.v, p); }

 private:
  const ConstrainedSystem& sys_;
  ConstrainedSystem::Workspace ws_;  // the monitor's own
  VecX c_;  // work vector (size m)
};

/// What every run shares, whatever its solver: the end time, the step and the output interval.
/// Each solver's options (NewmarkOptions, IdaOptions, ExplicitOptions, LieGroupOptions,
/// ImpulseOptions) and SimulationSettings derive from it and add only their own settings; a model
/// file's `solver` and `output` sections fill it once (io::LoadedModel::settings), and the one run
/// loop (run_to_end()) reads its end time and output interval.
struct RunSettings {
  double t_end = 1.0;  ///< end time, s, ≥ t0 (the impulse stepper: > t0)
  /// s, > 0: the step of the fixed-step solvers; the first step of the adaptive generalized-α,
  /// trapezoidal and Dormand–Prince runs. IDA chooses its own steps (IdaOptions::initial_step).
  double step = 1e-3;
  double output_every = 0;  ///< s, spacing of the output grid (OutputGrid); ≤ 0: only t0 and t_end
  /// This object as RunSettings, to set or read the three at once: `opt.run_settings() = s;`.
  RunSettings& run_settings() { return *this; }
  const RunSettings& run_settings() const { return *this; }  ///< see above
};

/// What run_to_end() checks of every state it hands out (at t0 and every output time), so that a
/// run that has gone wrong stops (status CheckFailed, naming the time and the cause) instead of
/// reaching its end time with a wrong answer. The defaults check finiteness only.
struct RunChecks {
  /// The state (q, v), its energy and its constraint violation must be finite.
  bool finite = true;
  /// Energy growth limit: E(t) − E(t0) beyond max_energy_growth + max_energy_growth_relative ·
  /// |E(t0)| (J) stops the run. Meant for models with no source of energy (no driven joint, no
  /// applied load, no user force). Infinite: not checked.
  double max_energy_growth = std::numeric_limits<double>::infinity();
  double max_energy_growth_relative = 0;  ///< the part of the growth limit relative to |E(t0)|
  /// Check E(t) − W(t) instead of E(t), W the work of the force elements' non-conservative parts
  /// (StateMonitor::force_powers(): loads, motors, user forces, dampers) integrated along the run
  /// by the trapezoidal rule on the step grid (Integrator::set_step_observer(); on the output grid
  /// for integrators without it). Meant for models whose only sources of energy are force
  /// elements; the growth limit then also has max_energy_growth_work · ∫|P| dt.
  bool energy_minus_work = false;
  double max_energy_growth_work = 0.1;  ///< see energy_minus_work
  /// Integrate the work of the force elements at all (SolveStats::force_work). False where it
  /// could not be trusted: on the output grid with a force element that counts a joint's turns
  /// (the monitor, sampled only there, would miss a turn made between two output times).
  bool measure_work = true;
  /// Bounds on ‖C‖∞ (m or rad) and ‖C_q v + C_t‖∞ (m/s or rad/s). Infinite: not checked.
  double max_position_violation = std::numeric_limits<double>::infinity();
  double max_velocity_violation = std::numeric_limits<double>::infinity();  ///< see max_position_violation
};

/// The one run loop: advances `integ` from its current time to t_end, handing the state to
/// `obs` at the start and at every output time (OutputGrid), and measures the constraint
/// violation at those times and the energy at the start and the end (`monitor`). The result's
/// message names the time and cause of a failure; the observer has received every state up to
/// it. Failures of the integrator are returned in the result, not thrown.
/// @param monitor      energy and constraint violation of the states `integ` produces
/// @param integ        advanced in place
/// @param t_end        end time, s, ≥ integ.time()
/// @param output_every output interval, s (≤ 0: the end time only)
/// @param obs          may be empty
/// @throws SolverSettingsError if t_end < integ.time(); whatever `obs` or the monitor throws.
/// @param checks       what each of those states must satisfy (RunChecks)
/// @param grid_origin  the first time of the output grid (default: integ.time()); a run continued
///                     from a restart file keeps the grid of the run it continues, so that it lands
///                     on the same output times (and therefore takes the same steps)
SolveResult run_to_end(StateMonitor& monitor, Integrator& integ, double t_end,
                       double output_every, const Observer& obs, const RunChecks& checks = {},
                       double grid_origin = std::numeric_limits<double>::quiet_NaN());

/// run_to_end() to run.t_end with output every run.output_every (run.step is the integrator's).
SolveResult run_to_end(StateMonitor& monitor, Integrator& integ, const RunSettings& run, const Observer& obs,
                       const RunChecks& checks = {},
                       double grid_origin = std::numeric_limits<double>::quiet_NaN());

/// run_to_end() with the ConstrainedSystemMonitor of `sys`.
SolveResult run_to_end(const ConstrainedSystem& sys, Integrator& integ, const RunSettings& run,
                       const Observer& obs);

}  // namespace mbdae
