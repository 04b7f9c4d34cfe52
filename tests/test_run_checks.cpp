// What a run checks of its states (RunChecks, run_to_end()): a state that is not finite, a
// constraint violation beyond its bound or energy growing with no source stops the run with status
// CheckFailed, naming the time and the cause; the results end at the last state that passed. And
// the numbers of a model file: directions are scaled before they are normalized.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverCommon.h>

using namespace mbdae;

namespace {

/// An integrator whose state is q = v = [x(t)] with x(t) given; it lands on every time asked.
class FakeIntegrator final : public IntegratorBase {
 public:
  explicit FakeIntegrator(double (*x)(double)) : x_(x), q_(1), v_(1) { set(0); }
  bool advance_to(double t) override {
    set(t);
    ++stats_.steps;
    return true;
  }
  double time() const override { return t_; }
  StateView state() const override { return StateView{t_, q_, v_, empty_, empty_}; }

 private:
  void set(double t) {
    t_ = t;
    q_[0] = v_[0] = x_(t);
  }
  double (*x_)(double);
  double t_ = 0;
  VecX q_, v_;
  const VecX empty_;
};

/// Energy E = q, position violation |q|, velocity violation 2|v|.
class FakeMonitor final : public StateMonitor {
 public:
  bool has_energy() const override { return true; }
  double energy(const StateView& s) override { return s.q[0]; }
  ConstraintViolation constraint_violation(const StateView& s) override {
    return {std::abs(s.q[0]), 2 * std::abs(s.v[0])};
  }
};

SolveResult run(double (*x)(double), const RunChecks& checks, int* rows) {
  FakeIntegrator integ(x);
  FakeMonitor monitor;
  *rows = 0;
  return run_to_end(monitor, integ, 1.0, 0.1, [&](const StateView&) { return ++*rows, true; }, checks);
}

}  // namespace

TEST_CASE("run checks: a state that is not finite stops the run at its time", "[run][checks]") {
  int rows = 0;
  const SolveResult r = run([](double t) { return t > 0.45 ? std::numeric_limits<double>::quiet_NaN() : t; }, {}, &rows);
  CHECK(r.status == SolveStatus::CheckFailed);
  CHECK(r.message == "t = 0.5 s: the state is not finite (NaN or Inf)");
  CHECK(rows == 5);  // t = 0, ..., 0.4
  CHECK(r.t_reached == Approx(0.4));
}

TEST_CASE("run checks: constraint violations beyond their bounds stop the run", "[run][checks]") {
  int rows = 0;
  RunChecks c;
  c.max_velocity_violation = 1.0;  // 2 |v| = 2t exceeds it after t = 0.5
  SolveResult r = run([](double t) { return t; }, c, &rows);
  CHECK(r.status == SolveStatus::CheckFailed);
  CHECK(r.message == "t = 0.6 s: the velocity constraint violation 1.2 exceeds its bound 1 (the constraints no longer hold)");
  CHECK(rows == 6);
  c = RunChecks{};
  c.max_position_violation = 0.25;
  r = run([](double t) { return t; }, c, &rows);
  CHECK(r.message == "t = 0.3 s: the position constraint violation 0.3 exceeds its bound 0.25 (the constraints no longer hold)");
  // Without bounds the same run succeeds.
  CHECK(run([](double t) { return t; }, {}, &rows).ok());
}

TEST_CASE("run checks: energy growth beyond its limit stops the run", "[run][checks]") {
  int rows = 0;
  RunChecks c;
  c.max_energy_growth = 0.1;
  c.max_energy_growth_relative = 1;  // limit 0.1 + 1 · |E0| = 0.1 + 0.5
  const SolveResult r = run([](double t) { return 0.5 + t * t; }, c, &rows);
  CHECK(r.status == SolveStatus::CheckFailed);
  // E − E0 = t²: 0.64 > 0.6 first at t = 0.8.
  CHECK(r.message.starts_with("t = 0.8 s: the energy grew from 0.5 J to 1.14 J with no source of energy"));
  CHECK(rows == 8);
}

