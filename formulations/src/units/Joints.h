#pragma once
// The joints' unit: each joint's rows (JointKernels.h), their reaction C_qᵀλ on the joint's two
// bodies, C_q, and the derivatives of the reaction and of the velocity rows by central differences
// local to the joint's bodies.

#include <string>
#include <vector>

#include "Units.h"

namespace mbdae::units {

struct JointData : detail::JointGeometry {  // markers and equations
  std::string name;
  JointType type = JointType::Revolute;
  BodyIndex a = kGround, b = kGround;
  std::vector<int> active;         // indices into rows that are active
  std::vector<int> active_global;  // their row indices in the active row list
  std::vector<int> coords;         // global coordinate indices of a then b
  int na = 0, nb = 0;
  int first_row = 0;               // its first row in the unit's full rows
  BlockMap jac_map;                // active rows × coords
  BlockMap tangent_map;            // coords × coords
  const TimeFunction* motion = nullptr;                  // driven joints (points into the compiled model)
  const TimeFunction* speed = nullptr;                   // speed-driven joints (the same)
  const std::array<TimeFunction, 6>* offsets = nullptr;  // generic joints with offsets (the same)
  detail::DriveState drive(double t) const { return detail::drive_state(motion, offsets, t, speed); }
};

class Joints final : public AssemblyUnit {
 public:
  explicit Joints(UnitContext& cx);
  const char* kind() const override { return "joints"; }
  /// C_q analytic; ∂(C_qᵀλ)/∂q and ∂Ċ/∂q by central differences local to each joint.
  AvailableJacobians available_jacobians() const override { return {false, true, true, true, false}; }
  void claim(UnitLayout& layout) override;
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch*, const UnitState&, VecRef) const override {}
  void rows(UnitScratch* w, const UnitState& s, RowLevel level, VecRef out) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_jacobian(UnitScratch* w, const UnitState& s, RowLevel level, SparseMatrix& J) const override;
  std::string row_label(int local) const override;
  ItemRef row_item(int local) const override { return ItemRef::joint(row_joint_[static_cast<size_t>(local)]); }
  bool row_velocity_level(int local) const override;

  const std::vector<JointData>& list() const { return joints_; }
  /// MultibodySystem::reaction(), joint_coordinate(), joint_drive_force() (Multibody.h).
  JointReaction reaction(int joint, double t, ConstVecRef q, ConstVecRef lambda) const;
  JointCoordinate coordinate(int joint, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a) const;
  double drive_force(int joint, double t, ConstVecRef q, ConstVecRef lambda) const;
  /// C_q block of the joint's active rows, columns [coords of a, coords of b].
  BlockN jacobian(const JointData& jd, const Kin& ka, const Kin& kb, const detail::JointEval& e) const;

 private:
  void on_layout() override;
  /// ∂Ċ/∂q of joint jd's active rows by central differences (a block rows × coords).
  void velocity_jacobian(const JointData& jd, const UnitState& s, SparseMatrix& J) const;

  UnitContext& cx_;
  std::vector<JointData> joints_;
  std::vector<int> row_joint_;  // joint of each full row
};

}  // namespace mbdae::units
