#pragma once
// A unit that lives only in the tests: one coordinate x of a mass on a spring and a damper to a
// fixed point, m ẍ + d ẋ + k x = 0, alongside whatever the model holds. It is registered by one
// line (MultibodyOptions::extra_units) and uses the default tangent: central differences of its
// local residual (AssemblyUnit::tangent_by_differences), no analytic derivative.

#include <string>

#include <mbdae/formulations/AssemblyUnit.h>

namespace mbdae::test {

class SpringCoordinateUnit final : public AssemblyUnit {
 public:
  SpringCoordinateUnit(double m, double k, double d, double x0, double v0) : m_(m), k_(k), d_(d), x0_(x0), v0_(v0) {}
  const char* kind() const override { return "spring coordinate (test)"; }
  AvailableJacobians available_jacobians() const override { return {}; }  // all by differences
  void claim(UnitLayout& layout) override { x_ = layout.add_coordinates(1); }
  void add_pattern(PatternBuilder& tangent, PatternBuilder&) const override { tangent.add_block(x_, 1, x_, 1); }
  void make_maps(const SparseMatrix& tangent, const SparseMatrix&) override {
    map_ = BlockMap::make(tangent, {x_}, {x_});
  }
  void initial_state(VecRef q0, VecRef v0) const override {
    q0[x_] = x0_;
    v0[x_] = v0_;
  }
  void residual(UnitScratch*, const UnitState& s, VecRef r) const override {
    local(s.q.data() + x_, s.v.data() + x_, s.a.data() + x_, r.data() + x_);
  }
  void forces(UnitScratch*, const UnitState& s, VecRef f) const override { f[x_] = -k_ * s.q[x_] - d_ * s.v[x_]; }
  void add_tangent(UnitScratch*, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override {
    tangent_by_differences({x_}, s, c_q, c_v, c_a, map_,
                           [this](const double* q, const double* v, const double* a, double* r) { local(q, v, a, r); }, A);
  }
  void add_mass(UnitScratch*, const UnitState&, SparseMatrix& M) const override { map_.scatter_add(M, Mat1(m_)); }
  void add_kinetic_energy(const UnitState& s, double& E) const override { E += 0.5 * m_ * s.v[x_] * s.v[x_]; }
  void add_potential_energy(UnitScratch*, const UnitState& s, double& V) const override {
    V += 0.5 * k_ * s.q[x_] * s.q[x_];
  }
  std::string coordinate_label(int i) const override { return i == x_ ? "spring coordinate x" : ""; }
  int coordinate() const { return x_; }

 private:
  using Mat1 = Eigen::Matrix<double, 1, 1>;
  void local(const double* q, const double* v, const double* a, double* r) const {
    r[0] = m_ * a[0] + d_ * v[0] + k_ * q[0];
  }
  double m_, k_, d_, x0_, v0_;
  int x_ = -1;
  BlockMap map_;
};

}  // namespace mbdae::test
