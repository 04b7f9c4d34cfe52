#pragma once
/// @file ImpulseStepper.h
/// Velocity-level time stepping with impulses (seed 004 ch. 8–10; Erleben, "Stable, Robust, and
/// Versatile Multibody Dynamics Animation", PhD thesis, Copenhagen 2005, ch. 6 for projected
/// Gauss–Seidel; Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005, and "Sequential
/// Impulses" / "Soft Step", GDC 2006/2011, for warm starting and split impulses).
///
/// The stepper sees an ImpulseSystem (formulations/ImpulseSystem.h), not a formulation: bodies,
/// applied forces, joint rows and contacts; NewtonEulerImpulse is the Newton–Euler formulation's.
/// State: NewtonEuler.h layout (q = [x_C, Q], v = [v_C, w_B] per body). One step t → t + h:
///
///  1. contacts at q_n (ImpulseSystem::detect_contacts(), contact/ContactGeometry.h): normal n
///     (a → b), signed distance d, point p;
///  2. free velocities: v* = v_n + h F/m, w_B* = w_B + h J⁻¹(τ_B − w_B × J w_B) (gravity, loads,
///     damping, force elements and the gyroscopic term, all explicit at (t_n, q_n, v_n): a stiff
///     spring-damper needs h below its explicit stability limit, ~2/ω and ~m/c);
///  3. velocity solve, one mixed LCP for joints and contacts, in u = (v_C, ω_W) per body:
///        M (u⁺ − u*) = Σ Jᵀ λ,
///        joints (equalities):        J_j u⁺ = 0,                         λ free
///        contact normals:            0 ≤ λ_n ⊥ (J_n u⁺ − b_n) ≥ 0,
///                                    b_n = −e v_n⁻ if v_n⁻ < −v_thr and e > 0 (Newton restitution,
///                                    v_n⁻ the normal velocity at the start of the step), else
///                                    b_n = −d/h if d > 0 (a contact inside the margin may close),
///                                    else 0
///        friction (per contact, 2D): λ_t ∈ μ λ_n · P, P the unit disc (cone) or the regular
///                                    k-gon circumscribing it (pyramid; k = 4 is the box
///                                    |λ_t1|, |λ_t2| ≤ μ λ_n), maximal dissipation: the
///                                    tangential velocity after the step is in −N_P(λ_t), the
///                                    normal cone of the set at λ_t (opposite to λ_t on the
///                                    disc's rim, along the face normal on a pyramid face),
///        rolling resistance:         |λ_r| ≤ μ_r r_eff λ_n on the tangential relative rotation;
///        torsional friction:         |λ_s| ≤ μ_t λ_n on the relative rotation about n;
///        joint friction (with NewtonEulerOptions::joint_elements_by_impulses): on the slip rows
///                                    J u = r φ̇ and/or ṡ of a joint_friction's joint, |λ| ≤ h F(v₀)
///                                    (F the Coulomb–Stribeck level at the step's first slip speed;
///                                    the disc, projected radially, for a cylindrical joint); with
///                                    the joint's reaction as normal force (`normal: reaction`)
///                                    |λ| ≤ h F(v₀) + c(v₀) (|P_⊥| + (r_a/r) |P_∥|), P the impulse
///                                    of the joint's rows on b in the same iteration,
///        joint limits (the same):    per stop of a joint_limit, on the rate of its gap g ≥ 0 (±φ̇
///                                    or ±ṡ): 0 ≤ λ ⊥ (J u⁺ − b) ≥ 0 with b = −e g⁻ when the stop
///                                    closes within the step at g⁻ < −v_thr, else b = −g/h if
///                                    g > 0, else 0 (and the split impulse below for g < 0);
///     solved by projected Gauss–Seidel: per row (or 2×2 block) λ ← proj_K(λ − ω K⁻¹ (J u − b)),
///     proj_K the projection onto the set in the metric of the block's effective mass K (for a
///     friction block the minimiser of ½ (λ − λ*)ᵀ K (λ − λ*) on μ λ_n P: that is what makes the
///     fixed point maximally dissipative; a Euclidean projection is not when K couples t1 and t2),
///     u ← u + M⁻¹ Jᵀ Δλ, with warm start (impulses of the same contact feature in the previous
///     step, friction carried as a world vector), relaxation ω, and stop when the largest velocity
///     change of a sweep, max |K Δλ|, falls below `pgs_tolerance` or after `pgs_max_iterations`;
///     the first-sweep t1 is along the tangential slip (so sliding meets the pyramid's face);
///  4. position correction by split impulses (no energy enters the velocities): a second PGS on
///     pseudo-velocities u_p with targets J_j u_p = −β C_j/h for joints and
///     J_n u_p ≥ β max(−d − slop, 0)/h (λ ≥ 0) for contacts and joint stops, no friction; u_p is
///     then discarded;
///  5. positions with u⁺ + u_p: x_C += h v, Q ← exp(h ω_W) ⊗ Q, normalised (a first-order
///     Lie-group update; symplectic Euler overall).
///
/// Reports SolverStats (steps, joint drift at output times, energy) and, per step, the PGS
/// iterations, final residual, number of contacts and the deepest penetration (ImpulseStats).
/// Failures (non-finite state, step limit) stop the run with a message naming the time.
/// No heap allocation in the step loop once the number of contacts has reached its maximum
/// (buffers only grow); per-step statistics are reserved up front.
///
/// Cost: each contact row stores its directions, angular Jacobian rows r × d and M⁻¹Jᵀ (the
/// velocity change per unit impulse), so a PGS block update is a few 3-vector dots and axpys on a
/// compact velocity array (the ground is a fixed slot with zero inverse mass). Warm starting matches
/// contacts by ContactPoint::key() (shape pair and feature). For piles and stacks the velocity
/// sweeps rarely reach a tight tolerance while bodies still collide; a cap of about 20 velocity
/// and 20 split-impulse sweeps keeps the settling and the penetration of 100 sweeps at a fraction
/// of the cost (docs/benchmarks.md, sphere pile).

