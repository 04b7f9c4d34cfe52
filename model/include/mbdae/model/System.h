#pragma once
/// @file System.h
/// The description of a mechanism: rigid bodies, joints, loads and gravity, as a user states it.
/// Nothing here knows about coordinates or solvers; formulations turn a System into equations.
///
/// Conventions (see docs/conventions.md): SI units, angles in radians, rotation matrices rotate
/// body → world (p_W = p + R_WB p_B), quaternions [w, x, y, z]. Joint points and axes are given in
/// world coordinates at the initial configuration. The predefined body "ground" is fixed.

#include <array>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// How a body's orientation is parametrised in the implicit formulations.
enum class RotationParametrization {
  EulerParameters,  ///< 4 parameters + norm constraint (default; no singularity)
  TaitBryan,        ///< xyz angles, R = Rx Ry Rz (singular at |angle_y| = π/2)
  RotationVector,   ///< rotation vector (axis·angle); singular at |v| = 2π
};
const char* to_string(RotationParametrization p);

/// A rigid body. Inertia is about the reference point in body axes (the 6-vector
/// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] of tensor entries); com is the centre of mass relative to the
/// reference point, body axes.
struct RigidBody {
  std::string name;
  double mass = 0;               ///< kg, > 0
  Vec6 inertia = Vec6::Zero();   ///< kg m², tensor about the reference point, body axes
  Vec3 com = Vec3::Zero();       ///< m, body axes
  Vec3 position = Vec3::Zero();  ///< reference point, world, m
  Mat3 orientation = Mat3::Identity();  ///< R_WB at t0
  Vec3 velocity = Vec3::Zero();         ///< of the reference point, world, m/s
  Vec3 angular_velocity = Vec3::Zero(); ///< world axes, rad/s
  RotationParametrization rotation = RotationParametrization::EulerParameters;

  /// Inertia tensor about the reference point (body axes) from the 6-vector.
  Mat3 inertia_tensor() const;
};

enum class JointType { Spherical, Revolute, Prismatic, Fixed, Generic, Distance };
const char* to_string(JointType t);

/// A joint between two bodies (either may be "ground"). Constraints act between a marker on body
/// a and a marker on body b; both markers coincide with the joint point and frame at t0.
///
/// - spherical: point coincides (3 equations)
/// - revolute: point coincides, rotation only about `axis` (5)
/// - prismatic: translation only along `axis`, no relative rotation (5)
/// - fixed: no relative motion (6)
/// - generic: `constrained` = [x, y, z, rx, ry, rz] in the joint frame `frame` (columns are the
///   frame's axes in world coordinates; default identity)
/// - distance: the distance between `point` on a and `point_b` on b stays `distance` (if not
///   given: the initial distance) (1)
struct Joint {
  std::string name;
  JointType type = JointType::Spherical;
  std::array<std::string, 2> bodies;  ///< names of body a and body b
  Vec3 point = Vec3::Zero();          ///< world, at t0
  Vec3 axis = Vec3::UnitZ();          ///< revolute, prismatic: world, at t0
  std::optional<Mat3> frame;          ///< generic: joint frame (columns = axes, world, at t0)
  std::array<bool, 6> constrained{true, true, true, true, true, true};  ///< generic
  Vec3 point_b = Vec3::Zero();        ///< distance: point on body b (world, t0)
  std::optional<double> distance;     ///< distance: length (m)
};

/// A force (world or body axes) applied at a point of a body, and/or a torque. `value` may
/// depend on time through `value_of_t` (if set, it replaces `value`).
struct Load {
  enum class Kind { Force, Torque };
  enum class Frame { World, Body };
  std::string name;
  Kind kind = Kind::Force;
  std::string body;
  Vec3 point = Vec3::Zero();   ///< force: point of application, BODY axes relative to the reference point
  Vec3 value = Vec3::Zero();   ///< N or N m
  Frame frame = Frame::World;
  std::function<Vec3(double)> value_of_t;  ///< optional time dependence
};

/// Thrown for a model that cannot be built; what() lists every problem found, one per line.
class ModelError : public std::runtime_error {
 public:
  explicit ModelError(const std::vector<std::string>& problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// Index of a body in System::bodies(); kGround for the ground.
using BodyIndex = int;
inline constexpr BodyIndex kGround = -1;

class System {
 public:
  System() = default;

  std::string name;
  Vec3 gravity = Vec3::Zero();  ///< m/s², world

  /// Adds a body; returns its index. Checks happen in check(), not here, so that every problem of
  /// a model can be reported at once.
  BodyIndex add_body(RigidBody body);
  void add_joint(Joint joint);
  void add_load(Load load);

  // Convenience builders that read like the model file.
  void add_spherical(const std::string& name, const std::string& a, const std::string& b,
                     const Vec3& point);
  void add_revolute(const std::string& name, const std::string& a, const std::string& b,
                    const Vec3& point, const Vec3& axis);
  void add_prismatic(const std::string& name, const std::string& a, const std::string& b,
                     const Vec3& point, const Vec3& axis);
  void add_fixed(const std::string& name, const std::string& a, const std::string& b,
                 const Vec3& point);
  void add_distance(const std::string& name, const std::string& a, const std::string& b,
                    const Vec3& point_a, const Vec3& point_b,
                    std::optional<double> distance = std::nullopt);

  const std::vector<RigidBody>& bodies() const { return bodies_; }
  std::vector<RigidBody>& bodies() { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  std::vector<Joint>& joints() { return joints_; }
  const std::vector<Load>& loads() const { return loads_; }

  /// Index of the body with this name, kGround for "ground"; std::nullopt if there is none.
  std::optional<BodyIndex> find_body(const std::string& name) const;
  /// Same, throws ModelError naming the body if it does not exist.
  BodyIndex body_index(const std::string& name) const;

  /// Every problem of the model (empty if none): names, masses, inertias, joint bodies and axes.
  std::vector<std::string> check() const;
  /// Throws ModelError listing every problem if check() finds any.
  void validate() const;

 private:
  std::vector<RigidBody> bodies_;
  std::vector<Joint> joints_;
  std::vector<Load> loads_;
};

}  // namespace mbdae
