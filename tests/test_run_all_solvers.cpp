// Every solver of the registry runs a model through io::ModelRun, and every sensor output it can
// give agrees with the same sensor of a tight reference run over the whole run (not only at t0).
// A solver added to the registry, or a sensor output added to the table, is covered here at once.
// Outputs a solver's states cannot carry are refused at load time, naming the sensor.

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Run.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

// A driven slider-crank (joints, a drive, gravity, a spring, a motor on a pin) and a free
// tumbling body (for the solvers without joints). Sensors are added per solver below.
const char* kCrank = R"yaml(gravity: [0, -9.81, 0]
bodies:
  - {name: crank,  mass: 0.5, shape: {box: [0.2, 0.03, 0.02]}, position: [0.1, 0, 0],
     angular_velocity: [0, 0, "2*pi"], velocity: [0, "0.1*2*pi", 0]}
  - {name: rod,    mass: 1.0, shape: {box: [0.6, 0.03, 0.02]}, position: [0.5, 0, 0]}
  - {name: slider, mass: 2.0, shape: {box: [0.1, 0.05, 0.05]}, position: [0.8, 0, 0]}
joints:
  - {name: drive, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1],
     motion: {value: "2*pi*t", velocity: "2*pi", acceleration: "0"}}
  - {name: crank_pin, type: revolute,  bodies: [crank, rod],    point: [0.2, 0, 0], axis: [0, 0, 1]}
  - {name: wrist_pin, type: generic,   bodies: [rod, slider],   point: [0.8, 0, 0], constrained: [1, 1, 0, 0, 0, 0]}
  - {name: guide,     type: prismatic, bodies: [ground, slider], point: [0.8, 0, 0], axis: [1, 0, 0]}
forces:
  - {name: spring, type: spring_damper, bodies: [ground, slider], points: [[1.2, 0, 0], [0.8, 0, 0]],
     stiffness: 50.0, damping: 1.0, length: 0.3}
  - {name: motor, type: joint_motor, joint: crank_pin, value: "0.2*sin(angle(crank_pin)) - 0.01*rate(crank_pin)"}
  - {name: friction, type: joint_friction, joint: guide, friction: 0.1, normal_force: 5.0, viscous_slide: 0.5,
     regularization_velocity: 0.05}
solver: {end_time: 0.5, step: 1.0e-3}
output: {every: 0.05}
)yaml";

const char* kFree = R"(gravity: [0, 0, -9.81]
bodies:
  - {name: rod, mass: 2.0, inertia: [0.6, 0.7, 0.5, -0.04, -0.06, -0.04], com: [0.1, 0.2, 0.3],
     position: [1, 2, 3], orientation: {rxyz: [0.3, -0.2, 0.5]}, velocity: [0.5, -1, 2], angular_velocity: [1, 2, -3]}
solver: {end_time: 0.5, step: 1.0e-3}
output: {every: 0.05}
)";

/// The sensor lines for a model: every output of the table, body outputs on `body` at a point off
/// the reference point, joint outputs on `joint` (a revolute joint) or, for outputs that do not
/// apply to it, on `prismatic`, force-element outputs on `force` (if any; a spring_damper) or, for
/// outputs that do not apply to it, on `motor` (a joint_motor) or `friction` (a joint_friction), momenta of the body and of the
/// system; those the states cannot carry left out unless `all`.
std::string sensors_for(const std::string& body, const std::string& joint, const SolverSupport& s, bool all,
                        const std::string& prismatic = "", const std::string& spring = "",
                        const std::string& motor = "", const std::string& friction = "") {
  std::string out = "sensors:\n";
  for (const SensorOutputInfo& o : sensor_outputs()) {
    if (!all && ((o.needs_accelerations && !s.accelerations) || (o.needs_multipliers && !s.multipliers))) continue;
    const std::string n = o.name;
    switch (o.target) {
      case SensorTarget::Body:
        out += "  - {name: s_" + n + ", body: " + body + (o.uses_point ? ", point: [0.05, 0.01, -0.02]" : "") +
               ", output: " + n + "}\n";
        break;
      case SensorTarget::Joint: {
        // drive_effort needs a driven joint, which these models do not have: it is compared with
        // closed forms on every solver that takes drives in test_controller_states.cpp.
        if (o.output == SensorOutput::DriveEffort) break;
        const std::string& j = o.accepts_joint && !o.accepts_joint(JointType::Revolute) ? prismatic : joint;
        if (j.empty()) break;
        out += "  - {name: s_" + n + ", joint: " + j + ", output: " + n + (o.takes_frame ? ", frame: joint" : "") + "}\n";
        break;
      }
      case SensorTarget::System: out += "  - {name: s_" + n + ", output: " + n + "}\n"; break;
      case SensorTarget::Force: {
        const std::string& force = !o.accepts_force || o.accepts_force(ForceType::SpringDamper) ? spring
                                   : o.accepts_force(ForceType::JointMotor)                   ? motor
                                                                                              : friction;
        if (!force.empty()) out += "  - {name: s_" + n + ", force: " + force + ", output: " + n + "}\n";
        break;
      }
      case SensorTarget::State: break;  // no controller states in these models
      case SensorTarget::Shaft: break;  // 1-D shafts: the implicit solvers only (tests/test_shafts.cpp)
      case SensorTarget::Coupling: break;  // couplings: the implicit solvers only (tests/test_couplings.cpp)
      case SensorTarget::Cable: break;  // cables: the implicit solvers only (tests/test_ancf_cable.cpp)
      case SensorTarget::BodyOrSystem:
        out += "  - {name: s_" + n + ", output: " + n + "}\n";
        out += "  - {name: s_" + n + "_body, body: " + body + ", output: " + n + "}\n";
        break;
    }
  }
  return out;
}

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;  // time first
};

