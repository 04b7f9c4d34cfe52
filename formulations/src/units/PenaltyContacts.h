#pragma once
// Penalty contacts: every pair of contact shapes on different bodies that the narrow phase of
// ContactGeometry.h handles is a force element (Multibody.h), evaluated only where the broad
// phase finds the pair's shapes near each other; its tangent by central differences local to the
// pair's two bodies.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <mbdae/contact/ContactGeometry.h>

#include "Units.h"

namespace mbdae::units {

class PenaltyContacts final : public AssemblyUnit {
 public:
  /// @throws ModelError for an invalid contact, an unknown body, a pair without penalty parameters.
  explicit PenaltyContacts(UnitContext& cx);
  const char* kind() const override { return "penalty contacts"; }
  AvailableJacobians available_jacobians() const override { return {false, false, true, true, true}; }
  void claim(UnitLayout&) override {}
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  std::unique_ptr<UnitScratch> make_scratch() const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override { add_forces(w, s, -1.0, r); }
  void forces(UnitScratch* w, const UnitState& s, VecRef f) const override { add_forces(w, s, 1.0, f); }
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;

  int num_pairs() const { return static_cast<int>(pairs_.size()); }
  /// The pairs whose shapes may touch at q (broad phase), valid until the next call with w.
  const std::vector<int>& active_pairs(UnitScratch* w, const double* q) const;

 private:
  /// A pair of contact shapes on different bodies, handled as a penalty force element.
  struct Pair {
    std::string name;                    // "contacts 'x' and 'y'", for messages
    BodyIndex a = kGround, b = kGround;  // bodies of shapes 1 and 2 (model order)
    PlacedShape g1, g2;                  // geometry, pose in the body frame (from the reference point)
    PenaltyParameters pen;               // the pair's parameters
    double mu = 0;                       // pair friction √(μ_a μ_b)
    double mur = 0;                      // pair rolling resistance max(μ_r,a, μ_r,b)
    double mut = 0;                      // pair torsional friction max(μ_t,a, μ_t,b), m
    double chi = 0;                      // Hunt–Crossley damping factor χ, s/m
    int i = 0, j = 0;                    // its shapes
    std::vector<int> coords;             // coordinates of a then b
    int na = 0, nb = 0;
    BlockMap tangent_map;
  };
  /// A shape for the broad phase: its body, pose in the body frame and bounding radius.
  struct Shape {
    BodyIndex body = kGround;
    PlacedShape g;
    double bound = 0;
  };
  struct Scratch;
  void on_layout() override;
  /// The pair of shapes i < j, or a problem; false if the penalty path does not take it.
  void add_pair(size_t i, size_t j, std::vector<ModelProblem>& problems);
  void add_forces(UnitScratch* w, const UnitState& s, double sign, VecRef r) const;
  /// Wrenches (at the reference points, world) of pair cp on its two bodies; adds the elastic
  /// energy of the penetrations to *V if V is given. No allocation.
  void wrenches(const Pair& cp, const Kin& k1, const Kin& k2, Wrench& w1, Wrench& w2, double* V) const;
  /// Generalised force of pair cp on its coordinates [q_a, q_b] (local vectors).
  void generalized(const Pair& cp, const double* qloc, const double* vloc, VecN& out) const;

  UnitContext& cx_;
  std::vector<Pair> pairs_;
  std::vector<Shape> shapes_;
  std::vector<int> finite_shapes_, plane_shapes_;
  std::vector<double> finite_bound_;
  std::vector<int> finite_group_;
  std::unordered_map<std::uint64_t, int> pair_of_shapes_;  // (i << 32) | j, i < j → pairs_ index
};

}  // namespace mbdae::units
