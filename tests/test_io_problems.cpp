// Problems raised after loading (System::problems(), the formulations, prepare(), a run's setup)
// carry a reference to their item; LoadedModel::locate() maps it to its place in the file without
// reading the message. And every bad model in tests/bad_models with its first problem: key path
// and message.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Suggest.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

std::string model_path(const std::string& relative) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/" + relative; }

RigidBody unit_body(const std::string& name, const Vec3& position) {
  RigidBody b;
  b.name = name;
  b.mass = 1.0;
  b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
  b.position = position;
  return b;
}

// Items of every kind; the loads and force elements share `forces:`, a sphere_plane contact is two
// shapes of System::contacts().
const char* kEveryKind = R"(name: every kind
gravity: [0, -9.81, 0]
bodies:
  - {name: a, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 1, 0]}
  - {name: b, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [1, 1, 0]}
joints:
  - {name: J0, type: revolute, bodies: [ground, a], point: [0, 2, 0], axis: [0, 0, 1]}
  - {name: J1, type: spherical, bodies: [a, b], point: [0.5, 1, 0]}
forces:
  - {name: push, type: force, body: a, value: [1, 0, 0]}
  - {name: spring, type: spring_damper, bodies: [a, b], points: [[0, 1, 0], [1, 1, 0]], stiffness: 10}
  - {name: twist, type: torque, body: b, value: [0, 0, 1]}
contacts:
  - {type: sphere_plane, body: a, radius: 0.1, plane: {point: [0, 0, 0], normal: [0, 1, 0]}}
  - {type: sphere, body: b, radius: 0.1}
sensors:
  - {name: pa, body: a, output: position}
  - {name: pb, body: b, output: position}
solver: {type: impulse, end_time: 0.1, step: 1.0e-3}
)";

}  // namespace

TEST_CASE("model: System::problems() names the item of every problem", "[io][problems]") {
  System s;
  s.add_body(unit_body("a", Vec3(0, 1, 0)));
  RigidBody b = unit_body("b", Vec3(1, 1, 0));
  b.mass = -1;
  s.add_body(b);
  s.add_revolute("J0", "ground", "a", Vec3(0, 2, 0), Vec3::UnitZ());
  s.add_revolute("J1", "a", "b", Vec3(0.5, 1, 0), Vec3::Zero());
  Load l;
  l.name = "push";
  l.body = "nowhere";
  s.add_load(l);
  s.add_spring_damper("S", "a", "a", Vec3(0, 1, 0), Vec3(1, 1, 0), 10, 0);

  const std::vector<ModelProblem> p = s.problems();
  REQUIRE(p.size() == 4);
  CHECK(p[0].item == ItemRef::body(1));
  CHECK(p[0].message == "body 'b': mass must be > 0, got -1");
  CHECK(p[1].item == ItemRef::joint(1));
  CHECK(p[1].message == "joint 'J1': axis has zero length");
  CHECK(p[2].item == ItemRef::load(0));
  CHECK(p[2].message == "force 'push': unknown body 'nowhere'");
  CHECK(p[3].item == ItemRef::force(0));
  CHECK(p[3].message == "spring_damper 'S': both ends are on the same body 'a'");

  // check() and ModelError::problems() keep giving the messages; details() adds the items.
  const std::vector<std::string> messages = s.check();
  REQUIRE(messages.size() == p.size());
  for (size_t i = 0; i < p.size(); ++i) CHECK(messages[i] == p[i].message);
  try {
    s.validate();
    FAIL("validate() did not throw");
  } catch (const ModelError& e) {
    CHECK(e.problems() == messages);
    REQUIRE(e.details().size() == p.size());
    for (size_t i = 0; i < p.size(); ++i) {
      CHECK(e.details()[i].item == p[i].item);
      CHECK(e.details()[i].message == p[i].message);
    }
  }
  // A ModelError made from messages alone is about no item.
  const ModelError plain({"something"});
  REQUIRE(plain.details().size() == 1);
  CHECK_FALSE(plain.details()[0].item);
  CHECK(std::string(plain.what()) == "something");
  CHECK(std::string(to_string(ItemRef::Kind::Contact)) == "contact");
}

