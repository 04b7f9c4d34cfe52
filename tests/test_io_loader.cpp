// Model file loader, expressions, sensors and CSV output (mbdae::io).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/Expression.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

const char* kPendulum = R"(name: pendulum
gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 2.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [0.5, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1]}
sensors:
  - {name: tip, body: rod, point: [0.5, 0, 0], output: position}
solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
output: {every: 1.0e-2}
)";

std::vector<Diagnostic> problems(const std::string& text, const std::vector<Override>& o = {}) {
  try {
    (void)load_model_text(text, "m.yaml", o);
  } catch (const LoadError& e) {
    return e.diagnostics();
  }
  return {};
}

std::string replace(std::string s, const std::string& a, const std::string& b) {
  const size_t p = s.find(a);
  REQUIRE(p != std::string::npos);
  return s.replace(p, a.size(), b);
}

}  // namespace

TEST_CASE("io: a valid model loads into System, settings and sensors", "[io]") {
  const LoadedModel m = load_model_text(kPendulum, "m.yaml");
  REQUIRE(m.system.bodies().size() == 1);
  CHECK(m.system.bodies()[0].mass == 2.0);
  CHECK(m.system.gravity.y() == -9.81);
  REQUIRE(m.system.joints().size() == 1);
  CHECK(m.system.joints()[0].type == JointType::Revolute);
  CHECK(m.settings.solver == SolverType::GeneralizedAlpha);
  CHECK(m.settings.t_end == 0.1);
  CHECK(m.settings.output_every == 0.01);
  REQUIRE(m.sensors.size() == 1);
  CHECK(m.sensors[0].point.x() == 0.5);
  CHECK(m.body_locations.at(0).line == 4);
  CHECK(m.joint_locations.at(0).key_path == "joints[0]");
}

TEST_CASE("io: each problem has file, line, column and key path", "[io]") {
  const auto d = problems(replace(kPendulum, "mass: 2.0", "mass: -2.0"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == "m.yaml");
  CHECK(d[0].line == 4);
  CHECK(d[0].column == 23);
  CHECK(d[0].key_path == "bodies[0].mass");
  CHECK(d[0].to_string() == "m.yaml:4:23: bodies[0].mass: must be > 0, got -2");
}

TEST_CASE("io: all problems of a file are reported together", "[io]") {
  std::string t = replace(kPendulum, "mass: 2.0", "mass: -2.0");
  t = replace(t, "axis: [0, 0, 1]", "axis: [0, 0, 0]");
  t = replace(t, "bodies: [ground, rod]", "bodies: [ground, rood]");
  t = replace(t, "output: position", "output: speed");
  t = replace(t, "end_time: 0.1", "end_time: 0.1, colour: red");
  const auto d = problems(t);
  std::vector<std::string> keys;
  for (const auto& x : d) keys.push_back(x.key_path);
  CHECK(keys == std::vector<std::string>{"bodies[0].mass", "joints[0].bodies[1]", "joints[0].axis",
                                         "sensors[0].output", "solver.colour"});
}

TEST_CASE("io: features of the format that do not exist yet are rejected, not ignored", "[io]") {
  auto first = [](const std::string& t) {
    const auto d = problems(t);
    REQUIRE_FALSE(d.empty());
    return d[0];
  };
  CHECK_THAT(first(replace(kPendulum, "axis: [0, 0, 1]}", "axis: [0, 0, 1], motion: \"t\"}")).message,
             Catch::Contains("not supported yet"));
  CHECK_THAT(first(replace(kPendulum, "type: generalized_alpha", "type: dopri5")).message,
             Catch::Contains("not supported yet"));
  CHECK_THAT(first(replace(kPendulum, "type: revolute", "type: cylindrical")).message,
             Catch::Contains("not supported yet"));
  const Diagnostic c = first(std::string(kPendulum) + "contacts:\n  - {type: sphere_plane, body: rod}\n");
  CHECK(c.key_path == "contacts[0]");
  CHECK(c.line == 12);
}

TEST_CASE("io: expression errors point into the expression", "[io]") {
  const std::string t = replace(kPendulum, "sensors:",
                                "forces:\n  - {type: torque, body: rod, value: [0, 0, \"2*sin(3*t) + q\"]}\nsensors:");
  const auto d = problems(t);
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "forces[0].value[2]");
  CHECK(d[0].line == 8);
  // The value starts at column 45 with its quote; "q" is character 13 of the expression.
  CHECK(d[0].column == 45 + 1 + 13);
}

