// The joint_motor force element and expressions of a joint's coordinates, against closed forms and
// against the same law written as another force element:
// - a rotor on a revolute joint under a PD law J θ'' = −kp (θ − θr) − kd θ' (the damped
//   oscillator's closed form), on every solver that takes force elements;
// - a rotor under the restoring law u = −k θ spinning several turns: θ = (ω0/Ω) sin Ω t, Ω = √(k/J)
//   (the angle counts turns);
// - a slider on a prismatic joint under u = −k s − c ṡ (the damped oscillator's closed form);
// - a pendulum whose motor law is a torsional spring-damper's, against that element (round-off);
// - a flywheel with the torque–speed curve u = u0 (1 − ω/ω0): ω = ω0 (1 − exp(−u0 t/(J ω0))), and
//   the motor's power integrated over time equal to the change of the energy;
// - bad inputs refused at file:line:col.

#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "RunTrace.h"

#include <mbdae/io/Expression.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Trace = test::RunTrace;
Trace run(const std::string& text, const std::vector<Override>& sets = {}) {
  return test::run_text(text, "motor.yaml", sets);
}

// A rotor turning about the vertical z axis (gravity along it exerts no torque): a disc of radius
// 0.2 m, mass 5 kg, J = m r²/2 = 0.1 kg m² about its axis.
constexpr double kJ = 0.1;
std::string rotor(const std::string& value, const std::string& w0, const std::string& solver) {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: rotor, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0], angular_velocity: [0, 0, " + w0 + "]}\n"
         "joints:\n"
         "  - {name: shaft, type: revolute, bodies: [ground, rotor], point: [0, 0, 0], axis: [0, 0, 1]}\n"
         "forces:\n"
         "  - {name: motor, type: joint_motor, joint: shaft, value: \"" + value + "\"}\n"
         "sensors:\n"
         "  - {name: angle, joint: shaft, output: joint_angle}\n"
         "  - {name: motor, force: motor, output: joint_motor}\n"
         "  - {name: energy, output: energy}\n"
         "solver: " + solver + "\n"
         "output: {every: 1.0e-3}\n";
}

}  // namespace

TEST_CASE("joint_motor: a PD-controlled rotor follows the damped oscillator's closed form", "[forces][joint_motor]") {
  // J θ'' = −kp (θ − θr) − kd θ', θ(0) = θ'(0) = 0: θ = θr − θr e^{−ζω0 t} (cos ωd t + ζω0/ωd sin ωd t).
  const double kp = 50, kd = 2, thr = 0.5;
  const double w0 = std::sqrt(kp / kJ), zeta = kd / (2 * std::sqrt(kp * kJ)), wd = w0 * std::sqrt(1 - zeta * zeta);
  auto exact = [&](double t) {
    return thr - thr * std::exp(-zeta * w0 * t) * (std::cos(wd * t) + zeta * w0 / wd * std::sin(wd * t));
  };
  auto exact_rate = [&](double t) { return thr * w0 * w0 / wd * std::exp(-zeta * w0 * t) * std::sin(wd * t); };
  // Each solver's error at its step: second order (generalized-α, trapezoidal: (h ω0)² ~ 5e-6 of
  // the amplitude), fourth order (rk4), the adaptive ones at their tolerance, first order (impulse).
  struct Case {
    const char* solver;
    const char* settings;
    double tol;
  };
  const std::vector<Case> cases = {
      {"generalized_alpha", "{type: generalized_alpha, end_time: 1.0, step: 1.0e-4}", 1e-6},
      {"trapezoidal_index2", "{type: trapezoidal_index2, end_time: 1.0, step: 1.0e-4}", 1e-6},
      {"ida", "{type: ida, end_time: 1.0, tolerance: {relative: 1.0e-8, absolute: 1.0e-10}}", 1e-5},
      {"rk4", "{type: rk4, end_time: 1.0, step: 1.0e-4}", 1e-10},
      {"dopri5", "{type: dopri5, end_time: 1.0, tolerance: {relative: 1.0e-10, absolute: 1.0e-12}}", 1e-7},
      {"impulse", "{type: impulse, end_time: 1.0, step: 1.0e-4}", 1e-3},
  };
  for (const Case& c : cases) {
    if (!find_solver(c.solver)) continue;  // ida in a build without SUNDIALS
    INFO(c.solver);
    const Trace tr = run(rotor("-50*(angle(shaft) - 0.5) - 2*rate(shaft)", "0", c.settings));
    REQUIRE(tr.t.size() > 900);
    double err = 0, err_rate = 0, err_effort = 0;
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const auto& r = tr.rows[i];  // angle, angle.rate, motor.effort, motor.power, energy
      err = std::max(err, std::abs(r[0] - exact(tr.t[i])));
      err_rate = std::max(err_rate, std::abs(r[1] - exact_rate(tr.t[i])) / (thr * w0));
      // The sensor's effort is the law at the row's state.
      err_effort = std::max(err_effort, std::abs(r[2] - (-kp * (r[0] - thr) - kd * r[1])));
      CHECK(r[3] == Approx(r[2] * r[1]).margin(1e-12));
    }
    CHECK(err < c.tol);
    CHECK(err_rate < 10 * c.tol);
    CHECK(err_effort < 1e-12);
  }
}

