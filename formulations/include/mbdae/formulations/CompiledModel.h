#pragma once
/// @file CompiledModel.h
/// A System compiled once for every formulation: its elements resolved to body, joint and state
/// indices, the markers of joints and force elements fixed in body axes from the initial poses,
/// the bodies' inertias about their reference points and centres of mass, the loads of each body,
/// the contact shapes posed in body axes and the material of a shape pair. MultibodySystem,
/// NewtonEulerSystem, LieGroupBodies and the contact detector read these tables instead of
/// deriving them from the System each (a run builds one CompiledModel and hands it to all of them,
/// as Pinocchio's Model or MuJoCo's mjModel); what is particular to one formulation (coordinate
/// offsets, row lists, sparsity patterns, elimination orders) stays in that formulation.
///
/// Threads: immutable once built; the formulations keep the run state (the force elements' turn
/// counts) in their workspaces. Exception: the run state a System itself carries (a load that is a
/// function of named quantities keeps its quantities' turn counts in its closure): a compiled
/// model of such a model belongs to one run, as the formulations built from it.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <mbdae/contact/ContactGeometry.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/model/System.h>

namespace mbdae {

/// Markers and equations of one joint in body axes, fixed at model set-up (the joint kernels'
/// input: formulations/src/JointKernels.h).
struct JointGeometry {
  Vec3 xa = Vec3::Zero();           ///< marker point on a, body axes
  Vec3 xb = Vec3::Zero();           ///< marker point on b, body axes
  Mat3 Aa = Mat3::Identity();       ///< marker frame on a, body axes (columns)
  Mat3 Ab = Mat3::Identity();       ///< marker frame on b, body axes (columns)
  double L0 = 0;                                      ///< distance joint
  double radius = 0;                                  ///< rolling disc
  bool driven = false;  ///< has a TransDriven/RotDriven row, or a RateDriven row (speed)
  std::vector<JointEquation> rows;  ///< the joint's equations (its type's layout)
};

/// Friction, restitution, rolling resistance and torsional friction of a pair of contact shapes,
/// combined by the model's rules (System::contact_friction_rule, contact_restitution_rule; the
/// larger rolling resistance and torsional friction).
struct ContactMaterial {
  double friction = 0;            ///< μ
  double restitution = 0;         ///< e
  double rolling_resistance = 0;  ///< μ_r (dimensionless, times the rolling radius)
  double torsional_friction = 0;  ///< μ_t, m
};

/// See the file comment.
class CompiledModel {
 public:
  /// A rigid body.
  struct Body {
    std::string name;  ///< as in the model
    RotationParametrization rotation = RotationParametrization::EulerParameters;  ///< its coordinates
    double mass = 0;                           ///< kg
    Mat3 inertia_ref = Mat3::Zero();           ///< about the reference point, body axes
    Mat3 inertia_com = Mat3::Zero();           ///< about the COM, body axes (parallel axes)
    Mat3 inertia_com_inv = Mat3::Zero();       ///< its inverse
    Vec3 com = Vec3::Zero();                   ///< COM from the reference point, body axes
    std::vector<int> loads;                    ///< indices in System::loads() acting on it
  };
  /// A joint: its bodies and its markers relative to their reference points (the implicit
  /// formulation's) and to their centres of mass (the Newton–Euler one's).
  struct Joint {
    std::string name;                      ///< as in the model
    JointType type = JointType::Revolute;  ///< its type
    BodyIndex a = kGround;                 ///< body a
    BodyIndex b = kGround;                 ///< body b
    JointGeometry at_reference;  ///< markers from the reference points
    JointGeometry at_com;        ///< the same from the centres of mass
    const TimeFunction* motion = nullptr;                  ///< driven joints (points into system())
    const TimeFunction* speed = nullptr;                   ///< speed-driven joints (the same)
    const std::array<TimeFunction, 6>* offsets = nullptr;  ///< generic joints with offsets (the same)
  };
  /// A force element: its bodies, the controller states it reads and, for pairwise elements, its
  /// markers relative to the bodies' reference points.
  struct Force {
    const ForceElement* src = nullptr;  ///< points into system()
    std::vector<BodyIndex> bodies;      ///< as ForceElement::bodies
    std::vector<int> states;  ///< indices in System::controller_states()
    ForceGeometry geometry;   ///< pairwise elements (force_type_info(type).pairwise)
  };
  /// A controller state: the bodies and states its derivative reads.
  struct Controller {
    const ControllerState* src = nullptr;  ///< points into system()
    std::vector<BodyIndex> bodies;         ///< as ControllerState::bodies
    std::vector<int> states;  ///< indices in System::controller_states()
  };
  /// A contact shape: its body (none if the name is unknown: the formulations report it) and its
  /// geometry posed in the body frame from the reference point (ground: world).
  struct Shape {
    std::optional<BodyIndex> body;  ///< its body, none if unknown
    PlacedShape pose;               ///< shape and pose, body axes from the reference point
    double bound = 0;  ///< bounding radius about the shape's origin, m
  };

  /// Compiles `system` (copied). Calls system.validate() first.
  /// @throws ModelError listing every problem of the model.
  explicit CompiledModel(const System& system);

  /// The model compiled (the copy; its elements are those the tables point into).
  const System& system() const { return system_; }
  /// The bodies, in System::bodies() order.
  const std::vector<Body>& bodies() const { return bodies_; }
  /// The joints, in System::joints() order.
  const std::vector<Joint>& joints() const { return joints_; }
  /// The force elements, in System::forces() order.
  const std::vector<Force>& forces() const { return forces_; }
  /// The controller states, in System::controller_states() order.
  const std::vector<Controller>& controllers() const { return controllers_; }
  /// The contact shapes, in System::contacts() order.
  const std::vector<Shape>& shapes() const { return shapes_; }
  /// Index of joint `name` in System::joints(), -1 if none.
  int joint_index(const std::string& name) const;
  /// Material of contact shapes i and j (indices in System::contacts()).
  ContactMaterial material(int i, int j) const;
  /// Rotation and reference point of body i at the initial configuration (identity and zero for
  /// ground).
  void initial_pose(BodyIndex i, Mat3& R, Vec3& p) const;

 private:
  System system_;
  std::vector<Body> bodies_;
  std::vector<Joint> joints_;
  std::vector<Force> forces_;
  std::vector<Controller> controllers_;
  std::vector<Shape> shapes_;
  std::unordered_map<std::string, int> joint_of_;
};

/// Compiles a model for sharing between formulations: std::make_shared<const CompiledModel>(s).
std::shared_ptr<const CompiledModel> compile(const System& system);

}  // namespace mbdae
