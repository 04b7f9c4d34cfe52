// Inverse dynamics along a prescribed motion; equations in InverseDynamics.h.

#include <mbdae/solvers/InverseDynamics.h>

#include <stdexcept>

#include <Eigen/SparseCholesky>

namespace mbdae {

InverseDynamicsResult inverse_dynamics(const MultibodySystem& sys, double t, const VecX& q,
                                       const VecX& v, const VecX& a) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  InverseDynamicsResult out;
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  SparseMatrix M = sys.tangent_pattern(), C = sys.jacobian_pattern();
  sys.assemble_mass(ws, q, M);
  sys.assemble_jacobian(ws, t, q, C);
  VecX f(n);
  sys.forces(ws, t, q, v, f);
  const VecX rhs = f - M * a;
  out.lambda = VecX::Zero(m);
  if (m > 0) {
    const SparseMatrix CCt = C * SparseMatrix(C.transpose());
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(CCt);
    if (ldlt.info() != Eigen::Success)
      throw std::runtime_error("inverse dynamics: C_q C_qᵀ is singular (redundant constraints?)");
    out.lambda = ldlt.solve(C * rhs);
    // One step of iterative refinement against round-off in the normal equations.
    out.lambda += ldlt.solve(C * (rhs - SparseMatrix(C.transpose()) * out.lambda));
  }
  const VecX res = SparseMatrix(C.transpose()) * out.lambda - rhs;
  out.residual = n ? res.cwiseAbs().maxCoeff() : 0.0;
  const auto& joints = sys.model().joints();
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) {
    out.reactions.push_back(sys.reaction(j, t, q, out.lambda));
    if (joints[static_cast<size_t>(j)].motion) {
      out.driven_joints.push_back(j);
      out.drive_forces.push_back(sys.joint_drive_force(j, t, q, out.lambda));
    }
  }
  return out;
}

SolveResult solve_inverse_dynamics(const MultibodySystem& sys, double t0, const VecX& q0,
                                   const KinematicsOptions& opt, const InverseDynamicsObserver& obs) {
  return solve_kinematics(sys, t0, q0, opt, [&](const StateView& s) {
    const InverseDynamicsResult r = inverse_dynamics(sys, s.t, s.q, s.v, s.a);
    const StateView sv{s.t, s.q, s.v, s.a, r.lambda};
    return obs ? obs(sv, r) : true;
  });
}

}  // namespace mbdae
