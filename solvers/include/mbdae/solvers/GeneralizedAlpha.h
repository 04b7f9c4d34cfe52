#pragma once
/// @file GeneralizedAlpha.h
/// Implicit Newmark-family integrators for M(q) q̈ = f − C_qᵀλ with constraints:
///
/// - generalized-α on the index-3 form (Arnold & Brüls 2007, "Convergence of the generalized-α
///   scheme for constrained mechanical systems", Multibody Syst. Dyn. 18:185–202), with the
///   Chung–Hulbert (1993) parameters from the spectral radius at infinity ρ∞:
///       α_m = (2ρ∞ − 1)/(ρ∞ + 1),  α_f = ρ∞/(ρ∞ + 1),  γ = ½ − α_m + α_f,  β = ¼(1 − α_m + α_f)²
///   Step n → n+1 with the acceleration-like variable a:
///       (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n
///       q_{n+1} = q_n + h v_n + h²(½ − β) a_n + h² β a_{n+1}
///       v_{n+1} = v_n + h(1 − γ) a_n + h γ a_{n+1}
///       M(q_{n+1}) q̈_{n+1} − f(t_{n+1}, q_{n+1}, v_{n+1}) + C_qᵀ λ_{n+1} = 0,  C(t_{n+1}, q_{n+1}) = 0
///   Newton on (q̈_{n+1}, λ_{n+1}); with β' = (1 − α_m)/(h² β (1 − α_f)) and γ' = γ/(h β) the
///   iteration matrix, scaled so that its blocks stay O(1) as h → 0, is
///       [ M + (γ'/β') ∂r/∂v + (1/β') ∂r/∂q    C_qᵀ ] [Δq̈]   [ −r     ]
///       [ C_q                                  0   ] [Δλ ] = [ −β' C  ]
///
/// - generalized-α on the stabilized index-2 form (Gear–Gupta–Leimkuhler, GGL), after Arnold,
///   Cardona & Brüls 2016, "Order reduction in time integration caused by velocity projection",
///   J. Mech. Sci. Technol. 29:2579–2585, and Arnold, Brüls & Cardona 2015, "Improved stability
///   and convergence with the generalized-α method for DAEs"): the same step with the positions
///   corrected by a second multiplier ν and both constraint levels imposed at t_{n+1},
///       q_{n+1} = q_n + h v_n + h²(½ − β) a_n + h² β a_{n+1} + C_qᵀ ν_{n+1}
///       C(t_{n+1}, q_{n+1}) = 0,  C_q v_{n+1} + C_t = 0
///   (velocity-level rows, e.g. rolling, have no position equation and no ν). The velocity
///   constraints hold at every step, so the scheme has none of the index-3 form's weak
///   instability: it is stable at ρ∞ = 1. Newton on (q̈, λ) uses the index-2 iteration matrix
///   below (rows scaled by β'/γ'); after each of its corrections the positions are projected,
///   Δq = C_qᵀ Δν with C_q C_qᵀ Δν = −C(q) (the matrix [I, C_qᵀ; C_q, 0], refreshed with the
///   iteration matrix). The iteration stops when both corrections are below the tolerances.
///   C_q in C_qᵀ ν is the Jacobian of the last refresh (a point within O(h) of q_{n+1}); ν is of
///   the size of the index-2 drift, O(h³) per step, so this changes q_{n+1} by O(h⁴).
///
/// - the trapezoidal rule on the index-2 form (as Exudyn's TrapezoidalIndex2): the same scheme with
///   α_m = α_f = 0, β = ¼, γ = ½ and the velocity-level constraint C_q v + C_t = 0 at t_{n+1}
///   in place of C = 0 (its rows scaled by β'/γ'). Positions drift slowly; no numerical damping.
///
/// Modified Newton: the factorised iteration matrix is kept across iterations and steps while the
/// iteration contracts well (ratio of successive corrections below `contraction_limit`), and is
/// refreshed otherwise. A step whose Newton iteration fails even with a fresh matrix is repeated
/// with compliant constraints (NewmarkOptions::singular_regularization), then with half the
/// step, down to `min_step`.

#include <memory>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// The constraint form generalized-α integrates (model file: `solver.formulation`).
enum class AlphaFormulation {
  Index3,            ///< `index3`: C(q) = 0 only (Arnold & Brüls 2007)
  StabilizedIndex2,  ///< `index2_ggl`: C(q) = 0 and C_q v + C_t = 0 (GGL, Arnold–Cardona–Brüls)
};
/// "index3" or "index2_ggl". No throw.
const char* to_string(AlphaFormulation f);

