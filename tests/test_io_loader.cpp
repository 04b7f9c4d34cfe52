// Model file loader, expressions, sensors and CSV output (mbdae::io).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/Expression.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverRegistry.h>

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

TEST_CASE("io: what a solver cannot handle is rejected at the item, not ignored", "[io]") {
  auto first = [](const std::string& t, const std::vector<Override>& o = {}) {
    const auto d = problems(t, o);
    REQUIRE_FALSE(d.empty());
    return d[0];
  };
  // Contacts need the impulse solver.
  const std::string with_contact =
      std::string(kPendulum) +
      "contacts:\n  - {type: sphere_plane, body: rod, radius: 0.1, plane: {point: [0, -1, 0], normal: [0, 1, 0]}}\n";
  const Diagnostic c = first(with_contact);
  CHECK(c.key_path == "contacts[0]");
  CHECK(c.line == 12);
  CHECK_THAT(c.message, Catch::Contains("impulse"));
  CHECK(problems(with_contact, {{"solver.type", "impulse"}}).empty());
  // The implicit solvers take them as penalty forces once they have penalty parameters.
  CHECK(problems(replace(with_contact, "radius: 0.1,", "radius: 0.1, penalty: {stiffness: 1.0e5, damping: 10},"))
            .empty());
  CHECK(problems(replace(with_contact, "contacts:", "contact_penalty: {stiffness: 1.0e5}\ncontacts:")).empty());
  CHECK(first(with_contact, {{"solver.type", "rk4"}}).key_path == "contacts[0]");
  // lie_rk4 has no joints; the impulse stepper no accelerations, spring-dampers
  // or driven joints (rk4 and dopri5 have them).
  const Diagnostic lj = first(kPendulum, {{"solver.type", "lie_rk4"}});
  CHECK(lj.key_path == "joints[0]");
  CHECK(lj.line == 6);
  CHECK(lj.file == "m.yaml");
  const std::string driven = replace(kPendulum, "axis: [0, 0, 1]}", "axis: [0, 0, 1], motion: \"t\"}");
  const Diagnostic dj = first(driven, {{"solver.type", "impulse"}});
  CHECK(dj.key_path == "joints[0].motion");
  CHECK(problems(driven, {{"solver.type", "rk4"}}).empty());
  CHECK(problems(driven, {{"solver.type", "dopri5"}}).empty());
  // The explicit methods give accelerations and reactions (from the equations of motion at the
  // output times); the impulse stepper's velocity jumps give none.
  const std::string acc = replace(kPendulum, "output: position}", "output: acceleration}");
  CHECK(problems(acc, {{"solver.type", "dopri5"}}).empty());
  const Diagnostic rs = first(acc, {{"solver.type", "impulse"}});
  CHECK(rs.key_path == "sensors[0].output");
  CHECK_THAT(rs.message, Catch::Contains("not available with solver.type impulse"));
  const std::string spring = replace(
      kPendulum, "sensors:",
      "forces:\n  - {type: spring_damper, bodies: [ground, rod], points: [[0, 1, 0], [1, 0, 0]], stiffness: 10}\nsensors:");
  CHECK(problems(spring).empty());
  CHECK(problems(spring, {{"solver.type", "impulse"}}).empty());
  const auto lie = problems(spring, {{"solver.type", "lie_rk4"}});  // joints[0] and forces[0]
  CHECK(std::any_of(lie.begin(), lie.end(), [](const Diagnostic& d) { return d.key_path == "forces[0]"; }));
  CHECK(problems(spring, {{"solver.type", "rk4"}}).empty());
  CHECK(problems(spring, {{"solver.type", "dopri5"}}).empty());
}