TEST_CASE("model: the implicit formulation's contact problems name the contact", "[io][problems]") {
  System s;
  s.add_body(unit_body("a", Vec3(0, 1, 0)));
  Contact sphere;
  sphere.name = "ball";
  sphere.shape = ShapeType::Sphere;
  sphere.body = "a";
  sphere.radius = 0.1;
  sphere.penalty = PenaltyParameters{};
  sphere.penalty->stiffness = 1e5;
  Contact floor;
  floor.name = "floor";
  floor.shape = ShapeType::Plane;
  floor.body = "ground";
  floor.normal = Vec3::UnitY();
  floor.restitution = 2;  // out of range
  s.add_contact(sphere);
  s.add_contact(floor);
  try {
    MultibodySystem mb(s);
    FAIL("no ModelError");
  } catch (const ModelError& e) {
    REQUIRE_FALSE(e.details().empty());
    CHECK(e.details()[0].item == ItemRef::contact(1));
    CHECK_THAT(e.details()[0].message, Catch::StartsWith("contact 'floor': restitution must be in [0, 1]"));
  }
  // A contact on a body the model does not have: named, not an exception about a name alone.
  s.contacts()[1].restitution = 0;
  s.contacts()[0].body = "nowhere";
  try {
    MultibodySystem mb(s);
    FAIL("no ModelError");
  } catch (const ModelError& e) {
    REQUIRE(e.details().size() == 1);
    CHECK(e.details()[0].item == ItemRef::contact(0));
    CHECK(e.details()[0].message == "contact 'ball': unknown body 'nowhere'");
  }
}

TEST_CASE("io: a problem's item reference locates it in the file, whatever its message says", "[io][problems]") {
  const LoadedModel m = load_model_text(kEveryKind, "m.yaml");
  REQUIRE(m.system.loads().size() == 2);
  REQUIRE(m.system.forces().size() == 1);
  REQUIRE(m.system.contacts().size() == 3);  // sphere_plane: sphere and plane; sphere
  auto at = [&](ItemRef item) { return m.locate({"a message that names nothing", item}); };
  CHECK(at(ItemRef::body(1)).key_path == "bodies[1]");
  CHECK(at(ItemRef::body(1)).line == 5);
  CHECK(at(ItemRef::joint(1)).key_path == "joints[1]");
  CHECK(at(ItemRef::joint(1)).line == 8);
  CHECK(at(ItemRef::load(0)).key_path == "forces[0]");
  CHECK(at(ItemRef::load(1)).key_path == "forces[2]");
  CHECK(at(ItemRef::force(0)).key_path == "forces[1]");
  CHECK(at(ItemRef::contact(0)).key_path == "contacts[0]");
  CHECK(at(ItemRef::contact(1)).key_path == "contacts[0]");  // the plane of the sphere_plane item
  CHECK(at(ItemRef::contact(2)).key_path == "contacts[1]");
  CHECK(at(ItemRef::sensor(1)).key_path == "sensors[1]");
  CHECK(at(ItemRef::sensor(1)).line == 18);
  const Diagnostic d = at(ItemRef::joint(0));
  CHECK(d.file == "m.yaml");
  CHECK(d.column == 5);
  CHECK(d.message == "a message that names nothing");
  // The message's text is not read: a message naming joint 'J1' about body a stays at body a.
  CHECK(m.locate({"joint 'J1': something", ItemRef::body(0)}).key_path == "bodies[0]");
  // No item, or an item the file does not define: the file, without line.
  for (const ItemRef& none : {ItemRef{}, ItemRef::joint(2), ItemRef::sensor(-1)}) {
    const Diagnostic f = at(none);
    CHECK(f.file == "m.yaml");
    CHECK(f.line == 0);
    CHECK(f.key_path.empty());
    CHECK(m.find_location(none) == nullptr);
  }
}

TEST_CASE("io: an item set by --set is located at the override", "[io][problems]") {
  const LoadedModel m = load_model_text(kEveryKind, "m.yaml", {parse_override("joints[1].point=[0.5, 1, 0]")});
  const Diagnostic d = m.locate({"x", ItemRef::joint(1)});
  CHECK(d.key_path == "joints[1]");
  CHECK(d.line == 8);  // the item itself is in the file; only its point came from the override
  const LoadedModel o = load_model_text(kEveryKind, "m.yaml",
                                        {parse_override("joints[1]={name: J1, type: spherical, bodies: [a, b], "
                                                        "point: [0.5, 1, 0]}")});
  CHECK(o.locate({"x", ItemRef::joint(1)}).file ==
        "--set joints[1]={name: J1, type: spherical, bodies: [a, b], point: [0.5, 1, 0]}");
}

