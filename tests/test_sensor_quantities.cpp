// Sensors read in expressions, sensor(name) and sensor(name).x (io/Sensors.h, sensor_quantity):
// - each accepted output's value by hand for a given motion (body point position and velocity,
//   rotation matrix, body-axis velocity, joint angle and rate, a spring-damper's force);
// - a load on a spherical pendulum written with sensor(tip).x (tip a body point sensor) gives the
//   same run, to round-off, as the same law written as a C++ user force element, on
//   generalized-alpha, IDA and rk4;
// - on a planar pendulum, the same load written with the body quantities by hand (x(b) plus the
//   offset rotated by the hinge angle) gives the same run to the solvers' tolerance;
// - what is not a function of the bodies' motions, cycles, unknown sensors and components
//   refused at file:line:col (the bad-model files cover the same through the command line).

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "RunTrace.h"

#include <mbdae/io/Run.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Trace = test::RunTrace;

// The largest difference of two runs' rows, and the largest magnitude of the first.
std::pair<double, double> difference(const Trace& a, const Trace& b) {
  REQUIRE(a.t.size() == b.t.size());
  double d = 0, amp = 0;
  for (size_t i = 0; i < a.t.size(); ++i) {
    REQUIRE(a.rows[i].size() == b.rows[i].size());
    for (size_t k = 0; k < a.rows[i].size(); ++k) {
      d = std::max(d, std::abs(a.rows[i][k] - b.rows[i][k]));
      amp = std::max(amp, std::abs(a.rows[i][k]));
    }
  }
  return {d, amp};
}

// The value of `text` (one sensor quantity) for `spec` of `s` at the motions `m` (of the
// quantity's bodies, in the order of Quantity::bodies).
double value(const System& s, const SensorSpec& spec, const std::string& text, const std::vector<BodyMotion>& m) {
  const Expression e(text, {"sensor"});
  REQUIRE(e.quantities().size() == 1);
  QuantityProblem p;
  std::optional<Quantity> q = sensor_quantity(s, spec, e.quantities()[0], p);
  INFO(p.message);
  REQUIRE(q);
  std::vector<int> index(q->bodies.size());
  for (size_t k = 0; k < index.size(); ++k) index[k] = static_cast<int>(k);
  REQUIRE(m.size() == q->bodies.size());
  return q->value(QuantityInput{0.0, m, index});
}

Mat3 rot_z(double a) {
  Mat3 R;
  R << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return R;
}

}  // namespace