TEST_CASE("joint_motor: angle() counts turns (a rotor spinning several turns under u = -k angle)", "[forces][joint_motor]") {
  // J θ'' = −k θ, θ(0) = 0, θ'(0) = ω0: θ = (ω0/Ω) sin Ω t with Ω = √(k/J) = 2 rad/s; amplitude
  // 15 rad (2.4 turns each way).
  const double k = 0.4, om0 = 30, Om = std::sqrt(k / kJ);
  for (const char* settings : {"{type: generalized_alpha, end_time: 3.0, step: 1.0e-4}",
                               "{type: rk4, end_time: 3.0, step: 1.0e-3}"}) {
    INFO(settings);
    const Trace tr = run(rotor("-0.4*angle(shaft)", "30", settings));
    double err = 0, peak = 0;
    for (size_t i = 0; i < tr.t.size(); ++i) {
      err = std::max(err, std::abs(tr.rows[i][0] - om0 / Om * std::sin(Om * tr.t[i])));
      peak = std::max(peak, std::abs(tr.rows[i][0]));
    }
    CHECK(peak > 14.9);  // more than two turns away from the start
    CHECK(err < 1e-5 * om0 / Om);
  }
}

TEST_CASE("joint_motor: a slider driven by u = -k displacement - c speed follows the closed form", "[forces][joint_motor]") {
  // m s'' = −k s − c s', s(0) = 0, s'(0) = v0: s = v0/ωd e^{−ζω0 t} sin ωd t. The guide's axis is
  // skewed in the horizontal plane (gravity is normal to it); the slider starts at v0 along it.
  const double m = 2, k = 200, c = 4, v0 = 1;
  const double w0 = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m)), wd = w0 * std::sqrt(1 - zeta * zeta);
  const std::string text =
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - {name: slider, mass: 2.0, shape: {box: [0.1, 0.05, 0.05]}, position: [0, 0, 0], velocity: [0.6, 0.8, 0]}\n"
      "joints:\n"
      "  - {name: guide, type: prismatic, bodies: [ground, slider], point: [0, 0, 0], axis: [3, 4, 0]}\n"
      "forces:\n"
      "  - {name: motor, type: joint_motor, joint: guide, value: \"-200*displacement(guide) - 4*speed(guide)\"}\n"
      "sensors:\n"
      "  - {name: s, joint: guide, output: joint_displacement}\n"
      "  - {name: motor, force: motor, output: joint_motor}\n"
      "solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-4}\n"
      "output: {every: 1.0e-3}\n";
  for (const char* solver : {"generalized_alpha", "rk4"}) {
    INFO(solver);
    const Trace tr = run(text, {{"solver.type", solver}});
    double err = 0;
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      err = std::max(err, std::abs(tr.rows[i][0] - v0 / wd * std::exp(-zeta * w0 * t) * std::sin(wd * t)));
      // A force along the axis: its power is the effort times the speed.
      CHECK(tr.rows[i][3] == Approx(tr.rows[i][2] * tr.rows[i][1]).margin(1e-12));
    }
    CHECK(err < 1e-6 * v0 / wd);
  }
  // The effort of a force is in N, its power in W.
  const LoadedModel lm = load_model_text(text, "motor.yaml");
  ModelRun r(lm);
  CHECK(r.sensors().units()[2] == "N");
  CHECK(r.sensors().units()[3] == "W");
}

