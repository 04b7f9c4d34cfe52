#pragma once
/// @file InverseDynamics.h
/// Inverse dynamics along a prescribed motion: given (q, v, a) that satisfy the constraints (for
/// instance from kinematic analysis of a driven mechanism), the multipliers follow from the
/// dynamic equations M a − f = −C_qᵀ λ (Nikravesh 1988, §13.4; Haug 1989, ch. 6):
///
///     C_qᵀ λ = f(t, q, v) − M(q) a
///
/// solved in the least-squares sense through (C_q C_qᵀ) λ = C_q (f − M a) (sparse Cholesky). For a
/// mechanism driven to zero degrees of freedom C_q is square and the solution is exact; otherwise
/// the residual reports how far the prescribed motion is from one the constraint forces alone
/// can produce. From λ: the driving force or torque of every driven joint
/// (MultibodySystem::joint_drive_force) and the reaction of every joint (MultibodySystem::reaction).

#include <functional>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/solvers/Kinematics.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// Result of inverse_dynamics() at one state.
struct InverseDynamicsResult {
  VecX lambda;                       ///< multipliers, size m
  std::vector<int> driven_joints;    ///< indices (model().joints()) of the driven joints
  std::vector<double> drive_forces;  ///< N or N m, same order as driven_joints
  std::vector<JointReaction> reactions;  ///< every joint of the model, in order
  double residual = 0;               ///< ‖C_qᵀλ − (f − M a)‖∞, N or N m
};

/// Multipliers, driving forces and joint reactions at one state (t in s; q, v, a of size n).
/// @throws std::runtime_error if C_q C_qᵀ is singular (redundant rows: remove them first).
InverseDynamicsResult inverse_dynamics(const MultibodySystem& sys, double t, const VecX& q,
                                       const VecX& v, const VecX& a);

/// Called at every output time with the kinematic state and the inverse-dynamics result; return
/// false to stop.
using InverseDynamicsObserver =
    std::function<bool(const StateView&, const InverseDynamicsResult&)>;

/// Kinematic analysis (solve_kinematics, same options and exceptions) followed by inverse
/// dynamics at every output time.
SolveResult solve_inverse_dynamics(const MultibodySystem& sys, double t0, const VecX& q0,
                                   const KinematicsOptions& opt, const InverseDynamicsObserver& obs);

}  // namespace mbdae