TEST_CASE("sensor quantities: each accepted output's value by hand", "[expressions][sensors]") {
  System s;
  RigidBody a;
  a.name = "a";
  a.mass = 2;
  a.inertia << 1, 1, 1, 0, 0, 0;
  a.position = Vec3(1, 0, 0);
  s.add_body(a);
  Joint hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.bodies = {"ground", "a"};
  hinge.point = Vec3(0, 0, 0);
  hinge.axis = Vec3(0, 0, 1);
  s.add_joint(hinge);
  s.add_spring_damper("spring", "ground", "a", Vec3(0, 0, 0), Vec3(1, 0, 0), 100.0, 3.0, 0.5);

  // The body turned by 0.7 rad about z, moved to p, with velocity v and angular velocity w.
  BodyMotion m;
  m.R = rot_z(0.7);
  m.p = Vec3(0.2, 0.4, -0.1);
  m.v = Vec3(1.0, -2.0, 0.5);
  m.w = Vec3(0.3, -0.1, 2.0);
  const Vec3 x(0.3, -0.2, 0.1);  // the body point, body axes
  const Vec3 p_hand = m.p + rot_z(0.7) * x;
  const Vec3 v_hand = m.v + m.w.cross(rot_z(0.7) * x);

  SensorSpec tip;
  tip.name = "tip";
  tip.output = SensorOutput::Position;
  tip.body = "a";
  tip.point = x;
  CHECK(value(s, tip, "sensor(tip).x", {m}) == Approx(p_hand.x()).epsilon(1e-14));
  CHECK(value(s, tip, "sensor(tip).y", {m}) == Approx(p_hand.y()).epsilon(1e-14));
  CHECK(value(s, tip, "sensor(tip).z", {m}) == Approx(p_hand.z()).epsilon(1e-14));
  tip.output = SensorOutput::Velocity;
  CHECK(value(s, tip, "sensor(tip).x", {m}) == Approx(v_hand.x()).epsilon(1e-14));
  CHECK(value(s, tip, "sensor(tip).z", {m}) == Approx(v_hand.z()).epsilon(1e-14));
  tip.output = SensorOutput::VelocityLocal;  // body axes: R^T v
  CHECK(value(s, tip, "sensor(tip).y", {m}) == Approx((rot_z(0.7).transpose() * v_hand).y()).epsilon(1e-14));
  tip.output = SensorOutput::RotationMatrix;
  CHECK(value(s, tip, "sensor(tip).r12", {m}) == Approx(-std::sin(0.7)).epsilon(1e-14));
  tip.output = SensorOutput::AngularVelocityLocal;
  CHECK(value(s, tip, "sensor(tip).x", {m}) == Approx(std::cos(0.7) * 0.3 + std::sin(0.7) * -0.1).epsilon(1e-14));

  // The hinge angle is the rotation about z from t0 (the body starts unrotated): 0.7 rad, its
  // rate w_z = 2 rad/s.
  SensorSpec angle;
  angle.name = "phi";
  angle.output = SensorOutput::JointAngle;
  angle.joint = "hinge";
  CHECK(value(s, angle, "sensor(phi)", {m}) == Approx(0.7).epsilon(1e-14));
  CHECK(value(s, angle, "sensor(phi).rate", {m}) == Approx(2.0).epsilon(1e-14));

  // The spring from the origin to the body's reference point: force k (L − L0) + d L̇.
  SensorSpec spring;
  spring.name = "sp";
  spring.output = SensorOutput::SpringDamper;
  spring.force = "spring";
  const double L = m.p.norm(), Ld = m.p.dot(m.v) / L;
  CHECK(value(s, spring, "sensor(sp).length", {m}) == Approx(L).epsilon(1e-14));
  CHECK(value(s, spring, "sensor(sp).force", {m}) == Approx(100 * (L - 0.5) + 3 * Ld).epsilon(1e-14));

  // What an expression may not read, and components an output does not have.
  auto refused = [&](const SensorSpec& spec, const std::string& text) {
    const Expression e(text, {"sensor"});
    QuantityProblem p;
    CHECK_FALSE(sensor_quantity(s, spec, e.quantities()[0], p));
    return p.message;
  };
  SensorSpec acc = tip;
  acc.output = SensorOutput::Acceleration;
  CHECK_THAT(refused(acc, "sensor(tip).x"), Catch::Contains("needs accelerations"));
  SensorSpec energy;
  energy.name = "e";
  energy.output = SensorOutput::Energy;
  CHECK_THAT(refused(energy, "sensor(e)"), Catch::Contains("whole system"));
  SensorSpec disp = tip;
  disp.output = SensorOutput::Displacement;
  CHECK_THAT(refused(disp, "sensor(tip).x"), Catch::Contains("assembled initial position"));
  tip.output = SensorOutput::Position;
  CHECK_THAT(refused(tip, "sensor(tip).w"), Catch::Contains("has no component .w (components: .x, .y, .z)"));
  CHECK_THAT(refused(tip, "sensor(tip)"), Catch::Contains("has several columns"));
}