TEST_CASE("joint_motor: a law written as an expression equals the torsional spring-damper", "[forces][joint_motor]") {
  // A pendulum (hinge along y, gravity along -z) held by u = −k φ − c φ' as a joint_motor and as a
  // torsional_spring_damper: the same law of the same markers, so the same motion to round-off.
  auto model = [](const std::string& force) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: arm, mass: 1.5, shape: {box: [0.6, 0.04, 0.04]}, position: [0.3, 0, 0], velocity: [0, 0, 0.5]}\n"
           "joints:\n"
           "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 1, 0]}\n"
           "forces:\n"
           "  - " + force + "\n"
           "sensors:\n"
           "  - {name: angle, joint: hinge, output: joint_angle}\n"
           "  - {name: tip, body: arm, point: [0.3, 0, 0], output: position}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string motor = model("{name: m, type: joint_motor, joint: hinge, value: \"-20*angle(hinge) - 0.5*rate(hinge)\"}");
  const std::string spring = model("{name: m, type: torsional_spring_damper, bodies: [ground, arm], point: [0, 0, 0], "
                                   "axis: [0, 1, 0], stiffness: 20, damping: 0.5}");
  for (const char* solver : {"{type: generalized_alpha, end_time: 2.0, step: 1.0e-3}",
                             "{type: rk4, end_time: 2.0, step: 1.0e-3}"}) {
    INFO(solver);
    const Trace a = run(motor + "solver: " + solver + "\n"), b = run(spring + "solver: " + solver + "\n");
    REQUIRE(a.t.size() == b.t.size());
    double diff = 0, swing = 0;
    for (size_t i = 0; i < a.t.size(); ++i) {
      for (size_t c = 0; c < a.rows[i].size(); ++c) diff = std::max(diff, std::abs(a.rows[i][c] - b.rows[i][c]));
      swing = std::max(swing, std::abs(a.rows[i][0]));
    }
    CHECK(swing > 0.3);  // it moves
    CHECK(diff < 1e-12);
  }
}

TEST_CASE("joint_motor: a torque-speed curve spins up a flywheel; its work equals the energy gained", "[forces][joint_motor]") {
  // J ω' = u0 (1 − ω/ω0): ω = ω0 (1 − e^{−t/τ}), τ = J ω0/u0 = 5 s; E(t) − E(0) = ∫ u ω dt.
  const double u0 = 2, om0 = 100, tau = kJ * om0 / u0;
  // The balance holds to the accuracy with which each solver's motion satisfies J ω' = u(ω):
  // generalized-α (second order; its error in ω is about 7e-6 rad/s at h = 1e-4 s) to 1e-5 of the
  // energy, rk4 and dopri5 to 1e-8.
  struct Case {
    const char* settings;
    double balance;
  };
  for (const Case& c : {Case{"{type: generalized_alpha, end_time: 2.0, step: 1.0e-4}", 1e-5},
                        Case{"{type: rk4, end_time: 2.0, step: 1.0e-3}", 1e-8},
                        Case{"{type: dopri5, end_time: 2.0, tolerance: {relative: 1.0e-10, absolute: 1.0e-12}}", 1e-8}}) {
    const char* settings = c.settings;
    INFO(settings);
    const Trace tr = run(rotor("2*(1 - rate(shaft)/100)", "0", settings));
    double err = 0, err_angle = 0;
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      err = std::max(err, std::abs(tr.rows[i][1] - om0 * (1 - std::exp(-t / tau))));
      // θ = ω0 (t − τ (1 − e^{−t/τ})): 35.16 rad (5.6 turns) at t = 2 s, counted by the sensor.
      err_angle = std::max(err_angle, std::abs(tr.rows[i][0] - om0 * (t - tau * (1 - std::exp(-t / tau)))));
    }
    CHECK(err < 1e-6 * om0);
    CHECK(err_angle < 1e-5 * om0);
    // Simpson's rule on the power at the output rows (an even number of 1 ms intervals): its error
    // h⁴ T max|P''''|/180 is below 1e-12 J here (P varies on the time scale τ = 5 s).
    const size_t n = tr.t.size() - 1;
    REQUIRE(n % 2 == 0);
    const double h = tr.t[1] - tr.t[0];
    double work = 0;
    for (size_t i = 0; i <= n; ++i) work += (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2)) * tr.rows[i][3];
    work *= h / 3;
    const double gained = tr.rows[n][4] - tr.rows[0][4];
    CHECK(gained == Approx(0.5 * kJ * std::pow(om0 * (1 - std::exp(-2.0 / tau)), 2)).epsilon(1e-4));  // 54.3 J
    CHECK(std::abs(work - gained) < c.balance * gained);
  }
}