TEST_CASE("io: failures of a run's setup point at their item", "[io][problems]") {
  SECTION("an initial assembly that cannot close: the worst equation's body") {
    const LoadedModel m = load_model_file(model_path("tests/bad_models/unsatisfiable_assembly.yaml"));
    try {
      ModelRun run(m);
      FAIL("no ItemError");
    } catch (const ItemError& e) {
      CHECK(e.item() == ItemRef::body(0));
      CHECK_THAT(e.what(), Catch::StartsWith("initial assembly failed: assembly did not converge"));
      const Diagnostic d = m.locate({e.what(), e.item()});
      CHECK(d.key_path == "bodies[0]");
      CHECK(d.line == 5);
    }
  }
  SECTION("a redundant equation removed: the warning points at its joint") {
    const LoadedModel m = load_model_file(model_path("examples/models/bricard.yaml"));
    const PreparedSystem p = prepare(m.system);
    REQUIRE(p.warnings.size() == p.warning_items.size());
    REQUIRE(p.warnings.size() >= 1);
    CHECK_THAT(p.warnings[0], Catch::StartsWith("redundant constraints"));
    CHECK(p.warning_items[0] == ItemRef::joint(5));
    CHECK(p.warning_items[0] == p.system->all_row_item(p.redundancy.dependent_rows[0]));
    const ModelRun run(m);
    REQUIRE(run.warnings().size() == run.warning_items().size());
    CHECK(m.locate({run.warnings()[0], run.warning_items()[0]}).key_path == "joints[5]");
  }
  SECTION("a singular joint system on the explicit path: the dependent joint") {
    const LoadedModel m = load_model_file(model_path("examples/models/bricard.yaml"), {{"solver.type", "rk4"}});
    try {
      ModelRun run(m);
      FAIL("no ItemError");
    } catch (const ItemError& e) {
      CHECK(e.item() == ItemRef::joint(5));
      CHECK_THAT(e.what(), Catch::Contains("singular (redundant joints?)"));
    }
  }
}

