#pragma once
/// @file System.h
/// The description of a mechanism: rigid bodies, joints, loads and gravity, as a user states it.
/// Nothing here knows about coordinates or solvers; formulations turn a System into equations.
///
/// Conventions (see docs/conventions.md): SI units, angles in radians, rotation matrices rotate
/// body → world (p_W = p + R_WB p_B), quaternions [w, x, y, z]. Joint points and axes are given in
/// world coordinates at the initial configuration. The predefined body "ground" is fixed.

#include <array>
#include <compare>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <mbdae/model/Cable.h>
#include <mbdae/model/Contact.h>
#include <mbdae/model/ModalBody.h>
#include <mbdae/model/Types.h>

namespace mbdae {

/// How a body's orientation is parametrised in the implicit formulations.
enum class RotationParametrization {
  EulerParameters,  ///< 4 parameters + norm constraint (default; no singularity)
  TaitBryan,        ///< xyz angles, R = Rx Ry Rz (singular at |angle_y| = π/2)
  RotationVector,   ///< rotation vector (axis·angle); singular at |v| = 2π
};
/// Name of `p` as in the model file ("euler_parameters", "rxyz", "rotation_vector"). No throw.
const char* to_string(RotationParametrization p);

/// The solid a body was described by (the model file's `shape`), for drawing: centred at the
/// COM, in body axes. The loader computes the inertia from it; formulations ignore it.
struct BodyShape {
  /// Which solid (the lengths are full lengths, m).
  enum class Kind {
    Box,       ///< `size` = [lx, ly, lz] along the body axes
    Cylinder,  ///< `size` = [radius, length, 0] about `axis`
    Sphere,    ///< `size` = [radius, 0, 0]
    Capsule,   ///< `size` = [radius, length between the caps' centres, 0] about `axis`
  };
  Kind kind = Kind::Box;      ///< which solid
  Vec3 size = Vec3::Zero();   ///< m, see Kind
  Vec3 axis = Vec3::UnitZ();  ///< cylinder and capsule axis, body axes (unit length)
};

/// A rigid body. Inertia is about the reference point in body axes (the 6-vector
/// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] of tensor entries); com is the centre of mass relative to the
/// reference point, body axes.
struct RigidBody {
  std::string name;  ///< unique, not "ground"
  double mass = 0;               ///< kg, > 0
  Vec6 inertia = Vec6::Zero();   ///< kg m², tensor about the reference point, body axes
  Vec3 com = Vec3::Zero();       ///< m, body axes
  Vec3 position = Vec3::Zero();  ///< reference point, world, m
  Mat3 orientation = Mat3::Identity();  ///< R_WB at t0
  Vec3 velocity = Vec3::Zero();         ///< of the reference point, world, m/s
  Vec3 angular_velocity = Vec3::Zero(); ///< world axes, rad/s
  /// Orientation coordinates used by the implicit formulations for this body.
  RotationParametrization rotation = RotationParametrization::EulerParameters;
  /// The solid the inertia came from, if the model gave one (drawn by the viewer).
  std::optional<BodyShape> shape;