TEST_CASE("expressions of joint quantities: parsing, values and error positions", "[io][expression]") {
  const Expression e("2*angle(hinge) + rate( hinge )*t - angle(hinge)", {"angle", "rate"});
  REQUIRE(e.quantities().size() == 2);
  CHECK(e.quantities()[0].function == "angle");
  CHECK(e.quantities()[0].argument == "hinge");
  CHECK(e.quantities()[0].position == 2);
  CHECK(e.quantities()[0].argument_position == 8);
  CHECK(e.quantities()[1].function == "rate");
  CHECK(e.quantities()[1].argument_position == 23);
  const std::vector<double> q = {0.5, 3.0};
  CHECK(e(2.0, q) == Approx(2 * 0.5 + 3.0 * 2.0 - 0.5));
  const Expression copy = e;
  CHECK(copy(2.0, q) == e(2.0, q));
  // A syntax error after a quantity is placed in the text as written.
  try {
    Expression bad("angle(hinge) + * 2", {"angle"});
    FAIL("no error");
  } catch (const ExpressionError& err) {
    CHECK(err.position() == 15);
  }
  CHECK_THROWS_AS(Expression("angle + 1", {"angle"}), ExpressionError);
  // f(): a quantity with an empty argument, for the reader to interpret (a joint_motor's own joint).
  CHECK(Expression("angle() + 1", {"angle"}).quantities().at(0).argument.empty());
  // Without the functions, angle(...) is not an expression of t.
  CHECK_THROWS_AS(Expression("angle(hinge)"), ExpressionError);
}