namespace {

/// The first problem of a bad model, as `mbdae check` and `mbdae run` print it.
struct BadModel {
  const char* file;     ///< in tests/bad_models
  size_t problems;      ///< how many problems it has
  int line, column;     ///< of the first problem
  const char* key_path; ///< of the first problem ("" for the whole file)
  const char* message;  ///< of the first problem
};

// Every bad model and its first problem. A model that loads fails when its run is set up
// (io::ModelRun): then the problem is located by its item, as the command line does.
const BadModel kBadModels[] = {
    {"adaptive_with_rk4.yaml", 1, 5, 46, "solver.adaptive", "solver rk4 has a fixed step; adaptive steps are for generalized_alpha and trapezoidal_index2 (ida and dopri5 always adapt)"},
    {"bad_expression.yaml", 1, 8, 72, "forces[0].value[2]", "expected a number or an expression of t and the state, got '0.1*sin(10*t': a '(' is not closed"},
    {"binary.yaml", 1, 2, 1, "", "not a text file (NUL byte); expected a YAML or JSON model"},
    {"binary_executable.yaml", 1, 1, 9, "", "not a text file (NUL byte); expected a YAML or JSON model"},
    {"both_ends_on_ground.yaml", 1, 6, 43, "joints[0].bodies", "both ends of the joint are on ground"},
    {"contact_box_missing_size.yaml", 1, 6, 5, "contacts[0]", "missing required key 'size' ([lx, ly, lz], full lengths, m)"},
    {"contact_rolling_resistance_without_radius.yaml", 1, 7, 5, "contacts[1]", "contacts 'floor' (plane on ground) and 'wheel' (cylinder on wheel): rolling_resistance 0.02 is given, but the plane-cylinder pair's points have no rolling radius (only a sphere's surface, or a capsule's caps against a plane, carry one), so it would not act; set rolling_resistance to 0 on these shapes"},
    {"joint_motor_of_sensor_unknown_body.yaml", 1, 6, 44, "joints[0].bodies[0]", "unknown body 'armground' (did you mean 'ground'? bodies: ground, arm)"},
    {"contact_negative_radius.yaml", 1, 7, 39, "contacts[1].radius", "must be > 0, got -0.1"},
    {"contact_penalty_hunt_crossley_without_damping.yaml", 1, 8, 15, "contacts[1].penalty", "law hunt_crossley needs damping_factor (s/m) or impact_velocity (m/s; the damping then follows from the contact's restitution)"},
    {"contact_penalty_key_of_other_law.yaml", 1, 8, 50, "contact_penalty.exponent", "key 'exponent' applies to law hunt_crossley only"},
    {"contact_overlap_at_start.yaml", 1, 9, 5, "contacts[1]", "contact shapes 'floor' and 'ball' overlap by 0.05 m at the start (resting contact allows 0.01 m, a tenth of the thinner shape's radius or half thickness); the contacts would push them apart with energy that no force supplies: move the bodies apart or change the shapes"},
    {"contact_overlap_at_start_penalty.yaml", 1, 12, 5, "contacts[2]", "contact shapes 'lower' and 'upper' overlap by 0.05 m at the start (resting contact allows 0.01 m, a tenth of the thinner shape's radius or half thickness); the contacts would push them apart with energy that no force supplies: move the bodies apart or change the shapes"},
    {"contact_pair_not_handled.yaml", 1, 8, 5, "contacts[1]", "contacts 'floor' (plane on ground) and 'table' (plane on block): the contact geometry does not handle the pair plane-plane (handled: plane-sphere, plane-capsule, plane-box, plane-cylinder, box-box, box-cylinder, box-capsule, box-sphere, cylinder-cylinder, cylinder-capsule, cylinder-sphere, capsule-capsule, capsule-sphere, sphere-sphere, plane-convex_mesh, convex_mesh-box, convex_mesh-cylinder, convex_mesh-capsule, convex_mesh-sphere, convex_mesh-convex_mesh); put the two shapes on the same body or use other shapes"},
    {"contact_penalty_zero_angular_velocity.yaml", 1, 8, 77, "contact_penalty.friction_angular_velocity", "must be > 0, got 0"},
    {"contact_torsional_friction_negative.yaml", 1, 7, 78, "contacts[1].torsional_friction", "must be >= 0, got -0.001"},
    {"contact_restitution_out_of_range.yaml", 1, 6, 110, "contacts[0].restitution", "must be in [0, 1], got 1.5"},
    {"contacts_with_implicit_solver.yaml", 1, 8, 5, "contacts[0]", "with generalized_alpha contacts are penalty forces and need their parameters: a penalty block on this contact, or a model-wide contact_penalty (or a solver without penalty contacts: impulse) (solver.type generalized_alpha)"},
    {"coordinate_unknown_axis.yaml", 1, 6, 86, "joints[0].coordinate", "unknown value 'w' (expected one of: x, y, z)"},
    {"cascade_joint_of_unknown_body.yaml", 1, 8, 52, "joints[0].bodies[1]", "unknown body 'arm' (bodies: ground, rod)"},
    {"cascade_sensor_of_bad_force.yaml", 1, 9, 111, "forces[0].stiffness", "must be >= 0, got -100"},
    {"did_you_mean_expression.yaml", 1, 8, 58, "forces[0].value[2]", "expected a number or an expression of t and the state, got 'sinn(2*t)': unknown name 'sinn' (did you mean 'sin'? an expression knows t, pi and functions such as sin(), sqrt(), abs(), min(), table(), angle(), rate(), displacement(), speed(), x(), y(), z(), vx(), vy(), vz(), wx(), wy(), wz(), state(), sensor())"},
    {"did_you_mean_joint.yaml", 1, 8, 46, "forces[0].joint", "unknown joint 'pivto' (did you mean 'pivot'?)"},
    {"did_you_mean_key.yaml", 1, 4, 64, "bodies[0].posiiton", "unknown key 'posiiton' (did you mean 'position'? expected one of: name, mass, density, inertia, shape, com, position, orientation, velocity, angular_velocity, angular_velocity_local, rotation)"},
    {"did_you_mean_value.yaml", 1, 6, 25, "joints[0].type", "unknown value 'revolut' (did you mean 'revolute'? expected one of: spherical, revolute, prismatic, fixed, generic, distance, cylindrical, universal, planar, rolling_disc, coordinate, inline, inplane, orientation, parallel_axes, perpendicular)"},
    {"coupling_of_spherical_joint.yaml", 1, 9, 46, "couplings[0].joints[1]", "joint 'ball' is spherical; a coupling takes revolute and prismatic joints (one relative coordinate each)"},
    {"decimal_comma_end_time.yaml", 2, 9, 14, "solver.end_time", "expected a number, got '0,1': a list of values where one number is expected (a decimal comma? write '0.1')"},
    {"decimal_comma_mass.yaml", 1, 5, 12, "bodies[0].mass", "expected a number, got '0,5': a list of values where one number is expected (a decimal comma? write '0.5')"},
    {"duplicate_body_name.yaml", 1, 5, 12, "bodies[1].name", "duplicate body name 'rod' (also bodies[0], line 4)"},
    {"duplicate_key.yaml", 1, 4, 28, "bodies[0].mass", "duplicate key 'mass' (first given at line 4)"},
    {"empty.yaml", 1, 1, 1, "", "the file is empty; expected a mapping with bodies, joints, solver, ..."},
    {"end_time_with_default_step.yaml", 2, 7, 45, "solver.end_time", "end_time / step = 1e+12 steps with the default step 0.001 s; at most 1e9 are allowed (give a larger solver.step, or a shorter end_time)"},
    {"formulation_with_trapezoidal.yaml", 1, 9, 78, "solver.formulation", "the constraint formulation is a setting of generalized_alpha; solver trapezoidal_index2 has its own (see the solver table of the model format)"},
    {"gravity_out_of_range.yaml", 1, 2, 14, "gravity[1]", "must be in [-1e6, 1e6] m/s^2, got -1e+308"},
    {"infinite_gravity.yaml", 1, 2, 14, "gravity[1]", "expected a finite number, got '.inf'"},
    {"invalid_utf8.yaml", 1, 2, 10, "", "not a text file (invalid UTF-8); expected a YAML or JSON model"},
    {"json_syntax_error.json", 1, 4, 29, "", "YAML syntax error: illegal flow end"},
    {"json_trailing_comma.json", 1, 2, 1, "", "more than one YAML document in the file (a '---', or a stray ',' or bracket after the model); a model is one document"},
    {"json_wrong_type.json", 1, 3, 12, "joints", "expected a list, got a mapping"},
    {"joint_motor_angle_of_prismatic.yaml", 1, 8, 65, "forces[0].value", "angle() applies to revolute and cylindrical joints; 'guide' is prismatic in '-100*angle(guide)'"},
    {"lie_rk4_with_joints.yaml", 1, 6, 5, "joints[0]", "lie_rk4 integrates free bodies only; a model with joints needs generalized_alpha, ida, trapezoidal_index2, rk4, dopri5, impulse (solver.type lie_rk4)"},
    {"limit_of_started_joint.yaml", 1, 9, 6, "joints[0].initial", "joint 'pivot' starts at angle 0.5 rad from the drawn configuration, but joint_limit 'stop' [-1, 1] reads its angle: its bounds are measured from the configuration the run starts in, so they would act at [-0.5, 1.5] of the drawn angle; pose the bodies by hand in the model and state it from that pose, or start the joint at 0 (a rate or speed alone is accepted)"},
    {"list_for_a_number.yaml", 1, 4, 25, "bodies[0].mass", "expected a number, got '1, 2': a list of values where one number is expected"},
    {"load_unknown_state.yaml", 1, 8, 90, "forces[0].value[2]", "unknown controller state 'i_eer' (did you mean 'i_err'? the states section declares i_err) in '24*(1 - z(drone)) + 16*state(i_eer)'"},
    {"malformed_yaml.yaml", 1, 6, 90, "", "YAML syntax error: illegal flow end"},
    {"many_problems.yaml", 4, 4, 23, "bodies[0].mass", "must be > 0, got -1"},
    {"missing_end_time.yaml", 1, 9, 9, "solver", "missing required key 'end_time' (s)"},
    {"missing_joint_type.yaml", 1, 6, 5, "joints[0]", "missing required key 'type'"},
    {"motion_missing_value.yaml", 1, 6, 101, "joints[0].motion", "missing required key 'value' (an expression of t, rad or m)"},
    {"motion_not_zero_at_start.yaml", 1, 6, 101, "joints[0].motion", "the motion must be 0 at t = 0 (the joint's coordinate is 0 at the initial configuration), got 1"},
    {"motion_on_spherical.yaml", 1, 6, 77, "joints[0].motion", "key 'motion' does not apply to a spherical joint (only revolute and prismatic joints can be driven)"},
    {"motion_unknown_variable.yaml", 1, 6, 106, "joints[0].motion", "expected a number or an expression of t, got 'sin(omega*t)': unknown name 'omega' (an expression knows t, pi and functions such as sin(), sqrt(), abs(), min(), table())"},
    {"motion_with_impulse.yaml", 1, 7, 6, "joints[0].motion", "driven joints are handled by generalized_alpha, ida, trapezoidal_index2, rk4, dopri5; the impulse stepper's joint equations do not depend on time (solver.type impulse)"},
    {"nan_mass.yaml", 1, 4, 23, "bodies[0].mass", "expected a finite number, got '.nan'"},
    {"negative_inertia.yaml", 1, 4, 38, "bodies[0].inertia[0]", "must be >= 0, got -0.01"},
    {"negative_mass.yaml", 1, 4, 23, "bodies[0].mass", "must be > 0, got -1"},
    {"negative_output_every.yaml", 1, 10, 17, "output.every", "must be > 0, got -0.01"},
    {"negative_step.yaml", 1, 9, 56, "solver.step", "must be > 0, got -0.001"},
    {"nonphysical_inertia.yaml", 1, 4, 37, "bodies[0].inertia", "principal moments violate the triangle inequality: 0.01 + 0.01 < 0.5 (inertia about the COM, from the inertia about the reference point)"},
    {"not_a_mapping.yaml", 1, 1, 1, "", "expected a mapping (name:, bodies:, joints:, ...) at the top, got a list"},
    {"number_out_of_range.yaml", 1, 4, 23, "bodies[0].mass", "must be in [-1e15, 1e15] (the range of the model format's numbers), got 1e+300"},
    {"position_out_of_range.yaml", 1, 4, 75, "bodies[0].position[0]", "must be in [-1e6, 1e6] m, got 1e+308"},
    {"quantity_component_of_number.yaml", 1, 8, 73, "forces[0].value[2]", "angle(pivot) is one number: it has no component .x (components such as .x belong to sensor(name)) in '-2*angle(pivot).x'"},
    {"quaternion_not_unit.yaml", 1, 4, 113, "bodies[0].orientation.quaternion", "a quaternion must have unit length, got |q| = 1.41421"},
    {"rho_inf_out_of_range.yaml", 1, 9, 73, "solver.rho_inf", "must be in [0, 1], got 1.5"},
    {"rigid_body_spring_wrong_size.yaml", 1, 6, 90, "forces[0].stiffness", "expected 6 numbers (the diagonal) or 6 rows of 6 numbers, got 3 items"},
    {"rolling_disc_not_on_ground.yaml", 1, 7, 47, "joints[0].bodies[0]", "the first body of a rolling_disc joint carries the plane and must be 'ground', got 'rod'"},
    {"sensor_acceleration_with_impulse.yaml", 1, 6, 34, "sensors[0].output", "output acceleration is not available with solver.type impulse: it needs accelerations, which that solver does not give (available: position, displacement, velocity, velocity_local, rotation_matrix, rotation, angular_velocity, angular_velocity_local, energy, constraint_violation, joint_angle, joint_displacement, spring_damper, kinetic_energy, potential_energy, linear_momentum, angular_momentum, joint_motor, shaft, controller_state, cable_position, cable_slope, cable_curvature, cable_axial_force; solvers that give them: generalized_alpha, ida, trapezoidal_index2, rk4, dopri5, lie_rk4)"},
    {"sensor_column_twice.yaml", 1, 9, 12, "sensors[1].name", "the column 'bob.x' of this sensor is already a column of sensors[0] ('bob'); every column of the results needs its own name"},
    {"sensor_joint_angle_of_prismatic.yaml", 1, 7, 22, "sensors[0].joint", "output joint_angle applies to revolute or cylindrical joints; joint 'guide' is prismatic"},
    {"sensor_named_time.yaml", 1, 8, 12, "sensors[0].name", "the column 'time' of this sensor is already the time column; every column of the results needs its own name"},
    {"sensor_quantity_acceleration.yaml", 1, 8, 66, "forces[0].value[1]", "sensor 'acc' (output acceleration) needs accelerations, which follow from the equations of motion; an expression may read sensors whose value is a function of the bodies' positions and velocities in '-0.1*sensor(acc).y'"},
    {"sensor_quantity_cycle.yaml", 1, 8, 75, "forces[0].value", "sensor 'motor' reads force element 'motor', the element being defined: its law would read itself (a cycle) in '1 - 0.5*sensor(motor).effort'"},
    {"sensor_quantity_element_after.yaml", 1, 8, 59, "forces[0].value[0]", "sensor 'spring' reads force element 'spring', an element defined after this one in the forces section: an expression may read sensors of the elements before it only (no cycles) in '-sensor(spring).force'"},
    {"sensor_quantity_energy.yaml", 1, 8, 39, "states[0].derivative", "sensor 'energy' (output energy) is a quantity of the whole system; an expression may read sensors whose value is a function of the bodies' positions and velocities in 'sensor(energy) - 1'"},
    {"sensor_quantity_no_component.yaml", 1, 8, 57, "forces[0].value[1]", "sensor 'tip' (output position) has several columns: name one, e.g. sensor(tip).x (components: .x, .y, .z) in '-2*sensor(tip)'"},
    {"sensor_quantity_reaction.yaml", 1, 8, 70, "forces[0].value[2]", "sensor 'pin' (output reaction_force) needs the joints' reactions (Lagrange multipliers); an expression may read sensors whose value is a function of the bodies' positions and velocities in '0.01*sensor(pin).y'"},
    {"sensor_quantity_unknown.yaml", 1, 8, 64, "forces[0].value[1]", "unknown sensor 'top' (did you mean 'tip'? the sensors section declares tip) in '-2*sensor(top).y'"},
    {"sensor_quantity_unknown_component.yaml", 1, 8, 68, "forces[0].value[1]", "sensor 'tip' (output position) has no component .w (components: .x, .y, .z) in '-2*sensor(tip).w'"},
    {"sensor_unknown_body.yaml", 1, 8, 23, "sensors[0].body", "unknown body 'arm'"},
    {"sensor_unknown_force.yaml", 1, 9, 22, "sensors[0].force", "unknown force element 'sprung' (did you mean 'spring'?)"},
    {"sensor_unknown_output.yaml", 1, 8, 56, "sensors[0].output", "unknown value 'speed' (expected one of: position, displacement, velocity, velocity_local, rotation_matrix, rotation, angular_velocity, angular_velocity_local, acceleration, acceleration_local, angular_acceleration, angular_acceleration_local, reaction_force, reaction_torque, energy, constraint_violation, joint_angle, joint_displacement, spring_damper, kinetic_energy, potential_energy, linear_momentum, angular_momentum, joint_motor, shaft, joint_friction, controller_state, drive_effort, coupling_effort, cable_position, cable_slope, cable_curvature, cable_axial_force)"},
    {"spring_damper_with_lie_rk4.yaml", 1, 6, 5, "forces[0]", "force elements are handled by generalized_alpha, ida, trapezoidal_index2, rk4, dopri5, impulse, not by lie_rk4 (solver.type lie_rk4)"},
    {"spring_negative_stiffness.yaml", 1, 6, 93, "forces[0].stiffness", "must be >= 0, got -1000"},
    {"stray_comma.yaml", 1, 2, 1, "", "more than one YAML document in the file (a '---', or a stray ',' or bracket after the model); a model is one document"},
    {"time_in_constant.yaml", 1, 4, 23, "bodies[0].mass", "expected a constant, got an expression of t: '1 + t'"},
    {"torsional_spring_wrong_keys.yaml", 2, 6, 5, "forces[0]", "missing required key 'axis' (the axis, world, t0)"},
    {"two_documents.yaml", 1, 4, 1, "", "more than one YAML document in the file (a '---', or a stray ',' or bracket after the model); a model is one document"},
    {"unclosed_quote.yaml", 1, 1, 7, "", "YAML syntax error: the quote \" opened here is never closed"},
    {"unclosed_quote_in_flow.yaml", 1, 4, 12, "", "YAML syntax error: the quote \" opened here is never closed"},
    {"universal_axes_parallel.yaml", 1, 6, 98, "joints[0].axis_b", "axis and axis_b are parallel (angle 180 degrees); the two cross arms of a universal joint need an angle between 0.06 and 179.94 degrees (90 for the usual cross)"},
    {"universal_missing_axis_b.yaml", 1, 6, 5, "joints[0]", "missing required key 'axis_b' (the cross arm fixed in the second body, world, t0; any angle to axis but 0 or 180 degrees)"},
    {"unknown_body_reference.yaml", 1, 6, 52, "joints[0].bodies[1]", "unknown body 'rood' (did you mean 'rod'? bodies: ground, rod)"},
    {"unknown_friction_model.yaml", 1, 5, 56, "solver.friction_model", "unknown value 'round' (expected one of: pyramid, cone)"},
    {"unknown_joint_type.yaml", 1, 6, 25, "joints[0].type", "unknown value 'hinge' (expected one of: spherical, revolute, prismatic, fixed, generic, distance, cylindrical, universal, planar, rolling_disc, coordinate, inline, inplane, orientation, parallel_axes, perpendicular)"},
    {"unknown_sensor_key.yaml", 1, 8, 66, "sensors[0].units", "unknown key 'units' (expected one of: name, body, joint, force, shaft, state, coupling, cable, at, point, output, frame)"},
    {"unknown_solver.yaml", 1, 9, 16, "solver.type", "unknown value 'runge_kutta' (expected one of: generalized_alpha, ida, trapezoidal_index2, rk4, dopri5, lie_rk4, impulse)"},
    {"unknown_top_key.yaml", 1, 2, 1, "gravityy", "unknown key 'gravityy' (did you mean 'gravity'? expected one of: name, description, gravity, bodies, modal_bodies, joints, shafts, shaft_forces, cables, couplings, states, forces, contacts, contact_penalty, contact_material, sensors, solver, output)"},
    {"unknown_variable_in_expression.yaml", 1, 8, 59, "forces[0].value[2]", "expected a number or an expression of t and the state, got 'omega*t': unknown name 'omega' (an expression knows t, pi and functions such as sin(), sqrt(), abs(), min(), table(), angle(), rate(), displacement(), speed(), x(), y(), z(), vx(), vy(), vz(), wx(), wy(), wz(), state(), sensor())"},
    {"unsatisfiable_assembly.yaml", 1, 5, 5, "bodies[0]", "initial assembly failed: assembly did not converge: after 50 iterations ‖C‖∞ = 28.3457 in body 'rod' Euler-parameter norm"},
    {"wrong_type_mass.yaml", 1, 4, 23, "bodies[0].mass", "expected a number, got 'heavy': unknown name 'heavy' (an expression knows t, pi and functions such as sin(), sqrt(), abs(), min(), table())"},
    {"wrong_vector_length.yaml", 1, 4, 74, "bodies[0].position", "expected a list of 3 numbers, got 2 values"},
    {"zero_axis.yaml", 1, 6, 82, "joints[0].axis", "the axis has zero length"},
    {"zero_step_count.yaml", 2, 9, 58, "solver.step", "end_time / step = 1e+12 steps; at most 1e9 are allowed"},
};

/// The problems of a model file: those of the loader, else those of setting up its run.
std::vector<Diagnostic> problems_of(const std::string& path) {
  std::optional<LoadedModel> m;
  try {
    m = load_model_file(path);
  } catch (const LoadError& e) {
    return e.diagnostics();
  }
  try {
    ModelRun run(*m);
  } catch (const ModelError& e) {
    std::vector<Diagnostic> d;
    for (const ModelProblem& p : e.details()) d.push_back(m->locate(p));
    return d;
  } catch (const ItemError& e) {
    return {m->locate({e.what(), e.item()})};
  }
  return {};
}

}  // namespace

