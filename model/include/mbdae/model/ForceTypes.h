#pragma once
/// @file ForceTypes.h
/// The force element types, each described once: model-file name and keys, checks, markers and
/// force law. A type is one source file in model/src/forces/ that fills a ForceTypeInfo, plus one
/// line in model/ForceTypeList.h, which makes its enumerator in ForceType, its declaration and
/// its entry in the registry (model/src/forces/Registry.cpp). The
/// model loader, System::check(), to_string(), the formulations (through
/// formulations/src/ForceKernels.h) and the docs read this table; the type's own checks live in
/// its file (ForceTypeInfo::check, check_in_model), not in System::problems().
///
/// A pairwise element acts between a marker on body a and a marker on body b. Its law gets the
/// relative kinematics of the markers (d = p_b + r_b − p_a − r_a and its rate, the bodies'
/// rotations and angular velocities) and returns the force F_b on b at b's marker point and the
/// torque T_b on b; body a gets −F_b at the same point and −T_b. Tangents are formed by the
/// formulations (central differences local to the element's bodies) unless an element gives them.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <mbdae/model/ElementKeys.h>
#include <mbdae/model/System.h>

namespace mbdae {

/// Markers of a pairwise force element at the initial configuration, world coordinates.
struct ForceMarkers {
  Vec3 point_a = Vec3::Zero();      ///< marker point on a, world, t0
  Vec3 point_b = Vec3::Zero();      ///< marker point on b, world, t0
  Mat3 frame = Mat3::Identity();    ///< marker frame of a and b (columns = axes), world, t0
  double reference = 0;             ///< free length (m) or free angle (rad), where the law has one
};

/// A pairwise element's markers in body axes, fixed at set-up (the formulations' form).
struct ForceGeometry {
  Vec3 xa = Vec3::Zero();           ///< marker point on a, body a's axes from its point of reduction
  Vec3 xb = Vec3::Zero();           ///< marker point on b, body b's axes
  Mat3 Aa = Mat3::Identity();       ///< marker frame on a, body a's axes
  Mat3 Ab = Mat3::Identity();       ///< marker frame on b, body b's axes
  double L0 = 0;                    ///< ForceMarkers::reference
};

/// Relative kinematics of the two markers of a pairwise element, world axes.
struct PairMotion {
  Vec3 d;    ///< separation p_b + r_b − p_a − r_a, m
  Vec3 dd;   ///< its rate, m/s
  Mat3 Ra;   ///< R_WB of body a
  Mat3 Rb;   ///< R_WB of body b
  Vec3 wa;   ///< angular velocity of a, rad/s
  Vec3 wb;   ///< angular velocity of b, rad/s
  double t = 0;  ///< time, s (for laws that depend on it)
  std::span<const double> states{};  ///< values of the element's ForceElement::states, in that order
  /// Run state of laws that count a joint's turns (joint_motor, joint_limit on a revolute joint):
  /// the joint angle of the element's last evaluation (rad, turns counted), which the law reads
  /// and updates. The angle of a state is the one nearest to it with the same remainder modulo
  /// 2π, so turns are counted as long as two successive evaluations differ by less than half a
  /// turn. The caller keeps it (a formulation's workspace: one count per run, none in the model);
  /// null: no memory, the angle as from 0, in [−π, π].
  double* last_angle = nullptr;
};

/// A model-file key of a force type, beyond name, type and bodies.
using ForceKey = ElementKey<ForceElement>;

/// Everything about one force element type.
struct ForceTypeInfo {
  ForceType type;            ///< its enumerator
  const char* name;          ///< model-file `type:`
  const char* summary;       ///< one line for docs and messages
  std::vector<ForceKey> keys;  ///< the keys that apply
  bool pairwise;             ///< two bodies and a law (else: a user function of any number of bodies)
  bool in_model_file;        ///< may be written in a model file (else: built in C++ only)
  /// Type-specific problems (names, bodies and finiteness are checked by the caller), each with
  /// the key it is about; the caller names the element.
  void (*check)(const ForceElement& f, std::vector<KeyProblem>& problems);
  /// Markers (pairwise types; nullptr otherwise).
  ForceMarkers (*markers)(const ForceElement& f);
  /// The law (pairwise types; nullptr otherwise): F_b, T_b from the relative motion; adds the
  /// element's potential energy to *V if V is not null.
  void (*law)(const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double* V);
  /// Type-specific problems that need the rest of the model (the joint a joint element acts on),
  /// as `check`; called by System::problems() after `check`. nullptr: the type has none.
  void (*check_in_model)(const ForceElement& f, const System& model, std::vector<KeyProblem>& problems) = nullptr;
  /// The element may read controller states (ForceElement::states); System::problems() refuses
  /// states on the other types by name.
  bool reads_states = false;
};

/// joint_friction: the Coulomb–Stribeck level F(v) = μ N + (μ_s − μ) N exp(−(v/v_s)²), N, of
/// element f at the slip speed v ≥ 0 (m/s at the pin surface) (forces/JointFriction.cpp). No throw.
double joint_friction_level(const ForceElement& f, double v);
/// joint_friction: the coefficient of the same curve, c(v) = μ + (μ_s − μ) exp(−(v/v_s)²), so that
/// F(v) = c(v) N; it multiplies the joint's reaction when the normal force is the reaction
/// (ForceElement::normal_from_reaction). No throw.
double joint_friction_coefficient(const ForceElement& f, double v);
/// joint_friction: the wrench of element f's law with the normal force `normal` (N) in place of
/// f.normal_force: F_b along and T_b about the joint axis on b from the regularized Coulomb–Stribeck
/// law (skipped if f.by_impulses), plus the viscous terms if `viscous`. The law of the force table
/// is joint_friction_wrench(f, f.normal_force, true, ...); the implicit formulation adds
/// N_r joint_friction_wrench(f, 1, false, ...) for the joint's reaction N_r (normal_from_reaction).
/// No throw.
void joint_friction_wrench(const ForceElement& f, double normal, bool viscous, const ForceGeometry& g,
                           const PairMotion& m, Vec3& Fb, Vec3& Tb);
/// joint_friction with normal_from_reaction: the normal force N_r = |F_⊥| + (r_a / r) |F_∥| of the
/// force F (N, world) that the joint's equations exert on b, ⊥ and ∥ to the unit axis e (the
/// axial part for a revolute joint with axial_radius only), without the preload normal_force; with
/// dN (if not null) ∂N_r/∂F (the subgradient 0 where a component is exactly 0). No throw.
double joint_friction_reaction_normal(const ForceElement& f, const Vec3& F, const Vec3& e, Vec3* dN = nullptr);
/// Whether a joint of type t has an angle (revolute, cylindrical). No throw.
bool joint_turns(JointType t);
/// Whether a joint of type t has a slide (prismatic, cylindrical). No throw.
bool joint_slides(JointType t);

/// Every force type, in the order of the ForceType enumerators.
const std::vector<ForceTypeInfo>& force_types();
/// The description of type `t`. No throw.
const ForceTypeInfo& force_type_info(ForceType t);
/// The type named `name` in the model file; nullptr if there is none.
const ForceTypeInfo* find_force_type(std::string_view name);

}  // namespace mbdae
