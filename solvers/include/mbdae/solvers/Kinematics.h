#pragma once
/// @file Kinematics.h
/// Kinematic analysis of a driven mechanism with no degree of freedom left: the driving
/// constraints make C(t, q) = 0 a square system (n equations in n coordinates, after redundant
/// rows have been removed), so positions, velocities and accelerations follow at each time from
/// the constraints alone, without masses or forces (Nikravesh, Computer-Aided Analysis of
/// Mechanical Systems, 1988, ch. 3–4; Haug, Computer-Aided Kinematics and Dynamics, 1989, ch. 3):
///
///     C(t, q) = 0          Newton: C_q Δq = −C, from the previous time's q + h v + h²/2 a
///     C_q v = −C_t         (C_t = constraint_velocity(t, q, 0))
///     C_q a = γ(t, q, v)
///
/// Each linear system uses the sparse LU of the square C_q (KLU).

#include <string>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// Settings of the kinematic analysis.
struct KinematicsOptions {
  double t_end = 1.0;          ///< s
  double output_every = 1e-2;  ///< s; rows at t0, t0 + every, …, t_end (OutputGrid)
  double tolerance = 1e-12;    ///< Newton stops when ‖C‖∞ ≤ tolerance (units of the rows: m or 1)
  int max_iterations = 30;     ///< Newton iterations per output time
};

/// Solves for q (in place, from the given guess), then v and a, at time t (s). All vectors have
/// size n. Returns false (and a message naming the time and the worst equation, or the singular
/// Jacobian) if Newton does not reach the tolerance.
/// @throws std::invalid_argument if the system is not square (m ≠ n: degrees of freedom remain or
///         equations are redundant — remove them first, e.g. with prepare()) or has
///         velocity-level rows.
bool solve_kinematic_state(const ConstrainedSystem& sys, double t, VecX& q, VecX& v, VecX& a,
                           const KinematicsOptions& opt, std::string* message = nullptr);

/// Kinematic analysis from t0 to opt.t_end: the observer receives (t, q, v, a) at every output
/// time (λ is empty). q0 is the starting guess at t0 (it need not satisfy the constraints).
/// Returns status Success, NewtonFailure (message names time and equation), SingularMatrix, or
/// StoppedByObserver. @throws std::invalid_argument as solve_kinematic_state;
/// SolverSettingsError if t_end < t0.
SolveResult solve_kinematics(const ConstrainedSystem& sys, double t0, const VecX& q0,
                             const KinematicsOptions& opt, const Observer& obs);

}  // namespace mbdae
