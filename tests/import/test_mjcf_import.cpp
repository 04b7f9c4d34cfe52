// MJCF import (MuJoCo's parser, then the compiled model at qpos0): one test per mapped element
// and per refused element (the message names the element and its line). docs/import.md.

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>

#include <mbdae/import/Import.h>
#include <mbdae/io/Run.h>

#include "ImportTestSupport.h"

using namespace mbdae;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

/// An MJCF file in a scratch folder: `worldbody` inside <worldbody>, `rest` after it.
std::string write_mjcf(const std::string& name, const std::string& worldbody, const std::string& rest = "") {
  const fs::path dir = fs::temp_directory_path() / "mbdae_mjcf_tests";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << "<mujoco model=\"t\">\n<worldbody>\n" << worldbody << "</worldbody>\n" << rest << "</mujoco>\n";
  return p.string();
}

std::vector<io::Diagnostic> errors_of(const std::string& file, import::ImportOptions o = {}) {
  try {
    (void)import::import_file(file, o);
  } catch (const io::LoadError& e) {
    return e.diagnostics();
  }
  return {};
}

const auto has = testing::has_diagnostic;

const Joint* find_joint(const System& s, const std::string& name) {
  for (const Joint& j : s.joints())
    if (j.name == name) return &j;
  return nullptr;
}

const std::string kHand = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/robots/hand.xml";
const char* kBody = R"(<inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>)";

}  // namespace

TEST_CASE("MJCF bodies: mass, COM and the inertia of a turned inertial frame, about the body frame", "[import][mjcf]") {
  const import::ImportResult r = import::import_file(kHand);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);
  const RigidBody& arm = m.system.bodies()[*m.system.find_body("arm")];
  CHECK(arm.mass == 1.2);
  CHECK((arm.com - Vec3(0.15, 0, 0)).norm() < 1e-15);
  CHECK((arm.position - Vec3(0, 0, 0.6)).norm() < 1e-15);
  // About the COM: the principal moments of diaginertia, the first axis turned 30° about y.
  const Vec3 c = arm.com;
  Mat3 J;
  J << arm.inertia[0], arm.inertia[5], arm.inertia[4], arm.inertia[5], arm.inertia[1], arm.inertia[3], arm.inertia[4],
      arm.inertia[3], arm.inertia[2];
  const Mat3 J_C = J - arm.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> eig(J_C);
  CHECK((eig.eigenvalues() - Vec3(0.0012, 0.01, 0.011)).cwiseAbs().maxCoeff() < 1e-12);
  const Vec3 first = eig.eigenvectors().col(0);
  CHECK(std::abs(std::abs(first.dot(Vec3(std::cos(M_PI / 6), 0, -std::sin(M_PI / 6)))) - 1) < 1e-12);
}

TEST_CASE("MJCF hinge joints, range, damping, joint equality and position actuator", "[import][mjcf]") {
  const import::ImportResult r = import::import_file(kHand);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);
  const Joint* shoulder = find_joint(m.system, "shoulder");
  REQUIRE(shoulder);
  CHECK(shoulder->type == JointType::Revolute);
  CHECK(shoulder->bodies == std::array<std::string, 2>{"ground", "arm"});
  CHECK((shoulder->axis.normalized() - Vec3(0, 1, 0)).norm() < 1e-15);
  CHECK((shoulder->point - Vec3(0, 0, 0.6)).norm() < 1e-15);
  const Joint* wrist = find_joint(m.system, "wrist");
  REQUIRE(wrist);
  // the palm is turned 0.4 rad about z: its x axis in world
  CHECK((wrist->axis.normalized() - Vec3(std::cos(0.4), std::sin(0.4), 0)).norm() < 1e-15);
  CHECK_THAT(r.yaml, Contains("name: shoulder_limit") && Contains("lower: -1.5") && Contains("upper: 1.5") &&
                         Contains("viscous_rotation: 0.20000000000000001"));
  REQUIRE(m.system.couplings().size() == 1);
  CHECK(m.system.couplings()[0].name == "fingers_mirror");
  // q_b = −q_a: coefficients [1, 1] on [finger_b_joint, finger_a_joint]
  CHECK_THAT(r.yaml, Contains("joints: [finger_b_joint, finger_a_joint]") && Contains("coefficients: [1, 1]"));
  // kp = 2: force = −2 q (control input 0)
  CHECK_THAT(r.yaml, Contains("value: 0 + -2*(angle()) + 0*rate()"));
  CHECK(has(r.warnings, 35, "actuator 'finger_servo'", "control input is 0"));
  CHECK(has(r.warnings, 9, "geom 'floor'", "not mapped (import with --collision"));
}