#include <memory>
#include <vector>

#include <mbdae/formulations/ImpulseSystem.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// Friction set of a contact (step 3 above).
enum class FrictionModel {
  Pyramid,  ///< regular k-gon circumscribing the disc (k = ImpulseOptions::pyramid_sides)
  Cone,     ///< the disc itself (Coulomb cone)
};

/// Settings of solve_impulse(): the run's (RunSettings: t_end > t0, the step h > 0,
/// output_every) and its own.
struct ImpulseOptions : RunSettings {
  int pgs_max_iterations = 100; ///< velocity sweeps per step at most, ≥ 1
  double pgs_tolerance = 1e-9;  ///< m/s: stop when a sweep changes no velocity by more
  double relaxation = 1.0;      ///< ω in (0, 2)
  bool warm_start = true;       ///< start PGS from the previous step's impulses (per contact feature)
  FrictionModel friction = FrictionModel::Pyramid;  ///< friction set
  int pyramid_sides = 4;        ///< k ≥ 3
  double restitution_threshold = 1e-2;  ///< v_thr, m/s: slower impacts do not bounce
  /// m: contacts are created for d < margin. A small positive margin lets a body placed exactly
  /// on a surface (d = 0 up to rounding) be supported from the first step; an approaching body
  /// with e > 0 may rebound up to `margin` early.
  double contact_margin = 1e-6;
  bool split_impulse = true;    ///< step 4 (position correction by pseudo-velocities); else none
  double position_beta = 0.2;   ///< fraction of the position error removed per step
  double slop = 1e-4;           ///< m: penetration left uncorrected (avoids jitter)
  int position_iterations = 50; ///< sweeps of the split-impulse PGS per step at most
  bool record_per_step = true;  ///< fill ImpulseStats::per_step
  long max_steps = 100'000'000; ///< steps at most; then status TooMuchWork
};

/// What PGS did in one step.
struct PgsStepStats {
  double t = 0;               ///< time at the end of the step, s
  int iterations = 0;         ///< velocity sweeps
  double residual = 0;        ///< m/s, largest velocity change in the last sweep
  int position_iterations = 0; ///< split-impulse sweeps
  int contacts = 0;            ///< contact points in the step
  double max_penetration = 0; ///< m, deepest penetration at the start of the step (≥ 0)
  long pairs = 0;              ///< shape pairs the broad phase passed to the narrow phase
};

/// PGS statistics of a run (in addition to SolverStats).
struct ImpulseStats {
  std::vector<PgsStepStats> per_step;  ///< one per step if ImpulseOptions::record_per_step
  long total_iterations = 0;  ///< velocity sweeps over all steps
  int max_iterations = 0;     ///< most velocity sweeps in one step
  double max_residual = 0;    ///< over all steps
  long steps_at_cap = 0;      ///< steps whose PGS stopped at the iteration cap
  int max_contacts = 0;       ///< most contact points in one step
  double max_penetration = 0; ///< m, deepest penetration over all steps (≥ 0)
  long total_pairs = 0;       ///< shape pairs passed to the narrow phase, summed over all steps
  long max_pairs = 0;         ///< most shape pairs passed to the narrow phase in one step
};

/// Outcome of solve_impulse().
struct ImpulseResult {
  SolveResult result;  ///< status, message, time reached, SolverStats
  ImpulseStats pgs;    ///< PGS statistics
  /// result.ok().
  bool ok() const { return result.ok(); }
};

/// The impulse stepper as an Integrator (the state in the NewtonEuler.h layout, a and lambda
/// empty), with its PGS statistics so far.
class ImpulseIntegrator : public IntegratorBase {
 public:
  /// PGS statistics of the steps taken so far.
  virtual const ImpulseStats& pgs_stats() const = 0;
};
/// Creates the integrator of solve_impulse() (same checks, same steps) on any ImpulseSystem: this
/// integrator's own view (it holds the view's run state and scratch), kept by reference.
/// @throws as solve_impulse().
std::unique_ptr<ImpulseIntegrator> make_impulse(ImpulseSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                                const ImpulseOptions& opt);
/// The same on a view of its own of the Newton–Euler formulation (NewtonEulerImpulse). Keeps a
/// reference to `sys`.
std::unique_ptr<ImpulseIntegrator> make_impulse(const NewtonEulerSystem& sys, double t0, const VecX& q0,
                                                const VecX& v0, const ImpulseOptions& opt);

/// Runs the impulse stepper on the bodies, joints and contacts (model().contacts()) of `sys`.
/// Throws SolverSettingsError for bad options and ModelError for bad contact descriptions.
/// q0 (size 7n) and v0 (size 6n) in the NewtonEuler.h layout; t0 in s. The observer gets q, v
/// at t0 and the output times (a and lambda empty).
/// @throws SolverSettingsError unless t_end > t0 (strictly), step > 0, relaxation ∈ (0, 2),
///         pgs_max_iterations ≥ 1, pyramid_sides ≥ 3 (pyramid) and the state sizes match;
///         ModelError (from ContactDetector) for invalid contacts; std::invalid_argument for a
///         driven joint (the stepper's joints have no time dependence).
ImpulseResult solve_impulse(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                            const ImpulseOptions& opt, const Observer& obs);

}  // namespace mbdae
