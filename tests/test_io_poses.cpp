// Pose files, the scene description and the pose recorder (mbdae::io, for the viewer).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/PoseFile.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/Scene.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("mbdae_test_poses_" + name)).string();
}

std::vector<unsigned char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A body whose reference point is not its COM, turned about an oblique axis.
const char* kModel = R"(name: two links
gravity: [0, 0, -9.81]
bodies:
  - {name: a, mass: 2.0, inertia: [0.02, 0.05, 0.06, 0, 0, 0], com: [0.1, 0, 0], position: [0.2, 0.3, 0.4],
     orientation: {axis: [1, 2, 3], angle: 0.7}}
  - {name: b, mass: 1.0, shape: {cylinder: {radius: 0.05, length: 0.4, axis: y}}, position: [1, 0, 0]}
joints:
  - {name: pin, type: revolute, bodies: [ground, a], point: [0.2, 0.3, 0.4], axis: [0, 0, 1]}
  - {name: hinge, type: universal, bodies: [a, b], point: [1, 0.1, 0.2], axis: [0, 0, 1], axis_b: [1, 0, 0]}
forces:
  - {name: spring, type: spring_damper, bodies: [ground, b], points: [[2, 0, 0], [1, 0.1, 0]], stiffness: 10}
contacts:
  - {name: floor, type: plane, normal: [0, 0, 2], offset: -1}
  - {name: tip, type: sphere, body: b, radius: 0.02, position: [0, 0.2, 0]}
sensors:
  - {name: p, body: a, point: [0.1, 0.2, 0.3], output: position}
solver: {type: impulse, end_time: 0.1}
)";

}  // namespace

TEST_CASE("io: a pose file reads back what was written, byte layout as documented", "[io][poses]") {
  const std::string path = temp_path("roundtrip.poses");
  {
    PoseWriter w(path, 2, PoseKind::ModeShape, "mode 2", 12.5);
    const std::vector<float> f0{1, 2, 3, 1, 0, 0, 0, -1, -2, -3, 0, 1, 0, 0};
    const std::vector<float> f1{4, 5, 6, 0, 0, 1, 0, 7, 8, 9, 0, 0, 0, 1};
    w.write_frame(0.0, f0);
    w.write_frame(0.25, f1);
    REQUIRE_THROWS_AS(w.write_frame(0.5, std::vector<float>(13)), std::runtime_error);
    CHECK(w.bytes() == 128 + 2 * (8 + 28 * 2));
  }
  const auto bytes = file_bytes(path);
  REQUIRE(bytes.size() == 128 + 2 * (8 + 28 * 2));
  CHECK(std::string(bytes.begin(), bytes.begin() + 8) == "MBDAEPOS");
  CHECK(bytes[8] == 1);    // version, little-endian
  CHECK(bytes[12] == 128);  // header size
  CHECK(bytes[16] == 2);    // bodies
  CHECK(bytes[20] == 7);    // values per body
  CHECK(bytes[24] == 1);    // kind: mode shape
  CHECK(bytes[32] == 2);    // frames, patched at close
  // The second frame's time 0.25 = 0x3FD0000000000000 (IEEE 754), little-endian.
  const size_t f1 = 128 + 8 + 28 * 2;
  CHECK(bytes[f1 + 7] == 0x3F);
  CHECK(bytes[f1 + 6] == 0xD0);
  // Its first value 4.0f = 0x40800000.
  CHECK(bytes[f1 + 8 + 3] == 0x40);
  CHECK(bytes[f1 + 8 + 2] == 0x80);

  const PoseData d = read_pose_file(path);
  CHECK(d.kind == PoseKind::ModeShape);
  CHECK(d.label == "mode 2");
  CHECK(d.frequency == 12.5);
  CHECK(d.bodies == 2);
  CHECK_FALSE(d.truncated);
  REQUIRE(d.times.size() == 2);
  CHECK(d.times[1] == 0.25);
  REQUIRE(d.values.size() == 28);
  CHECK(d.values[14] == 4.0f);
  CHECK(d.values[27] == 1.0f);
  std::remove(path.c_str());
}