TEST_CASE("io: time-dependent loads evaluate their expressions", "[io]") {
  const std::string t = replace(kPendulum, "sensors:",
                                "forces:\n  - {type: torque, body: rod, value: [0, 0, \"t > 0.5 ? 2 : pi\"]}\nsensors:");
  const LoadedModel m = load_model_text(t, "m.yaml");
  REQUIRE(m.system.loads().size() == 1);
  const Load& l = m.system.loads()[0];
  REQUIRE(l.value_of_t);
  CHECK(l.value_of_t(0.1).z() == Approx(M_PI));
  CHECK(l.value_of_t(0.6).z() == 2.0);
}

TEST_CASE("io: --set overrides any key before the checks", "[io]") {
  const LoadedModel m = load_model_text(kPendulum, "m.yaml",
                                        {parse_override("solver.type=ida"), parse_override("bodies[0].mass=3"),
                                         parse_override("gravity=[0, 0, -1]")});
  CHECK(m.settings.solver == SolverType::Ida);
  CHECK(m.system.bodies()[0].mass == 3.0);
  CHECK(m.system.gravity.z() == -1.0);

  const auto d = problems(kPendulum, {parse_override("bodies[0].mass=-1")});
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == "--set bodies[0].mass=-1");
  CHECK(d[0].key_path == "bodies[0].mass");
  CHECK_FALSE(problems(kPendulum, {parse_override("bodies[3].mass=1")}).empty());
  CHECK_THROWS_AS(parse_override("novalue"), LoadError);
}

TEST_CASE("io: shapes give the inertia about the COM, placed at com", "[io]") {
  const std::string t = replace(kPendulum, "inertia: [0.01, 0.1, 0.1, 0, 0, 0]",
                                "shape: {cylinder: {radius: 0.1, length: 1.0, axis: x}}, com: [0.5, 0, 0]");
  const LoadedModel m = load_model_text(t, "m.yaml");
  const RigidBody& b = m.system.bodies()[0];
  // axial m r²/2; transverse m(3r² + L²)/12 + m d² with d = 0.5 about the reference point.
  CHECK(b.inertia[0] == Approx(2.0 * 0.01 / 2));
  CHECK(b.inertia[1] == Approx(2.0 * (0.03 + 1.0) / 12 + 2.0 * 0.25));
}

TEST_CASE("io: malformed, empty and binary files are one clear problem each", "[io]") {
  CHECK(problems("").at(0).message.find("empty") != std::string::npos);
  CHECK(problems("bodies: [").at(0).message.find("YAML syntax error") != std::string::npos);
  const auto bin = problems(std::string("name: a\n\0\x01", 10));
  REQUIRE(bin.size() == 1);
  CHECK(bin[0].line == 2);
  CHECK(problems("[1, 2]").at(0).message.find("expected a mapping") != std::string::npos);
  CHECK(problems("a: &x [*x]").size() >= 1);  // a self-referencing alias must not hang or crash
}