  /// Inertia tensor about the reference point (body axes, kg m², 3 × 3 symmetric) from the
  /// 6-vector. No checks, no throw.
  Mat3 inertia_tensor() const;
};

/// Kind of a Joint; the equations of each are listed at Joint. The enumerators come from the one
/// list of joint types, model/JointTypeList.h (with the number of equations of each).
enum class JointType {
/// One enumerator per line of model/JointTypeList.h.
#define MBDAE_JOINT_TYPE(enumerator, factory) enumerator,
#include <mbdae/model/JointTypeList.h>
#undef MBDAE_JOINT_TYPE
};
/// Name of `t` as in the model file ("spherical", "rolling_disc", …). No throw.
const char* to_string(JointType t);

/// A scalar function of time with optional derivatives, e.g. the motion of a driven joint.
/// `value` is required; where `velocity` or `acceleration` are not given they are computed by
/// Richardson-extrapolated central differences of `value` (fourth order, steps 1e-3 s and 1e-2 s):
/// truncation ~h⁴ times the fifth (sixth) derivative plus round-off ~ε|s|/h (ε|s|/h²), i.e. about
/// 1e-11 and 1e-9 for functions of order one that vary on a time scale of 1 s. Give the
/// derivatives explicitly for faster motions or large values of s.
/// The model loader turns `motion:` expressions into this; no expression parser is needed here.
struct TimeFunction {
  std::function<double(double)> value;         ///< s(t): rad or m
  std::function<double(double)> velocity;      ///< ṡ(t), optional
  std::function<double(double)> acceleration;  ///< s̈(t), optional
  /// True if `value` is set (the joint is driven).
  explicit operator bool() const { return static_cast<bool>(value); }
  /// s(t). @throws std::bad_function_call if value is empty.
  double operator()(double t) const { return value(t); }
  /// ṡ(t) (rad/s or m/s): the given function or differences of value.
  /// @throws std::bad_function_call if neither velocity nor value is set.
  double derivative(double t) const;
  /// s̈(t) (rad/s² or m/s²): the given function, differences of velocity if only it is given, or
  /// of value. @throws std::bad_function_call if none of the three is set.
  double second_derivative(double t) const;
};

/// The initial value of a joint's relative coordinates (model file `initial:`), measured from the
/// configuration the model is drawn in (bodies' `position`/`orientation`, joints' `point`/`axis`:
/// there every joint coordinate is 0). Body b's marker relative to body a's; which fields a joint
/// type reads: revolute `angle`, `rate`; prismatic `displacement`, `speed`; cylindrical all four;
/// spherical and universal `rotation`, `angular_velocity`. place_from_joint_coordinates()
/// (solvers/InitialPlacement.h) moves the bodies to it.
struct JointInitial {
  double angle = 0;         ///< rotation of b about `axis`, right-handed, rad
  double rate = 0;          ///< its rate, rad/s
  double displacement = 0;  ///< translation of b along `axis`, m
  double speed = 0;         ///< its rate, m/s
  /// Rotation of b relative to a (R_ab), in the drawn world axes carried with body a.
  Mat3 rotation = Mat3::Identity();
  /// ω_b − ω_a, the same axes, rad/s.
  Vec3 angular_velocity = Vec3::Zero();
};

/// A joint between two bodies (either may be "ground"). Constraints act between a marker on body
/// a and a marker on body b; both markers coincide with the joint point and frame at t0.
///
/// - spherical: point coincides (3 equations)
/// - revolute: point coincides, rotation only about `axis` (5)
/// - prismatic: translation only along `axis`, no relative rotation (5)
/// - fixed: no relative motion (6)
/// - generic: `constrained` = [x, y, z, rx, ry, rz] in the joint frame `frame` (columns are the
///   frame's axes in world coordinates; default identity); `offsets` make constrained
///   coordinates follow functions of time instead of 0
/// - distance: the distance between `point` on a and `point_b` on b stays `distance` (if not
///   given: the initial distance) (1)
/// - cylindrical: `point` stays on the line through a's marker along `axis`; rotation only about
///   it (4)
/// - universal (Cardan): points coincide and `axis` (fixed in a) keeps its initial angle φ0 to
///   `axis_b` (fixed in b): axis·axis_b = cos φ0 (90° for the usual cross; not parallel) (4)
/// - planar: b's marker stays in the plane through a's marker with normal `axis`; rotation only
///   about the normal (3)
/// - rolling_disc: body a is "ground" carrying the plane (`point` on it, normal `axis`); body b is
///   a disc with centre `point_b`, axis `axis_b` and `radius`. One position-level equation (the
///   lowest point of the rim is on the plane) and two velocity-level (nonholonomic) equations (the
///   rim's material point in contact has zero velocity along the plane), as Exudyn's
///   JointRollingDisc.
/// - coordinate: (p_b − p_a)·e_i = offset with i = `coordinate` (0, 1, 2: world x, y, z) and
///   p_a, p_b the marker points (both at `point` at t0, so offset 0 holds the initial value) (1)
/// - the joint primitives (as Adams'): inline (b's point on the line through a's point along
///   `axis`, 2), inplane (b's point in the plane normal to `axis`, 1), orientation (no relative
///   rotation, 3), parallel_axes (b's copy of `axis` stays parallel, 2), perpendicular (`axis_b`
///   on b stays ⊥ `axis` on a, 1)
/// - driven (revolute or prismatic with `motion` set): one more equation makes the relative
///   coordinate follow motion(t): for a prismatic joint x_a·d = s(t); for a revolute joint the
///   rotation of b's marker x axis about the joint axis from a's, written as
///   w_a(s(t))·x_b = 0 with w_a(s) = −sin s x_a + cos s y_a (a's marker y axis turned by s about
///   the axis), which has no angle wrap and is smooth for any number of turns. The relative
///   coordinate is 0 at t0, so motion(0) should be 0.
/// - speed-driven (revolute or prismatic with `speed` set, not with `motion`): one more equation,
///   at velocity level only (nonholonomic form, like the rolling disc's no-slip rows), makes the
///   rate of the relative coordinate follow speed(t): (ω_b − ω_a)·z_a − w(t) = 0 for a revolute
///   joint, d/dt(x_a·d) − w(t) = 0 for a prismatic one. Its multiplier is the drive's effort
///   (torque about, force along the axis); the coordinate itself is free to drift with the
///   integration error of the rate.
struct Joint {
  std::string name;                   ///< unique among the joints
  JointType type = JointType::Spherical;  ///< which equations (see above)
  std::array<std::string, 2> bodies;  ///< names of body a and body b
  Vec3 point = Vec3::Zero();          ///< world, at t0
  Vec3 axis = Vec3::UnitZ();          ///< revolute, prismatic, cylindrical, universal, planar, rolling_disc (plane normal): world, at t0
  std::optional<Mat3> frame;          ///< generic: joint frame (columns = axes, world, at t0)
  std::array<bool, 6> constrained{true, true, true, true, true, true};  ///< generic
  Vec3 point_b = Vec3::Zero();        ///< distance: point on body b (world, t0)
  std::optional<double> distance;     ///< distance: length (m)
  Vec3 axis_b = Vec3::UnitX();        ///< universal: axis fixed in b; rolling_disc: disc axis (world, t0)
  double radius = 0;                  ///< rolling_disc: disc radius, m, > 0
  int coordinate = 0;                 ///< coordinate: world axis 0, 1, 2
  double offset = 0;                  ///< coordinate: held value, m
  TimeFunction motion;                ///< revolute, prismatic: driven relative coordinate (rad, m)
  TimeFunction speed;                 ///< revolute, prismatic: driven rate of the relative coordinate (rad/s, m/s)
  /// generic: time-dependent offsets of the constrained relative coordinates [x, y, z, rx, ry, rz]
  /// (m, rad; an empty function holds 0). Translations: e_ai · d = o_i(t) along a's marker axes.
  /// Rotations: b's marker frame follows a's turned by Q(t) = Rx(o_rx) Ry(o_ry) Rz(o_rz) (a's
  /// axes, Tait–Bryan xyz), i.e. the rotation rows are those of the generic joint with a's frame
  /// A_a Q(t). Each given offset must be on a constrained coordinate and be 0 at t0.
  std::array<TimeFunction, 6> offsets;
  /// Initial coordinates relative to the drawn configuration (see JointInitial); std::nullopt: the
  /// joint takes no part in placing the bodies (its bodies are where the model puts them).
  std::optional<JointInitial> initial;
  /// True if any of `offsets` is set.
  bool has_offsets() const {
    for (const TimeFunction& f : offsets)
      if (f) return true;
    return false;
  }
  /// True if its equations depend on time explicitly (a motion, a speed or offsets).
  bool time_dependent() const { return static_cast<bool>(motion) || static_cast<bool>(speed) || has_offsets(); }
};

/// A coupling of 1-DOF joint coordinates (gear pair, rack and pinion, linear coupling): one
/// holonomic equation
///
///     Σ_i c_i q_i = 0,   c_i = `coefficients[i]`,
///
/// with q_i the relative coordinate of joint `joints[i]` measured from its value at t0: the angle
/// of a revolute joint (rad, right-handed about its `axis`, b relative to a, counting turns: it
/// does not wrap at ±π) or the displacement of a prismatic joint along its `axis` (m). Its
/// multiplier λ is the effort the coupling transmits: it applies the generalised force −c_i λ to
/// the coordinate of joint i (a torque about a revolute axis, a force along a prismatic axis, on
/// the joint's body b and its opposite on body a). Only these efforts along the joint
/// coordinates are modelled (as Modelica's IdealGear or Chrono's ChShaftsGear), not the tooth
/// force's radial component on the bearings. Kind only names how the model file stated it:
///
/// - gear (two revolute joints a, b, `ratio` r > 0): external θ_b + r θ_a = 0 (c = [r, 1]: b turns
///   the other way, r = |ω_b/ω_a| = teeth of a / teeth of b); internal (ring gear) θ_b − r θ_a = 0
///   (c = [−r, 1]).
/// - rack_pinion (revolute pinion, prismatic rack, `radius` R > 0): x = R θ (c = [−R, 1]).
/// - belt (two revolute joints with the same axis direction, pulley radii r_a, r_b, no slip):
///   r_a θ_a = r_b θ_b, the same sense of rotation (c = [r_a, −r_b]); crossed: r_a θ_a = −r_b θ_b.
/// - screw (revolute screw, prismatic nut, `lead` L per turn): x = L θ / 2π (c = [−L/2π, 1]).
/// - bevel (two revolute joints whose axes intersect at the cone apex, each axis pointing from
///   the apex towards its gear): θ_b + r θ_a = 0 with r = z_a / z_b = sin δ_a / sin δ_b (teeth z,
///   pitch cone angles δ, δ_a + δ_b = the angle between the axes) (c = [r, 1]).
/// - linear: the coefficients as given.
///
/// Any of the coordinates may also be a shaft's (System::shafts(), Shaft): its coordinate
/// measured from its initial value; a rotor stands for a revolute joint, a mass for a prismatic one.
struct Coupling {
  /// How the model file stated the coupling (for messages).
  enum class Kind {
    Gear,        ///< two revolute joints, ratio
    RackPinion,  ///< revolute then prismatic, radius
    Linear,      ///< coefficients given
    Belt,        ///< two revolute joints, pulley radii
    Screw,       ///< revolute then prismatic, lead
    Bevel,       ///< two revolute joints with intersecting axes, ratio from teeth or cone angles
  };
  std::string name;                  ///< unique among the couplings
  Kind kind = Kind::Linear;          ///< see above
  /// Names of revolute or prismatic joints or of shafts, ≥ 1, each once.
  std::vector<std::string> joints;
  std::vector<double> coefficients;  ///< c_i, one per joint, finite, not all zero
};
/// Name of `k` as in the model file ("gear", "rack_pinion", "linear", "belt", "screw", "bevel").
/// No throw.
const char* to_string(Coupling::Kind k);

/// A 1-D body of a drivetrain: a rotor with an inertia about its own axis or a mass on a line,
/// with one coordinate of its own (its angle or position, absolute: relative to the ground) and
/// no place in space (Modelica's Rotational.Components.Inertia and Translational.Components.Mass,
/// Chrono's ChShaft). Its equation is J q̈ = Σ efforts of its ShaftForce elements − the
/// constraint efforts of its couplings. It moves only through ShaftForce elements and couplings
/// (to other shafts, or to revolute and prismatic joints of the mechanism).
struct Shaft {
  /// Rotor (angle, rad) or linear mass (position, m).
  enum class Kind {
    Rotor,  ///< inertia kg m², angle rad
    Mass,   ///< mass kg, position m
  };
  std::string name;          ///< unique among the shafts, different from every joint's name, not "ground"
  Kind kind = Kind::Rotor;   ///< see above
  double inertia = 0;        ///< kg m² (rotor) or kg (mass), > 0
  double position = 0;       ///< angle (rad) or position (m) at t0
  double rate = 0;           ///< rad/s or m/s at t0
};
/// Name of `k` as in the model file ("rotor", "mass"). No throw.
const char* to_string(Shaft::Kind k);

/// An effort on shafts: a spring-damper between two shafts (or a shaft and "ground") or a load
/// (torque on a rotor, force on a mass) that is a function of time.
///
/// - spring_damper between a and b (`shafts`, either may be "ground", whose coordinate is 0):
///   with Δ = q_b − q_a, u = k (Δ − Δ0) + d Δ̇ acts as −u on b and +u on a; potential ½ k (Δ − Δ0)²;
///   Δ0 = `free_value` (default: Δ at t0, the spring relaxed).
/// - load on shaft `shafts[0]`: u = value_of_t(t) if set, else `value` (N m or N), power u q̇.
struct ShaftForce {
  /// Which law.
  enum class Kind {
    SpringDamper,  ///< between two shafts
    Load,          ///< torque or force of t on one shaft
  };
  std::string name;                    ///< unique among the shaft forces
  Kind kind = Kind::SpringDamper;      ///< see above
  std::array<std::string, 2> shafts;   ///< spring_damper: a, b ("ground" allowed); load: the shaft, ""
  double stiffness = 0;                ///< N m/rad or N/m, ≥ 0
  double damping = 0;                  ///< N m s/rad or N s/m, ≥ 0
  std::optional<double> free_value;    ///< Δ0, rad or m; std::nullopt: Δ at t0
  double value = 0;                    ///< load: N m or N (when value_of_t is not set)
  std::function<double(double)> value_of_t;  ///< load: u(t), optional
};
/// Name of `k` as in the model file ("spring_damper", "load"). No throw.
const char* to_string(ShaftForce::Kind k);

/// Pose and twist of a body's reference point (world axes), as handed to user force functions.
struct BodyMotion {
  Vec3 p = Vec3::Zero();      ///< position of the reference point, m
  Mat3 R = Mat3::Identity();  ///< R_WB
  Vec3 v = Vec3::Zero();      ///< velocity of the reference point, m/s
  Vec3 w = Vec3::Zero();      ///< angular velocity, rad/s
};
/// A force at a body's reference point and a torque, world axes.
struct Wrench {
  Vec3 force = Vec3::Zero();   ///< N
  Vec3 torque = Vec3::Zero();  ///< N m
};
/// User force: from t (s) and the motion of the element's bodies (same order as
/// ForceElement::bodies), write one wrench per body into `out` (already sized and zeroed).
using UserForceFunction =
    std::function<void(double t, const std::vector<BodyMotion>& bodies, std::vector<Wrench>& out)>;
/// User force that also reads controller states: as UserForceFunction, with `states[k]` the
/// value of the controller state ForceElement::states[k] (System::controller_states()).
using UserStateForceFunction = std::function<void(double t, const std::vector<BodyMotion>& bodies,
                                                  std::span<const double> states, std::vector<Wrench>& out)>;

/// Optional Jacobian of a user force: with x the stacked virtual displacements (δp, δφ) of the
/// element's bodies (world axes, 6 per body) and ξ their stacked twists (v, ω), write
/// dW_dx = ∂W/∂x and dW_dxi = ∂W/∂ξ (both 6N × 6N, already sized and zeroed), W being the
/// stacked wrenches (force, torque at the reference point) that the force function returns.
using UserForceJacobian = std::function<void(double t, const std::vector<BodyMotion>& bodies,
                                             MatX& dW_dx, MatX& dW_dxi)>;

/// The coordinates of a joint a joint_motor's effort may depend on, measured between the joint's
/// two markers (both at the joint point with z along the axis at t0, so all are 0 at t0).
struct JointCoordinates {
  double angle = 0;         ///< rotation of b's marker about the axis relative to a's, turns counted, rad
  double rate = 0;          ///< its rate, (ω_b − ω_a)·axis, rad/s
  double displacement = 0;  ///< translation of b's marker point along a's axis, m
  double speed = 0;         ///< its rate, m/s
  /// Values of the controller states the motor reads (ForceElement::states, in that order).
  std::span<const double> states;
};
/// A joint_motor's effort (N m or N) from t (s) and the coordinates of its joint.
using JointEffortFunction = std::function<double(double t, const JointCoordinates& q)>;

/// Kind of a ForceElement (described there). The enumerators come from the one list of force
/// element types, model/ForceTypeList.h.
enum class ForceType {
/// One enumerator per line of model/ForceTypeList.h.
#define MBDAE_FORCE_TYPE(enumerator, factory) enumerator,
#include <mbdae/model/ForceTypeList.h>
#undef MBDAE_FORCE_TYPE
};
/// Name of `t` as in the model file ("spring_damper", …). No throw.
const char* to_string(ForceType t);

/// How a rigid_body_spring_damper measures the relative rotation (see ForceElement).
enum class SpringRotationLaw {
  RotationVector,  ///< θ = log(Aᵀ B) in a's marker frame
  TaitBryan,       ///< θ = Tait–Bryan xyz angles of Aᵀ B (singular at θ_y = ±90°)
  MidFrame,        ///< θ = log(Aᵀ B), translation in the mid frame A exp(θ/2): the same for a, b swapped
};

/// A force element between bodies (either of a pair may be "ground"). Points and axes are world
/// coordinates at t0, fixed to the bodies from then on.
///
/// - spring_damper: point-to-point between `point` (on a) and `point_b` (on b); force along the
///   line, F = stiffness (L − length) + damping L̇ (tension positive); length defaults to the
///   initial distance. Potential ½ k (L − L0)².
/// - torsional_spring_damper: about `axis` (marker frame on a and b, z = axis, at `point`);
///   torque k (φ − φ0) + d φ̇ with φ the rotation of b's marker x axis about a's z axis,
///   φ = atan2 (single turn, (−π, π]); φ0 = `length` (rad, default 0). Meant with a revolute or
///   cylindrical joint on the same axis. Potential ½ k (φ − φ0)².
/// - rigid_body_spring_damper (Exudyn RigidBodySpringDamper): markers on a and b at `point` with
///   the frame `frame` (columns = axes, world at t0; default identity); A, B their frames now,
///   d = p_b − p_a their separation, R = Aᵀ B. `rotation_law` (SpringRotationLaw) fixes the
///   coordinates x = [u; θ] and the law frame J: rotation_vector u = Aᵀ d, θ = log R (J = A);
///   tait_bryan u = Aᵀ d, θ = xyz angles of R (J = A); mid_frame u = Mᵀ d, θ = log R with
///   M = A exp(θ/2) the frame halfway from A to B (J = M). Potential V = ½ xᵀ K x; the stiffness
///   wrench is exactly −∂V (the rotation part through the law's tangent map), the damping wrench
///   −J D [Jᵀ ḋ; Jᵀ (ω_b − ω_a)]. Equations in docs/joints_forces_analyses.md.
/// - cartesian_spring_damper (Exudyn CartesianSpringDamper): F_i = k_i (d_i − offset_i) + d_i ḋ_i
///   on b (−on a) with d = p_b − p_a the markers' world displacement. Potential ½ Σ k_i (d_i − o_i)².
///   The reaction −F acts on a at b's marker point (default: no moment between the pair) or, with
///   `reaction_at_a_marker`, at a's own marker point (then the force pair is exactly −∂V: energy
///   is conserved, angular momentum only if F ∥ d).
/// - user: `user` is called with the bodies' motions; any number of bodies (not ground); or
///   `user_of_states` with the motions and the values of the controller states `states`.
/// - joint_motor: on the revolute, prismatic or cylindrical joint `joint` (its bodies, `point`
///   and `axis` are the joint's): u = effort(t, q) with q the joint's coordinates
///   (JointCoordinates) acts on b as a torque u e (`motor_force` false) or a force u e at the
///   joint point (true), e the joint axis turning with a; a gets the opposite. Its power is
///   u·rate or u·speed. No potential.
/// - joint_friction: on the revolute, prismatic or cylindrical joint `joint` (bodies, point and
///   axis copied from it): with the slip speed at the pin surface v = |(r φ̇, ṡ)| (φ̇ for the
///   turning joints, ṡ for the sliding ones, r = `radius`), the Coulomb–Stribeck level
///   F(v) = μ N + (μ_s − μ) N exp(−(v/v_s)²) (N = `normal_force`), regularized by tanh(v/v_ε),
///   acts against the slip: torque −r F tanh(v/v_ε) (r φ̇/v) − c_φ φ̇ about the axis and force
///   −F tanh(v/v_ε) (ṡ/v) − c_s ṡ along it. Dissipative; no potential (forces/JointFriction.cpp).
///   With `normal_from_reaction` N is the joint's reaction plus `normal_force` (impulse stepper
///   and implicit solvers; see the field).
/// - joint_limit: on the revolute (angle φ, turns counted) or prismatic (slide s) joint `joint`:
///   one-sided penalty stops at `lower`, `upper` as end_stop, a torque or a force; potential
///   ½ k p². The impulse stepper takes it as a unilateral impulse with `restitution`.
struct ForceElement {
  std::string name;                 ///< unique among the force elements (may be empty)
  ForceType type = ForceType::SpringDamper;  ///< which law (see above)
  std::vector<std::string> bodies;  ///< two for the pairwise elements, ≥ 1 for user
  Vec3 point = Vec3::Zero();        ///< marker on a (world, t0)
  Vec3 point_b = Vec3::Zero();      ///< spring_damper: point on b; others use `point` for both
  Vec3 axis = Vec3::UnitZ();        ///< torsional: axis (world)
  std::optional<Mat3> frame;        ///< rigid_body_spring_damper: joint frame
  double stiffness = 0;             ///< N/m (spring), N m/rad (torsional)
  double damping = 0;               ///< N s/m, N m s/rad
  std::optional<double> length;     ///< spring rest length, m; torsional: reference angle, rad
  Mat6 stiffness6 = Mat6::Zero();   ///< rigid_body_spring_damper: K, [N/m, N/rad; N m/m, N m/rad] blocks
  Mat6 damping6 = Mat6::Zero();     ///< rigid_body_spring_damper: D, same blocks per m/s, rad/s
  Vec3 stiffness3 = Vec3::Zero();   ///< cartesian: N/m per world axis
  Vec3 damping3 = Vec3::Zero();     ///< cartesian: N s/m
  Vec3 offset3 = Vec3::Zero();      ///< cartesian: m
  bool reaction_at_a_marker = false;  ///< cartesian: −F acts on a at a's marker point (else at b's)
  SpringRotationLaw rotation_law = SpringRotationLaw::RotationVector;  ///< rigid_body_spring_damper
  std::optional<double> lower;      ///< end_stop: least slide, m
  std::optional<double> upper;      ///< end_stop: largest slide, m
  std::string joint;                ///< joint_motor: the joint it acts on (bodies, point, axis copied from it)
  bool motor_force = false;         ///< joint_motor: a force along the axis (else a torque about it)
  JointEffortFunction effort;       ///< joint_motor: N m (torque) or N (force)
  /// joint_motor, user: names of the controller states (System::controller_states()) its law
  /// reads; their values arrive in JointCoordinates::states (joint_motor) or as the `states` of
  /// `user_of_states` (user), in this order.
  std::vector<std::string> states;
  bool effort_uses_angle = false;   ///< joint_motor: effort depends on q.angle (turns counted: see ForceGeometry); user: the law counts a joint's turns (a run cannot continue it from a state file)
  JointType joint_type = JointType::Revolute;  ///< joint_friction, joint_limit: the type of `joint` (copied from it)
  double friction = 0;              ///< joint_friction: Coulomb (sliding) coefficient μ
  std::optional<double> static_friction;  ///< joint_friction: μ_s of the Stribeck curve (needs stribeck_velocity)
  double stribeck_velocity = 0;     ///< joint_friction: v_s, m/s at the pin surface (0: no Stribeck term)
  double radius = 0;                ///< joint_friction: pin radius r, m (revolute, cylindrical)
  double normal_force = 0;          ///< joint_friction: given normal force N, N (with normal_from_reaction: a preload added to it)
  /// joint_friction: the normal force is the joint's reaction (its component perpendicular to the
  /// axis; for a revolute joint plus axial_radius / radius times the axial one) plus
  /// `normal_force` (model file `normal: reaction`). The impulse stepper (its Gauss–Seidel bounds
  /// the friction impulse by μ times the joint's impulse of the same iteration) and the implicit
  /// formulation with MultibodyOptions::reaction_friction (N from the multipliers of the Newton
  /// iterate, ∂/∂λ in the iteration matrix) take it; the Newton–Euler formulation refuses it by name.
  bool normal_from_reaction = false;
  double axial_radius = 0;          ///< joint_friction, revolute, normal_from_reaction: friction arm r_a of the axial reaction, m
  double viscous_rotation = 0;      ///< joint_friction: c_φ, N m s/rad (revolute, cylindrical)
  double viscous_slide = 0;         ///< joint_friction: c_s, N s/m (prismatic, cylindrical)
  double regularization_velocity = 1e-3;  ///< joint_friction: v_ε, m/s at the pin surface
  double restitution = 0;           ///< joint_limit: Newton restitution e in [0, 1] (impulse stepper)
  /// joint_friction, joint_limit: set by the impulse stepper's formulation, which takes the
  /// Coulomb part and the stops as impulses of its projected Gauss–Seidel: the law then gives
  /// only the viscous part (friction) or nothing (limit).
  bool by_impulses = false;
  UserForceFunction user;           ///< user (give `user` or `user_of_states`, not both)
  /// user reading the controller states `states`; its tangent is formed by central differences
  /// (also over the states' values), so it takes no `user_jacobian`.
  UserStateForceFunction user_of_states;
  UserForceJacobian user_jacobian;  ///< user, optional: else central differences of `user`
};

/// A force (world or body axes) applied at a point of a body, and/or a torque. `value` may
/// depend on time through `value_of_t` (if set, it replaces `value`).
struct Load {
  /// Whether `value` is a force (N, at `point`) or a torque (N m).
  enum class Kind {
    Force,   ///< force at `point`
    Torque,  ///< pure torque
  };
  /// Axes in which `value` is given.
  enum class Frame {
    World,  ///< world axes
    Body,   ///< body axes (turns with the body)
  };
  std::string name;         ///< for messages
  Kind kind = Kind::Force;  ///< force or torque
  std::string body;         ///< name of the body it acts on (not "ground")
  Vec3 point = Vec3::Zero();   ///< force: point of application, BODY axes relative to the reference point
  Vec3 value = Vec3::Zero();   ///< N or N m
  Frame frame = Frame::World;  ///< axes of `value` (and of `value_of_t`)
  std::function<Vec3(double)> value_of_t;  ///< optional time dependence: t (s) → N or N m
};

/// A controller state: a scalar z integrated with the mechanism, ż = derivative(t, bodies, states),
/// e.g. the integral of a speed error in a PI controller. Its unit is the user's.
///
/// `derivative` receives the motions of the bodies named in `bodies` (reference points, world
/// axes, as user forces get them; same order) and the values of the controller states named in
/// `states` (same order; a state may read itself). Every solver that takes controller states
/// (SolverSupport::controller_states) integrates z with its own scheme: the implicit formulation
/// carries z as a velocity (Multibody.h), the Newton–Euler one as an extra ODE component
/// (NewtonEuler.h). Force elements read the states they name (ForceElement::states).
struct ControllerState {
  /// ż from t (s), the motions of `bodies` and the values of `states`.
  using Derivative = std::function<double(double t, std::span<const BodyMotion> bodies, std::span<const double> states)>;
  std::string name;                  ///< unique among the controller states
  double initial = 0;                ///< z(t0)
  std::vector<std::string> bodies;   ///< bodies whose motion `derivative` reads (not ground)
  std::vector<std::string> states;   ///< controller states whose values `derivative` reads
  Derivative derivative;             ///< required
  bool derivative_uses_angle = false;  ///< it counts a joint's turns (a run cannot continue it from a state file)
};

/// Which item of a model a message is about: its kind and its place in the list of that kind.
/// Raised with the message (System::problems(), the formulations' checks, prepare()), it lets a
/// caller point at the item (the model loader maps it to file, line and key) without reading the
/// message's text.
struct ItemRef {
  /// The list the item is in.
  enum class Kind {
    None,     ///< not about one item (gravity, the whole model)
    Body,     ///< System::bodies()
    Joint,    ///< System::joints()
    Load,     ///< System::loads()
    Force,    ///< System::forces() (force elements)
    Contact,  ///< System::contacts()
    Sensor,   ///< a sensor list kept beside the System (io::LoadedModel::sensors)
    Coupling, ///< System::couplings()
    Shaft,    ///< System::shafts()
    ShaftForce,  ///< System::shaft_forces()
    State,    ///< System::controller_states()
  };
  Kind kind = Kind::None;  ///< the list it is in
  int index = -1;  ///< 0-based index in that list; -1 with Kind::None

