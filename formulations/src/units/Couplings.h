#pragma once
// Couplings (System::couplings(), Σ c_i q_i = 0; Multibody.h): the angle coordinate φ of each
// coupled revolute joint (CouplingAngles) and the rows (CouplingRows): each coupled joint's angle
// row w_a(φ)·x_b = 0, then one row per coupling. C_q analytic; ∂(λ∇C)/∂q and ∂Ċ/∂q by central
// differences local to each row.

#include <string>
#include <vector>

#include "Shafts.h"
#include "Units.h"

namespace mbdae::units {

class CouplingAngles final : public AssemblyUnit {
 public:
  explicit CouplingAngles(UnitContext& cx);
  const char* kind() const override { return "coupling angles"; }
  AvailableJacobians available_jacobians() const override { return {true, true, true, true, true}; }
  void claim(UnitLayout& layout) override { first_ = layout.add_coordinates(static_cast<int>(joint_.size())); }
  void add_pattern(PatternBuilder&, PatternBuilder&) const override {}
  void make_maps(const SparseMatrix&, const SparseMatrix&) override {}
  void initial_state(VecRef q0, VecRef v0) const override;
  /// No mass and no applied force: constraint forces only (CouplingRows).
  void residual(UnitScratch*, const UnitState&, VecRef r) const override { zero(r); }
  void forces(UnitScratch*, const UnitState&, VecRef f) const override { zero(f); }
  void add_tangent(UnitScratch*, const UnitState&, double, double, double, SparseMatrix&) const override {}
  std::string coordinate_label(int i) const override;
  /// Coordinate of joint j's angle, -1 if no coupling names it. @throws std::out_of_range.
  int coordinate(int joint) const {
    const int k = of_joint_.at(static_cast<size_t>(joint));
    return k < 0 ? -1 : first_ + k;
  }
  const std::vector<int>& joints() const { return joint_; }

 private:
  void zero(VecRef x) const {
    for (size_t k = 0; k < joint_.size(); ++k) x[first_ + static_cast<int>(k)] = 0.0;
  }
  UnitContext& cx_;
  int first_ = 0;
  std::vector<int> joint_;     // joint of angle k
  std::vector<int> of_joint_;  // per joint: its angle k, -1 if none
};

class CouplingRows final : public AssemblyUnit {
 public:
  CouplingRows(UnitContext& cx, const CouplingAngles& angles, const Shafts& shafts);
  const char* kind() const override { return "coupling rows"; }
  AvailableJacobians available_jacobians() const override { return {false, true, true, true, false}; }
  void claim(UnitLayout& layout) override { first_row_ = layout.add_rows(static_cast<int>(rows_.size())); }
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  std::unique_ptr<UnitScratch> make_scratch() const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch*, const UnitState&, VecRef) const override {}
  void rows(UnitScratch* w, const UnitState& s, RowLevel level, VecRef out) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_jacobian(UnitScratch* w, const UnitState& s, RowLevel level, SparseMatrix& J) const override;
  std::string row_label(int local) const override { return rows_[static_cast<size_t>(local)].label; }
  ItemRef row_item(int local) const override { return rows_[static_cast<size_t>(local)].item; }
  /// Active row of coupling i, -1 if disabled. @throws std::out_of_range for a bad index.
  int coupling_row(int coupling) const {
    return rows_[static_cast<size_t>(coupling_row_.at(static_cast<size_t>(coupling)))].active;
  }

 private:
  /// One term: c φ (a coordinate, `marker` false) or c times one marker equation of a joint
  /// between bodies a and b (TransDriven with s = 0: a prismatic joint's displacement; RotDriven
  /// with s = φ: a revolute joint's angle row).
  struct Term {
    double c = 1;
    int phi = -1;         // local index of the angle coordinate φ (or a shaft's coordinate), -1 if none
    double q0 = 0;        // the coordinate's value at t0 (a shaft's; 0 for an angle φ)
    bool marker = false;  // a marker equation (geo.rows[0])
    detail::JointGeometry geo;
    BodyIndex a = kGround, b = kGround;
    int la = 0, lb = 0;   // local index of the first coordinate of body a, b (not ground)
  };
  /// A row over its local coordinates `coords`.
  struct Row {
    std::string label;
    ItemRef item;
    std::vector<int> coords;  // global coordinate indices
    std::vector<Term> terms;
    int active = -1;          // its active row, -1 if disabled
    BlockMap jac_map, tangent_map;
  };
  /// Value, rate and γ of a row.
  struct Eval {
    double c = 0, cv = 0, g = 0;
  };
  struct Scratch;
  void on_layout() override;
  /// Value, rate (if v is given) and γ (if with_gamma) of row u at its local coordinates q, v;
  /// its gradient ∂C/∂q into grad (size coords) if given.
  void eval(const Row& u, const double* q, const double* v, bool with_gamma, Eval& o, double* grad) const;
  void add_marker_term(const Row& u, const Term& tm, const double* q, const double* v, bool with_gamma, Eval& o,
                       double* grad) const;
  /// The local coordinates of row u gathered from a global vector into out (only grows).
  static void gather(const Row& u, ConstVecRef x, VecX& out);

  UnitContext& cx_;
  const CouplingAngles& angles_;
  const Shafts& shafts_;
  int first_row_ = 0;
  std::vector<Row> rows_;            // the angle rows, then one per coupling
  std::vector<int> coupling_row_;    // per coupling: its row
};

}  // namespace mbdae::units
