// URDF import: one test per mapped element (the model it gives, against numbers worked out by
// hand from the URDF semantics) and per refused element (the error or warning names the element
// and its line). docs/import.md lists the mapping.

#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include <mbdae/import/Import.h>
#include <mbdae/io/Run.h>

#include "ImportTestSupport.h"

using namespace mbdae;
using Catch::Matchers::Contains;

namespace {

/// A URDF document: `body` between <robot> and </robot>; line 2 is the first line of `body`.
std::string urdf(const std::string& body) { return "<robot name=\"t\">\n" + body + "</robot>\n"; }

const char* kLink = R"(<link name="%s"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
)";
std::string link(const std::string& name) {
  char b[512];
  std::snprintf(b, sizeof b, kLink, name.c_str());
  return b;
}

io::LoadedModel load(const std::string& text, std::vector<io::Diagnostic>* warnings = nullptr,
                     import::ImportOptions opt = {}) {
  const import::ImportResult r = import::import_urdf_text(text, "t.urdf", opt);
  if (warnings) *warnings = r.warnings;
  return io::load_model_text(r.yaml, r.model_name);
}

/// The diagnostics of an import that fails.
std::vector<io::Diagnostic> errors_of(const std::string& text, import::ImportOptions opt = {}) {
  try {
    (void)import::import_urdf_text(text, "t.urdf", opt);
  } catch (const io::LoadError& e) {
    return e.diagnostics();
  }
  return {};
}

const Joint& joint(const System& s, const std::string& name) {
  for (const Joint& j : s.joints())
    if (j.name == name) return j;
  FAIL("no joint " << name);
  throw 0;
}

const auto has = testing::has_diagnostic;

}  // namespace