TEST_CASE("io: a pose file cut short keeps its whole frames", "[io][poses]") {
  const std::string path = temp_path("cut.poses");
  {
    PoseWriter w(path, 1);
    for (int k = 0; k < 3; ++k) w.write_frame(0.1 * k, std::vector<float>{float(k), 0, 0, 1, 0, 0, 0});
    // A run killed here: the count is never patched; half of a fourth frame reaches the disk.
    auto bytes = file_bytes(path);
    bytes.resize(bytes.size() + 20, 0);
    std::ofstream(path + ".killed", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                             static_cast<std::streamsize>(bytes.size()));
  }
  const PoseData d = read_pose_file(path + ".killed");
  CHECK(d.truncated);
  REQUIRE(d.times.size() == 3);
  CHECK(d.values[2 * 7] == 2.0f);
  CHECK(read_pose_file(path).times.size() == 3);
  std::remove(path.c_str());
  std::remove((path + ".killed").c_str());
}

TEST_CASE("io: a bad pose file is an error that names the file and the problem", "[io][poses]") {
  const std::string path = temp_path("bad.poses");
  std::ofstream(path) << "time,x\n0,1\n";
  CHECK_THROWS_WITH(read_pose_file(path), Catch::Contains(path) && Catch::Contains("not a pose file"));
  {
    PoseWriter w(path, 1);
  }
  auto bytes = file_bytes(path);
  bytes[8] = 9;  // version 9
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  CHECK_THROWS_WITH(read_pose_file(path), Catch::Contains("version 9"));
  CHECK_THROWS_WITH(read_pose_file(temp_path("missing.poses")), Catch::Contains("cannot read"));
  std::remove(path.c_str());
}

TEST_CASE("io: the scene puts joint and spring points on their bodies and keeps the shapes", "[io][poses]") {
  const LoadedModel m = load_model_text(kModel, "two_links.yaml");
  const Scene sc = describe_scene(m.system, m.sensors, "two links");
  REQUIRE(sc.bodies.size() == 2);
  const RigidBody& a = m.system.bodies()[0];
  const RigidBody& b = m.system.bodies()[1];
  // Body points back in world coordinates with the initial poses: the model's world points.
  const SceneLink& hinge = sc.joints[1];
  CHECK(hinge.bodies == std::array<int, 2>{0, 1});
  CHECK((a.position + a.orientation * hinge.points[0] - Vec3(1, 0.1, 0.2)).norm() < 1e-14);
  CHECK((b.position + b.orientation * hinge.points[1] - Vec3(1, 0.1, 0.2)).norm() < 1e-14);
  CHECK((a.orientation * hinge.axes[0] - Vec3::UnitZ()).norm() < 1e-14);
  CHECK((b.orientation * hinge.axes[1] - Vec3::UnitX()).norm() < 1e-14);
  CHECK(sc.joints[0].bodies[0] == -1);
  CHECK((sc.joints[0].points[0] - Vec3(0.2, 0.3, 0.4)).norm() < 1e-15);  // ground: world
  REQUIRE(sc.forces.size() == 1);
  CHECK((b.position + b.orientation * sc.forces[0].points[1] - Vec3(1, 0.1, 0)).norm() < 1e-14);
  // The plane: unit normal, offset as given.
  REQUIRE(sc.planes.size() == 1);
  CHECK((sc.planes[0].normal - Vec3::UnitZ()).norm() < 1e-15);
  CHECK(sc.planes[0].offset == -1);
  // b: its cylinder (axis y) and its contact sphere.
  REQUIRE(sc.bodies[1].shapes.size() == 2);
  const SceneShape& cyl = sc.bodies[1].shapes[0];
  CHECK(cyl.kind == SceneShape::Kind::Cylinder);
  CHECK(cyl.source == SceneShape::Source::Shape);
  CHECK(cyl.size[0] == 0.05);
  CHECK(cyl.size[1] == 0.4);
  CHECK((cyl.rotation.col(2) - Vec3::UnitY()).norm() < 1e-15);
  CHECK(std::abs(cyl.rotation.determinant() - 1) < 1e-14);
  CHECK(sc.bodies[1].shapes[1].kind == SceneShape::Kind::Sphere);
  CHECK(sc.bodies[1].shapes[1].name == "tip");
  CHECK((sc.bodies[1].shapes[1].position - Vec3(0, 0.2, 0)).norm() == 0);
  // a has no shape: the box of equal mass and moments. About the COM a's moments are
  // Jxx = 0.02, Jyy = 0.05 − 2·0.1², Jzz = 0.06 − 2·0.1² (parallel axes); a box of sides
  // l has J_xx = m (ly² + lz²)/12, so lx² = 6 (Jyy + Jzz − Jxx)/m.
  REQUIRE(sc.bodies[0].shapes.size() == 1);
  const SceneShape& box = sc.bodies[0].shapes[0];
  CHECK(box.source == SceneShape::Source::Inertia);
  CHECK((box.position - Vec3(0.1, 0, 0)).norm() < 1e-15);
  const double Jxx = 0.02, Jyy = 0.05 - 0.02, Jzz = 0.06 - 0.02, mass = 2;
  const Vec3 expected(std::sqrt(6 * (Jyy + Jzz - Jxx) / mass), std::sqrt(6 * (Jxx + Jzz - Jyy) / mass),
                      std::sqrt(6 * (Jxx + Jyy - Jzz) / mass));
  // The box is along the principal axes (here the body axes, in some order).
  const Vec3 sides_in_body = (box.rotation * box.size.asDiagonal() * box.rotation.transpose()).diagonal();
  CHECK((sides_in_body - expected).norm() < 1e-12);
  REQUIRE(sc.sensors.size() == 1);
  CHECK(sc.sensors[0].body == 0);
  // JSON: one object with the documented keys.
  const std::string json = scene_json(sc);
  for (const char* key : {"\"format\":\"mbdae-scene\"", "\"bodies\":", "\"joints\":", "\"forces\":", "\"planes\":",
                          "\"ground\":", "\"sensors\":", "\"gravity\":[0,0,-9.81]", "\"source\":\"inertia\""})
    CHECK(json.find(key) != std::string::npos);
}

