#pragma once
// 1-D shafts (System::shafts()): one coordinate q_s each (angle or position) with J q̈_s = Σ u,
// and the efforts u on them (System::shaft_forces()): spring-dampers between shafts and loads of
// t. Their tangents are analytic (Multibody.h).

#include <string>
#include <vector>

#include "Units.h"

namespace mbdae::units {

class Shafts final : public AssemblyUnit {
 public:
  explicit Shafts(UnitContext& cx);
  const char* kind() const override { return "shafts"; }
  AvailableJacobians available_jacobians() const override { return {true, true, true, true, true}; }
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
  std::string coordinate_label(int i) const override;
  /// Coordinate of shaft s (-1 for a name that is no shaft: ground). @throws std::out_of_range.
  int coordinate(int s) const { return coord_.at(static_cast<size_t>(s)); }
  int coordinate(const std::string& name) const;

 private:
  UnitContext& cx_;
  int first_ = 0;
  std::vector<int> coord_, diag_;  // per shaft: its coordinate, the value index of its diagonal
};

class ShaftForces final : public AssemblyUnit {
 public:
  ShaftForces(UnitContext& cx, const Shafts& shafts);
  const char* kind() const override { return "shaft forces"; }
  AvailableJacobians available_jacobians() const override { return {true, true, true, true, true}; }
  void claim(UnitLayout&) override {}
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  void residual(UnitScratch*, const UnitState& s, VecRef r) const override { add(s, -1.0, r); }
  void forces(UnitScratch*, const UnitState& s, VecRef f) const override { add(s, 1.0, f); }
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;
  /// MultibodySystem::shaft_force_effort(). @throws std::out_of_range for a bad index.
  double effort(int force, double t, ConstVecRef q, ConstVecRef v) const;

 private:
  /// An effort on shafts: coordinates of its ends (-1: ground).
  struct Effort {
    const ShaftForce* src = nullptr;  // points into the compiled model
    int ca = -1, cb = -1;             // spring_damper: a, b; load: ca
    double free = 0;                  // Δ0 of a spring_damper
    std::vector<int> coords;          // spring_damper: the ends that are shafts (a then b)
    BlockMap tangent_map;             // coords × coords
  };
  void on_layout() override;
  /// Efforts of sf at (q, v) on its ends: +u on a, −u on b for a spring-damper (u = k (Δ − Δ0) +
  /// d Δ̇, Δ = q_b − q_a), u on the shaft for a load; adds the spring's potential to *V if given.
  void effort(const Effort& sf, double t, const double* q, const double* v, double& ua, double& ub, double* V) const;
  void add(const UnitState& s, double sign, VecRef r) const;

  UnitContext& cx_;
  const Shafts& shafts_;
  std::vector<Effort> list_;
};

}  // namespace mbdae::units
