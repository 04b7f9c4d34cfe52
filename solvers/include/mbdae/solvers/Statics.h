#pragma once
/// @file Statics.h
/// Static equilibrium of a constrained system: v = 0, a = 0 and
///
///     F(q, λ) = [ −f(t, q, 0) + C_qᵀ λ ] = 0        (n force balances)
///               [  C(t, q)             ]            (m constraints)
///
/// by Newton's method on the KKT matrix [∂r/∂q + α M  C_qᵀ; C_q  0] (∂r/∂q includes the stiffness
/// of springs, gravity's configuration dependence and the geometric stiffness ∂(C_qᵀλ)/∂q), with a
/// backtracking line search on ‖F‖ (Armijo; Dennis & Schnabel, Numerical Methods for
/// Unconstrained Optimization, 1983, §6.3). The start may be any configuration: it is first
/// projected onto the constraints (assemble_initial_state). Velocity-level (nonholonomic) rows are
/// kept as A Δq = 0 (the no-slip contact holds as static friction would).
///
/// Stabilizer α M (M the mass matrix, α ≥ 0 in 1/s²): α = 0 (plain Newton with the line search)
/// while the KKT matrix is regular and the line search finds a decrease. Where it is singular — a
/// pendulum released horizontally has no stiffness about its pivot there, a body that turns freely
/// has none ever — or the line search fails, the iteration turns to pseudo-transient continuation
/// for good: each step solves [∂r/∂q + α M  C_qᵀ; C_q  0] and is taken in full, which is one
/// implicit-Euler step of the overdamped motion M q̇ = f − C_qᵀλ with pseudo-time step 1/α, so it
/// goes down the potential, towards a stable equilibrium; α follows the residual (switched
/// evolution relaxation: α ← α ‖F_new‖/‖F_old‖, the factor kept in [1e-3, 10], α ≥ 1e-12 α₀), so
/// the iteration becomes Newton's as the residual falls. A step that is not finite, meets a
/// singular matrix or raises ‖F‖ tenfold is retried with α × 10 (up to 1e12 α₀). Sources: the
/// mass-proportional "stabilizerODE2term" of Exudyn's static solver; pseudo-transient continuation
/// and its step rule, Kelley & Keyes, SIAM J. Numer. Anal. 35(2), 1998, 508–523. Seed:
/// α₀ = max(1, ‖f(q0)‖∞) / (max_i M_ii · 1 m), the α at which the largest force moves the largest
/// mass about a metre in one step.

#include <string>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae {

/// Settings of solve_static_equilibrium().
struct StaticsOptions {
  double t = 0;               ///< time at which forces and constraints are evaluated, s
  /// Converged when ‖−f + C_qᵀλ‖∞ ≤ force_tolerance·max(1, ‖f(q0)‖∞), or below the round-off of
  /// the coordinates, 4 ε max_i Σ_j |∂r_i/∂q_j| |q_j| (of the last Newton matrix) if that is larger.
  double force_tolerance = 1e-9;
  double constraint_tolerance = 1e-12;  ///< … and ‖C‖∞ ≤ this
  int max_iterations = 100;   ///< Newton iterations at most (retries with a raised α included)
  /// Use the stabilizer α M where plain Newton fails (file comment); false: plain Newton only.
  bool stabilize = true;
  /// Up to this many full Newton steps in a row even where the residual rises (a watchdog:
  /// if it has not fallen below its value where they began, the iteration returns there and
  /// takes the line search). 0: the line search at every step. Geometrically nonlinear cables
  /// need them: the first full step from a straight cable under a transverse load stretches it,
  /// and the next one relaxes that; a monotone line search creeps instead.
  int nonmonotone_steps = 0;
};

/// Outcome of solve_static_equilibrium().
struct StaticsResult {
  bool converged = false;     ///< both tolerances of StaticsOptions met
  int iterations = 0;         ///< Newton iterations done
  VecX q;                      ///< equilibrium configuration (last iterate if not converged), size n
  VecX lambda;                 ///< multipliers (constraint forces), size m
  double force_residual = 0;   ///< ‖−f + C_qᵀλ‖∞, N or N m
  double constraint_residual = 0;  ///< ‖C‖∞
  std::string message;         ///< why it failed, naming the worst coordinate or equation
  int stabilized_iterations = 0;  ///< iterations whose matrix had the stabilizer α M (α > 0)
};

/// Least-squares multipliers at q: λ minimising ‖C_qᵀλ − f(t, q, 0)‖₂ (size m; zeros if C_q C_qᵀ
/// is singular). At an equilibrium these are its multipliers; elsewhere the projected tangent
/// Nᵀ(∂r/∂q)N with them is the second derivative of the potential along the constraint manifold
/// (the Hessian of the Lagrangian with least-squares multipliers; Nocedal & Wright, Numerical
/// Optimization, 2006, §18.1). @throws std::invalid_argument if q has the wrong size.
VecX least_squares_multipliers(const ConstrainedSystem& sys, double t, const VecX& q);

/// Static equilibrium from the starting configuration q0 (size n). Never throws for a model
/// without equilibrium: converged = false and the message says why (Newton stalled, singular
/// matrix — a direction with neither stiffness nor constraint, e.g. a free mechanism under no
/// load — or the start could not be assembled). @throws std::invalid_argument if q0 has the
/// wrong size.
StaticsResult solve_static_equilibrium(const ConstrainedSystem& sys, const VecX& q0,
                                       const StaticsOptions& opt = {});

}  // namespace mbdae
