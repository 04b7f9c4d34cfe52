// SDFormat import (libsdformat 12): a closed loop kept as it is, checked against the closed form
// of the four-bar (Freudenstein's equation), and the refusals at their lines. docs/import.md.

#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include <mbdae/import/Import.h>
#include <mbdae/io/Run.h>

#include "ImportTestSupport.h"

using namespace mbdae;

namespace {

namespace fs = std::filesystem;

const auto has = testing::has_diagnostic;

std::string write_sdf(const std::string& name, const std::string& model) {
  const fs::path dir = fs::temp_directory_path() / "mbdae_sdf_tests";
  fs::create_directories(dir);
  std::ofstream(dir / name) << "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n" << model << "</sdf>\n";
  return (dir / name).string();
}

const char* kLink = R"(<link name="%s"><pose>%s</pose><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
)";
std::string link(const std::string& name, const std::string& pose = "0 0 0 0 0 0") {
  char b[600];
  std::snprintf(b, sizeof b, kLink, name.c_str(), pose.c_str());
  return b;
}

}  // namespace

TEST_CASE("SDFormat four-bar: the closed loop is imported and moves as Freudenstein's equation says", "[import][sdf]") {
  const std::string file = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/robots/four_bar.sdf";
  std::vector<io::Diagnostic> w;
  const io::LoadedModel m = import::load_imported(
      file, {{"solver", "{type: ida, end_time: 0.5, tolerance: {relative: 1e-10, absolute: 1e-12}}"}, {"output", "{every: 0.01}"}},
      w);
  CHECK(m.system.bodies().size() == 3);
  CHECK(m.system.joints().size() == 4);  // the loop-closing joint too
  const auto row = testing::final_row(m);
  auto at = [&](const std::string& c) { return row.at(c); };
  // Angles in the xz plane from +x towards +z; a turn about +y lowers them.
  const double a = 0.1, b = 0.35, c = 0.3, d = 0.4;
  const double th2 = M_PI / 3 - at("crank_pivot"), th4 = 1.7957749733962085 - at("rocker_pivot");
  CHECK(std::abs(at("crank_pivot")) > 0.1);  // it moved
  const double K1 = d / a, K2 = d / c, K3 = (a * a - b * b + c * c + d * d) / (2 * a * c);
  const double residual = K1 * std::cos(th4) - K2 * std::cos(th2) + K3 - std::cos(th2 - th4);
  std::printf("four_bar.sdf after 0.5 s: crank %.6f rad, rocker %.6f rad, Freudenstein residual %.2e\n", th2, th4,
              residual);
  CHECK(std::abs(residual) < 1e-9);
}

TEST_CASE("SDFormat elements mapped and refused, at their lines", "[import][sdf]") {
  SECTION("collision with --collision; visual a warning") {
    const std::string f = write_sdf("c.sdf", R"(<model name="m">
<link name="a"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
<collision name="c"><pose>0 0 0.5 0 0 0</pose><geometry><box><size>0.1 0.2 0.3</size></box></geometry></collision>
<visual name="v"><geometry><sphere><radius>0.1</radius></sphere></geometry></visual></link>
<joint name="j" type="prismatic"><parent>world</parent><child>a</child><axis><xyz>1 0 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper></limit><dynamics><damping>3</damping></dynamics></axis></joint>
</model>
)");
    import::ImportOptions o;
    o.collision = true;
    const import::ImportResult r = import::import_file(f, o);
    const io::LoadedModel m = io::load_model_text(r.yaml, r.model_name, {{"contact_penalty", "{stiffness: 1e5}"}});
    REQUIRE(m.system.contacts().size() == 1);
    CHECK((m.system.contacts()[0].position - Vec3(0, 0, 0.5)).norm() < 1e-15);
    CHECK(m.system.joints()[0].type == JointType::Prismatic);
    CHECK(m.system.forces().size() == 2);  // the limit and the damping
    CHECK(has(r.warnings, 6, "link 'a' <visual>", "not mapped"));
  }
  SECTION("a static model, a screw joint, a link named ground") {
    const std::string f = write_sdf("s.sdf", "<model name=\"m\"><static>true</static>\n" + link("ground") + link("b") +
                                                 R"(<joint name="s" type="screw"><parent>ground</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
</model>
)");
    std::vector<io::Diagnostic> e;
    try {
      (void)import::import_file(f);
    } catch (const io::LoadError& x) {
      e = x.diagnostics();
    }
    CHECK(has(e, 3, "model 'm'", "static model"));
    CHECK(has(e, 4, "link 'ground'", "rename"));
    CHECK(has(e, 6, "joint 's'", "joint type not mapped"));
  }
}