  /// bodies()[i]
  static ItemRef body(int i) { return {Kind::Body, i}; }
  /// joints()[i]
  static ItemRef joint(int i) { return {Kind::Joint, i}; }
  /// loads()[i]
  static ItemRef load(int i) { return {Kind::Load, i}; }
  /// forces()[i]
  static ItemRef force(int i) { return {Kind::Force, i}; }
  /// contacts()[i]
  static ItemRef contact(int i) { return {Kind::Contact, i}; }
  /// the i-th sensor of the list kept beside the System
  static ItemRef sensor(int i) { return {Kind::Sensor, i}; }
  /// couplings()[i]
  static ItemRef coupling(int i) { return {Kind::Coupling, i}; }
  /// shafts()[i]
  static ItemRef shaft(int i) { return {Kind::Shaft, i}; }
  /// shaft_forces()[i]
  static ItemRef shaft_force(int i) { return {Kind::ShaftForce, i}; }
  /// controller_states()[i]
  static ItemRef state(int i) { return {Kind::State, i}; }
  /// True if it names an item.
  explicit operator bool() const { return kind != Kind::None && index >= 0; }
  /// Ordered by kind, then index (for sets and maps of items).
  auto operator<=>(const ItemRef&) const = default;
};
/// "body", "joint", "load", "force", "contact", "sensor", "coupling", "shaft", "shaft force",
/// "state" ("" for None). No throw.
const char* to_string(ItemRef::Kind k);

/// One problem: what is wrong (with the expected and the actual value) and the item it is about.
struct ModelProblem {
  std::string message;  ///< e.g. "joint 'A': axis has zero length"
  ItemRef item;         ///< Kind::None if it is about no single item
};

/// Thrown for a model that cannot be built; what() lists every problem found, one per line.
class ModelError : public std::runtime_error {
 public:
  /// @param problems one message per problem, about no particular item; what() joins them with
  ///        newlines.
  explicit ModelError(const std::vector<std::string>& problems);
  /// @param problems one record per problem with the item it is about.
  explicit ModelError(std::vector<ModelProblem> problems);
  /// The problems' messages, one per problem, in order.
  const std::vector<std::string>& problems() const { return messages_; }
  /// The problems with their items, in the same order as problems().
  const std::vector<ModelProblem>& details() const { return details_; }

