#pragma once
/// @file NewtonEulerExplicit.h
/// The Newton–Euler formulation (NewtonEuler.h) as an explicit integrator sees it
/// (ExplicitSystem.h): q = [x_C; Q] per body (and the controller states), v = [v_C; w_B], the
/// joints as constraints, unit quaternions as the manifold.

#include <mbdae/formulations/ExplicitSystem.h>
#include <mbdae/formulations/NewtonEuler.h>

namespace mbdae {

/// A view of a NewtonEulerSystem for one integrator or monitor, with its own workspace; keeps a
/// reference to the system, which must outlive it.
class NewtonEulerExplicit final : public ExplicitSystem {
 public:
  explicit NewtonEulerExplicit(const NewtonEulerSystem& sys) : sys_(sys), ws_(sys.make_workspace()) {}  ///< a view of `sys`

  int num_q() const override { return sys_.num_q(); }
  int num_v() const override { return sys_.num_v(); }
  int num_constraints() const override { return sys_.num_joint_rows(); }
  void derivative(double t, const VecX& q, const VecX& v, VecX& qdot, VecX& vdot) override {
    sys_.derivative(ws_, t, q, v, qdot, vdot);
  }
  double normalize(VecX& q) override { return sys_.normalize_quaternions(q); }
  double project_positions(double t, VecX& q, double tol, int max_iter) override {
    return sys_.project_positions(ws_, t, q, tol, max_iter);
  }
  double project_velocities(double t, const VecX& q, VecX& v) override {
    return sys_.project_velocities(ws_, t, q, v);
  }
  double energy(const VecX& q, const VecX& v) override { return sys_.energy(ws_, q, v); }
  const std::vector<std::string>& force_names() const override { return sys_.force_names(); }
  void force_powers(double t, const VecX& q, const VecX& v, ForcePowers& p) override {
    sys_.force_powers(ws_, t, q, v, p);
  }
  void constraints(double t, const VecX& q, VecX& c) override { sys_.joint_violation(ws_, t, q, c); }
  void constraint_velocity(double t, const VecX& q, const VecX& v, VecX& cd) override {
    sys_.joint_velocity_violation(ws_, t, q, v, cd);
  }

  /// The formulation behind the view.
  const NewtonEulerSystem& system() const { return sys_; }

 private:
  const NewtonEulerSystem& sys_;
  NewtonEulerSystem::Workspace ws_;
};

}  // namespace mbdae
