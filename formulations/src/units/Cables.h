#pragma once
// Flexible cables (System::cables(), Cable.h) in the implicit formulation: the planar ANCF cable
// elements (formulations/AncfCable2D.h: the equations and their sources) and their supports.
//
// Cables: 4 coordinates per node (x, y, x', y': position and slope, world), the nodes of a cable
// in order, cables in the model's order; per element M_e ë + Q_e(e, ė) − Q_ext = 0. Its
// tangent is analytic: M_e (constant), ∂Q_e/∂e and ∂Q_e/∂ė (ancf::tangent()).
//
// CableSupports: per support of a node to the ground or to a rigid body's point ρ (body axes),
//   pinned:  C = p_b + R ρ − r (x, y)                          2 rows
//   clamped: the same and C₃ = r' × (R d) (z of the 2-D cross)  3 rows
// with d the slope's direction at t0 in the body's axes (the ground's: world). C_q and γ are
// analytic; ∂(C_qᵀλ)/∂q and ∂Ċ/∂q are central differences local to each support.

#include <string>
#include <vector>

#include <mbdae/formulations/AncfCable2D.h>

#include "Units.h"

namespace mbdae::units {

class Cables final : public AssemblyUnit {
 public:
  explicit Cables(UnitContext& cx);
  const char* kind() const override { return "cables"; }
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
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;
  std::string coordinate_label(int i) const override;
  /// MultibodySystem::cable_point(). @throws std::out_of_range for a bad index.
  CablePoint point(int cable, double s, ConstVecRef q, ConstVecRef v) const;
  /// First coordinate (x) of node `node` of cable `cable`. @throws std::out_of_range.
  int node_coordinate(int cable, int node) const { return data_.at(static_cast<size_t>(cable)).first + 4 * node; }

 private:
  using Vec2d = Eigen::Vector2d;
  struct CableData {
    int first = 0;       // coordinate of node 0's x
    int elements = 0;
    double L = 0;        // element length, m
    ancf::Section section;
    ancf::Mat8 M;        // element mass matrix
    ancf::Vec8 load;     // element generalized load (gravity and distributed load)
    Vec2d t0, r0, v0;    // direction, start, velocity at t0 (x, y)
    std::vector<BlockMap> maps;  // per element, 8 × 8
  };
  /// f = −Q_e + Q_ext (adds on own coordinates, which the caller zeroed).
  void add_forces(const UnitState& s, double sign, VecRef out) const;

  UnitContext& cx_;
  std::vector<CableData> data_;
};

class CableSupports final : public AssemblyUnit {
 public:
  CableSupports(UnitContext& cx, const Cables& cables);
  const char* kind() const override { return "cable supports"; }
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

 private:
  static constexpr int kMaxCoords = 11;  // a node's 4 and a body's up to 7
  using LocalVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxCoords, 1>;
  using Grad = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxCoords>;
  struct Support {
    std::string label;       // "cable 'c' node 3 clamped to 'arm'"
    int rows = 2;            // 2 pinned, 3 clamped
    int first_row = 0;       // local index of its first row
    int cable = 0, node = 0;
    BodyIndex body = kGround;
    Vec3 rho = Vec3::Zero();  // body point, body axes (ground: world)
    Vec3 d = Vec3::Zero();    // slope direction, body axes (ground: world)
    std::vector<int> coords;  // the node's 4, then the body's
    std::vector<int> active;  // active row of each of its rows (-1 disabled)
    std::vector<BlockMap> row_maps;  // per row: 1 × coords of the row Jacobian (empty if disabled)
    BlockMap tangent_map;
  };
  /// Rows of u at local (q, v): C (level Position), Ċ (Velocity) or γ (Acceleration) into c;
  /// C_q into G if not null (rows × coords).
  void eval(const Support& u, const double* q, const double* v, RowLevel level, double* c, Grad* G) const;
  void gather(const Support& u, ConstVecRef x, LocalVec& out) const;
  /// Adds the rows of G (its active ones) to J.
  static void scatter_rows(const Support& u, const Grad& G, SparseMatrix& J);

  UnitContext& cx_;
  const Cables& cables_;
  std::vector<Support> list_;
};

}  // namespace mbdae::units