 private:
  std::vector<std::string> messages_;
  std::vector<ModelProblem> details_;
};

/// A failure that concerns one item of the model but is not a problem of its description, e.g.
/// an initial configuration that cannot be assembled (the worst equation's joint or body) or a
/// singular joint system (its first dependent joint). A std::runtime_error, so callers that do
/// not care about the item catch it as before.
class ItemError : public std::runtime_error {
 public:
  /// @param message what failed, with the time or values where known
  /// @param item    the item it is about
  ItemError(const std::string& message, ItemRef item) : std::runtime_error(message), item_(item) {}
  /// The item the failure is about (Kind::None if not known).
  const ItemRef& item() const { return item_; }

 private:
  ItemRef item_;
};

/// Index of a body in System::bodies(); kGround for the ground.
using BodyIndex = int;
/// The index find_body() returns for "ground".
inline constexpr BodyIndex kGround = -1;

/// A mechanism: bodies, joints, loads, force elements, contact shapes and gravity. Adding never
/// checks (so every problem can be reported at once by problems()); formulations call validate().
/// Bodies are referred to by name; "ground" is predefined and is not in bodies().
class System {
 public:
  System() = default;

  std::string name;  ///< model name, for output only
  Vec3 gravity = Vec3::Zero();  ///< m/s², world
  /// Penalty parameters of every contact pair whose shapes have none of their own (Contact.h);
  /// without any, the implicit formulation rejects a model with contacts.
  std::optional<PenaltyParameters> contact_penalty;
  /// How a contact pair's friction μ combines those of its two shapes (Contact.h).
  CombineRule contact_friction_rule = CombineRule::GeometricMean;
  /// How a contact pair's restitution e combines those of its two shapes (Contact.h).
  CombineRule contact_restitution_rule = CombineRule::Max;

