#pragma once
// A unit that lives only in the tests and owns rows but no coordinates: one holonomic row
// c = x − x_held on a coordinate x another unit owns (here SpringCoordinateUnit's), so its
// multiplier λ is the force that holds x. Its terms: C_qᵀλ = λ on x in the residual, C_q = 1, Ċ = ẋ,
// γ = 0; the row is linear in q, so ∂(C_qᵀλ)/∂q and ∂Ċ/∂q are zero and it adds no tangent block.
// It is registered by one line after the unit that owns x (MultibodyOptions::extra_units).

#include <functional>
#include <string>

#include <mbdae/formulations/AssemblyUnit.h>

namespace mbdae::test {

class HoldCoordinateUnit final : public AssemblyUnit {
 public:
  /// `coordinate` gives x's index once the layout is complete (the owner claims it first).
  HoldCoordinateUnit(std::function<int()> coordinate, double held) : coordinate_(std::move(coordinate)), held_(held) {}
  const char* kind() const override { return "hold coordinate (test)"; }
  AvailableJacobians available_jacobians() const override { return {true, true, true, true, true}; }
  void claim(UnitLayout& layout) override { layout.add_rows(1); }
  void add_pattern(PatternBuilder&, PatternBuilder& jacobian) const override {
    if (row() >= 0) jacobian.add_block(row(), 1, x_, 1);
  }
  void make_maps(const SparseMatrix&, const SparseMatrix& jacobian) override {
    if (row() >= 0) map_ = BlockMap::make(jacobian, {row()}, {x_});
  }
  void residual(UnitScratch*, const UnitState& s, VecRef r) const override {
    if (row() >= 0) r[x_] += s.lambda[row()];
  }
  void forces(UnitScratch*, const UnitState&, VecRef) const override {}
  void rows(UnitScratch*, const UnitState& s, RowLevel level, VecRef out) const override {
    if (row() < 0) return;
    if (level == RowLevel::Position) out[row()] = s.q[x_] - held_;
    else if (level == RowLevel::Velocity) out[row()] = s.v[x_];
    else out[row()] = 0;  // γ: C̈ = ẍ
  }
  void add_tangent(UnitScratch*, const UnitState&, double, double, double, SparseMatrix&) const override {}
  void add_jacobian(UnitScratch*, const UnitState&, RowLevel level, SparseMatrix& J) const override {
    if (row() >= 0 && level == RowLevel::Position) map_.scatter_add(J, Mat1(1.0));
  }
  std::string row_label(int) const override { return "hold x (test)"; }

 protected:
  void on_layout() override { x_ = coordinate_(); }

 private:
  using Mat1 = Eigen::Matrix<double, 1, 1>;
  int row() const { return active_row(0); }
  std::function<int()> coordinate_;
  double held_;
  int x_ = -1;
  BlockMap map_;
};

}  // namespace mbdae::test
