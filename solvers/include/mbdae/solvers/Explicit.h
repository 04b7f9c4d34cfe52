#pragma once
/// @file Explicit.h
/// Explicit time integration of any ExplicitSystem (ExplicitSystem.h; the Newton–Euler bodies of
/// NewtonEuler.h through NewtonEulerExplicit.h) and of bodies on a Lie group (LieGroupBodies.h).
///
/// - solve_explicit(): classical RK4 (fixed step) or Dormand–Prince 5(4) with step-size control
///   (both through Boost.Odeint, used only in the .cpp). The ODE state is y = [q; v] (the layout
///   of the ExplicitSystem; NewtonEuler.h's for the Newton–Euler bodies). The stepper sees only
///   the ExplicitSystem interface. Joints act at acceleration level with Baumgarte terms (NewtonEulerOptions); after
///   each accepted step, optionally, positions and then velocities are projected onto the
///   constraint manifold (NewtonEulerSystem::project_positions / project_velocities).
///   Quaternion policy: Q is integrated as a plain ODE and rescaled to unit length after every
///   accepted step when `renormalize` is set (default); the right-hand side uses Q/|Q| anyway, so
///   without rescaling |Q| drifts (at the integrator's error level) but the motion does not.
///   For Dormand–Prince the FSAL derivative is discarded after a rescale (one extra evaluation).
/// - solve_lie_group(): explicit Euler g ← g exp(h ξ), ξ ← ξ + h ξ̇ (Bauer, seed 002) and the
///   Runge–Kutta–Munthe-Kaas method of order 4 (Munthe-Kaas, BIT 38, 1998): the classical RK4
///   tableau applied to θ in g = g_n exp(θ) with θ̇ = dexp⁻¹_{−θ}(ξ) and, simultaneously, to ξ.
///
/// Observers get StateView with q and v in the layout of the formulation (NewtonEuler.h, or
/// LieGroupBodies.h: q = [x_C, rotation vector], v = [ẋ_C, ω_B]); a and lambda are empty.
/// Output times follow OutputGrid; a fixed-step method shortens the step that would pass an output
/// time so that it lands on it. Statistics: steps, rejected steps / error-test failures
/// (Dormand–Prince), right-hand-side evaluations (residual_evaluations), joint drift ‖C‖∞ and
/// ‖Ċ‖∞ at the output times (max_position_violation, max_velocity_violation), energy at the start
/// and the end. Failures (singular joint system, non-finite state, step size underflow, step
/// limit) stop the run with a status and a message naming the time and the cause; outputs before
/// it have gone to the observer. No heap allocation in the step loop after the first step.

#include <limits>
#include <memory>

#include <mbdae/formulations/ExplicitSystem.h>
#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/formulations/NewtonEulerExplicit.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// Method of solve_explicit().
enum class ExplicitMethod {
  RK4,     ///< classical Runge–Kutta, fixed step
  Dopri5,  ///< Dormand–Prince 5(4) with step-size control
};
/// "rk4" or "dopri5". No throw.
const char* to_string(ExplicitMethod m);

/// Settings of solve_explicit(): the run's (RunSettings: t_end, step = the RK4 step or the
/// Dormand–Prince initial step, output_every ≥ 0) and its own.
struct ExplicitOptions : RunSettings {
  ExplicitMethod method = ExplicitMethod::RK4;  ///< integration method
  double rtol = 1e-8;          ///< Dormand–Prince
  double atol = 1e-10;         ///< Dormand–Prince
  /// s, Dormand–Prince: a step rejected below this fails with StepTooSmall; 0 (default):
  /// max(1e-14, 1e-6 · step), as generalized-α's.
  double min_step = 0;
  /// Dormand–Prince: this many accepted steps in a row shorter than crawl_ratio · step stop the
  /// run (TooMuchWork, naming the step and the time reached): an explicit method on a stiff model
  /// (a stiff spring, a stop, a motor with speed feedback) would otherwise crawl without end.
  /// 0: not checked.
  long max_crawl_steps = 100'000;
  double crawl_ratio = 1e-2;   ///< see max_crawl_steps
  /// s of wall-clock time in advance_to() over the whole run; then status TooMuchWork. Infinite
  /// (default): not bounded.
  double max_wall_time = std::numeric_limits<double>::infinity();
  bool renormalize = true;     ///< rescale quaternions to unit length after every accepted step
  bool project_positions = false;   ///< after every step (needs joints)
  bool project_velocities = false;  ///< after every step (needs joints)
  double projection_tol = 1e-12;    ///< m (or 1 for rotation rows)
  long max_steps = 100'000'000;  ///< accepted steps at most; then status TooMuchWork
};

/// Integrates from (q0, v0) at t0 to opt.t_end on the Newton–Euler bodies (through a
/// NewtonEulerExplicit view of `sys`). Throws SolverSettingsError for bad options.
/// @param sys  the bodies and joints; not modified (but its workspaces are used)
/// @param t0   start time, s
/// @param q0   positions, size sys.num_q() = 7n (NewtonEuler.h layout)
/// @param v0   velocities, size sys.num_v() = 6n
/// @param opt  settings
/// @param obs  called at t0 and at the output times; may be empty
/// @throws SolverSettingsError if t_end < t0, step ≤ 0, output_every < 0, rtol or atol ≤ 0
///         (Dormand–Prince), or q0, v0 have the wrong size. Run-time failures are returned.
SolveResult solve_explicit(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                           const ExplicitOptions& opt, const Observer& obs);