  /// Adds a body; returns its index. Checks happen in check(), not here, so that every problem of
  /// a model can be reported at once.
  BodyIndex add_body(RigidBody body);
  /// Appends a joint (checked in check()). No throw other than std::bad_alloc.
  void add_joint(Joint joint);
  /// Appends a load (checked in check()). No throw other than std::bad_alloc.
  void add_load(Load load);
  /// Appends a force element (checked in check()). No throw other than std::bad_alloc.
  void add_force(ForceElement force);
  /// Point-to-point spring-damper (see ForceElement); length std::nullopt: initial distance.
  void add_spring_damper(const std::string& name, const std::string& a, const std::string& b,
                         const Vec3& point_a, const Vec3& point_b, double stiffness, double damping,
                         std::optional<double> length = std::nullopt);
  /// Torsional spring-damper about `axis` through `point` (world, t0) between bodies a and b
  /// (see ForceElement): stiffness N m/rad, damping N m s/rad; reference_angle std::nullopt: the
  /// initial relative angle.
  void add_torsional_spring_damper(const std::string& name, const std::string& a, const std::string& b,
                                   const Vec3& point, const Vec3& axis, double stiffness, double damping,
                                   std::optional<double> reference_angle = std::nullopt);

  /// Motor on the joint named `joint` (added before; revolute, prismatic or cylindrical): its
  /// bodies, point and axis are copied from the joint now (see ForceElement, joint_motor);
  /// `force`: a force along the axis (N), else a torque about it (N m); `uses_angle`: effort reads
  /// q.angle. An unknown joint is reported by check().
  void add_joint_motor(const std::string& name, const std::string& joint, JointEffortFunction effort,
                       bool force = false, bool uses_angle = true);
  /// Friction on the joint named `joint` (added before; revolute, prismatic or cylindrical):
  /// bodies, point, axis and type copied from the joint now; set the coefficients (friction,
  /// normal_force, radius, …) on the returned element. An unknown joint is reported by check().
  ForceElement& add_joint_friction(const std::string& name, const std::string& joint);
  /// Stops on the angle (revolute, rad) or slide (prismatic, m) of the joint named `joint`:
  /// stiffness N m/rad or N/m, damping N m s/rad or N s/m; restitution for the impulse stepper.
  ForceElement& add_joint_limit(const std::string& name, const std::string& joint, std::optional<double> lower,
                                std::optional<double> upper, double stiffness, double damping, double restitution = 0);