TEST_CASE("run checks: a model's checks follow its scales and its sources of energy", "[run][checks]") {
  const char* model = R"(gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 2.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [3, 0, 0], velocity: [0, 1, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1]}
solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
)";
  const io::LoadedModel m = io::load_model_text(model, "m.yaml");
  const RunChecks c = io::run_checks(m);
  // L = 3 m, M = 2 kg, g = 9.81 m/s², T0 = ½ · 2 · 1² = 1 J.
  CHECK(c.max_position_violation == Approx(0.15));
  CHECK(c.max_velocity_violation == Approx(std::sqrt(2 * 9.81 * 3) + 1.0));
  CHECK(c.max_energy_growth == Approx(2 * 9.81 * 3 + 1));
  CHECK(c.max_energy_growth_relative == 1);
  // A load is a source of energy whose work the run integrates: the same limit, on the energy
  // less that work.
  io::LoadedModel loaded = io::load_model_text(
      std::string(model) + "forces:\n  - {name: push, type: force, body: rod, value: [1, 0, 0]}\n", "m.yaml");
  CHECK(io::run_checks(loaded).max_energy_growth == Approx(2 * 9.81 * 3 + 1));
  CHECK(io::run_checks(loaded).energy_minus_work);
  CHECK_FALSE(c.energy_minus_work);
  // A driven joint does work through its multipliers, which the run does not integrate: no limit.
  io::LoadedModel driven = io::load_model_text(std::string(model).replace(std::string(model).find("axis: [0, 0, 1]}"), 16,
                                                                          "axis: [0, 0, 1], motion: \"t\"}"),
                                               "m.yaml");
  CHECK(io::has_unmeasured_energy_source(driven.system));
  CHECK(std::isinf(io::run_checks(driven).max_energy_growth));
  // A mechanism of 0.2 m: its position bound follows its own size (0.05 · 0.2 m), the velocity
  // and energy bounds keep L = 1 m.
  const io::LoadedModel small = io::load_model_text(R"(gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 2.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [0.2, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, -0.1, 0], axis: [0, 0, 1]}
solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
)",
                                                    "small.yaml");
  const RunChecks cs = io::run_checks(small);
  CHECK(cs.max_position_violation == Approx(0.01));
  CHECK(cs.max_velocity_violation == Approx(std::sqrt(2 * 9.81 * 1.0)));
  CHECK(cs.max_energy_growth == Approx(2 * 9.81 * 1.0));
}

TEST_CASE("run checks: every kind of energy source is one, springs and dampers are not", "[run][checks]") {
  // A pendulum and a free rotor; each section below adds one element to it.
  const std::string base = R"(gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, -0.5, 0]}
  - {name: slider, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1, 0, 0]}
shafts:
  - {name: rotor, type: rotor, inertia: 0.1}
solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
)";
  const std::string pivot = "  - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1]";
  const std::string rail = "  - {name: rail, type: prismatic, bodies: [ground, slider], point: [1, 0, 0], axis: [1, 0, 0]";
  auto source = [&](const std::string& extra) {
    return io::has_energy_source(io::load_model_text(base + extra, "m.yaml").system);
  };
  const std::string joints = "joints:\n" + pivot + "}\n" + rail + "}\n";
  // None: a pendulum, a slider, a spring-damper on the shaft.
  CHECK_FALSE(source(joints));
  CHECK_FALSE(source(joints + "shaft_forces:\n  - {name: s, type: spring_damper, shafts: [ground, rotor], stiffness: 5, damping: 1}\n"));
  CHECK_FALSE(source(joints + "forces:\n  - {name: d, type: joint_friction, joint: rail, friction: 0.1, normal_force: 10}\n"));
  // Each source of energy:
  CHECK(source(joints + "shaft_forces:\n  - {name: drive, type: load, shaft: rotor, value: 2}\n"));  // a load on a shaft
  CHECK(source(joints + "shaft_forces:\n  - {name: drive, type: load, shaft: rotor, value: \"sin(t)\"}\n"));
  CHECK(source(joints + "forces:\n  - {name: push, type: force, body: rod, value: [1, 0, 0]}\n"));  // an applied load
  CHECK(source(joints + "forces:\n  - {name: m, type: joint_motor, joint: pivot, value: 1}\n"));  // a motor
  CHECK(source("joints:\n" + pivot + ", motion: \"0.5*t\"}\n" + rail + "}\n"));  // a driven joint
  CHECK(source("joints:\n" + pivot + ", speed: 0.5}\n" + rail + "}\n"));  // a speed-driven joint
  // A controller state that drives a motor.
  CHECK(source(joints + "states:\n  - {name: z, initial: 0, derivative: \"1\"}\nforces:\n  - {name: m, type: joint_motor, joint: pivot, "
                        "value: \"state(z)\"}\n"));
}

