#pragma once
// The rigid bodies' unit: each body's coordinates (7 with Euler parameters, 6 with Tait–Bryan
// angles or a rotation vector), its equations M a − f (Multibody.h, Eq. 52) and the
// Euler-parameter norm rows (Eq. 53–54).

#include <string>
#include <vector>

#include "Units.h"

namespace mbdae::units {

class RigidBodies final : public AssemblyUnit {
 public:
  /// Fills cx.bodies from the compiled model (the offsets at claim()).
  explicit RigidBodies(UnitContext& cx);
  const char* kind() const override { return "rigid bodies"; }
  /// M and the norm rows' C_q and ∂Ċ/∂q analytic; ∂r/∂q, ∂r/∂v by differences over each body.
  AvailableJacobians available_jacobians() const override { return {false, false, true, true, true}; }
  void claim(UnitLayout& layout) override;
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  void initial_state(VecRef q0, VecRef v0) const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch* w, const UnitState& s, VecRef f) const override;
  void rows(UnitScratch* w, const UnitState& s, RowLevel level, VecRef out) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_mass(UnitScratch* w, const UnitState& s, SparseMatrix& M) const override;
  void add_jacobian(UnitScratch* w, const UnitState& s, RowLevel level, SparseMatrix& J) const override;
  void add_kinetic_energy(const UnitState& s, double& E) const override;
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;
  std::string coordinate_label(int i) const override;
  std::string row_label(int local) const override;
  ItemRef row_item(int local) const override { return ItemRef::body(ep_body_[static_cast<size_t>(local)]); }

  /// MultibodySystem::coordinate_problem() (its limits are MultibodySystem's constants).
  std::string coordinate_problem(ConstVecRef q, ConstVecRef v, double h) const;
  /// M_i of body i (Eq. 52) at its coordinates q.
  BlockN body_mass(BodyIndex i, const double* q) const;

 private:
  void on_layout() override;
  /// Applied force F (world) and torque τ about the reference point (world) on body i.
  void applied(BodyIndex i, double t, const Kin& k, Vec3& F, Vec3& tau) const;
  /// r_i = M_i a_i − f_i from the body's kinematics k (no constraint forces).
  template <class Out>
  void body_residual_kin(BodyIndex i, double t, const Kin& k, const double* a, Out&& r) const;

  UnitContext& cx_;
  std::vector<int> ep_body_;  // body of each norm row (local row k)
  std::vector<int> ep_row_;   // per body: active row of its norm, -1 if none or disabled
  std::vector<BlockMap> tangent_map_, ep_jac_map_;
};

}  // namespace mbdae::units