  // Convenience builders that read like the model file: `a`, `b` are body names (or
  // "ground"), points (m) and axes are world coordinates at t0; nothing is checked here.

  /// Spherical joint at `point`.
  void add_spherical(const std::string& name, const std::string& a, const std::string& b,
                     const Vec3& point);
  /// Revolute joint at `point` about `axis` (need not be unit length).
  void add_revolute(const std::string& name, const std::string& a, const std::string& b,
                    const Vec3& point, const Vec3& axis);
  /// Prismatic joint through `point` along `axis` (need not be unit length).
  void add_prismatic(const std::string& name, const std::string& a, const std::string& b,
                     const Vec3& point, const Vec3& axis);
  /// Fixed joint at `point`.
  void add_fixed(const std::string& name, const std::string& a, const std::string& b,
                 const Vec3& point);
  /// Distance joint between `point_a` on a and `point_b` on b; `distance` (m) std::nullopt:
  /// the initial distance.
  void add_distance(const std::string& name, const std::string& a, const std::string& b,
                    const Vec3& point_a, const Vec3& point_b,
                    std::optional<double> distance = std::nullopt);

  /// The bodies, in the order added (BodyIndex order); ground is not among them.
  const std::vector<RigidBody>& bodies() const { return bodies_; }
  /// Writable bodies (e.g. to set initial states before a formulation is built).
  std::vector<RigidBody>& bodies() { return bodies_; }
  /// The joints, in the order added.
  const std::vector<Joint>& joints() const { return joints_; }
  /// Writable joints.
  std::vector<Joint>& joints() { return joints_; }
  /// The loads, in the order added.
  const std::vector<Load>& loads() const { return loads_; }
  /// The loads, to change their values (e.g. `value_of_t` set by a host program before a run).
  std::vector<Load>& loads() { return loads_; }
  /// Contact shapes (Contact.h); checked by the formulation that uses them.
  void add_contact(Contact contact) { contacts_.push_back(std::move(contact)); }
  /// The contact shapes, in the order added.
  const std::vector<Contact>& contacts() const { return contacts_; }
  /// Writable contact shapes (e.g. to remove them for a formulation that should not see them).
  std::vector<Contact>& contacts() { return contacts_; }
  /// The force elements, in the order added.
  const std::vector<ForceElement>& forces() const { return forces_; }
  /// Writable force elements.
  std::vector<ForceElement>& forces() { return forces_; }
  /// Appends a coupling of joint coordinates (checked in check()). No throw other than
  /// std::bad_alloc.
  void add_coupling(Coupling coupling) { couplings_.push_back(std::move(coupling)); }
  /// The couplings, in the order added.
  const std::vector<Coupling>& couplings() const { return couplings_; }
  /// Writable couplings.
  std::vector<Coupling>& couplings() { return couplings_; }
  /// Appends a 1-D shaft (checked in check()). No throw other than std::bad_alloc.
  void add_shaft(Shaft shaft) { shafts_.push_back(std::move(shaft)); }
  /// The shafts, in the order added.
  const std::vector<Shaft>& shafts() const { return shafts_; }
  /// Writable shafts.
  std::vector<Shaft>& shafts() { return shafts_; }
  /// Appends an effort on shafts (checked in check()). No throw other than std::bad_alloc.
  void add_shaft_force(ShaftForce force) { shaft_forces_.push_back(std::move(force)); }
  /// The efforts on shafts, in the order added.
  const std::vector<ShaftForce>& shaft_forces() const { return shaft_forces_; }
  /// Writable efforts on shafts.
  std::vector<ShaftForce>& shaft_forces() { return shaft_forces_; }
  /// Index of the shaft with this name in shafts(), -1 if there is none. No throw.
  int shaft_index(const std::string& name) const;

