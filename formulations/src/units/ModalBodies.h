#pragma once
// The modal bodies' unit: each modally reduced body's modal coordinates (ModalBody.h) and the
// terms of the floating frame of reference formulation beyond those of the rigid body that is its
// reference frame (the rigid-body unit's body of the same name: its translation and rotation
// coordinates, the Euler-parameter norm, joints, loads and sensors of the frame).

#include <string>
#include <vector>

#include "Units.h"

namespace mbdae::units {

class ModalBodies final : public AssemblyUnit {
 public:
  explicit ModalBodies(UnitContext& cx);
  const char* kind() const override { return "modal bodies"; }
  /// Every derivative by central differences over a body's frame and modal coordinates (M by
  /// differences of a residual linear in a).
  AvailableJacobians available_jacobians() const override { return {}; }
  void claim(UnitLayout& layout) override;
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  void initial_state(VecRef q0, VecRef v0) const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch* w, const UnitState& s, VecRef f) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_mass(UnitScratch* w, const UnitState& s, SparseMatrix& M) const override;
  void add_kinetic_energy(const UnitState& s, double& E) const override;
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;
  std::string coordinate_label(int i) const override;

 private:
  struct Item {
    const ModalBody* src = nullptr;
    int first = 0;            // its first modal coordinate
    std::vector<int> coords;  // the frame's coordinates, then the modal ones
    BlockMap map;
  };
  void on_layout() override;
  /// The body's terms over its local coordinates (frame, then modal): the FFRF equations minus
  /// those of its rigid part (which the rigid-body unit adds).
  void local(const Item& b, double t, const double* q, const double* v, const double* a, double* r) const;
  void gather(const Item& b, const UnitState& s, VecX& q, VecX& v, VecX& a) const;

  UnitContext& cx_;
  std::vector<Item> list_;
};

}  // namespace mbdae::units