TEST_CASE("penalty contacts: their pairs are counted, and too many are refused before the run", "[run][contacts]") {
  // n spheres on a plane (ground), each on its own body, and a second sphere on the first body.
  auto pile = [](int n) {
    std::string t = "gravity: [0, 0, -9.81]\nbodies:\n";
    for (int i = 0; i < n; ++i)
      t += "  - {name: s" + std::to_string(i) + ", mass: 1.0, shape: {sphere: 0.1}, position: [" +
           std::to_string(0.25 * (i % 40)) + ", " + std::to_string(0.25 * (i / 40)) + ", 0.2]}\n";
    t += "contacts:\n  - {name: floor, type: plane, normal: [0, 0, 1]}\n";
    for (int i = 0; i < n; ++i)
      t += "  - {name: c" + std::to_string(i) + ", type: sphere, body: s" + std::to_string(i) + ", radius: 0.1}\n";
    t += "  - {name: extra, type: sphere, body: s0, radius: 0.05}\n";
    t += "contact_penalty: {law: linear, stiffness: 1.0e5, damping: 300, friction_velocity: 1.0e-3}\n"
         "solver: {type: generalized_alpha, end_time: 0.002, step: 1.0e-3}\n";
    return io::load_model_text(t, "pile.yaml");
  };
  // n + 1 spheres: C(n + 1, 2) pairs less the one pair on body s0, plus n + 1 sphere-plane pairs.
  const io::LoadedModel small = pile(10);
  CHECK(io::penalty_contact_pairs(small.system) == 11 * 10 / 2 - 1 + 11);
  CHECK(io::penalty_contacts_refusal(small.system).empty());
  // 314 + 1 spheres: 49,454 pairs, taken; 315 + 1: 50,085, refused with the estimate.
  CHECK(io::penalty_contact_pairs(pile(314).system) == 315 * 314 / 2 - 1 + 315);
  CHECK(io::penalty_contacts_refusal(pile(314).system).empty());
  const io::LoadedModel big = pile(315);
  CHECK(io::penalty_contact_pairs(big.system) == 316 * 315 / 2 - 1 + 316);
  const std::string why = io::penalty_contacts_refusal(big.system);
  CHECK(why.find("50085 pairs, about 0.601 GB") != std::string::npos);
  CHECK(why.find("solver.type: impulse") != std::string::npos);
  // A run is refused before a pair is made (it used to build them all: about 12 kB each).
  CHECK_THROWS_WITH(io::ModelRun(big), Catch::Contains("50085 pairs"));
}

TEST_CASE("numbers: a direction is scaled before it is normalized", "[io][numbers]") {
  // [1e200, 1e200, 0] has a length that overflows; it is the diagonal of x and y, not a zero axis.
  const io::LoadedModel m = io::load_model_text(R"(gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 1.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [0.5, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [1e200, 1e200, 0]}
solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
)",
                                                "m.yaml");
  const Vec3 a = m.system.joints()[0].axis.normalized();
  CHECK(a.x() == Approx(std::sqrt(0.5)));
  CHECK(a.y() == Approx(std::sqrt(0.5)));
  CHECK(a.z() == 0);
  CHECK(m.system.problems().empty());
}