TEST_CASE("MJCF geoms become contact shapes with --collision", "[import][mjcf]") {
  import::ImportOptions o;
  o.collision = true;
  const import::ImportResult r = import::import_file(kHand, o);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name, {{"contact_penalty", "{stiffness: 1e5}"}});
  REQUIRE(m.system.contacts().size() == 5);
  CHECK(m.system.contacts()[0].name == "floor");
  CHECK(m.system.contacts()[1].name == "arm_geom");
  // the capsule from (0,0,0) to (0.3,0,0) in the arm's frame: centre at x = 0.15
  CHECK((m.system.contacts()[1].position - Vec3(0.15, 0, 0)).norm() < 1e-12);
}

TEST_CASE("MJCF the joint equality moves both fingers", "[import][mjcf]") {
  std::vector<io::Diagnostic> w;
  const io::LoadedModel m = import::load_imported(
      kHand,
      {{"forces", "[{name: push, type: joint_motor, joint: finger_a_joint, value: 1.0e-4}]"},
       {"gravity", "[0, 0, 0]"},
       {"solver", "{end_time: 0.05, step: 1e-4}"},
       {"output", "{every: 0.05}"}},
      w);
  const auto row = testing::final_row(m);
  const double a = row.at("finger_a_joint"), b = row.at("finger_b_joint");
  CHECK(a > 1e-4);
  CHECK(b == Approx(-a).epsilon(1e-9));
}

TEST_CASE("MJCF connect and weld equalities become spherical and fixed joints", "[import][mjcf]") {
  const std::string f = write_mjcf("loop.xml", std::string(R"(<body name="a" pos="0 0 1"><joint name="ja" type="hinge" axis="0 1 0"/>)") + kBody + R"(
<body name="b" pos="1 0 0"><joint name="jb" type="hinge" axis="0 1 0"/>)" + kBody + R"(</body></body>
<body name="c" pos="0 0 2">)" + kBody + R"(</body>
)", R"(<equality><connect name="close" body1="b" body2="world" anchor="0 0 0"/><weld name="glue" body1="c" body2="a"/></equality>
)");
  const import::ImportResult r = import::import_file(f);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);
  const Joint* close = find_joint(m.system, "close");
  REQUIRE(close);
  CHECK(close->type == JointType::Spherical);
  CHECK((close->point - Vec3(1, 0, 1)).norm() < 1e-15);
  const Joint* glue = find_joint(m.system, "glue");
  REQUIRE(glue);
  CHECK(glue->type == JointType::Fixed);
  CHECK(find_joint(m.system, "c_weld"));  // a body without a joint is welded to its parent (the world)
}

TEST_CASE("MJCF ball and free joints: a spherical joint, a free body", "[import][mjcf]") {
  const std::string f = write_mjcf("ball.xml", std::string(R"(<body name="a" pos="0 0 1"><joint name="b" type="ball" pos="0 0 0.5"/>)") + kBody +
                                                   R"(</body>
<body name="f" pos="2 0 0"><freejoint name="free"/>)" + kBody + "</body>\n");
  const import::ImportResult r = import::import_file(f);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);
  REQUIRE(m.system.joints().size() == 1);
  const Joint& b = m.system.joints()[0];
  CHECK(b.type == JointType::Spherical);
  CHECK((b.point - Vec3(0, 0, 1.5)).norm() < 1e-15);  // the anchor, in world
  CHECK((m.system.bodies()[*m.system.find_body("f")].position - Vec3(2, 0, 0)).norm() < 1e-15);
}

