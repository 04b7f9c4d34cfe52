#pragma once
/// @file LieGroupBodies.h
/// Free rigid bodies on a Lie group (Bauer, "Rigid Body Dynamics on Lie Groups", 2024, seed 002;
/// Exudyn's NodeRigidBodyRotVecLG for the SO(3)×R³ variant). The body frame is placed at the
/// centre of mass (its axes are the model body's axes), so the spatial inertia is block-diagonal:
/// I = diag(J_C, m 1) with J_C the full inertia about the COM in body axes.
///
/// Configuration g = (R, p): R = R_WB, p = x_C (COM, world). Velocity: a twist ξ = (ω, v) with
///
/// | group    | ω              | v                     | g update                       | equation of ξ                          |
/// |----------|----------------|-----------------------|--------------------------------|----------------------------------------|
/// | SE(3)    | ω_B, body axes | v_B = Rᵀ ẋ_C, body    | g ← g exp(h ξ̂) (se3_exp)       | I ξ̇ = F_B + ad_ξᵀ I ξ                  |
/// | SO(3)×R³ | ω_B, body axes | v_W = ẋ_C, world      | R ← R exp(h ω̃), p ← p + h v_W | J_C ω̇ = τ_B − ω × J_C ω, m v̇_W = F_W |
///
/// ad_ξ = [[ω̃, 0], [ṽ, ω̃]] (LieGroup.h), so ad_ξᵀ I ξ = (−ω × J_C ω, −m ω × v): for SE(3) the
/// equation is Euler's equations plus Newton's law in body axes, m v̇_B = F_B − m ω × v_B, with
/// gravity and forces entering in body coordinates (F_B = (τ_B, Rᵀ F_W)). Both groups give the
/// same motion; they differ in the discretisation (SE(3) couples p to the rotation in exp).
///
/// State handed to observers (StateView), body by body, as Exudyn's rotation-vector Lie-group
/// node: q = [x_C (3), rotation vector log(R) (3)] (6 per body), v = [ẋ_C world (3), ω_B (3)]
/// (6 per body). Internally R is kept as a matrix, never re-parametrised.
///
/// Joints are not supported on this path (the constructor throws if the model has any).

#include <memory>
#include <vector>

#include <mbdae/model/System.h>
#include <mbdae/model/math/LieGroup.h>

namespace mbdae {

class CompiledModel;  // CompiledModel.h

/// Which group the bodies' configurations live on (see the table above).
enum class LieGroupType {
  SE3,     ///< SE(3): twist in body axes, coupled exponential
  SO3xR3,  ///< SO(3) × R³: ω in body axes, COM velocity in world
};
/// "SE3" or "SO3xR3". No throw.
const char* to_string(LieGroupType g);

/// State on the group: n poses and n twists.
struct LieGroupState {
  std::vector<math::Pose> g;  ///< pose of each body's COM frame
  VecX xi;                    ///< twists, 6 per body, (ω, v) as in the table above
};

/// Free rigid bodies on SE(3) or SO(3)×R³ (file comment): gravity, loads and linear/angular
/// damping; force elements (System::forces()) are not applied on this path. Body indices are
/// those of the model; n = num_bodies().
class LieGroupBodies {
 public:
  /// @param model           copied; validated, must have no joints
  /// @param group           SE(3) or SO(3)×R³
  /// @param linear_damping  c_lin, N s/m: force −c_lin ẋ_C on every body (not checked)
  /// @param angular_damping c_rot, N m s: torque −c_rot ω on every body (not checked)
  /// @throws ModelError for an invalid model; std::invalid_argument if it has joints.
  explicit LieGroupBodies(const System& model, LieGroupType group = LieGroupType::SE3,
                          double linear_damping = 0.0, double angular_damping = 0.0);
  /// The same from a compiled model (CompiledModel.h), which it shares.
  /// @throws std::invalid_argument for a null model, else as above.
  explicit LieGroupBodies(std::shared_ptr<const CompiledModel> compiled, LieGroupType group = LieGroupType::SE3,
                          double linear_damping = 0.0, double angular_damping = 0.0);

  /// The group chosen at construction.
  LieGroupType group() const { return group_; }
  /// Number of bodies n (ground excluded).
  int num_bodies() const { return static_cast<int>(m_.size()); }
  /// Poses and twists of the model's initial body states (n poses, ξ of size 6n).
  LieGroupState initial_state() const;

  /// ξ̇ (6n) at (t, state) (resized).
  void twist_rate(double t, const LieGroupState& s, VecX& xidot) const;
  /// θ̇ = dexp⁻¹_{−θ}(ξ) for the right-trivialised update g = g0 exp(θ): SE(3) by the Bernoulli
  /// series ξ + ½ ad_θ ξ + 1/12 ad_θ² ξ (enough for order 4, Munthe-Kaas 1998), SO(3)×R³ with
  /// the exact SO(3) tangent inverse for ω and θ̇_p = v. Both 6-vectors of one body.
  Vec6 dexpinv(const Vec6& theta, const Vec6& xi) const;
  /// g0 exp(θ) for one body.
  math::Pose retract(const math::Pose& g0, const Vec6& theta) const;

  /// q = [x_C, log R], v = [ẋ_C, ω_B] per body (resized).
  void to_coordinates(const LieGroupState& s, VecX& q, VecX& v) const;
  /// Kinetic + gravitational potential energy, J.
  double energy(const LieGroupState& s) const;
  /// Angular momentum about the world origin, world axes.
  Vec3 angular_momentum(const LieGroupState& s) const;
  /// COM velocity of body i, world, m/s (i ∈ [0, n), not checked).
  Vec3 com_velocity(const LieGroupState& s, int i) const;

 private:
  std::shared_ptr<const CompiledModel> cm_;
  const System& model_;  // cm_'s
  LieGroupType group_;
  double c_lin_, c_rot_;
  std::vector<double> m_;
  std::vector<Mat3> J_, Jinv_;
  std::vector<Vec3> b_;
  std::vector<std::vector<int>> loads_;
};

}  // namespace mbdae
