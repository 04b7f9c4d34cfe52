#pragma once
/// @file NewtonEulerImpulse.h
/// The Newton–Euler formulation (NewtonEuler.h) as the impulse stepper sees it (ImpulseSystem.h):
/// its bodies, applied forces and joint rows, and the contacts of its model's shapes found by a
/// ContactDetector (ContactDetector.h).

#include <mbdae/formulations/ContactDetector.h>
#include <mbdae/formulations/ImpulseSystem.h>
#include <mbdae/formulations/NewtonEuler.h>

namespace mbdae {

/// A view of a NewtonEulerSystem for one impulse integrator, with its own workspace and contact
/// detector; keeps a reference to the system, which must outlive it.
class NewtonEulerImpulse final : public ImpulseSystem {
 public:
  /// A view of `sys`. @throws ModelError as ContactDetector's constructor.
  explicit NewtonEulerImpulse(const NewtonEulerSystem& sys) : sys_(sys), ws_(sys.make_workspace()), detector_(sys) {}

  const System& model() const override { return sys_.model(); }
  int num_bodies() const override { return sys_.num_bodies(); }
  int num_q() const override { return sys_.num_q(); }
  int num_v() const override { return sys_.num_v(); }
  int num_joint_rows() const override { return sys_.num_joint_rows(); }
  double mass(BodyIndex i) const override { return sys_.mass(i); }
  const Mat3& inertia_com(BodyIndex i) const override { return sys_.inertia_com(i); }
  const Mat3& inertia_com_inv(BodyIndex i) const override { return sys_.inertia_com_inv(i); }
  Vec3 com_position(BodyIndex i, const VecX& q) const override { return sys_.com_position(i, q); }
  Mat3 rotation(BodyIndex i, const VecX& q) const override { return sys_.rotation(i, q); }
  void applied_forces(double t, const VecX& q, const VecX& v, VecX& f) override {
    sys_.applied_forces(ws_, t, q, v, f);
  }
  void joint_rows_world(int joint, const VecX& q, const VecX& v, JointRowsWorld& out) const override {
    sys_.joint_rows_world(joint, q, v, out);
  }
  void joint_element_rows(const VecX& q, const VecX& v, std::vector<JointElementRows>& out) override {
    sys_.joint_element_rows(ws_, q, v, out);
  }
  void detect_contacts(const VecX& q, double margin, std::vector<ContactPoint>& out) override {
    detector_.detect(q, margin, out);
  }
  long last_pair_count() const override { return detector_.last_pair_count(); }

  /// The formulation behind the view.
  const NewtonEulerSystem& system() const { return sys_; }

 private:
  const NewtonEulerSystem& sys_;
  NewtonEulerSystem::Workspace ws_;
  ContactDetector detector_;
};

}  // namespace mbdae