TEST_CASE("io: every bad model gives its problem at its key, with its message", "[io][problems]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(MBDAE_TEST_SOURCE_DIR) / "tests" / "bad_models";
  std::set<std::string> listed;
  for (const BadModel& b : kBadModels) listed.insert(b.file);
  // A new bad model needs its line here.
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) CHECK(listed.count(e.path().filename().string()) == 1);
  const bool have_ida = find_solver("ida") != nullptr;
  for (const BadModel& b : kBadModels) {
    INFO(b.file);
    const std::string path = (dir / b.file).string();
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Without IDA (MBDAE_WITH_IDA=OFF), a model that runs ida or a message that lists it differs.
    if (!have_ida && (text.find("type: ida") != std::string::npos ||
                      std::string(b.message).find("ida") != std::string::npos))
      continue;
    const std::vector<Diagnostic> d = problems_of(path);
    REQUIRE(d.size() == b.problems);
    CHECK(d[0].file == path);
    CHECK(d[0].line == b.line);
    CHECK(d[0].column == b.column);
    CHECK(d[0].key_path == b.key_path);
    CHECK(d[0].message == b.message);
  }
}

TEST_CASE("io: did you mean: edit distance and the closest name", "[io][problems]") {
  using mbdae::io::closest_name;
  using mbdae::io::edit_distance;
  // Insertions, deletions, substitutions and swaps of neighbours count 1 each (optimal string
  // alignment); case is ignored.
  CHECK(edit_distance("gravityy", "gravity") == 1);
  CHECK(edit_distance("posiiton", "position") == 1);  // a swap
  CHECK(edit_distance("revolut", "revolute") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("Rod", "rod") == 0);
  const std::vector<std::string> outputs = {"position", "velocity", "acceleration", "energy"};
  CHECK(closest_name("posiiton", outputs) == "position");
  CHECK(closest_name("velocty", outputs) == "velocity");
  CHECK_FALSE(closest_name("speed", outputs));     // 5 edits from each: no guess
  CHECK_FALSE(closest_name("position", outputs));  // itself a candidate
  CHECK_FALSE(closest_name("w", {"x", "y", "z"}));  // one letter: only a difference of case
  CHECK(closest_name("X", {"x", "y", "z"}) == "x");
  CHECK(closest_name("runn", {"run", "check", "statics"}) == "run");
  CHECK(mbdae::io::did_you_mean("chek", {"run", "check"}) == "did you mean 'check'? ");
  CHECK(mbdae::io::did_you_mean("zzz", {"run", "check"}).empty());
}