TEST_CASE("io: one identifier per solver, its registry name both ways", "[io]") {
  const std::vector<SolverType> all = {SolverType::GeneralizedAlpha, SolverType::Ida,    SolverType::TrapezoidalIndex2,
                                       SolverType::RK4,              SolverType::Dopri5, SolverType::LieRK4,
                                       SolverType::Impulse};
  CHECK(solvers().size() == all.size() - (unavailable_solver("ida") ? 1 : 0));
  for (const SolverInfo& info : solvers()) {
    CHECK(std::count(all.begin(), all.end(), info.type) == 1);
    CHECK(std::string(to_string(info.type)) == info.name);
    CHECK(solver_type_from_string(info.name) == info.type);
    CHECK(&solver_info(info.type) == &info);
  }
  CHECK_THROWS_AS(solver_type_from_string("rk5"), SolverSettingsError);
  // A model file's solver.type is that identifier.
  for (const SolverInfo& info : solvers()) {
    if (!info.support.joints) continue;  // the pendulum has a joint
    const LoadedModel m = load_model_text(kPendulum, "m.yaml", {{"solver.type", info.name}});
    CHECK(m.settings.solver == info.type);
  }
}

TEST_CASE("io: explicit and impulse solvers and their settings", "[io]") {
  LoadedModel m = load_model_text(kPendulum, "m.yaml", {{"solver.type", "dopri5"}, {"solver.tolerance", "{relative: 1e-9, absolute: 1e-12}"}});
  CHECK(m.settings.solver == SolverType::Dopri5);
  CHECK(m.solver_name() == "dopri5");
  CHECK(m.settings.rtol == 1e-9);
  CHECK(m.settings.atol == 1e-12);
  // The one translation into the family's options (SolverSettings.h).
  const ExplicitOptions eo = explicit_options(m.settings, true);
  CHECK(eo.method == ExplicitMethod::Dopri5);
  CHECK(eo.rtol == 1e-9);
  CHECK(eo.atol == 1e-12);
  CHECK(eo.project_positions);
  CHECK_FALSE(explicit_options(m.settings, false).project_velocities);
  CHECK_THROWS_AS(impulse_options(m.settings), SolverSettingsError);
  CHECK_THROWS_AS(lie_group_options(m.settings), SolverSettingsError);
  m = load_model_text(kPendulum, "m.yaml", {{"solver.adaptive", "true"}});
  CHECK(m.settings.solver == SolverType::GeneralizedAlpha);
  CHECK(m.settings.adaptive);
  CHECK_THROWS_AS(explicit_options(m.settings, true), SolverSettingsError);
  m = load_model_text(kPendulum, "m.yaml", {{"solver.type", "ida"}, {"solver.adaptive", "true"}});
  CHECK_FALSE(m.settings.adaptive);  // IDA always adapts
  m = load_model_text(kPendulum, "m.yaml",
                      {{"solver.type", "impulse"}, {"solver.pgs_iterations", "30"}, {"solver.friction_model", "cone"}});
  CHECK(m.settings.solver == SolverType::Impulse);
  CHECK(m.settings.pgs_iterations == 30);
  CHECK(m.settings.friction_cone);
  const ImpulseOptions io = impulse_options(m.settings);
  CHECK(io.pgs_max_iterations == 30);
  CHECK(io.friction == FrictionModel::Cone);
  CHECK(io.t_end == m.settings.t_end);
  CHECK(io.step == m.settings.step);
  const auto d = problems(kPendulum, {{"solver.type", "rk4"}, {"solver.adaptive", "true"}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "solver.adaptive");
}

TEST_CASE("io: driven joints build a TimeFunction from expressions of t", "[io]") {
  LoadedModel m = load_model_text(replace(kPendulum, "axis: [0, 0, 1]}", "axis: [0, 0, 1], motion: \"2*pi*t\"}"), "m.yaml");
  const TimeFunction& f = m.system.joints()[0].motion;
  REQUIRE(f);
  CHECK(f(0.25) == Approx(M_PI / 2));
  CHECK_FALSE(f.velocity);  // differentiated by the library
  CHECK(f.derivative(0.3) == Approx(2 * M_PI).epsilon(1e-8));
  m = load_model_text(replace(kPendulum, "axis: [0, 0, 1]}",
                              "axis: [0, 0, 1], motion: {value: \"sin(t)\", velocity: \"cos(t)\", acceleration: \"-sin(t)\"}}"),
                      "m.yaml");
  const TimeFunction& g = m.system.joints()[0].motion;
  REQUIRE(g.velocity);
  REQUIRE(g.acceleration);
  CHECK(g.velocity(0.5) == Approx(std::cos(0.5)));
  CHECK(g.acceleration(0.5) == Approx(-std::sin(0.5)));
  // Not 0 at t = 0: an error at the expression.
  const auto d = problems(replace(kPendulum, "axis: [0, 0, 1]}", "axis: [0, 0, 1], motion: \"1 + t\"}"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[0].motion");
  CHECK(d[0].line == 6);
}

TEST_CASE("io: the new joint types and their keys", "[io]") {
  const char* two = R"(bodies:
  - {name: a, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, 0, 1]}
  - {name: disc, mass: 1.0, shape: {cylinder: {radius: 0.1, length: 0.01, axis: x}}, position: [0, 0, 0.1]}
joints:
  - {name: c, type: cylindrical, bodies: [ground, a], point: [0, 0, 1], axis: [0, 0, 1]}
  - {name: u, type: universal, bodies: [ground, a], point: [0, 0, 1], axis: [1, 0, 0], axis_b: [0, 1, 0]}
  - {name: p, type: planar, bodies: [ground, a], point: [0, 0, 1], axis: [0, 0, 1]}
  - {name: x, type: coordinate, bodies: [ground, a], point: [0, 0, 1], coordinate: y, offset: 0.5}
  - {name: r, type: rolling_disc, bodies: [ground, disc], point: [0, 0, 0], axis: [0, 0, 1], point_b: [0, 0, 0.1], axis_b: [1, 0, 0], radius: 0.1}
solver: {end_time: 0.1}
)";
  const LoadedModel m = load_model_text(two, "m.yaml");
  const auto& j = m.system.joints();
  REQUIRE(j.size() == 5);
  CHECK(j[0].type == JointType::Cylindrical);
  CHECK(j[1].type == JointType::Universal);
  CHECK(j[1].axis_b == Vec3::UnitY());
  CHECK(j[2].type == JointType::Planar);
  CHECK(j[3].type == JointType::Coordinate);
  CHECK(j[3].coordinate == 1);
  CHECK(j[3].offset == 0.5);
  CHECK(j[4].type == JointType::RollingDisc);
  CHECK(j[4].radius == 0.1);
  CHECK(j[4].point_b == Vec3(0, 0, 0.1));
  // A key of another type.
  const auto d = problems(replace(two, "coordinate: y,", "coordinate: y, axis_b: [0, 1, 0],"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[3].axis_b");
  CHECK(d[0].line == 8);
}

TEST_CASE("io: a skewed universal joint and generic-joint offsets", "[io]") {
  const char* text = R"y(bodies:
  - {name: a, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, 0, 1]}
joints:
  - {name: u, type: universal, bodies: [ground, a], point: [0, 0, 1], axis: [1, 0, 0], axis_b: [1, 1, 0]}
  - {name: g, type: generic, bodies: [ground, a], point: [0, 0, 1], constrained: [0, 0, 1, 0, 0, 1],
     offsets: {z: "0.1*sin(t)", rz: {value: "t^2", velocity: "2*t"}}}
solver: {end_time: 0.1}
)y";
  const LoadedModel m = load_model_text(text, "m.yaml");
  const auto& j = m.system.joints();
  REQUIRE(j.size() == 2);
  // The universal joint holds the arms' initial cosine, 1/√2.
  const JointLayout l = joint_layout(j[0]);
  REQUIRE(l.equations.size() == 4);
  CHECK(std::abs(l.equations[3].offset - std::sqrt(0.5)) < 1e-15);
  REQUIRE(j[1].has_offsets());
  CHECK_FALSE(j[1].offsets[0]);
  CHECK(std::abs(j[1].offsets[2](0.5) - 0.1 * std::sin(0.5)) < 1e-15);
  CHECK(j[1].offsets[5](3.0) == 9.0);
  CHECK(j[1].offsets[5].derivative(3.0) == 6.0);
  // An offset of a free coordinate, one not 0 at t = 0, an unknown coordinate, offsets on a
  // revolute joint, and the impulse stepper: each refused at its key.
  auto d = problems(replace(text, "z: \"0.1*sin(t)\"", "x: \"0.1*sin(t)\""));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[1].offsets");
  CHECK(d[0].message.find("offset of x given, but that coordinate is free") != std::string::npos);
  d = problems(replace(text, "0.1*sin(t)", "0.1*cos(t)"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[1].offsets.z");
  d = problems(replace(text, "rz: {", "rw: {"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[1].offsets.rw");
  d = problems(replace(text, "axis_b: [1, 1, 0]}", "axis_b: [1, 1, 0], offsets: {z: t}}"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "joints[0].offsets");
  CHECK(d[0].message == "key 'offsets' does not apply to a universal joint (only generic joints take offsets)");
  d = problems(replace(text, "{end_time: 0.1}", "{type: impulse, end_time: 0.1}"));
  CHECK(std::any_of(d.begin(), d.end(), [](const Diagnostic& x) { return x.key_path == "joints[1].offsets"; }));
}

TEST_CASE("io: spring-dampers of every kind", "[io]") {
  const std::string t = replace(kPendulum, "sensors:", R"(forces:
  - {name: s, type: spring_damper, bodies: [ground, rod], points: [[0, 1, 0], [1, 0, 0]], stiffness: 100, damping: 2}
  - {name: k, type: torsional_spring_damper, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1], stiffness: 5, angle: 0.1}
  - {name: c, type: cartesian_spring_damper, bodies: [ground, rod], point: [1, 0, 0], stiffness: [1, 2, 3], offset: [0, 0.1, 0],
     reaction_at: a_marker}
  - {name: r, type: rigid_body_spring_damper, bodies: [ground, rod], point: [1, 0, 0], stiffness: [1, 2, 3, 4, 5, 6], rotation_law: mid_frame,
     damping: [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]],
     frame: {axis: [0, 0, 1], angle: 0.5}}
sensors:)");
  const LoadedModel m = load_model_text(t, "m.yaml");
  const auto& f = m.system.forces();
  REQUIRE(f.size() == 4);
  CHECK(f[0].type == ForceType::SpringDamper);
  CHECK(f[0].point == Vec3(0, 1, 0));
  CHECK(f[0].point_b == Vec3(1, 0, 0));
  CHECK(f[0].stiffness == 100);
  CHECK(f[0].damping == 2);
  CHECK_FALSE(f[0].length);
  CHECK(f[1].type == ForceType::TorsionalSpringDamper);
  CHECK(f[1].length == 0.1);
  CHECK(f[2].stiffness3 == Vec3(1, 2, 3));
  CHECK(f[2].offset3 == Vec3(0, 0.1, 0));
  CHECK(f[3].stiffness6(5, 5) == 6);
  CHECK(f[3].damping6 == Mat6::Identity());
  REQUIRE(f[3].frame);
  CHECK(f[2].reaction_at_a_marker);
  CHECK(f[3].rotation_law == SpringRotationLaw::MidFrame);
  CHECK_FALSE(f[0].reaction_at_a_marker);  // the defaults
  CHECK(ForceElement{}.rotation_law == SpringRotationLaw::RotationVector);
  CHECK(m.system.check().empty());
  // The implicit formulation takes them.
  CHECK_NOTHROW(prepare(m.system, 0.0));
}

TEST_CASE("io: contacts: shapes and the sphere_plane shorthand", "[io]") {
  const std::string t = std::string(kPendulum) + R"(contacts:
  - {name: s1, type: sphere_plane, body: rod, radius: 0.1, plane: {point: [0, -1, 0], normal: [0, 2, 0]}, friction: 0.4, restitution: 0.5}
  - {name: s2, type: sphere_plane, body: rod, radius: 0.1, position: [0.5, 0, 0], plane: {point: [0, -1, 0], normal: [0, 1, 0]}, friction: 0.4, restitution: 0.5}
  - {name: b, type: box, body: rod, size: [0.2, 0.4, 0.6], orientation: {axis: [0, 0, 1], angle: 0.1}}
  - {name: k, type: capsule, body: rod, radius: 0.05, length: 0.3}
)";
  const LoadedModel m = load_model_text(t, "m.yaml", {{"solver.type", "impulse"}});
  const auto& c = m.system.contacts();
  REQUIRE(c.size() == 5);  // two spheres share one plane
  CHECK(c[0].shape == ShapeType::Sphere);
  CHECK(c[0].friction == 0.4);
  CHECK(c[1].shape == ShapeType::Plane);
  CHECK(c[1].body == "ground");
  CHECK(c[1].normal == Vec3::UnitY());
  CHECK(c[1].offset == Approx(-1));
  CHECK(c[1].restitution == 0.5);
  CHECK(c[2].position == Vec3(0.5, 0, 0));
  CHECK(c[3].half_extents == Vec3(0.1, 0.2, 0.3));
  CHECK(c[4].half_length == Approx(0.15));
  // The same plane with another material is an error.
  const auto d = problems(replace(t, "normal: [0, 1, 0]}, friction: 0.4", "normal: [0, 1, 0]}, friction: 0.3"),
                          {{"solver.type", "impulse"}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "contacts[1]");
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
                                        {parse_override("solver.type=trapezoidal_index2"), parse_override("bodies[0].mass=3"),
                                         parse_override("gravity=[0, 0, -1]")});
  CHECK(m.settings.solver == SolverType::TrapezoidalIndex2);
  CHECK(m.system.bodies()[0].mass == 3.0);
  CHECK(m.system.gravity.z() == -1.0);

  const auto d = problems(kPendulum, {parse_override("bodies[0].mass=-1")});
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == "--set bodies[0].mass=-1");
  CHECK(d[0].key_path == "bodies[0].mass");
  CHECK_FALSE(problems(kPendulum, {parse_override("bodies[3].mass=1")}).empty());
  CHECK_THROWS_AS(parse_override("novalue"), LoadError);
}

TEST_CASE("io: a --set value is one YAML document", "[io]") {
  // "0.2\n---\n0.5" used to set the first document (0.2) and drop the second.
  const auto d = problems(kPendulum, {parse_override("solver.end_time=0.2\n---\n0.5")});
  REQUIRE(d.size() == 1);
  CHECK(d[0].message.find("more than one YAML document in the value") != std::string::npos);
  CHECK(problems(kPendulum, {parse_override("solver.end_time=0.2\n")}).empty());
  CHECK(problems(kPendulum, {parse_override("solver.end_time=---\n0.2")}).empty());  // one document after its marker
}

TEST_CASE("io: --set adds the mappings a key path needs, not list items", "[io]") {
  // kPendulum's solver has no tolerance, and a file without `output` has no output mapping.
  const std::string no_output = replace(kPendulum, "output: {every: 1.0e-2}\n", "");
  const LoadedModel m = load_model_text(no_output, "m.yaml",
                                        {parse_override("solver.tolerance.relative=1e-10"),
                                         parse_override("output.every=0.02")});
  CHECK(m.settings.rtol == 1e-10);
  CHECK(m.settings.atol == SimulationSettings{}.atol);  // the rest of the new mapping: defaults
  CHECK(m.output.every == 0.02);
  CHECK(m.settings.output_every == 0.02);
  // Deeper: a mapping inside a list item.
  const LoadedModel d = load_model_text(kPendulum, "m.yaml", {parse_override("joints[0].motion.value=0.5*t")});
  REQUIRE(d.system.joints()[0].motion);
  CHECK(d.system.joints()[0].motion.value(2.0) == 1.0);

  // What an added mapping holds is checked like the file, and pointed at the override: also the
  // mapping's own key when the format has no such key.
  auto only = [](const std::vector<Diagnostic>& p) {
    REQUIRE(p.size() == 1);
    return p[0];
  };
  Diagnostic e = only(problems(no_output, {parse_override("output.every=-1")}));
  CHECK(e.file == "--set output.every=-1");
  CHECK(e.key_path == "output.every");
  CHECK(e.message == "must be > 0, got -1");
  e = only(problems(kPendulum, {parse_override("solver.colour.hue=1")}));
  CHECK(e.file == "--set solver.colour.hue=1");
  CHECK(e.line == 1);
  CHECK(e.key_path == "solver.colour");
  CHECK_THAT(e.message, Catch::StartsWith("unknown key 'colour' (expected one of: type, end_time,"));
  // A scalar on the way is not replaced by a mapping.
  e = only(problems(kPendulum, {parse_override("solver.type.x=1")}));
  CHECK(e.key_path == "solver.type.x");
  CHECK(e.message == "'solver.type' is not a mapping");
  // List items are not added: the list and its length are named.
  e = only(problems(kPendulum, {parse_override("bodies[3].mass=1")}));
  CHECK(e.file == "--set bodies[3].mass=1");
  CHECK(e.key_path == "bodies[3].mass");
  CHECK(e.message == "'bodies' has no item [3] (it has 1)");
  e = only(problems(kPendulum, {parse_override("sensors[0].point[3]=1")}));
  CHECK(e.message == "'sensors[0].point' has no item [3] (it has 3)");
}

TEST_CASE("io: a solver this build leaves out is named as such", "[io]") {
  if (find_solver("ida")) {
    CHECK(unavailable_solver("ida") == nullptr);
    CHECK(problems(kPendulum, {{"solver.type", "ida"}}).empty());
  } else {  // MBDAE_WITH_IDA=OFF
    const auto d = problems(kPendulum, {{"solver.type", "ida"}});
    REQUIRE(d.size() == 1);
    CHECK(d[0].key_path == "solver.type");
    CHECK(d[0].message == "solver 'ida' is not available in this build: mbdae was built without SUNDIALS IDA "
                          "(MBDAE_WITH_IDA=OFF)");
    SimulationSettings s;
    s.solver = SolverType::Ida;
    const PreparedSystem p = prepare(load_model_text(kPendulum, "m.yaml").system);
    CHECK_THROWS_AS(make_integrator(*p.system, 0.0, p.q0, p.v0, s), SolverSettingsError);
  }
  CHECK(unavailable_solver("runge_kutta") == nullptr);
  const auto d = problems(kPendulum, {{"solver.type", "runge_kutta"}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "unknown value 'runge_kutta' (expected one of: " + solver_names() + ")");
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

TEST_CASE("io: a capsule shape gives its kind, size, axis and inertia", "[io]") {
  const std::string t = replace(kPendulum, "inertia: [0.01, 0.1, 0.1, 0, 0, 0]",
                                "shape: {capsule: {radius: 0.1, length: 0.6, axis: x}}");
  const LoadedModel m = load_model_text(t, "m.yaml");
  const RigidBody& b = m.system.bodies()[0];
  REQUIRE(b.shape);
  CHECK(b.shape->kind == BodyShape::Kind::Capsule);
  CHECK(b.shape->size == Vec3(0.1, 0.6, 0));
  CHECK(b.shape->axis == Vec3::UnitX());
  // Mass 2 kg: cylinder 2 L/(L + 4r/3) = 1.636..., caps the rest; axial m_c r²/2 + 2 m_s r²/5.
  const double mc = 2.0 * 0.6 / (0.6 + 0.4 / 3), ms = 2.0 - mc;
  CHECK(b.inertia[0] == Approx(mc * 0.01 / 2 + 0.4 * ms * 0.01));
  CHECK(b.inertia[1] == Approx(mc * (0.01 / 4 + 0.36 / 12) + ms * (0.4 * 0.01 + 0.36 / 4 + 3 * 0.6 * 0.1 / 8)));
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
  MultibodyKinematics kin(*p.system);
  const VecX none;
  SensorSet s(m.sensors, kin, StateView{0.0, p.q0, p.v0, none, none});
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
                           "bricard", "spatial_slider_crank", "driven_crank", "torque_free", "rolling_coin",
                           "flyball_governor", "box_on_incline", "box_stack", "conveyor", "cylinders"}) {
    INFO(name);
    const LoadedModel m =
        load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name + ".yaml");
    CHECK(m.system.check().empty());
    CHECK_FALSE(m.sensors.empty());
  }
}

TEST_CASE("io: explicit-path sensors agree with the implicit ones (Newton-Euler and Lie-group layouts)", "[io]") {
  // A free body with an offset COM, turned and moving: the same initial state in three layouts.
  const char* text = R"(gravity: [0, 0, -9.81]
bodies:
  - {name: b, mass: 2.0, inertia: [0.6, 0.7, 0.5, -0.04, -0.06, -0.04], com: [0.1, 0.2, 0.3],
     position: [1, 2, 3], orientation: {rxyz: [0.3, -0.2, 0.5]}, velocity: [0.5, -1, 2], angular_velocity: [1, 2, -3]}
sensors:
  - {name: p, body: b, point: [0.4, -0.1, 0.2], output: position}
  - {name: v, body: b, point: [0.4, -0.1, 0.2], output: velocity}
  - {name: vl, body: b, point: [0.4, -0.1, 0.2], output: velocity_local}
  - {name: R, body: b, output: rotation_matrix}
  - {name: w, body: b, output: angular_velocity}
  - {name: wl, body: b, output: angular_velocity_local}
  - {name: E, output: energy}
  - {name: C, output: constraint_violation}
solver: {end_time: 0.1}
)";
  const LoadedModel m = load_model_text(text, "m.yaml");
  PreparedSystem p = prepare(m.system);
  MultibodyKinematics implicit_kin(*p.system);
  const VecX empty;
  SensorSet implicit_set(m.sensors, implicit_kin, StateView{0.0, p.q0, p.v0, empty, empty});
  std::vector<double> ref(static_cast<size_t>(implicit_set.size()));
  implicit_set.evaluate(StateView{0.0, p.q0, p.v0, empty, empty}, ref);

  NewtonEulerSystem ne(m.system);
  VecX q, v;
  ne.initial_state(q, v);
  NewtonEulerKinematics ne_kin(ne, NewtonEulerKinematics::Layout::NewtonEuler);
  const StateContents no_a{false, false};
  SensorSet ne_set(m.sensors, ne_kin, StateView{0.0, q, v, empty, empty}, no_a);
  REQUIRE(ne_set.columns() == implicit_set.columns());
  std::vector<double> out(ref.size());
  ne_set.evaluate(StateView{0.0, q, v, empty, empty}, out);
  for (size_t i = 0; i < ref.size(); ++i) {
    INFO(implicit_set.columns()[i]);
    CHECK(out[i] == Approx(ref[i]).margin(1e-12));
  }

  LieGroupBodies lg(m.system);
  VecX ql, vl;
  lg.to_coordinates(lg.initial_state(), ql, vl);
  NewtonEulerKinematics lg_kin(ne, NewtonEulerKinematics::Layout::LieGroup);
  SensorSet lg_set(m.sensors, lg_kin, StateView{0.0, ql, vl, empty, empty}, no_a);
  lg_set.evaluate(StateView{0.0, ql, vl, empty, empty}, out);
  for (size_t i = 0; i < ref.size(); ++i) {
    INFO(implicit_set.columns()[i]);
    CHECK(out[i] == Approx(ref[i]).margin(1e-12));
  }
  // Accelerations and reactions are not on this path.
  SensorSpec acc;
  acc.name = "a";
  acc.output = SensorOutput::Acceleration;
  acc.body = "b";
  std::vector<SensorSpec> bad{acc};
  CHECK_THROWS_AS(SensorSet(bad, ne_kin, StateView{0.0, q, v, empty, empty}, no_a), std::invalid_argument);
  // The same sensor is evaluated where the states carry accelerations.
  CHECK_NOTHROW(SensorSet(bad, implicit_kin, StateView{0.0, p.q0, p.v0, empty, empty}));
}
