#pragma once
// Joint friction whose normal force is its joint's reaction (ForceElement::normal_from_reaction):
// f_r = N_r(q, λ) g(q, v), added in the residual (which has λ), not in forces(); its ∂r/∂q, ∂r/∂v
// by central differences at fixed λ, its ∂r/∂λ analytic (add_multiplier_tangent()).

#include <vector>

#include "ForceElements.h"
#include "Joints.h"

namespace mbdae::units {

class ReactionFriction final : public AssemblyUnit {
 public:
  /// Refuses (ModelError, by element) friction by reaction unless options.reaction_friction: only a
  /// caller that forms ∂r/∂λ with assemble_multiplier_tangent() may take it.
  static void refuse_unless_enabled(const System& model, const MultibodyOptions& options);
  /// @throws std::logic_error if an element's joint or bodies are not found (refused before).
  ReactionFriction(UnitContext& cx, const ForceElements& forces, const Joints& joints);
  const char* kind() const override { return "friction by reaction"; }
  AvailableJacobians available_jacobians() const override { return {false, false, true, true, true}; }
  void claim(UnitLayout&) override {}
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  std::unique_ptr<UnitScratch> make_scratch() const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch*, const UnitState&, VecRef) const override {}  // no λ there
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  /// Adds −(∂N_r/∂λ) gᵀ on its joint's rows × its element's coordinates to D (C_q's pattern).
  void add_multiplier_tangent(UnitScratch* w, const UnitState& s, SparseMatrix& D) const;
  bool empty() const { return list_.empty(); }

 private:
  struct Element {
    int force = 0, joint = 0;
    BlockMap lam_map, tangent_map;
  };
  struct Scratch;
  double reaction_normal(const Element& rf, double t, const Kin& ka, const Kin& kb, const double* lambda,
                         double* dN) const;
  void unit_force(Scratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks, double* out) const;
  void local(Scratch& W, const Element& rf, double t, const double* ql, const double* vl, const double* lambda,
             double* out) const;

  const ForceElements& forces_;
  const Joints& joints_;
  std::vector<Element> list_;
};

}  // namespace mbdae::units