TEST_CASE("io: Expression copies have their own parser", "[io]") {
  const Expression e("sin(t) + 2*t");
  CHECK(e.depends_on_time());
  Expression c = e;
  CHECK(c(1.0) == Approx(std::sin(1.0) + 2.0));
  std::vector<double> r(4);
  std::vector<std::thread> th;
  std::vector<Expression> copies(4, e);
  for (int k = 0; k < 4; ++k)
    th.emplace_back([&, k] {
      double s = 0;
      for (int i = 0; i < 2000; ++i) s += copies[static_cast<size_t>(k)](k + i * 1e-3);
      r[static_cast<size_t>(k)] = s;
    });
  for (auto& x : th) x.join();
  for (int k = 0; k < 4; ++k) {
    double s = 0;
    for (int i = 0; i < 2000; ++i) s += e(k + i * 1e-3);
    CHECK(r[static_cast<size_t>(k)] == Approx(s));
  }
  CHECK(std::isnan(Expression("sqrt(-1) * t")(1.0)));
  CHECK_THROWS_AS(Expression("2*(t"), ExpressionError);
  CHECK_FALSE(Expression("3*pi").depends_on_time());
}

TEST_CASE("io: sensors of a hanging pendulum; CSV rows are written as they come", "[io]") {
  std::string t = replace(kPendulum, "position: [0.5, 0, 0]}", "position: [0, -0.5, 0], orientation: {axis: [0, 0, 1], angle: \"-pi/2\"}}");
  t = replace(t, "output: position}",
              "output: position}\n  - {name: F, joint: pivot, output: reaction_force}\n"
              "  - {name: FJ, joint: pivot, output: reaction_force, frame: joint}\n"
              "  - {name: E, output: energy}\n  - {name: C, output: constraint_violation}\n"
              "  - {name: R, body: rod, output: rotation}");
  const LoadedModel m = load_model_text(t, "m.yaml");
  PreparedSystem p = prepare(m.system);
  SensorSet s(m.sensors, *p.system, p.q0);
  CHECK(s.columns() == std::vector<std::string>{"tip.x", "tip.y", "tip.z", "F.x", "F.y", "F.z", "FJ.x", "FJ.y",
                                                "FJ.z", "E", "C.position", "C.velocity", "R.x", "R.y", "R.z"});
  CHECK(s.units()[0] == "m");
  CHECK(s.units()[3] == "N");
  const std::string path = "test_io_sensors.csv";
  std::vector<std::string> header{"time"};
  header.insert(header.end(), s.columns().begin(), s.columns().end());
  std::vector<double> row(header.size());
  {
    CsvWriter csv(path, header);
    const Observer obs = [&](const StateView& st) {
      row[0] = st.t;
      s.evaluate(st, std::span<double>(row).subspan(1));
      csv.write_row(row);
      return true;
    };
    SimulationSettings ss = m.settings;
    const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, ss, obs);
    REQUIRE(r.ok());
    CHECK(csv.rows() == 11);
    // At rest, hanging: the tip at (0, -1), the joint carries the weight m g upwards.
    CHECK(row[1] == Approx(0).margin(1e-9));
    CHECK(row[2] == Approx(-1.0));
    CHECK(row[5] == Approx(2.0 * 9.81));
    CHECK(row[10] == Approx(-2.0 * 9.81 * 0.5));  // energy: potential of the COM at y = -0.5
    CHECK(row[11] < 1e-12);
    CHECK(row[15] == Approx(-M_PI / 2));
  }
  std::ifstream in(path);
  std::string first, line;
  std::getline(in, first);
  CHECK(first.rfind("time,tip.x,tip.y,tip.z,F.x", 0) == 0);
  int n = 0;
  while (std::getline(in, line)) ++n;
  CHECK(n == 11);
  std::remove(path.c_str());
}

TEST_CASE("io: every example model loads and passes the model checks", "[io]") {
  for (const char* name : {"simple_pendulum", "double_pendulum", "slider_crank", "four_bar", "heavy_top",
                           "bricard", "spatial_slider_crank"}) {
    INFO(name);
    const LoadedModel m =
        load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name + ".yaml");
    CHECK(m.system.check().empty());
    CHECK_FALSE(m.sensors.empty());
  }
}