TEST_CASE("URDF <inertial>: mass, COM and inertia about the link frame from a turned, offset inertial frame",
          "[import]") {
  const std::string t = urdf(R"(<link name="world"/>
<joint name="j" type="revolute"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
<link name="b"><inertial><origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/><mass value="2"/>
<inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/></inertial></link>
)");
  const io::LoadedModel m = load(t);
  REQUIRE(m.system.bodies().size() == 1);
  const RigidBody& b = m.system.bodies()[0];
  CHECK(b.mass == 2);
  CHECK((b.com - Vec3(0.1, 0, 0)).norm() < 1e-15);
  // Turned by 90° about z: about the COM diag(2, 1, 3); about the link origin, parallel axes with
  // c = (0.1, 0, 0): + m (c·c I − c cᵀ) = diag(0, 0.02, 0.02).
  Vec6 expected;
  expected << 2, 1.02, 3.02, 0, 0, 0;
  CHECK((b.inertia - expected).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("URDF products of inertia: the tensor entries (ixy = J(0,1)) are kept", "[import]") {
  const std::string t = urdf(R"(<link name="world"/>
<joint name="j" type="continuous"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/></joint>
<link name="b"><inertial><mass value="1"/><inertia ixx="0.3" iyy="0.4" izz="0.5" ixy="-0.01" ixz="0.02" iyz="-0.03"/></inertial></link>
)");
  const auto m = load(t);
  const RigidBody& b = m.system.bodies()[0];
  Vec6 expected;
  expected << 0.3, 0.4, 0.5, -0.03, 0.02, -0.01;  // [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
  CHECK((b.inertia - expected).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("URDF <joint> origins compose from the root: body poses, joint points and axes in world", "[import]") {
  const std::string t = urdf("<link name=\"world\"/>\n" + link("a") + link("b") + R"(
<joint name="ja" type="revolute"><parent link="world"/><child link="a"/><origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
<joint name="jb" type="prismatic"><parent link="a"/><child link="b"/><origin xyz="0.5 0 0" rpy="0 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
)");
  const io::LoadedModel m = load(t);
  const System& s = m.system;
  const RigidBody& a = s.bodies()[*s.find_body("a")];
  const RigidBody& b = s.bodies()[*s.find_body("b")];
  // a: at (0, 0, 1), turned 90° about z: its x axis is world y.
  CHECK((a.position - Vec3(0, 0, 1)).norm() < 1e-15);
  CHECK((a.orientation.col(0) - Vec3(0, 1, 0)).norm() < 1e-15);
  // b: 0.5 along a's x = world y.
  CHECK((b.position - Vec3(0, 0.5, 1)).norm() < 1e-15);
  const Joint& ja = joint(s, "ja");
  CHECK(ja.type == JointType::Revolute);
  CHECK(ja.bodies == std::array<std::string, 2>{"ground", "a"});
  CHECK((ja.axis.normalized() - Vec3(0, 1, 0)).norm() < 1e-15);  // a's x
  const Joint& jb = joint(s, "jb");
  CHECK(jb.type == JointType::Prismatic);
  CHECK((jb.point - Vec3(0, 0.5, 1)).norm() < 1e-15);
  CHECK((jb.axis.normalized() - Vec3(-1, 0, 0)).norm() < 1e-15);  // a's y
}

TEST_CASE("URDF joint types: continuous, fixed, planar map; floating leaves the body free", "[import]") {
  const std::string t = urdf("<link name=\"world\"/>\n" + link("c") + link("f") + link("p") + link("fl") + R"(
<joint name="jc" type="continuous"><parent link="world"/><child link="c"/><axis xyz="0 0 1"/></joint>
<joint name="jf" type="fixed"><parent link="c"/><child link="f"/><origin xyz="1 0 0"/></joint>
<joint name="jp" type="planar"><parent link="world"/><child link="p"/><axis xyz="0 0 1"/></joint>
<joint name="jfl" type="floating"><parent link="world"/><child link="fl"/><origin xyz="0 0 2"/></joint>
)");
  const io::LoadedModel m = load(t);
  CHECK(joint(m.system, "jc").type == JointType::Revolute);
  CHECK(joint(m.system, "jf").type == JointType::Fixed);
  CHECK(joint(m.system, "jp").type == JointType::Planar);
  CHECK(m.system.joints().size() == 3);  // the floating joint is no joint
  CHECK((m.system.bodies()[*m.system.find_body("fl")].position - Vec3(0, 0, 2)).norm() < 1e-15);
}

TEST_CASE("URDF massless link on a fixed joint is part of its parent's body; on a moving joint it is refused",
          "[import]") {
  const std::string merged = urdf("<link name=\"world\"/>\n" + link("a") + link("b") + R"(<link name="tip"/>
<joint name="ja" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
<joint name="jt" type="fixed"><parent link="a"/><child link="tip"/><origin xyz="1 0 0"/></joint>
<joint name="jb" type="continuous"><parent link="tip"/><child link="b"/><origin xyz="0 1 0"/><axis xyz="0 0 1"/></joint>
)");
  const io::LoadedModel m = load(merged);
  CHECK(m.system.bodies().size() == 2);
  const Joint& jb = joint(m.system, "jb");
  CHECK(jb.bodies == std::array<std::string, 2>{"a", "b"});
  CHECK((jb.point - Vec3(1, 1, 0)).norm() < 1e-15);

  const std::string bad = urdf(R"(<link name="world"/>
<link name="empty"/>
<joint name="j" type="continuous"><parent link="world"/><child link="empty"/><axis xyz="0 0 1"/></joint>
)");
  const auto e = errors_of(bad);
  REQUIRE(e.size() == 1);
  CHECK(e[0].line == 3);
  CHECK(e[0].key_path == "link 'empty'");
  CHECK_THAT(e[0].message, Contains("no mass") && Contains("joint 'j' (line 4)"));
}

TEST_CASE("URDF root link with a mass is fixed to the world, with a warning", "[import]") {
  const std::string t = urdf(link("base") + R"(<link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
)");
  std::vector<io::Diagnostic> w;
  const io::LoadedModel m = load(t, &w);
  CHECK(joint(m.system, "base_to_world").type == JointType::Fixed);
  CHECK(has(w, 2, "link 'base'", "fixed to the world"));
}

TEST_CASE("URDF <limit> becomes a joint_limit; effort and velocity are a warning at its line", "[import]") {
  const std::string t = urdf("<link name=\"world\"/>\n" + link("a") + R"(<joint name="j" type="revolute">
<parent link="world"/><child link="a"/><axis xyz="0 0 1"/>
<limit lower="-0.5" upper="0.7" effort="10" velocity="2"/>
</joint>
)");
  std::vector<io::Diagnostic> w;
  import::ImportOptions o;
  o.limit_stiffness = 2e4;
  o.limit_damping = 3;
  const io::LoadedModel m = load(t, &w, o);
  REQUIRE(m.system.forces().size() == 1);
  const ForceElement& f = m.system.forces()[0];
  CHECK(f.name == "j_limit");
  CHECK(f.type == ForceType::JointLimit);
  CHECK(has(w, 6, "joint 'j' <limit>", "effort (10) and velocity (2) limits are not enforced"));
}

TEST_CASE("URDF <dynamics> becomes joint_friction: damping viscous, friction a Coulomb effort", "[import]") {
  const std::string t = urdf("<link name=\"world\"/>\n" + link("a") + link("b") + R"(
<joint name="r" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/><dynamics damping="0.4" friction="0.25"/></joint>
<joint name="p" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="0" velocity="0"/><dynamics damping="7"/></joint>
)");
  const io::LoadedModel m = load(t);
  int found = 0;
  for (const ForceElement& f : m.system.forces())
    if (f.type == ForceType::JointFriction) ++found;
  CHECK(found == 2);
  // The efforts, from the model's own evaluation: at a rate of 2 rad/s (well above the
  // regularization) the revolute joint's torque is 0.4·2 + 0.25 = 1.05 N m.
  const import::ImportResult r = import::import_urdf_text(t, "t.urdf");
  CHECK_THAT(r.yaml, Contains("viscous_rotation: 0.40000000000000002") && Contains("viscous_slide: 7") &&
                         Contains("normal_force: 0.25"));
}

TEST_CASE("URDF <mimic> becomes a linear coupling; an offset or a fixed joint is refused at its line", "[import]") {
  const std::string head = "<link name=\"world\"/>\n" + link("a") + link("b");
  const std::string ok = urdf(head + R"(<joint name="ja" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
<joint name="jb" type="continuous"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/><mimic joint="ja" multiplier="-2"/></joint>
)");
  const io::LoadedModel m = load(ok);
  REQUIRE(m.system.couplings().size() == 1);
  const Coupling& c = m.system.couplings()[0];
  CHECK(c.name == "jb_mimic");

  const std::string offset = urdf(head + R"(<joint name="ja" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
<joint name="jb" type="continuous"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/>
<mimic joint="ja" multiplier="1" offset="0.1"/></joint>
)");
  auto e = errors_of(offset);
  REQUIRE(e.size() == 1);
  CHECK(e[0].line == 7);
  CHECK(e[0].key_path == "joint 'jb' <mimic>");
  CHECK_THAT(e[0].message, Contains("offset 0.1 is not mapped"));

  const std::string fixed = urdf(head + R"(<joint name="ja" type="fixed"><parent link="world"/><child link="a"/></joint>
<joint name="jb" type="continuous"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/>
<mimic joint="ja"/></joint>
)");
  e = errors_of(fixed);
  REQUIRE(e.size() == 1);
  CHECK(e[0].line == 7);
  CHECK_THAT(e[0].message, Contains("joint 'ja' is a fixed joint"));
}

TEST_CASE("URDF <collision>: primitives and meshes become contact shapes with --collision, else a warning",
          "[import]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "mbdae_import_collision";
  fs::create_directories(dir);
  {
    std::ofstream obj(dir / "tet.obj");
    obj << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  }
  const std::string t = urdf(R"(<link name="world"/>
<link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
<collision><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
<collision><geometry><sphere radius="0.07"/></geometry></collision>
<collision><geometry><mesh filename="tet.obj" scale="0.1 0.1 0.1"/></geometry></collision>
</link>
<joint name="j" type="continuous"><parent link="world"/><child link="a"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/></joint>
)");
  const std::string file = (dir / "t.urdf").string();
  import::ImportOptions o;
  o.collision = true;
  const import::ImportResult r = import::import_urdf_text(t, file, o);
  const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);
  REQUIRE(m.system.contacts().size() == 4);
  CHECK(m.system.contacts()[0].name == "a_collision0");
  CHECK((m.system.contacts()[0].position - Vec3(0, 0, 0.5)).norm() < 1e-15);  // body axes of a
  CHECK(has(r.warnings, 7, "link 'a' <collision>", "taken as its convex hull"));

  const import::ImportResult off = import::import_urdf_text(t, file);
  for (int line : {4, 5, 6, 7}) CHECK(has(off.warnings, line, "link 'a' <collision>", "not mapped"));
  fs::remove_all(dir);
}

TEST_CASE("URDF refusals and warnings name the element and its line", "[import]") {
  SECTION("visual, material, transmission, gazebo, safety_controller, calibration: warnings") {
    const std::string t = urdf(R"(<material name="red"><color rgba="1 0 0 1"/></material>
<link name="world"/>
<link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<visual><geometry><box size="1 1 1"/></geometry></visual></link>
<joint name="j" type="revolute"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="0" velocity="0"/>
<safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="10" k_velocity="1"/>
<calibration rising="0.1"/></joint>
<transmission name="tr"><type>x</type></transmission>
<gazebo reference="a"/>
)");
    std::vector<io::Diagnostic> w;
    (void)load(t, &w);
    CHECK(has(w, 2, "<material name='red'>", "not mapped"));
    CHECK(has(w, 5, "link 'a' <visual>", "not mapped"));
    CHECK(has(w, 7, "joint 'j' <safety_controller>", "not mapped"));
    CHECK(has(w, 8, "joint 'j' <calibration>", "not mapped"));
    CHECK(has(w, 9, "<transmission name='tr'>", "not mapped"));
    CHECK(has(w, 10, "<gazebo>", "not mapped"));
    CHECK(w.size() == 6);
    import::ImportOptions strict;
    strict.strict = true;
    const auto e = errors_of(t, strict);
    CHECK(e.size() == 6);
    CHECK(has(e, 5, "link 'a' <visual>", "(--strict)"));
  }
  SECTION("limits that are not mapped; a zero axis; a mimic of a missing joint") {
    const std::string t = urdf("<link name=\"world\"/>\n" + link("a") + link("b") + R"(<joint name="ja" type="revolute"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/>
<limit lower="0.5" upper="0.5" effort="0" velocity="0"/></joint>
<joint name="jb" type="continuous"><parent link="world"/><child link="b"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
)");
    std::vector<io::Diagnostic> w;
    (void)load(t, &w);
    CHECK(has(w, 6, "joint 'ja' <limit>", "lower (0.5) is not below upper (0.5)"));
    CHECK(has(w, 8, "joint 'jb' <limit>", "not used"));
    const std::string zero = urdf("<link name=\"world\"/>\n" + link("a") + R"(<joint name="j" type="revolute"><parent link="world"/><child link="a"/>
<axis xyz="0 0 0"/><limit lower="-1" upper="1" effort="0" velocity="0"/></joint>
)");
    CHECK(has(errors_of(zero), 5, "joint 'j' <axis>", "zero length"));
    const std::string missing = urdf("<link name=\"world\"/>\n" + link("a") + R"(<joint name="j" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/>
<mimic joint="nope"/></joint>
)");
    CHECK(has(errors_of(missing), 5, "joint 'j' <mimic>", "joint 'nope' does not exist"));
  }
  SECTION("a link named ground") {
    const auto e = errors_of(urdf("<link name=\"world\"/>\n" + link("ground") +
                                  "<joint name=\"j\" type=\"continuous\"><parent link=\"world\"/><child link=\"ground\"/></joint>\n"));
    REQUIRE(!e.empty());
    CHECK(has(e, 3, "link 'ground'", "rename"));
  }
  SECTION("a mesh found through a ROS package, a mesh format that is not read") {
    for (const auto& [uri, text] : std::vector<std::pair<std::string, std::string>>{
             {"package://robot/meshes/a.stl", "package://robot/meshes/a.stl"}, {"a.dae", "only STL and OBJ"}}) {
      const std::string t = urdf(R"(<link name="world"/>
<link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><mesh filename=")" + uri + R"("/></geometry></collision></link>
<joint name="j" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
)");
      import::ImportOptions o;
      o.collision = true;
      CHECK(has(errors_of(t, o), 4, "link 'a' <collision>", text));
    }
  }
  SECTION("damping on a planar joint") {
    const std::string t = urdf("<link name=\"world\"/>\n" + link("a") + R"(<joint name="j" type="planar">
<parent link="world"/><child link="a"/><axis xyz="0 0 1"/>
<dynamics damping="1"/></joint>
)");
    CHECK(has(errors_of(t), 6, "joint 'j' <dynamics>", "not on a planar joint"));
  }
  SECTION("not XML, not a robot, not a URDF urdfdom reads") {
    CHECK(has(errors_of("<robot name='x'>\n<link name='a'>\n</robot>\n"), 2, "", "not well-formed XML"));
    CHECK(has(errors_of("<model/>\n"), 1, "", "no <robot>"));
    CHECK(has(errors_of(urdf("<joint name='j' type='revolute'><parent link='a'/><child link='b'/></joint>\n")), 1,
              "<robot>", "urdfdom could not read"));
  }
}

TEST_CASE("URDF gripper: the <mimic> coupling moves both fingers", "[import]") {
  // Only the left finger is pushed open (1 N along its axis); the mimic coupling opens the right
  // one by the same amount along its own axis, which points the other way.
  std::vector<io::Diagnostic> w;
  const io::LoadedModel m = import::load_imported(
      std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/robots/gripper.urdf",
      {{"forces", "[{name: push, type: joint_motor, joint: finger_left_joint, effort: force, value: 1}]"},
       {"gravity", "[0, 0, 0]"},
       {"solver", "{end_time: 0.1, step: 1e-3}"},
       {"output", "{every: 0.1}"}},
      w);
  const auto row = testing::final_row(m);
  const double left = row.at("finger_left_joint"), right = row.at("finger_right_joint");
  // One coordinate s with both fingers' mass (0.1 kg each) on it: s̈ = F / (2 m) = 5 m/s² from rest,
  // s = ½ s̈ t² = 0.025 m at 0.1 s (no moment on the palm: the fingers move symmetrically).
  CHECK(left == Approx(0.025).epsilon(1e-6));
  CHECK(right == Approx(left).epsilon(1e-9));
}