TEST_CASE("sensor quantities: a load of sensor(tip).x equals the same law in C++", "[expressions][sensors]") {
  // A rod on a spherical joint at the origin, its tip (body point [0.6, 0, 0.1]) pulled towards
  // the world point (0.3, 0.4, -0.3) by a spring-damper acting at the tip, k = 40 N/m, c = 0.5
  // N s/m, with gravity: a 3-D motion. The load reads the tip's position and velocity sensors.
  auto model = [](const std::string& force) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: rod, mass: 1.5, inertia: [0.01, 0.05, 0.05, 0, 0, 0], position: [0, 0, 0],\n"
           "     angular_velocity: [0.5, 0, 1.0]}\n"
           "joints:\n"
           "  - {name: ball, type: spherical, bodies: [ground, rod], point: [0, 0, 0]}\n"
           "forces:\n" + force +
           "sensors:\n"
           "  - {name: tip, body: rod, point: [0.6, 0, 0.1], output: position}\n"
           "  - {name: tipv, body: rod, point: [0.6, 0, 0.1], output: velocity}\n"
           "solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string expr =
      "  - {name: pull, type: force, body: rod, point: [0.6, 0, 0.1], value: [\n"
      "     \"-40*(sensor(tip).x - 0.3) - 0.5*sensor(tipv).x\",\n"
      "     \"-40*(sensor(tip).y - 0.4) - 0.5*sensor(tipv).y\",\n"
      "     \"-40*(sensor(tip).z + 0.3) - 0.5*sensor(tipv).z\"]}\n";
  const std::string none = "  - {name: nothing, type: torque, body: rod, value: [0, 0, 0]}\n";
  std::vector<const char*> solvers = {"generalized_alpha", "rk4"};
  if (find_solver("ida")) solvers.push_back("ida");
  for (const char* solver : solvers) {
    DYNAMIC_SECTION(solver) {
      std::vector<Override> sets = {{"solver.type", solver}};
      const bool adaptive = std::string(solver) == "ida";
      if (adaptive) {
        sets.push_back({"solver.tolerance.relative", "1e-10"});
        sets.push_back({"solver.tolerance.absolute", "1e-12"});
      }
      const Trace a = test::run_loaded(load_model_text(model(expr), "sensorq.yaml", sets));
      // The same law in C++: the tip's position p + R x and velocity v + w x (R x), the force
      // at the tip and its moment about the reference point.
      LoadedModel lm = load_model_text(model(none), "sensorq.yaml", sets);
      ForceElement f;
      f.name = "cpp";
      f.type = ForceType::User;
      f.bodies = {"rod"};
      f.user = [](double, const std::vector<BodyMotion>& m, std::vector<Wrench>& out) {
        const Vec3 x(0.6, 0, 0.1);
        const Vec3 r = m[0].R * x;
        const Vec3 p = m[0].p + r, v = m[0].v + m[0].w.cross(r);
        const Vec3 F = -40 * (p - Vec3(0.3, 0.4, -0.3)) - 0.5 * v;
        out[0].force = F;
        out[0].torque = r.cross(F);
      };
      lm.system.add_force(f);
      const Trace c = test::run_loaded(lm);
      const auto [d, amp] = difference(a, c);
      // The tip moves: it starts at (0.6, 0, 0.1) and ends elsewhere.
      const double moved = std::hypot(a.rows.back()[0] - 0.6, a.rows.back()[1], a.rows.back()[2] - 0.1);
      INFO(solver << ": sensor(tip) load vs C++ force: largest difference " << d << " (largest value " << amp
                  << "), tip moved " << moved << " m");
      CHECK(moved > 0.1);
      // The fixed-step solvers: round-off (the expression's arithmetic is muParser's, not Eigen's).
      // IDA: its step sequence follows its error estimate, which round-off may change: the two
      // runs agree to its tolerance.
      CHECK(d < (adaptive ? 1e-7 : 1e-10) * amp);
    }
  }
}