/// Settings of the generalized-α and trapezoidal integrators: the run's (RunSettings: t_end, the
/// nominal step h, output_every) and their own. Only step, rho_inf (through chung_hulbert()) and
/// the state sizes are checked; other values are used as given.
struct NewmarkOptions : RunSettings {
  double rho_inf = 0.8;       ///< generalized-α: spectral radius at infinity, in [0, 1]
  /// generalized-α: index 3 or stabilized index 2 (the trapezoidal rule ignores it)
  AlphaFormulation formulation = AlphaFormulation::Index3;
  double newton_rtol = 1e-10; ///< Newton converged when |Δq_i| ≤ atol + rtol·|q_i| for all i
  double newton_atol = 1e-10; ///< absolute part of the Newton test on Δq (m, rad)
  /// ... and when ‖Δq̈‖∞ ≤ newton_acc_rtol·max(1, ‖q̈‖∞) + a round-off floor (~100 ε_mach β'‖q‖);
  /// λ is not tested (it follows from q̈, except at singular configurations where it is not unique)
  double newton_acc_rtol = 1e-8;
  int max_newton_iterations = 15;  ///< per attempt; then the matrix is refreshed or h halved
  bool modified_newton = true;     ///< reuse the factorised matrix while convergence is good
  double contraction_limit = 0.25;  ///< refresh the matrix when ‖Δ_k‖/‖Δ_{k−1}‖ exceeds this
  double min_step = 0;             ///< s; 0: step·1e-6
  /// δ ≥ 0, for singular configurations (a four-bar at its dead point, IFToMM A02), where C_q
  /// loses rank, the multipliers grow without bound and Newton fails however small the step.
  /// When a step fails with a fresh matrix, it is repeated (before any step halving) with
  /// slightly compliant constraints, β'C(q) = ε λ with ε = δ / max_i |A_ii| (A the upper-left
  /// block of the iteration matrix), i.e. C = κ λ with κ = ε/β' ∝ δ h²/m: the constraint
  /// violation is about δ h² times the accelerations. The iteration matrix gets −ε I in its
  /// multiplier block, nonsingular however rank-deficient C_q is (the matrix of an
  /// augmented-Lagrangian iteration: Bayo & Ledesma, Nonlinear Dynamics 9, 1996). The
  /// compliance is kept for `singular_regularization_steps` steps, then the exact constraints
  /// return. Counted in SolverStats::regularized_steps. 0: step halving only.
  double singular_regularization = 1e-8;
  int singular_regularization_steps = 20;  ///< steps with compliant constraints per fallback
  /// Fallbacks to compliant constraints in a row (with no step on the exact constraints between)
  /// after which the run stops with NewtonFailure: the mechanism is locked or a drive fights it,
  /// and compliant steps would only creep on with growing violation. 0: no limit.
  int max_compliant_fallbacks = 10;
  long max_steps = 100'000'000;    ///< accepted steps at most; then status TooMuchWork
  bool compute_initial_accelerations = true;  ///< from the KKT system; else a0 = 0, λ0 = 0
  /// Adaptive step: the local position error e ≈ h²(β − 1/6)(a_{n+1} − a_n) (Zienkiewicz & Xie
  /// 1991) is kept below rtol·|q| + atol in the RMS norm; `step` is then the first step.
  bool adaptive = false;
  double rtol = 1e-6;               ///< adaptive: relative local error tolerance
  double atol = 1e-8;               ///< adaptive: absolute local error tolerance (m, rad)
  double max_step = 0;              ///< adaptive: largest step, s (0: no limit)
};

/// Generalized-α, index 3 or stabilized index 2 (opt.formulation). q0, v0 must be consistent (see assemble_initial_state).
/// Sizes: q0, v0 n = sys.num_coordinates(); the observer gets q, v, a = q̈ (n) and λ (m).
/// @throws SolverSettingsError if step ≤ 0, rho_inf ∉ [0, 1], t_end < t0 or q0, v0 have the
///         wrong size. Run-time failures (Newton, singular matrix, step limit) are returned.
SolveResult solve_generalized_alpha(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                    const VecX& v0, const NewmarkOptions& opt, const Observer& obs);

/// Trapezoidal rule (Newmark β = ¼, γ = ½), index 2. q0, v0 must be consistent. Sizes and
/// throws as solve_generalized_alpha() (rho_inf is not used).
SolveResult solve_trapezoidal_index2(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                     const VecX& v0, const NewmarkOptions& opt, const Observer& obs);

/// The same integrators for stepping from a host program (see Integrator). The integrator keeps
/// a reference to `sys`, which must outlive it; opt.t_end and opt.output_every are not used.
/// @throws SolverSettingsError as solve_generalized_alpha() (except for t_end).
std::unique_ptr<Integrator> make_generalized_alpha(const ConstrainedSystem& sys, double t0,
                                                   const VecX& q0, const VecX& v0,
                                                   const NewmarkOptions& opt);
/// Stepping form of solve_trapezoidal_index2(); as make_generalized_alpha().
std::unique_ptr<Integrator> make_trapezoidal_index2(const ConstrainedSystem& sys, double t0,
                                                    const VecX& q0, const VecX& v0,
                                                    const NewmarkOptions& opt);

/// Chung–Hulbert parameters from ρ∞ (throws SolverSettingsError outside [0, 1]).
struct AlphaParameters {
  double alpha_m;  ///< α_m (dimensionless)
  double alpha_f;  ///< α_f
  double beta;     ///< Newmark β
  double gamma;    ///< Newmark γ
};
/// α_m, α_f, β, γ from the spectral radius at infinity (formulas in the file comment).
/// @throws SolverSettingsError if rho_inf ∉ [0, 1].
AlphaParameters chung_hulbert(double rho_inf);

}  // namespace mbdae
