#pragma once
// Controller states (System::controller_states(), ż = g(t, bodies' motions, states)): one
// coordinate each, carried as a velocity (v_k = z_k, q_k = ∫ z_k dt, a_k = ż_k), with the residual
// r_k = a_k − g_k (Multibody.h); ∂g/∂q and ∂g/∂v by central differences over what g reads.

#include <string>
#include <vector>

#include "Units.h"

namespace mbdae::units {

class Controllers final : public AssemblyUnit {
 public:
  explicit Controllers(UnitContext& cx);
  const char* kind() const override { return "controller states"; }
  AvailableJacobians available_jacobians() const override { return {false, false, true, false, false}; }
  void claim(UnitLayout& layout) override;
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  std::unique_ptr<UnitScratch> make_scratch() const override;
  void initial_state(VecRef q0, VecRef v0) const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch* w, const UnitState& s, VecRef f) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_mass(UnitScratch* w, const UnitState& s, SparseMatrix& M) const override;
  std::string coordinate_label(int i) const override;
  /// Coordinate of state k. @throws std::out_of_range for a bad index.
  int coordinate(int k) const { return list_.at(static_cast<size_t>(k)).c; }

 private:
  /// A controller state z: its coordinate c, the bodies and states its derivative reads, its
  /// tangent row.
  struct State {
    const ControllerState* src = nullptr;  // points into the compiled model
    int c = 0;                             // global coordinate
    std::vector<BodyIndex> bodies;
    std::vector<int> states;               // the states it reads (indices)
    std::vector<int> sizes;                // coordinates of each body
    std::vector<int> coords;               // global coordinates: the bodies', then the states' read
    int n_body_coords = 0;
    BlockMap tangent_map;                  // row {c} × coords
  };
  struct Scratch;
  void on_layout() override;
  /// ż of state cd from its local coordinates (bodies' q and v, then the states' v).
  double derivative(Scratch& W, const State& cd, double t, const double* qloc, const double* vloc) const;
  /// f[c] ← sign g(c) for every state, after setting it to `own` (a or 0).
  void add_derivatives(Scratch& W, const UnitState& s, double sign, VecRef r) const;

  UnitContext& cx_;
  std::vector<State> list_;
};

}  // namespace mbdae::units
