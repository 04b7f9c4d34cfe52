#pragma once
/// @file Ida.h
/// SUNDIALS IDA (variable-order, variable-step BDF) on the stabilized index-2 form of a
/// ConstrainedSystem (Gear, Gupta & Leimkuhler 1985; Hairer & Wanner, Solving ODEs II, VII.1;
/// the same form as the SUNDIALS example idasSlCrank_dns).
///
/// State y (size 2n + 2m) and residual F(t, y, ẏ) = 0:
///
///   | block | size | variable         | residual row                        | kind         |
///   |-------|------|------------------|-------------------------------------|--------------|
///   | q     | n    | positions        | F_q = q̇ − v + C_qᵀ μ                | differential |
///   | v     | n    | velocities       | F_v = M(q) v̇ − f(t,q,v) + C_qᵀ λ    | differential |
///   | λ     | m    | multipliers      | F_λ = C(t, q)                       | algebraic    |
///   | μ     | m    | GGL multipliers  | F_μ = C_q v + C_t                   | algebraic    |
///
/// μ is zero at the exact solution; it only makes room for the position constraint in the
/// kinematic equation so that C = 0 and Ċ = 0 hold together (no drift). λ and μ are index-2
/// variables: they are marked algebraic (IDASetId) and excluded from the local error test
/// (IDASetSuppressAlg), because the BDF error estimate of index-2 variables does not go to zero
/// with the step size. Accuracy is therefore controlled on q and v only: the error weights are
/// 1/(rtol|y_i| + atol) for q and v, and h/(rtol|y_i| + atol) for λ and μ, which then only
/// enter Newton's convergence test, scaled by the step h as index-2 components must be (an
/// error δλ changes v by h M⁻¹C_qᵀδλ); without the factor h Newton fails at small steps
/// because of round-off. A minimum step of 256 ulp of max(|t0|, |t_end|) stops runs that
/// cannot pass a point (e.g. a residual that turns NaN) instead of stalling at t + h == t.
///
/// The iteration matrix ∂F/∂y + cj ∂F/∂ẏ is supplied analytically from the system's assembly
/// functions, either as a sparse compressed-column matrix factorised by KLU (the pattern is
/// built once at setup) or as a dense matrix (SUNDIALS' dense LU; for small systems).

#if !defined(MBDAE_WITH_IDA) || !MBDAE_WITH_IDA
#error "mbdae was built without SUNDIALS IDA (MBDAE_WITH_IDA=OFF): solve_ida and make_ida are not available"
#endif

#include <memory>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// Settings of solve_ida: the run's (RunSettings: t_end, output_every; IDA chooses its steps, so
/// RunSettings::step is not used, see initial_step) and its own. Times in s.
struct IdaOptions : RunSettings {
  double rtol = 1e-6;         ///< relative tolerance on q and v
  double atol = 1e-8;         ///< absolute tolerance on q and v (see the weights above)
  /// Linear solver of IDA's Newton iteration.
  enum class LinearSolver {
    Dense,   ///< SUNDIALS' dense LU (small systems)
    Sparse,  ///< KLU on the fixed sparsity pattern
  } linear_solver = LinearSolver::Sparse;  ///< Sparse: KLU
  double max_step = 0.0;      ///< largest step (s); 0: no limit
  /// Total number of steps over the whole run: a bound on the work, as the other solvers' (it was
  /// 500,000, which stopped a correct run of a pendulum at rtol 1e-10 after 1000 s of its 2000 s;
  /// a run that stalls is stopped by IDA's own minimum step and error-test failures).
  long max_steps = 100'000'000;
  int max_order = 5;          ///< BDF order limit, 1..5
  double initial_step = 0.0;  ///< first step (s); 0: IDA chooses
};

/// Integrates the system from (t0, q0, v0) to opt.t_end with IDA on the stabilized index-2 form.
///
/// @param sys  the system; its patterns are read once at setup. Not modified.
/// @param t0   start time, s (finite)
/// @param q0   consistent positions (size n): ‖C(t0, q0)‖∞ ≤ 1e-6·max(1, ‖q0‖∞)
/// @param v0   consistent velocities (size n): ‖C_q v0 + C_t‖∞ ≤ 1e-6·max(1, ‖v0‖∞);
///             otherwise the status is InconsistentInitialConditions (nothing is integrated).
/// @param obs  called at t0 and at every OutputGrid(t0, t_end, output_every) time with q, v,
///             a = v̇ and λ (sizes n, n, n, m); returning false stops the run. May be empty.
/// @param opt  settings (IdaOptions)
/// @return status, message ("IDA failed at t = 0.123 s: ... (IDA_CONV_FAIL)"), time reached and
///         statistics. Outputs handed to the observer before a failure stay valid.
/// @throws SolverSettingsError for invalid options (t_end < t0, non-positive tolerances,
///         max_order outside 1..5, negative steps, max_steps < 1) or sizes that do not match the
///         system (also of its patterns). A failing SUNDIALS setup call is returned as OtherFailure.
/// Thread safety: no global state; concurrent calls on different (or const-thread-safe) systems
/// are fine.
SolveResult solve_ida(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                      const IdaOptions& opt, const Observer& obs);

/// The same solver for stepping from a host program (see Integrator). Throws
/// SolverSettingsError for invalid settings; other failures are reported by status().
std::unique_ptr<Integrator> make_ida(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                     const VecX& v0, const IdaOptions& opt);

}  // namespace mbdae