/// The stepping form of solve_explicit() (same checks and the same steps): an Integrator whose
/// state is in the layout of `sys` (a and lambda empty). Keeps a reference to `sys`, which is
/// this integrator's own view (ExplicitSystem.h: it holds the scratch of the evaluations) and
/// must outlive it. @throws SolverSettingsError as solve_explicit().
std::unique_ptr<Integrator> make_explicit(ExplicitSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                          const ExplicitOptions& opt);
/// The same on the Newton–Euler bodies: the integrator owns its NewtonEulerExplicit view of `sys`
/// (state in the NewtonEuler.h layout) and keeps a reference to `sys`.
std::unique_ptr<Integrator> make_explicit(const NewtonEulerSystem& sys, double t0, const VecX& q0,
                                          const VecX& v0, const ExplicitOptions& opt);

/// What an explicit run measures (run_to_end()): ExplicitSystem::energy() and the constraints'
/// ‖C(t, q)‖∞ and ‖Ċ‖∞. Keeps a reference to `sys` (its own view, not the integrator's).
class ExplicitMonitor : public StateMonitor {
 public:
  /// @param sys the view whose states are measured (kept by reference)
  explicit ExplicitMonitor(ExplicitSystem& sys);
  bool has_energy() const override { return true; }
  double energy(const StateView& s) override;
  ConstraintViolation constraint_violation(const StateView& s) override;
  const std::vector<std::string>& force_names() const override { return sys_.force_names(); }
  void force_powers(const StateView& s, ForcePowers& p) override { sys_.force_powers(s.t, s.q, s.v, p); }

 private:
  ExplicitSystem& sys_;
  VecX c_, cd_;
};

namespace detail {
/// The view a NewtonEulerMonitor measures with (constructed before its ExplicitMonitor base).
struct NewtonEulerView {
  explicit NewtonEulerView(const NewtonEulerSystem& sys) : view(sys) {}
  NewtonEulerExplicit view;
};
}  // namespace detail

/// What the explicit and impulse runs on the Newton–Euler bodies measure: ExplicitMonitor over
/// the monitor's own NewtonEulerExplicit view of `sys` (NewtonEulerSystem::energy(), the joints'
/// ‖C‖∞ and ‖Ċ‖∞). Keeps a reference to `sys`.
class NewtonEulerMonitor final : private detail::NewtonEulerView, public ExplicitMonitor {
 public:
  /// @param sys the system whose states are measured (kept by reference)
  explicit NewtonEulerMonitor(const NewtonEulerSystem& sys) : detail::NewtonEulerView(sys), ExplicitMonitor(view) {}
};

/// Method of solve_lie_group().
enum class LieGroupMethod {
  Euler,  ///< explicit Lie–Euler, order 1
  RK4,    ///< Runge–Kutta–Munthe-Kaas, order 4
};
/// "lie_euler" or "lie_rk4". No throw.
const char* to_string(LieGroupMethod m);

/// Settings of solve_lie_group() (fixed step): the run's (RunSettings) and its own.
struct LieGroupOptions : RunSettings {
  LieGroupMethod method = LieGroupMethod::RK4;  ///< integration method
  long max_steps = 100'000'000;  ///< steps at most; then status TooMuchWork
};

/// The stepping form of solve_lie_group(): the state handed out is q = [x_C, rotation vector],
/// v = [ẋ_C, ω_B] (LieGroupBodies.h); the state on the group itself is group_state().
class LieGroupIntegrator : public IntegratorBase {
 public:
  /// Poses and twists at time().
  virtual const LieGroupState& group_state() const = 0;
};
/// Creates the integrator of solve_lie_group() (same checks). Keeps a reference to `sys`.
/// @throws SolverSettingsError as solve_lie_group().
std::unique_ptr<LieGroupIntegrator> make_lie_group(const LieGroupBodies& sys, double t0, const LieGroupState& s0,
                                                   const LieGroupOptions& opt);

/// What a Lie-group run measures: LieGroupBodies::energy() of the integrator's group state (the
/// bodies have no constraints). Keeps references to both.
class LieGroupMonitor final : public StateMonitor {
 public:
  /// @param sys   the bodies (kept by reference)
  /// @param integ the integrator whose group state is measured (kept by reference)
  LieGroupMonitor(const LieGroupBodies& sys, const LieGroupIntegrator& integ) : sys_(sys), integ_(integ) {}
  bool has_energy() const override { return true; }
  /// Energy of integ.group_state() (the state passed must be the integrator's current one).
  double energy(const StateView& s) override;
  ConstraintViolation constraint_violation(const StateView&) override { return {}; }

 private:
  const LieGroupBodies& sys_;
  const LieGroupIntegrator& integ_;
};

/// Integrates the Lie-group bodies from s0 at t0 to opt.t_end. `final_state` (if not null) gets
/// the state at the time reached. s0 holds n = sys.num_bodies() poses and a twist vector of
/// size 6n. @throws SolverSettingsError if t_end < t0, step ≤ 0, output_every < 0 or s0 does not
/// match the bodies. Run-time failures are returned in the result.
SolveResult solve_lie_group(const LieGroupBodies& sys, double t0, const LieGroupState& s0,
                            const LieGroupOptions& opt, const Observer& obs,
                            LieGroupState* final_state = nullptr);

}  // namespace mbdae