TEST_CASE("joint_motor: bad inputs are refused at file:line:col with the key", "[forces][joint_motor][io]") {
  auto problems = [](const std::string& forces) {
    const std::string text =
        "bodies:\n"
        "  - {name: a, mass: 1, inertia: [1, 1, 1, 0, 0, 0]}\n"
        "  - {name: b, mass: 1, inertia: [1, 1, 1, 0, 0, 0]}\n"
        "joints:\n"
        "  - {name: hinge, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
        "  - {name: slider, type: prismatic, bodies: [ground, b], point: [0, 0, 0], axis: [1, 0, 0]}\n"
        "  - {name: ball, type: spherical, bodies: [a, b], point: [0, 0, 0]}\n"
        "forces:\n" + forces +
        "solver: {end_time: 1}\n";
    try {
      load_model_text(text, "bad.yaml");
    } catch (const LoadError& e) {
      return e.diagnostics();
    }
    return std::vector<Diagnostic>{};
  };
  {  // an unknown joint in the value: at the name
    const auto d = problems("  - {name: m, type: joint_motor, joint: hinge, value: \"-5*angle(hinj)\"}\n");
    REQUIRE(d.size() == 1);
    CHECK(d[0].line == 9);
    CHECK(d[0].column == 65);  // 1-based: the quote at 55, then -5*angle(
    CHECK(d[0].key_path == "forces[0].value");
    CHECK(d[0].message.find("unknown joint 'hinj'") != std::string::npos);
  }
  {  // angle() of a prismatic joint: at angle
    const auto d = problems("  - {name: m, type: joint_motor, joint: slider, value: \"-5*angle(slider)\"}\n");
    REQUIRE(d.size() == 1);
    CHECK(d[0].line == 9);
    CHECK(d[0].column == 60);  // the quote at 56, then -5*
    CHECK(d[0].key_path == "forces[0].value");
    CHECK(d[0].message.find("angle() applies to revolute and cylindrical joints; 'slider' is prismatic") !=
          std::string::npos);
  }
  {  // another joint's quantity: the motor becomes a law over more bodies, whose joint_motor
     // output (effort, power of its own joint) is refused by name
    CHECK(problems("  - {name: m, type: joint_motor, joint: hinge, value: \"-5*displacement(slider)\"}\n").empty());
    const auto d = problems("  - {name: m, type: joint_motor, joint: hinge, value: \"-5*displacement(slider)\"}\n"
                            "sensors:\n  - {name: s, force: m, output: joint_motor}\n");
    REQUIRE(d.size() == 1);
    CHECK(d[0].line == 11);
    INFO(d[0].message);
    CHECK(d[0].message.find("joint_motor") != std::string::npos);
    CHECK(d[0].message.find("user") != std::string::npos);
  }
  {  // an unknown joint, a joint of another type, a force on a revolute joint, bodies given
    auto one = [&](const std::string& item, const std::string& key, const std::string& what) {
      const auto d = problems("  - " + item + "\n");
      INFO(item);
      REQUIRE(d.size() == 1);
      CHECK(d[0].line == 9);
      CHECK(d[0].key_path == "forces[0]." + key);
      CHECK(d[0].message.find(what) != std::string::npos);
    };
    one("{name: m, type: joint_motor, joint: hing, value: 1}", "joint", "unknown joint 'hing'");
    one("{name: m, type: joint_motor, joint: ball, value: 1}", "joint", "acts on a revolute, prismatic or cylindrical joint");
    one("{name: m, type: joint_motor, joint: hinge, effort: force, value: 1}", "effort", "torque, not a force");
    one("{name: m, type: joint_motor, joint: hinge, bodies: [ground, a], value: 1}", "bodies", "bodies of its joint");
    one("{name: m, type: joint_motor, joint: hinge, value: \"angle(hinge\"}", "value", "angle() takes the name");
  }
  // Where only numbers are allowed, a quantity of the state is refused and told where it may be.
  const auto d = problems("  - {name: f, type: torsional_spring_damper, bodies: [ground, a], point: [0, 0, 0], "
                          "axis: [0, 0, 1], stiffness: \"angle(hinge)\"}\n");
  REQUIRE(d.size() == 1);
  CHECK(d[0].key_path == "forces[0].stiffness");
  CHECK(d[0].message.find("angle() and the other named quantities may be used only in the value of a load or a "
                          "joint_motor") != std::string::npos);
}

TEST_CASE("joint_motor: a run continues from a saved state; a motor reading angle() is refused", "[forces][joint_motor][restart]") {
  // The torque-speed motor (no angle()) split at t = 1 s: generalized-α carries its whole history,
  // so the continued run equals the unsplit one bit for bit.
  const std::string flywheel = rotor("2*(1 - rate(shaft)/100)", "0", "{type: generalized_alpha, end_time: 2.0, step: 1.0e-3}");
  const Trace full = run(flywheel);
  RunState saved;
  {
    const LoadedModel first = load_model_text(flywheel, "motor.yaml", {{"solver.end_time", "1.0"}});
    ModelRun r(first);
    REQUIRE(r.run([](const StateView&, std::span<const double>) { return true; }).ok());
    saved = r.save_state();
  }
  const LoadedModel lm = load_model_text(flywheel, "motor.yaml");
  ModelRun cont(lm, &saved);
  std::vector<std::vector<double>> rows;
  REQUIRE(cont.run([&](const StateView&, std::span<const double> row) {
                rows.emplace_back(row.begin(), row.end());
                return true;
              }).ok());
  const size_t half = full.t.size() / 2;  // the row of t = 1 s
  REQUIRE(rows.size() == half + 1);
  int differing = 0;
  for (size_t k = 0; k < rows.size(); ++k)
    if (rows[k] != full.rows[half + k]) ++differing;
  CHECK(differing == 0);
  // With angle() the motor's turn count would be lost: refused, naming the motor.
  const LoadedModel pd = load_model_text(rotor("-5*angle(shaft)", "0", "{type: generalized_alpha, end_time: 2.0, step: 1.0e-3}"),
                                         "motor.yaml");
  CHECK_THROWS_WITH(ModelRun(pd, &saved), Catch::Contains("joint_motor 'motor' uses angle(shaft)"));
}
