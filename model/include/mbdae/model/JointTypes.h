#pragma once
/// @file JointTypes.h
/// The joint types, each described once: its model-file name and keys, its checks, and its
/// equations. A joint type is one source file in model/src/joints/ that fills a JointTypeInfo,
/// plus one line in model/JointTypeList.h, which makes its enumerator in JointType, its
/// declaration and its entry in the registry (model/src/joints/Registry.cpp).
/// The model loader, System::check(), to_string(), the formulations and the docs read this
/// table; nothing else switches on the joint type.
///
/// Equations are built from a small vocabulary of primitive equations between a marker on body a
/// (point x_a, frame A_a) and a marker on body b, written with r = R x̄, d = p_b + r_b − p_a − r_a
/// and e = R A e_i (evaluated with their Jacobians and γ terms in formulations/src/JointKernels):
///
/// | EquationKind | equation                            | meaning                                |
/// |--------------|-------------------------------------|----------------------------------------|
/// | TransWorld i | d_i − offset                        | world component i of the separation    |
/// | TransFrame i | e_ai · d − offset                   | separation along axis i of marker a    |
/// | Rot (i, j)   | e_ai · e_bj − offset                | axis i of a keeps its angle to axis j of b (⊥ for offset 0) |
/// | Distance     | |d| − L0                            | distance of the two points             |
/// | TransDriven  | x_a · d − s(t)                      | prescribed displacement (drive)        |
/// | RotDriven    | w_a(s(t)) · x_b                     | prescribed angle about z_a (drive)     |
/// | TransOffset i| e_ai · d − o_i(t)                   | generic joint's offset translation     |
/// | RotOffset (i, j) | (R_a A_a Q(t) e_i) · e_bj      | generic joint's offset rotation, Q(t) = Rx Ry Rz of the offsets |
/// | RollNormal   | n · (c + r ĝ − p_plane)             | disc touches the plane                 |
/// | RollTangent i| t_i · (v_b + ω_b × r_c)             | no slip (velocity level only)          |
/// | RateDriven   | (ω_b − ω_a)·z_a − w(t) or d/dt(x_a·d) − w(t) | prescribed rate (velocity level only) |

#include <string>
#include <string_view>
#include <vector>

#include <mbdae/model/ElementKeys.h>
#include <mbdae/model/System.h>

namespace mbdae {

/// A primitive equation of the table above.
enum class EquationKind {
  TransWorld,   ///< world component of the separation
  TransFrame,   ///< separation along an axis of marker a
  Rot,          ///< an axis of a stays perpendicular to an axis of b
  Distance,     ///< distance of the two points
  TransDriven,  ///< prescribed displacement
  RotDriven,    ///< prescribed angle
  RollNormal,   ///< disc touches the plane
  RollTangent,  ///< no slip (velocity level)
  TransOffset,  ///< separation along an axis of marker a follows an offset o_i(t)
  RotOffset,    ///< an axis of a turned by the offset rotation Q(t) stays ⊥ an axis of b
  RateDriven,   ///< prescribed rate of the angle about z_a (j = 1) or of the displacement along x_a (j = 0), velocity level
};

/// True for equations that exist only at velocity level (A(q) v + b = 0; no position equation).
inline bool is_velocity_level(EquationKind k) {
  return k == EquationKind::RollTangent || k == EquationKind::RateDriven;
}

/// One equation of a joint.
struct JointEquation {
  EquationKind kind;     ///< which primitive
  int i = 0;             ///< TransWorld/TransFrame: axis i; Rot: axis i of a; RollTangent: tangent i
  int j = 0;             ///< Rot: axis j of b
  const char* what = ""; ///< label in messages ("z_a·x_b")
  double offset = 0;     ///< TransWorld, TransFrame, Rot: the value the row holds (Rot: a cosine)
};

/// Markers and equations of one joint at the initial configuration, world coordinates.
struct JointLayout {
  Vec3 point_a = Vec3::Zero();           ///< marker point on body a, world, t0
  Vec3 point_b = Vec3::Zero();           ///< marker point on body b, world, t0
  Mat3 frame_a = Mat3::Identity();       ///< marker frame on a (columns = axes), world, t0
  Mat3 frame_b = Mat3::Identity();       ///< marker frame on b, world, t0
  double length = 0;                     ///< Distance: L0, m
  double radius = 0;                     ///< RollNormal/RollTangent: disc radius, m
  std::vector<JointEquation> equations;  ///< in row order (a drive row is appended by the caller)
};

/// A model-file key of a joint type, beyond name, type, bodies, point and motion.
using JointKey = ElementKey<Joint>;

/// How a joint's relative coordinate is measured (sensors, drives); None if it has none.
enum class JointCoordinateKind {
  None,                ///< no single relative coordinate
  AngleAboutZ,         ///< angle of b's marker x axis about a's marker z axis (rad)
  DisplacementAlongX,  ///< separation along a's marker x axis (m)
  DisplacementAlongZ,  ///< separation along a's marker z axis (m)
};

/// Everything about one joint type.
struct JointTypeInfo {
  JointType type;          ///< its enumerator
  const char* name;        ///< model-file `type:` ("revolute")
  const char* summary;     ///< one line for docs and messages
  const char* point_meaning;  ///< what `point` is for this type
  std::vector<JointKey> keys;  ///< the keys that apply, besides name, type, bodies, point (and motion if drivable)
  bool drivable;           ///< `motion:` may drive its coordinate (adds a drive equation)
  bool plane_on_ground;    ///< body a must be ground (the rolling disc's plane)
  JointCoordinateKind coordinate;  ///< its relative coordinate
  /// Type-specific problems of a joint (names, bodies and finiteness are checked by the caller),
  /// each with the key it is about; the caller names the joint.
  void (*check)(const Joint& j, std::vector<KeyProblem>& problems);
  /// Markers and equations (without the drive row). Called only for a joint without problems.
  JointLayout (*layout)(const Joint& j);
  /// `offsets:` may make its constrained coordinates follow functions of t (Joint::offsets).
  bool takes_offsets = false;
};

/// Every joint type, in the order of the JointType enumerators.
const std::vector<JointTypeInfo>& joint_types();
/// The description of type `t`. No throw.
const JointTypeInfo& joint_type_info(JointType t);
/// The type named `name` in the model file; nullptr if there is none.
const JointTypeInfo* find_joint_type(std::string_view name);
/// Markers and equations of `j` including its drive row (if it has a motion). Checks nothing.
JointLayout joint_layout(const Joint& j);
/// Right-handed orthonormal frame (columns) whose column `along` (0, 1, 2) is the unit `axis`; the
/// other two columns are fixed by a rule that depends only on the axis. No throw (a zero axis
/// gives NaN columns).
Mat3 frame_from_axis(const Vec3& axis, int along);

}  // namespace mbdae