TEST_CASE("MJCF refusals name the element and its line", "[import][mjcf]") {
  SECTION("two joints in one body") {
    const std::string f = write_mjcf("two.xml", std::string(R"(<body name="a"><joint name="x" type="slide" axis="1 0 0"/><joint name="y" type="slide" axis="0 1 0"/>)") + kBody + "</body>\n");
    CHECK(has(errors_of(f), 3, "body 'a'", "2 joints (x, y) in one body"));
  }
  SECTION("armature, stiffness, a ranged ball joint") {
    const std::string f = write_mjcf("arm.xml", std::string(R"(<body name="a"><joint name="j" type="hinge" armature="0.1" stiffness="2"/>)") + kBody + R"(</body>
<body name="b"><joint name="s" type="ball" limited="true" range="0 1"/>)" + kBody + "</body>\n");
    const auto e = errors_of(f);
    CHECK(has(e, 3, "joint 'j'", "armature 0.1"));
    CHECK(has(e, 3, "joint 'j'", "stiffness 2"));
    CHECK(has(e, 4, "joint 's'", "range on a ball"));
  }
  SECTION("equalities: tendon, nonlinear polycoef, not satisfied at qpos0, inactive") {
    const std::string f = write_mjcf("eq.xml", std::string(R"(<body name="a"><joint name="j1" type="hinge"/>)") + kBody + R"(</body>
<body name="b" pos="0 0 1"><joint name="j2" type="hinge"/>)" + kBody + "</body>\n", R"(<equality>
<joint name="quad" joint1="j1" joint2="j2" polycoef="0 1 0.5 0 0"/>
<weld name="apart" body1="a" body2="b" relpose="0 0 0.5 1 0 0 0"/>
<joint name="off" joint1="j1" joint2="j2" active="false"/>
</equality>
)");
    const auto e = errors_of(f);
    CHECK(has(e, 7, "<joint name='quad'>", "polycoef with other than a linear term"));
    CHECK(has(e, 8, "<weld name='apart'>", "not satisfied at qpos0 (residual 0.5)"));
    import::ImportOptions loose;
    const std::string g = write_mjcf("eq2.xml", std::string(R"(<body name="a"><joint name="j1" type="hinge"/>)") + kBody + R"(</body>
<body name="b"><joint name="j2" type="hinge"/>)" + kBody + "</body>\n", R"(<equality>
<joint name="off" joint1="j1" joint2="j2" active="false"/>
</equality>
)");
    const import::ImportResult r = import::import_file(g, loose);
    CHECK(has(r.warnings, 7, "<joint name='off'>", "inactive"));
  }
  SECTION("actuators that do not map; a mesh geom with --collision; tendons and sensors") {
    const std::string f = write_mjcf("act.xml", std::string(R"(<body name="a"><joint name="j" type="hinge"/>)") + kBody + R"(
<geom name="e" type="ellipsoid" size="0.1 0.2 0.3" mass="0"/></body>
)", R"(<actuator><general name="filt" joint="j" dyntype="filter" dynprm="0.1"/></actuator>
<sensor><jointpos joint="j"/></sensor>
)");
    import::ImportOptions o;
    o.collision = true;
    const auto e = errors_of(f, o);
    CHECK(has(e, 6, "actuator 'filt'", "activation dynamics"));
    CHECK(has(e, 4, "geom 'e'", "not mapped to a contact shape"));
    o.strict = true;
    CHECK(has(errors_of(f, o), 7, "<sensor>", "not mapped: <sensor> is not read (--strict)"));
  }
  SECTION("not an MJCF file; a file MuJoCo's compiler refuses") {
    const fs::path dir = fs::temp_directory_path() / "mbdae_mjcf_tests";
    fs::create_directories(dir);
    std::ofstream(dir / "x.xml") << "<robot/>\n";
    CHECK(has(errors_of((dir / "x.xml").string()), 1, "", "no <mujoco> element"));
    const std::string f = write_mjcf("bad.xml", "<body name=\"a\"><joint name=\"j\" type=\"warp\"/></body>\n");
    CHECK(has(errors_of(f), 1, "<mujoco>", "MuJoCo's compiler refused the file"));
  }
}
