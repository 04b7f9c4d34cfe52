#pragma once
// The force elements' unit: each element's generalised force on its bodies' coordinates (the
// wrenches of ForceKernels.h mapped by T = [I 0; 0 R G]) and on the controller states it reads, its
// tangent by central differences local to its bodies (or from a user Jacobian), its potential.

#include <vector>

#include "../ForceKernels.h"
#include "Units.h"

namespace mbdae::units {

/// A force element: bodies, their coordinates, markers fixed at set-up.
struct ForceData : detail::ForceGeometry {  // markers fixed at set-up
  const ForceElement* src = nullptr;        // points into the compiled model
  std::vector<BodyIndex> bodies;
  std::vector<int> states;                  // the controller states it reads (indices)
  std::vector<int> coords, sizes;           // global coordinate indices (body by body, then the
                                            // controller states it reads), sizes (bodies only)
  int n_body_coords = 0;                    // the bodies' share of coords
  BlockMap tangent_map;
  size_t index = 0;                         // in the compiled model's forces (its turn count)
};

/// The scratch of the force elements (and of the friction by reaction, which uses their kernels).
struct ForceScratch final : UnitScratch {
  std::vector<BodyMotion> user_motion;         // wrenches(): user forces
  std::vector<Kin> gen_kin;                    // generalized()
  std::vector<Wrench> gen_wrench;              // generalized_kin()
  std::vector<double> elem_q, elem_v, elem_g;  // forces()
  std::vector<Kin> elem_kin;                   // residual()
  std::vector<Wrench> elem_wrench;
  std::vector<double> elem_states;             // element_states()
  std::vector<double> tan_q, tan_v, tan_gp, tan_gm, tan_B;  // add_tangent()
  std::vector<Kin> tan_kin0, tan_kin;
  std::vector<Kin> pot_kin;                    // potential_energy()
  std::vector<Wrench> pot_wrench;
  /// Run state: each element's turn count (PairMotion::last_angle), one per element.
  std::vector<double> last_angle;
  std::vector<Kin> pow_kin, pow_rest;          // powers()
  std::vector<Wrench> pow_wrench;
};

class ForceElements final : public AssemblyUnit {
 public:
  explicit ForceElements(UnitContext& cx);
  const char* kind() const override { return "force elements"; }
  /// ∂f/∂q, ∂f/∂v by central differences over each element's bodies (user forces with a Jacobian:
  /// its ∂W/∂x, ∂W/∂ξ and differences of the kinematic terms).
  AvailableJacobians available_jacobians() const override { return {false, false, true, true, true}; }
  void claim(UnitLayout&) override {}
  void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const override;
  void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) override;
  std::unique_ptr<UnitScratch> make_scratch() const override;
  void residual(UnitScratch* w, const UnitState& s, VecRef r) const override;
  void forces(UnitScratch* w, const UnitState& s, VecRef f) const override;
  void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                   SparseMatrix& A) const override;
  void add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const override;

  /// The power of every element at s (ForcePowers, in the order of list()).
  void powers(UnitScratch* w, const UnitState& s, ForcePowers& out) const;

  const std::vector<ForceData>& list() const { return forces_; }
  /// Kinematics of an element's bodies from a local coordinate vector (body by body).
  void kin(const ForceData& fd, const double* qloc, const double* vloc, std::vector<Kin>& ks) const;
  /// Generalized forces on the element's body coordinates (out: coords.size()) from its wrenches w
  /// (at the points of ks, world): the force on the translation, (R G)ᵀ of the torque on the rotation.
  static void generalized_from_wrenches(const ForceData& fd, const std::vector<Kin>& ks,
                                        const std::vector<Wrench>& w, double* out);

 private:
  void on_layout() override;
  /// Wrenches of fd on its bodies from their kinematics; adds its potential to *V if given.
  void wrenches(ForceScratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks, std::vector<Wrench>& out,
                double* V, const double* states = nullptr) const;
  /// The values of the controller states fd reads, from the global velocities v.
  const double* element_states(ForceScratch& W, const ForceData& fd, const double* v) const;
  void generalized(ForceScratch& W, const ForceData& fd, double t, const double* qloc, const double* vloc,
                   double* out) const;
  void generalized_kin(ForceScratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                       const double* states, double* out) const;
  /// −(c_q ∂f/∂q + c_v ∂f/∂v) of a user force with a given Jacobian.
  void user_force_tangent(ForceScratch& W, const ForceData& fd, double t, VecX& ql, const VecX& vl, double c_q,
                          double c_v, MatX& B) const;
  /// −(c_q ∂f/∂q + c_v ∂f/∂v) of fd by central differences, into W.tan_B (coords × coords).
  void difference_tangent(ForceScratch& W, const ForceData& fd, const UnitState& s, double c_q, double c_v) const;

  UnitContext& cx_;
  std::vector<ForceData> forces_;
};

}  // namespace mbdae::units