Table run(const std::string& text, const std::vector<Override>& sets) {
  const LoadedModel m = load_model_text(text, "all_solvers.yaml", sets);
  ModelRun r(m);
  Table t;
  t.columns = r.sensors().columns();
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    std::vector<double> x{s.t};
    x.insert(x.end(), row.begin(), row.end());
    t.rows.push_back(x);
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return t;
}

/// Error allowed for a solver with the model's settings (h = 1e-3 over 0.5 s, or the tolerances
/// given): generalized-alpha and the trapezoidal rule are second order (errors ~h² times the
/// motion's derivatives, here below 1e-4), RK4 and Dormand-Prince far below, the impulse stepper
/// first order (h times the accelerations, ~1e-2 for gravity and the spin).
double tolerance(const SolverInfo& s) {
  const std::string n = s.name;
  if (n == "impulse") return 2e-2;
  if (n == "generalized_alpha" || n == "trapezoidal_index2") return 2e-4;
  return 2e-5;
}

void compare(const Table& ref, const Table& got, const SolverInfo& s) {
  REQUIRE(got.rows.size() == ref.rows.size());
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < ref.columns.size(); ++c) col[ref.columns[c]] = c + 1;
  for (size_t c = 0; c < got.columns.size(); ++c) {
    const std::string& name = got.columns[c];
    INFO("solver " << s.name << ", column " << name);
    REQUIRE(col.count(name));
    const size_t rc = col[name];
    for (size_t k = 0; k < ref.rows.size(); ++k) {
      INFO("t = " << ref.rows[k][0]);
      const double a = ref.rows[k][rc], b = got.rows[k][c + 1];
      if (name.starts_with("s_constraint_violation")) {
        // Not the same number on every solver: each holds its own level (index 3: positions,
        // index 2: velocities; the projections of rk4/dopri5 both) to its Newton or projection
        // tolerance, and lets the other drift by its discretisation error.
        const bool position = name.ends_with(".position");
        const std::string n = s.name;
        const bool held = n == "generalized_alpha" ? position
                          : (n == "ida" || n == "trapezoidal_index2") ? !position
                                                                       : true;
        CHECK(b < (held ? 1e-8 : 1e-4));
        continue;
      }
      CHECK(std::abs(a - b) <= tolerance(s) * std::max(1.0, std::abs(a)));
    }
  }
}

}  // namespace

TEST_CASE("Every solver gives every sensor it can over the whole run, equal to a tight reference", "[run][sensors]") {
  const SolverSupport everything{true, true, true, true, true, true, true, true, true, true, true, true};
  const std::vector<Override> ida_tight{{"solver.type", "ida"},
                                        {"solver.tolerance", "{relative: 1.0e-11, absolute: 1.0e-12}"}};
  const Table ref_crank = run(std::string(kCrank) + sensors_for("rod", "crank_pin", everything, true, "guide", "spring", "motor", "friction"), ida_tight);
  const Table ref_free = run(std::string(kFree) + sensors_for("rod", "", everything, true), ida_tight);
  int solvers_run = 0;
  for (const SolverInfo& s : solvers()) {
    INFO("solver " << s.name);
    std::vector<Override> sets{{"solver.type", s.name}};
    // IDA's algebraic variables (multipliers, hence reactions) are outside its error test: run it
    // at a tolerance that makes them comparable at the level of the others.
    if (std::string(s.name) == "ida") sets.push_back({"solver.tolerance", "{relative: 1.0e-8, absolute: 1.0e-10}"});
    if (s.support.joints && s.support.driven_joints) {
      compare(ref_crank, run(std::string(kCrank) + sensors_for("rod", "crank_pin", s.support, false, "guide", "spring", "motor", "friction"), sets), s);
      ++solvers_run;
    }
    compare(ref_free, run(std::string(kFree) + sensors_for("rod", "", s.support, false), sets), s);
    // An output the states do not carry is refused at load time, naming the sensor.
    if (!s.support.accelerations) {
      const std::string text = std::string(kFree) + "sensors:\n  - {name: acc, body: rod, output: acceleration}\n";
      try {
        (void)load_model_text(text, "all_solvers.yaml", sets);
        FAIL("an acceleration sensor was accepted with solver " << s.name);
      } catch (const LoadError& e) {
        CHECK(std::string(e.what()).find("sensors[0]") != std::string::npos);
      }
    }
  }
  CHECK(solvers_run >= 5);  // the three implicit solvers, rk4 and dopri5 take the driven crank
}