TEST_CASE("sensor quantities: a load of sensor(tip).x equals the body quantities written by hand",
          "[expressions][sensors]") {
  // A pendulum on a hinge about z (no gravity along the plane: gravity along -y), its tip at
  // body point [0.5, 0, 0]: tip = x(arm) + 0.5 cos(angle(hinge)), y(arm) + 0.5 sin(angle(hinge))
  // (the arm starts unrotated, so the hinge angle is its rotation). A spring of k = 20 N/m pulls
  // the tip towards (0.8, 0.3).
  auto model = [](const std::string& value) {
    return "gravity: [0, -9.81, 0]\n"
           "bodies:\n"
           "  - {name: arm, mass: 1.0, inertia: [0.01, 0.01, 0.02, 0, 0, 0], position: [0.2, 0, 0],\n"
           "     angular_velocity: [0, 0, 1.5], velocity: [0, 0.3, 0]}\n"
           "joints:\n"
           "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "forces:\n"
           "  - {name: pull, type: force, body: arm, point: [0.5, 0, 0], value: " + value + "}\n"
           "sensors:\n"
           "  - {name: tip, body: arm, point: [0.5, 0, 0], output: position}\n"
           "  - {name: phi, joint: hinge, output: joint_angle}\n"
           "solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string by_sensor = "[\"-20*(sensor(tip).x - 0.8)\", \"-20*(sensor(tip).y - 0.3)\", 0]";
  const std::string by_hand = "[\"-20*(x(arm) + 0.5*cos(angle(hinge)) - 0.8)\", \"-20*(y(arm) + 0.5*sin(angle(hinge)) - 0.3)\", 0]";
  std::vector<const char*> solvers = {"generalized_alpha", "rk4"};
  if (find_solver("ida")) solvers.push_back("ida");
  for (const char* solver : solvers) {
    DYNAMIC_SECTION(solver) {
      std::vector<Override> sets = {{"solver.type", solver}};
      if (std::string(solver) == "ida") {
        sets.push_back({"solver.tolerance.relative", "1e-10"});
        sets.push_back({"solver.tolerance.absolute", "1e-12"});
      }
      const Trace a = test::run_loaded(load_model_text(model(by_sensor), "sensorq.yaml", sets));
      const Trace b = test::run_loaded(load_model_text(model(by_hand), "sensorq.yaml", sets));
      const auto [d, amp] = difference(a, b);
      double swing = 0;
      for (const auto& row : a.rows) swing = std::max(swing, std::abs(row[3]));
      INFO(solver << ": sensor(tip) vs x(arm) + rotated offset: largest difference " << d << ", largest value " << amp
                  << ", largest angle " << swing << " rad");
      CHECK(swing > 0.3);
      // Round-off of two ways of writing one function (the implicit solvers iterate to their
      // Newton tolerance, IDA to its error test, which the two spellings can pass in different
      // iterations).
      CHECK(d < (std::string(solver) == "rk4" ? 1e-12 : 1e-8));
    }
  }
}

TEST_CASE("sensor quantities: refused at file:line:col", "[expressions][sensors]") {
  auto problem = [](const std::string& value, const std::string& sensors) {
    const std::string model =
        "bodies:\n"
        "  - {name: arm, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [1, 0, 0]}\n"
        "joints:\n"
        "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 0, 1]}\n"
        "forces:\n"
        "  - name: f\n"
        "    type: torque\n"
        "    body: arm\n"
        "    value: [0, 0, \"" + value + "\"]\n"
        "  - {name: s, type: spring_damper, bodies: [ground, arm], points: [[0, 1, 0], [1, 0, 0]], stiffness: 10}\n"
        "sensors:\n" + sensors +
        "solver: {type: rk4, end_time: 1.0, step: 1.0e-3}\n";
    try {
      load_model_text(model, "bad.yaml");
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  const std::string tip = "  - {name: tip, body: arm, output: position}\n";
  CHECK_THAT(problem("sensor(tip).x", tip), Catch::Equals("loaded"));
  // The column of the value's text starts at 20 (line 9: `    value: [0, 0, "`).
  CHECK_THAT(problem("2*sensor(nope).x", tip),
             Catch::Contains("bad.yaml:9:29") && Catch::Contains("unknown sensor 'nope' (the sensors section declares tip)"));
  CHECK_THAT(problem("sensor(tip).w", tip),
             Catch::Contains("bad.yaml:9:31") && Catch::Contains("has no component .w (components: .x, .y, .z)"));
  CHECK_THAT(problem("angle(hinge).x", tip),
             Catch::Contains("bad.yaml:9:32") && Catch::Contains("angle(hinge) is one number: it has no component .x"));
  CHECK_THAT(problem("sensor(a).x", "  - {name: a, body: arm, output: acceleration}\n"),
             Catch::Contains("bad.yaml:9:27") && Catch::Contains("needs accelerations"));
  CHECK_THAT(problem("sensor(e)", "  - {name: e, output: kinetic_energy}\n"),
             Catch::Contains("bad.yaml:9:27") && Catch::Contains("whole system"));
  CHECK_THAT(problem("sensor(r).x", "  - {name: r, joint: hinge, output: reaction_force}\n"),
             Catch::Contains("bad.yaml:9:27") && Catch::Contains("reactions"));
  // A sensor of a force element defined after the load (which could read the load: a cycle).
  CHECK_THAT(problem("sensor(sp).force", "  - {name: sp, force: s, output: spring_damper}\n"),
             Catch::Contains("bad.yaml:9:27") && Catch::Contains("defined after this one"));
}

TEST_CASE("sensor quantities: a sensor of the element being defined is a cycle", "[expressions][sensors]") {
  const std::string model =
      "bodies:\n"
      "  - {name: arm, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [1, 0, 0]}\n"
      "joints:\n"
      "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "forces:\n"
      "  - {name: m, type: joint_motor, joint: hinge, value: \"-sensor(mo).effort\"}\n"
      "sensors:\n"
      "  - {name: mo, force: m, output: joint_motor}\n"
      "solver: {type: rk4, end_time: 1.0, step: 1.0e-3}\n";
  try {
    load_model_text(model, "cycle.yaml");
    FAIL("loaded");
  } catch (const LoadError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("cycle.yaml:6:64") && Catch::Contains("(a cycle)"));
  }
}

TEST_CASE("sensor quantities: a spring's force read by a later load acts as its value by hand",
          "[expressions][sensors]") {
  // A slider on a prismatic joint along x between a spring_damper (k = 30 N/m, L0 = 0.5 m, from
  // ground at the origin) and a load of −sensor(sp).force along x: the load doubles the spring,
  // so the slider oscillates as with k = 60 N/m about x = 0.5: x = 0.5 + 0.2 cos(√(60/m) t).
  const std::string model =
      "gravity: [0, 0, 0]\n"
      "bodies:\n"
      "  - {name: s, mass: 1.5, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0.7, 0, 0]}\n"
      "joints:\n"
      "  - {name: slide, type: prismatic, bodies: [ground, s], point: [0, 0, 0], axis: [1, 0, 0]}\n"
      "forces:\n"
      "  - {name: spring, type: spring_damper, bodies: [ground, s], points: [[0, 0, 0], [0.7, 0, 0]], stiffness: 30,\n"
      "     length: 0.5}\n"
      "  - {name: twice, type: force, body: s, value: [\"-sensor(sp).force\", 0, 0]}\n"
      "sensors:\n"
      "  - {name: sp, force: spring, output: spring_damper}\n"
      "  - {name: p, body: s, output: position}\n"
      "solver: {type: rk4, end_time: 2.0, step: 1.0e-4}\n"
      "output: {every: 1.0e-2}\n";
  const Trace tr = test::run_loaded(load_model_text(model, "spring.yaml"));
  const double w = std::sqrt(60 / 1.5);
  double worst = 0;
  for (size_t i = 0; i < tr.t.size(); ++i) worst = std::max(worst, std::abs(tr.rows[i][3] - (0.5 + 0.2 * std::cos(w * tr.t[i]))));
  INFO("worst |x - x_exact| = " << worst << " m");
  CHECK(worst < 1e-9);
}

TEST_CASE("sensor quantities: the tip-height controller against an independent integration", "[expressions][sensors]") {
  // examples/models/tip_height_controller.yaml: with gravity cancelled by the law's (m g/2) x_tip,
  // J th'' = kp (h - l sin th) - kd th' and the controller state e' = h - l sin th, integrated
  // here by RK4 at a step of 1e-5 s (its error far below the bounds).
  const double J = (0.64 + 0.0025) / 12 + 0.16, kp = 20, kd = 1, h = 0.4, l = 0.8;
  struct Y {
    double th, w, e;
  };
  auto f = [&](const Y& y) { return Y{y.w, (kp * (h - l * std::sin(y.th)) - kd * y.w) / J, h - l * std::sin(y.th)}; };
  auto axpy = [](const Y& y, double a, const Y& k) { return Y{y.th + a * k.th, y.w + a * k.w, y.e + a * k.e}; };
  std::vector<Y> reference;  // at t = 0, 0.01, ..., 3
  {
    Y y{0, 0, 0};
    const double dt = 1e-5;
    reference.push_back(y);
    for (int i = 1; i <= 300000; ++i) {
      const Y k1 = f(y), k2 = f(axpy(y, dt / 2, k1)), k3 = f(axpy(y, dt / 2, k2)), k4 = f(axpy(y, dt, k3));
      y = Y{y.th + dt / 6 * (k1.th + 2 * k2.th + 2 * k3.th + k4.th), y.w + dt / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w),
            y.e + dt / 6 * (k1.e + 2 * k2.e + 2 * k3.e + k4.e)};
      if (i % 1000 == 0) reference.push_back(y);
    }
  }
  REQUIRE(reference.back().th == Approx(std::asin(h / l)).margin(2e-3));
  struct Case {
    const char* solver;
    double tol;  // rad, m and m s
  };
  // The fixed-step implicit ones second order at h = 1e-3 s, rk4 fourth order, the adaptive ones
  // at their default tolerances (rtol 1e-6).
  std::vector<Case> cases = {{"generalized_alpha", 2e-5}, {"trapezoidal_index2", 2e-5}, {"rk4", 1e-9}, {"dopri5", 1e-6}};
  if (find_solver("ida")) cases.push_back({"ida", 1e-5});
  const std::string file = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/tip_height_controller.yaml";
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.solver) {
      const Trace tr = test::run_loaded(load_model_file(file, {{"solver.type", c.solver}}));
      REQUIRE(tr.t.size() == reference.size());
      double worst = 0;
      for (size_t i = 0; i < tr.t.size(); ++i) {
        const std::vector<double>& r = tr.rows[i];  // tip.x, tip.y, tip.z, angle, angle.rate, err_int
        const Y& y = reference[i];
        worst = std::max({worst, std::abs(r[3] - y.th), std::abs(r[2] - l * std::sin(y.th)),
                          std::abs(r[0] - l * std::cos(y.th)), std::abs(r[5] - y.e)});
      }
      INFO(c.solver << ": largest difference to the independent integration " << worst);
      CHECK(worst < c.tol);
    }
  }
}