  /// Appends a controller state (checked in check()). No throw other than std::bad_alloc.
  void add_controller_state(ControllerState state) { states_.push_back(std::move(state)); }
  /// The controller states, in the order added.
  const std::vector<ControllerState>& controller_states() const { return states_; }
  /// Writable controller states.
  std::vector<ControllerState>& controller_states() { return states_; }
  /// Appends a modally reduced body (ModalBody.h): its reference frame is the body `m.body`, whose
  /// mass, centre of mass and inertia must be the reduction's rigid part. No throw other than
  /// std::bad_alloc.
  void add_modal_body(ModalBody m) { modal_bodies_.push_back(std::move(m)); }
  /// The modal bodies, in the order added.
  const std::vector<ModalBody>& modal_bodies() const { return modal_bodies_; }
  /// Index of the controller state named `name` in controller_states(); -1 if there is none.
  int find_controller_state(const std::string& name) const;

  /// Appends a flexible cable (checked by cable_problems(), Cable.h, which validate() runs).
  /// No throw other than std::bad_alloc.
  void add_cable(Cable cable) { cables_.push_back(std::move(cable)); }
  /// The cables, in the order added.
  const std::vector<Cable>& cables() const { return cables_; }
  /// Writable cables.
  std::vector<Cable>& cables() { return cables_; }

