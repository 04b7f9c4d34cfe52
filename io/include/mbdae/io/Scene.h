#pragma once
/// @file Scene.h
/// The static geometry of a model for drawing it (`results.scene.json` beside `results.csv`):
/// the bodies' solids, joint points and axes and spring-damper attachment points, each in the
/// frame of the body that carries it, ground shapes and planes, gravity and the sensors. With the
/// poses of PoseFile.h (each body's reference point and rotation over time) a viewer places every
/// item at every time: p_W = p + R p_B. docs/results-format.md lists the JSON keys.
///
/// Body-fixed points and axes of joints and force elements are given in the model in world
/// coordinates at t = 0; here they are moved into body axes with the bodies' initial poses from
/// the model (p_B = R0ᵀ (p_W − p0)), as the formulations attach them.

#include <array>
#include <string>
#include <vector>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/model/System.h>

namespace mbdae::io {

/// A solid fixed to a body (or to ground), in the body frame.
struct SceneShape {
  /// Which solid; `size` in m.
  enum class Kind {
    Box,       ///< size = full lengths along the shape's x, y, z
    Cylinder,  ///< size = [radius, length, 0], axis = the shape's z
    Sphere,    ///< size = [radius, 0, 0]
    Capsule,   ///< size = [radius, length between the cap centres, 0], axis = the shape's z
  };
  /// Where it comes from: the body's `shape`, a contact shape, or the inertia (a box with the
  /// body's mass and principal moments, centred at the COM along the principal axes).
  enum class Source { Shape, Contact, Inertia };
  Kind kind = Kind::Box;
  Source source = Source::Shape;
  std::string name;                     ///< the contact's name; empty otherwise
  Vec3 size = Vec3::Zero();             ///< m, see Kind
  Vec3 position = Vec3::Zero();         ///< the shape's centre, body axes from the reference point, m
  Mat3 rotation = Mat3::Identity();     ///< the shape's axes in body axes
};

struct SceneBody {
  std::string name;
  double mass = 0;                   ///< kg
  Vec3 com = Vec3::Zero();           ///< body axes from the reference point, m
  std::vector<SceneShape> shapes;    ///< at least one (the inertia box if the model gives none)
};

/// A joint or a force element between two bodies: where it is attached to each of them.
struct SceneLink {
  std::string name;
  std::string type;                  ///< as in the model file ("revolute", "spring_damper", …)
  std::array<int, 2> bodies{-1, -1}; ///< indices into Scene::bodies; −1 for ground
  std::array<Vec3, 2> points{Vec3::Zero(), Vec3::Zero()};  ///< in the frame of each body (ground: world), m
  std::array<Vec3, 2> axes{Vec3::Zero(), Vec3::Zero()};    ///< unit axes in each body's frame; zero if none
};

/// A ground plane n·x = offset (the solid side behind n).
struct ScenePlane {
  std::string name;
  Vec3 normal = Vec3::UnitZ();
  double offset = 0;  ///< m
};

struct SceneSensor {
  std::string name;
  std::string output;   ///< "position", "reaction_force", …
  int body = -1;        ///< index into Scene::bodies, −1 if it is not a body sensor
  int joint = -1;       ///< index into Scene::joints, −1 if it is not a joint sensor
  Vec3 point = Vec3::Zero();  ///< body axes, m
};

struct Scene {
  std::string model;                 ///< the model's name (or the file's)
  Vec3 gravity = Vec3::Zero();       ///< m/s², world
  std::vector<SceneBody> bodies;     ///< in the order of System::bodies() (= the pose file's)
  std::vector<SceneShape> ground;    ///< shapes fixed to ground (world frame), planes excluded
  std::vector<ScenePlane> planes;
  std::vector<SceneLink> joints;     ///< in the order of System::joints()
  std::vector<SceneLink> forces;     ///< force elements between two bodies (no loads)
  std::vector<SceneSensor> sensors;
};

/// The scene of a model. No throw for a model that passed System::check() (other than
/// std::bad_alloc); a sensor or link naming an unknown body gets index −1.
Scene describe_scene(const System& system, const std::vector<SensorSpec>& sensors, const std::string& model_name);

/// The scene as JSON (UTF-8, one object; docs/results-format.md).
std::string scene_json(const Scene& scene);

/// `s` as a JSON string literal, as the scene writes its names (quotes, backslashes and control
/// characters escaped, '<' as \u003c so that the text can be inlined in a page's <script>).
std::string json_quoted(const std::string& s);

/// Writes scene_json() to `path`. @throws std::runtime_error naming the file on an error.
void write_scene(const std::string& path, const Scene& scene);

}  // namespace mbdae::io
