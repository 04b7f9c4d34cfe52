#pragma once
/// @file Assembly.h
/// Consistent initial conditions for a constrained system, and the rank test that finds redundant
/// constraint equations.
///
/// - Positions: q ← q + Δq with the minimum-norm Δq that satisfies C(t0, q) = 0 (Gauss–Newton on
///   the KKT system [W C_qᵀ; C_q 0][Δq; μ] = [0; −C], repeated to convergence; W = I, or the mass
///   matrix M with AssemblyOptions::mass_weighted_positions).
/// - Velocities: v ← v + Δv with the minimum-norm Δv that satisfies C_q v + C_t = 0 (one solve).
/// - Accelerations and multipliers: [M C_qᵀ; C_q 0][a; λ] = [f; γ].

#include <string>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae {

/// Options of assemble_initial_state().
struct AssemblyOptions {
  double tolerance = 1e-12;  ///< on ‖C‖∞ (and on ‖Ċ‖∞ for velocities)
  int max_iterations = 50;   ///< Gauss–Newton iterations for the positions, at most
  /// Each position step is the least change in the mass matrix's metric (½ Δqᵀ M Δq, the
  /// kinetic energy of the change as a velocity) instead of the least ‖Δq‖₂: heavy bodies move
  /// less than light ones. Where [M C_qᵀ; C_q 0] is singular (a massless direction) that step
  /// falls back to ‖Δq‖₂.
  bool mass_weighted_positions = false;
};

/// Outcome of assemble_initial_state().
struct AssemblyReport {
  bool converged = false;  ///< ‖C‖∞ ≤ tolerance and ‖Ċ‖∞ ≤ tolerance · max(1, ‖v‖∞) at the end
  int iterations = 0;      ///< Gauss–Newton iterations done for the positions
  double position_violation_before = 0;  ///< ‖C‖∞ of the given q0
  double position_violation_after = 0;   ///< ‖C‖∞ after the projection
  double velocity_violation_before = 0;  ///< ‖Ċ‖∞ of the given (q0, v0)
  double velocity_violation_after = 0;   ///< ‖Ċ‖∞ after the projection
  double position_change = 0;  ///< ‖Δq‖₂
  double velocity_change = 0;  ///< ‖Δv‖₂
  /// The velocities were projected with the mass matrix as metric (the constraint impulse);
  /// false: M was singular on the constraints and the least-squares change of v was taken.
  bool mass_weighted = false;
  std::string message;  ///< why it failed, naming the worst constraint
  int worst_row = -1;   ///< the constraint row (active row index) the message names; -1 if none
};

/// Projects q0 and then v0 onto the constraints (in place): positions by Gauss–Newton (the least
/// change of q), velocities by the impulse the constraints would apply (the change Δv of least
/// kinetic energy ½ ΔvᵀMΔv, M = the formulation's mass matrix). Never throws for an
/// unsatisfiable model: the report says converged = false and names the worst equation.
/// q0, v0 have size n = sys.num_coordinates(); t0 in s.
AssemblyReport assemble_initial_state(const ConstrainedSystem& sys, double t0, VecX& q0, VecX& v0,
                                      const AssemblyOptions& opt = {});

/// a and λ from the KKT system at a consistent (q, v). Throws std::runtime_error if the KKT
/// matrix is singular (redundant constraints or a massless direction). Where applied forces read
/// λ (ConstrainedSystem::forces_read_multipliers()) the system is nonlinear in λ: Newton iterations
/// on M a + C_qᵀ λ − f(λ) = 0, C_q a = γ from the solution without those forces, to a correction
/// of 1e-13 relative; std::runtime_error if they do not converge in 50.
/// q, v of size n; a (size n) and lambda (size m = sys.num_constraints()) are resized.
void initial_accelerations(const ConstrainedSystem& sys, double t, const VecX& q, const VecX& v,
                           VecX& a, VecX& lambda);

/// Rank test of C_q at (t, q): the rows that depend on earlier rows, with relative tolerance
/// `tol`. Row indices refer to sys's rows. A full-rank C_q is recognised by a sparse LU of
/// [I C_qᵀ; C_q 0]; otherwise, for n·m ≤ 250 000, Gram–Schmidt on the rows in order (so the later
/// rows of a dependent set are reported), else a sparse QR with column pivoting of C_qᵀ (which
/// may report other rows of a dependent set).
struct RedundancyReport {
  int rows = 0;  ///< m, the number of rows tested
  int rank = 0;  ///< numerical rank of C_q
  std::vector<int> dependent_rows;  ///< rows (ascending) that depend on earlier rows
};
/// The rank test described at RedundancyReport. Rows are scaled to unit norm first, so `tol` is
/// relative per equation; q has size n. No throw for a rank-deficient C_q.
RedundancyReport find_redundant_constraints(const ConstrainedSystem& sys, double t, const VecX& q,
                                            double tol = 1e-9);
/// The same rank test on any sparse m×n matrix C (its rows scaled to unit norm first): the rows
/// that depend on earlier rows, and the rank. Linear in the nonzeros for a C of full row rank
/// whose [I Cᵀ; C 0] factorises without fill-in growth (chains and trees).
RedundancyReport find_dependent_rows(SparseMatrix C, double tol = 1e-9);

}  // namespace mbdae