  /// Every body's name (and "ground") with its index, built now: for many look-ups at once
  /// (find_body() searches the list each time).
  std::unordered_map<std::string, BodyIndex> body_indices() const;
  /// Index of the body with this name, kGround for "ground"; std::nullopt if there is none.
  std::optional<BodyIndex> find_body(const std::string& name) const;
  /// Same, throws ModelError naming the body if it does not exist.
  BodyIndex body_index(const std::string& name) const;

  /// Every problem of the model (empty if none) with the item it is about: names, masses,
  /// inertias, joint bodies and axes, load and force element bodies and values, the joints and
  /// coefficients of the couplings, the shafts and their efforts. Contacts are
  /// checked by the formulation that uses them (contact_problems(), Contact.h).
  std::vector<ModelProblem> problems() const;
  /// The messages of problems(), in order.
  std::vector<std::string> check() const;
  /// Throws ModelError listing every problem (with its item) if problems() finds any.
  void validate() const;

 private:
  std::vector<RigidBody> bodies_;
  std::vector<Joint> joints_;
  std::vector<Load> loads_;
  std::vector<Contact> contacts_;
  std::vector<ForceElement> forces_;
  std::vector<Coupling> couplings_;
  std::vector<Shaft> shafts_;
  std::vector<ShaftForce> shaft_forces_;
  std::vector<ControllerState> states_;
  std::vector<Cable> cables_;
  std::vector<ModalBody> modal_bodies_;
};

}  // namespace mbdae
