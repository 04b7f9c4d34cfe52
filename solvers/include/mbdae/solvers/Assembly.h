#pragma once
/// @file Assembly.h
/// Consistent initial conditions for a constrained system, and the rank test that finds redundant
/// constraint equations.
///
/// - Positions: q ← q + Δq with the minimum-norm Δq that satisfies C(t0, q) = 0 (Gauss–Newton on
///   the KKT system [I C_qᵀ; C_q 0][Δq; μ] = [0; −C], repeated to convergence).
/// - Velocities: v ← v + Δv with the minimum-norm Δv that satisfies C_q v + C_t = 0 (one solve).
/// - Accelerations and multipliers: [M C_qᵀ; C_q 0][a; λ] = [f; γ].

#include <string>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae {

struct AssemblyOptions {
  double tolerance = 1e-12;  ///< on ‖C‖∞ (and on ‖Ċ‖∞ for velocities)
  int max_iterations = 50;
};

struct AssemblyReport {
  bool converged = false;
  int iterations = 0;
  double position_violation_before = 0, position_violation_after = 0;  ///< ‖C‖∞
  double velocity_violation_before = 0, velocity_violation_after = 0;  ///< ‖Ċ‖∞
  double position_change = 0, velocity_change = 0;  ///< ‖Δq‖₂, ‖Δv‖₂
  std::string message;  ///< why it failed, naming the worst constraint
};

/// Projects q0 and then v0 onto the constraints (in place). Never throws for an unsatisfiable
/// model: the report says converged = false and names the worst equation.
AssemblyReport assemble_initial_state(const ConstrainedSystem& sys, double t0, VecX& q0, VecX& v0,
                                      const AssemblyOptions& opt = {});

/// a and λ from the KKT system at a consistent (q, v). Throws std::runtime_error if the KKT
/// matrix is singular (redundant constraints or a massless direction).
void initial_accelerations(const ConstrainedSystem& sys, double t, const VecX& q, const VecX& v,
                           VecX& a, VecX& lambda);

/// Rank test of C_q at (t, q): the rows that depend on earlier rows (rank-revealing QR with
/// column pivoting of C_qᵀ, relative tolerance `tol`). Row indices refer to sys's rows.
struct RedundancyReport {
  int rows = 0, rank = 0;
  std::vector<int> dependent_rows;
};
RedundancyReport find_redundant_constraints(const ConstrainedSystem& sys, double t, const VecX& q,
                                            double tol = 1e-9);

}  // namespace mbdae