TEST_CASE("io: the recorder writes every body's reference point and rotation, on every path", "[io][poses]") {
  const LoadedModel m = load_model_text(kModel, "two_links.yaml");
  System free = m.system;  // the Lie-group path takes free bodies only
  free.joints().clear();
  free.forces().clear();
  free.contacts().clear();
  const std::string csv = temp_path("rec.csv");
  auto check_initial = [&](const System& sys) {
    const PoseData d = read_pose_file(pose_path_for(csv));
    REQUIRE(d.times.size() == 1);
    for (size_t i = 0; i < sys.bodies().size(); ++i) {
      const RigidBody& b = sys.bodies()[i];
      const float* v = d.values.data() + 7 * i;
      CHECK((Vec3(v[0], v[1], v[2]) - b.position).norm() < 1e-6);
      // The quaternion's rotation is the body's initial orientation (q and −q alike).
      const Vec4 Q(v[3], v[4], v[5], v[6]);
      CHECK((math::ep_to_matrix(Q) - b.orientation).norm() < 1e-6);
    }
  };
  SECTION("implicit: MultibodySystem") {
    const MultibodySystem sys(free);
    VecX q(sys.num_coordinates()), v(sys.num_coordinates()), e;
    sys.initial_state(q, v);
    MultibodyKinematics kin(sys);
    {
      PoseRecorder rec(csv, kin, m.sensors, "two links");
      rec.record(StateView{0.0, q, v, e, e});
    }
    check_initial(free);
  }
  SECTION("explicit: Newton-Euler (COM in the state)") {
    const NewtonEulerSystem sys(free);
    VecX q, v, e;
    sys.initial_state(q, v);
    CHECK((q.segment<3>(0) - free.bodies()[0].position).norm() > 0.05);  // the COM is elsewhere
    NewtonEulerKinematics kin(sys, NewtonEulerKinematics::Layout::NewtonEuler);
    {
      PoseRecorder rec(csv, kin, m.sensors, "two links");
      rec.record(StateView{0.0, q, v, e, e});
    }
    check_initial(free);
  }
  SECTION("explicit: Lie group (rotation vectors in the state)") {
    const NewtonEulerSystem sys(free);
    const LieGroupBodies lg(free);
    VecX q, v, e;
    lg.to_coordinates(lg.initial_state(), q, v);
    NewtonEulerKinematics kin(sys, NewtonEulerKinematics::Layout::LieGroup);
    {
      PoseRecorder rec(csv, kin, m.sensors, "two links");
      rec.record(StateView{0.0, q, v, e, e});
    }
    check_initial(free);
  }
  std::error_code ec;
  std::filesystem::remove(pose_path_for(csv), ec);
  std::filesystem::remove(scene_path_for(csv), ec);
}
