#pragma once
/// @file Statics.h
/// Static equilibrium of a constrained system: v = 0, a = 0 and
///
///     F(q, λ) = [ −f(t, q, 0) + C_qᵀ λ ] = 0        (n force balances)
///               [  C(t, q)             ]            (m constraints)
///
/// by Newton's method on the KKT matrix [∂r/∂q  C_qᵀ; C_q  0] (∂r/∂q includes the stiffness of
/// springs, gravity's configuration dependence and the geometric stiffness ∂(C_qᵀλ)/∂q), with a
/// backtracking line search on ‖F‖ (Armijo; Dennis & Schnabel, Numerical Methods for
/// Unconstrained Optimization, 1983, §6.3). The start may be any configuration: it is first
/// projected onto the constraints (assemble_initial_state). Velocity-level (nonholonomic) rows are
/// kept as A Δq = 0 (the no-slip contact holds as static friction would).

#include <string>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae {

/// Settings of solve_static_equilibrium().
struct StaticsOptions {
  double t = 0;               ///< time at which forces and constraints are evaluated, s
  double force_tolerance = 1e-9;   ///< converged when ‖−f + C_qᵀλ‖∞ ≤ force_tolerance·max(1, ‖f(q0)‖∞)
  double constraint_tolerance = 1e-12;  ///< … and ‖C‖∞ ≤ this
  int max_iterations = 100;   ///< Newton iterations at most
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
};

/// Static equilibrium from the starting configuration q0 (size n). Never throws for a model
/// without equilibrium: converged = false and the message says why (Newton stalled, singular
/// matrix — a direction with neither stiffness nor constraint, e.g. a free mechanism under no
/// load — or the start could not be assembled). @throws std::invalid_argument if q0 has the
/// wrong size.
StaticsResult solve_static_equilibrium(const ConstrainedSystem& sys, const VecX& q0,
                                       const StaticsOptions& opt = {});

}  // namespace mbdae
