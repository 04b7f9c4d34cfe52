// Expressions of named quantities of the state (io/Quantities.h) in loads, checked against
// closed forms and against the same law written another way:
// - each built-in quantity against its value computed by hand for a given pair of motions;
// - a load proportional to z(body) on a slider: the harmonic oscillator's closed form, on every
//   solver that takes force elements;
// - a load written as an expression of angle() and rate() equal, to round-off, to the same law as
//   a C++ user force element and as a joint_motor;
// - a cubic spring −k s³ as a load: its energy ½ m ṡ² + k s⁴/4 conserved (closed form of the
//   conservative oscillator);
// - unknown names, joints, bodies and quantities a joint does not have refused at file:line:col.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "RunTrace.h"

#include <mbdae/io/Quantities.h>
#include <mbdae/io/Run.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Trace = test::RunTrace;
Trace run(const std::string& text, const std::vector<Override>& sets = {}) {
  return test::run_text(text, "state.yaml", sets);
}

Mat3 rot_z(double a) {
  Mat3 R;
  R << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return R;
}

}  // namespace

TEST_CASE("quantities: each built-in quantity against its value by hand", "[expressions][quantities]") {
  System s;
  RigidBody a;
  a.name = "a";
  a.mass = 1;
  a.inertia << 1, 1, 1, 0, 0, 0;
  a.position = Vec3(1, 0, 0);
  RigidBody b = a;
  b.name = "b";
  b.position = Vec3(1, 0, 2);
  s.add_body(a);
  s.add_body(b);
  Joint cyl;
  cyl.name = "cyl";
  cyl.type = JointType::Cylindrical;
  cyl.bodies = {"a", "b"};
  cyl.point = Vec3(1, 0, 1);
  cyl.axis = Vec3(0, 0, 1);
  s.add_joint(cyl);
  Joint hinge = cyl;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.bodies = {"ground", "a"};
  hinge.point = Vec3(0, 0, 0);
  s.add_joint(hinge);
  Joint ball = hinge;
  ball.name = "ball";
  ball.type = JointType::Spherical;
  s.add_joint(ball);
  const QuantityResolver r(s);

  // a turned by 0.3 about the world z axis through the origin (the hinge), b turned by a further
  // 1.1 about z and slid by 0.25 along it (the cylindrical joint through a's point (1, 0, 1)).
  const double pa = 0.3, pb = 1.1, sl = 0.25, wa = 2.0, wrel = -0.7, vs = 0.4;
  BodyMotion ma, mb;
  ma.R = rot_z(pa);
  ma.p = ma.R * Vec3(1, 0, 0);
  ma.w = Vec3(0, 0, wa);
  ma.v = ma.w.cross(ma.p);
  mb.R = rot_z(pa + pb);
  const Vec3 axis_point = ma.p + ma.R * Vec3(0, 0, 1);  // the joint point moves with a
  mb.p = axis_point + Vec3(0, 0, sl) + mb.R * Vec3(0, 0, 1);  // b's reference point is 1 above the joint point
  mb.w = Vec3(0, 0, wa + wrel);
  mb.v = ma.v + Vec3(0, 0, vs) + mb.w.cross(mb.R * Vec3(0, 0, 1));
  const std::vector<BodyMotion> both = {ma, mb};

  auto value = [&](const std::string& text) {
    const StateExpression x(text, r);
    std::vector<BodyMotion> m;
    for (const std::string& name : x.bodies()) m.push_back(name == "a" ? ma : mb);
    return x(0.5, m);
  };
  CHECK(value("angle(hinge)") == Approx(pa).margin(1e-14));
  CHECK(value("rate(hinge)") == Approx(wa).margin(1e-14));
  CHECK(value("angle(cyl)") == Approx(pb).margin(1e-14));
  CHECK(value("rate(cyl)") == Approx(wrel).margin(1e-14));
  CHECK(value("displacement(cyl)") == Approx(sl).margin(1e-14));
  CHECK(value("speed(cyl)") == Approx(vs).margin(1e-13));
  CHECK(value("x(b)") == Approx(mb.p.x()).margin(1e-15));
  CHECK(value("z(b)") == Approx(mb.p.z()).margin(1e-15));
  CHECK(value("vy(a)") == Approx(ma.v.y()).margin(1e-15));
  CHECK(value("wz(b)") == Approx(wa + wrel).margin(1e-15));
  CHECK(value("2*t + x(a) - angle(cyl)") == Approx(1 + std::cos(pa) - pb).margin(1e-14));

  // The angle counts turns: a quantity evaluated along a rotation of 3.5 turns ends at 7π.
  {
    QuantityProblem p;
    auto q = r.resolve("angle(hinge)", p);
    REQUIRE(q);
    const int idx = 0;
    double last = 0;
    for (int k = 1; k <= 70; ++k) {
      BodyMotion m;
      m.R = rot_z(k * 0.1 * std::numbers::pi);
      last = q->value(QuantityInput{0, std::span<const BodyMotion>(&m, 1), std::span<const int>(&idx, 1)});
    }
    CHECK(last == Approx(7 * std::numbers::pi).margin(1e-12));
  }

  // Refusals, by name and position.
  QuantityProblem p;
  CHECK_FALSE(r.resolve("angle(nowhere)", p));
  CHECK(p.message == "unknown joint 'nowhere'");
  CHECK(p.position == 6);
  CHECK_FALSE(r.resolve("displacement(hinge)", p));
  CHECK(p.message == "displacement() applies to prismatic and cylindrical joints; 'hinge' is revolute");
  CHECK_FALSE(r.resolve("rate(ball)", p));
  CHECK(p.message.find("joint 'ball' is spherical") != std::string::npos);
  CHECK_FALSE(r.resolve("z(nobody)", p));
  CHECK(p.message == "unknown body 'nobody'");
  CHECK_FALSE(r.resolve("z(ground)", p));

  // A registered function (e.g. a caller's own state).
  QuantityResolver r2(s);
  double held = 4.5;
  r2.add_function("state", [&held](const ExpressionQuantity& q, QuantityProblem& pr) -> std::optional<Quantity> {
    if (q.argument != "i_err") {
      pr = {q.argument_position, "unknown state '" + q.argument + "'"};
      return std::nullopt;
    }
    return Quantity{"state(i_err)", {}, [&held](const QuantityInput&) { return held; }};
  }, "a state, its own unit");
  const StateExpression sx("2*state(i_err) + wz(a)", r2);
  CHECK(sx.bodies() == std::vector<std::string>{"a"});
  CHECK(sx(0, std::span<const BodyMotion>(&ma, 1)) == Approx(2 * held + wa));
  CHECK_THROWS_AS(StateExpression("state(other)", r2), ExpressionError);
  (void)both;
}

TEST_CASE("quantities: a load proportional to z(body) gives the harmonic oscillator", "[expressions][quantities]") {
  // A 2 kg slider on a vertical prismatic joint, no gravity, F = −k z with k = 50 N/m, z(0) = 0.1:
  // z = 0.1 cos(ω t), ω = √(k/m) = 5 rad/s.
  const double m = 2, k = 50, z0 = 0.1, w = std::sqrt(k / m);
  const std::string model =
      "gravity: [0, 0, 0]\n"
      "bodies:\n"
      "  - {name: slider, mass: 2.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 0, 0.1]}\n"
      "joints:\n"
      "  - {name: slide, type: prismatic, bodies: [ground, slider], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "forces:\n"
      "  - {name: spring, type: force, body: slider, value: [0, 0, \"-50*z(slider)\"]}\n"
      "sensors:\n"
      "  - {name: p, body: slider, output: position}\n"
      "solver: {type: generalized_alpha, end_time: 2.0, step: 1.0e-3}\n"
      "output: {every: 1.0e-2}\n";
  (void)m;
  struct Case {
    const char* solver;
    double tol;
  };
  // Bounds on |z − z_exact| in m (amplitude 0.1 m, h = 1e-3, ω h = 5e-3): the implicit
  // fixed-step ones second order (phase error ~ ω³ h² t/12 ~ 2e-5 of the amplitude over 2 s), the
  // adaptive ones at their tolerances, rk4 fourth order, impulse (symplectic Euler) first order.
  std::vector<Case> cases = {{"generalized_alpha", 1e-5}, {"trapezoidal_index2", 1e-5}, {"rk4", 1e-10},
                             {"dopri5", 1e-8}, {"impulse", 1e-3}};
  if (find_solver("ida")) cases.push_back({"ida", 1e-6});
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.solver) {
      std::vector<Override> sets = {{"solver.type", c.solver}};
      if (std::string(c.solver) == "ida" || std::string(c.solver) == "dopri5") {
        sets.push_back({"solver.tolerance.relative", "1e-8"});
        sets.push_back({"solver.tolerance.absolute", "1e-10"});
      }
      const Trace tr = run(model, sets);
      double worst = 0;
      for (size_t i = 0; i < tr.t.size(); ++i)
        worst = std::max(worst, std::abs(tr.rows[i][2] - z0 * std::cos(w * tr.t[i])));
      INFO(c.solver << ": worst |z - z_exact| = " << worst << " m");
      CHECK(worst < c.tol);
    }
  }
}

TEST_CASE("quantities: a load of angle() and rate() equals the same law in C++ and as a joint_motor",
          "[expressions][quantities]") {
  // A pendulum (1 kg at 0.5 m) on a hinge about y, with the torque −k φ − c φ̇ about the hinge axis
  // (k = 3 N m/rad, c = 0.2 N m s/rad) written three ways.
  auto model = [](const std::string& force) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: arm, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.5, 0, 0],\n"
           "     velocity: [0, 0, 1.0], angular_velocity: [0, -2.0, 0]}\n"
           "joints:\n"
           "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 1, 0]}\n"
           "forces:\n" + force +
           "sensors:\n"
           "  - {name: angle, joint: hinge, output: joint_angle}\n"
           "solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string expr = "  - {name: law, type: torque, body: arm, value: [0, \"-3*angle(hinge) - 0.2*rate(hinge)\", 0]}\n";
  const std::string motor = "  - {name: law, type: joint_motor, joint: hinge, value: \"-3*angle() - 0.2*rate(hinge)\"}\n";
  const std::string none = "  - {name: nothing, type: torque, body: arm, value: [0, 0, 0]}\n";
  for (const char* solver : {"generalized_alpha", "rk4"}) {
    DYNAMIC_SECTION(solver) {
      const std::vector<Override> sets = {{"solver.type", solver}};
      const Trace a = run(model(expr), sets);
      const Trace b = run(model(motor), sets);
      // The same law in C++: a user force element on the arm (hinge axis y fixed in the world;
      // φ from the arm's rotation about y, φ̇ = ω_y).
      LoadedModel lm = load_model_text(model(none), "state.yaml", sets);
      ForceElement f;
      f.name = "cpp";
      f.type = ForceType::User;
      f.bodies = {"arm"};
      f.user = [last = 0.0](double, const std::vector<BodyMotion>& m, std::vector<Wrench>& out) mutable {
        const Mat3& R = m[0].R;
        // A rotation by φ about y: R = [c 0 s; 0 1 0; −s 0 c], so φ = atan2(R02, R00).
        const double wrapped = std::atan2(R(0, 2), R(0, 0));
        last += std::remainder(wrapped - last, 2 * std::numbers::pi);
        out[0].torque = Vec3(0, -3 * last - 0.2 * m[0].w.y(), 0);
      };
      lm.system.add_force(f);
      const Trace c = test::run_loaded(lm);
      REQUIRE(a.t.size() == b.t.size());
      REQUIRE(a.t.size() == c.t.size());
      double ab = 0, ac = 0, amp = 0;
      for (size_t i = 0; i < a.t.size(); ++i) {
        ab = std::max(ab, std::abs(a.rows[i][0] - b.rows[i][0]));
        ac = std::max(ac, std::abs(a.rows[i][0] - c.rows[i][0]));
        amp = std::max(amp, std::abs(a.rows[i][0]));
      }
      INFO(solver << ": expression vs joint_motor " << ab << ", expression vs C++ " << ac << ", amplitude " << amp);
      CHECK(amp > 0.1);
      CHECK(ab < 1e-10);
      CHECK(ac < 1e-10);
    }
  }
}

TEST_CASE("quantities: a cubic spring -k s^3 conserves its closed-form energy", "[expressions][quantities]") {
  // Slider of m = 1.5 kg on a prismatic joint along x, F = −k s³, k = 400 N/m³, s(0) = 0.2 m, at
  // rest: E = ½ m ṡ² + k s⁴/4 = k s0⁴/4 = 0.16 J for all t; the speed through s = 0 is
  // √(k/(2m)) s0².
  const double m = 1.5, k = 400, s0 = 0.2;
  const std::string model =
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - {name: slider, mass: 1.5, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0.2, 0, 0]}\n"
      "joints:\n"
      "  - {name: slide, type: prismatic, bodies: [ground, slider], point: [-0.2, 0, 0], axis: [1, 0, 0]}\n"
      "forces:\n"
      "  - {name: spring, type: force, body: slider, value: [\"-400*(displacement(slide) + 0.2)^3\", 0, 0]}\n"
      "sensors:\n"
      "  - {name: p, body: slider, output: position}\n"
      "  - {name: v, body: slider, output: velocity}\n"
      "solver: {type: rk4, end_time: 1.0, step: 1.0e-4}\n"
      "output: {every: 1.0e-3}\n";
  for (const char* solver : {"rk4", "generalized_alpha"}) {
    DYNAMIC_SECTION(solver) {
      const Trace tr = run(model, {{"solver.type", solver}, {"solver.step", "1e-4"}});
      const double E0 = k * std::pow(s0, 4) / 4;
      double worst = 0, vmax = 0;
      for (const auto& row : tr.rows) {
        const double s = row[0], v = row[3];
        worst = std::max(worst, std::abs(0.5 * m * v * v + k * std::pow(s, 4) / 4 - E0));
        vmax = std::max(vmax, std::abs(v));
      }
      INFO(solver << ": worst energy error " << worst << " J of " << E0 << ", top speed " << vmax);
      CHECK(worst < 1e-6 * E0);
      CHECK(vmax == Approx(std::sqrt(k / (2 * m)) * s0 * s0).epsilon(1e-3));
    }
  }
}

TEST_CASE("quantities: names refused at file:line:col", "[expressions][quantities]") {
  auto problem = [](const std::string& value) {
    const std::string model =
        "bodies:\n"
        "  - {name: slider, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0]}\n"
        "joints:\n"
        "  - {name: slide, type: prismatic, bodies: [ground, slider], point: [0, 0, 0], axis: [1, 0, 0]}\n"
        "forces:\n"
        "  - name: f\n"
        "    type: force\n"
        "    body: slider\n"
        "    value: [0, 0, \"" + value + "\"]\n"
        "solver: {type: rk4, end_time: 1.0, step: 1.0e-3}\n";
    try {
      load_model_text(model, "bad.yaml");
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  CHECK_THAT(problem("angle(slide)"), Catch::Contains("bad.yaml:9:20") &&
                                          Catch::Contains("angle() applies to revolute and cylindrical joints; 'slide' is prismatic"));
  CHECK_THAT(problem("2*speed(nothing)"), Catch::Contains("bad.yaml:9:28") && Catch::Contains("unknown joint 'nothing'"));
  CHECK_THAT(problem("vz(nobody)"), Catch::Contains("bad.yaml:9:23") && Catch::Contains("unknown body 'nobody'"));
  CHECK_THAT(problem("foo(slide)"), Catch::Contains("bad.yaml:9"));
}

TEST_CASE("tables: linear interpolation, exact at the nodes, the chord's error between", "[expressions][tables]") {
  // f(x) = 2 (1 − (x/100)²) tabulated at x = 0, 10, ..., 120: the linear interpolation L on
  // [x0, x1] differs from f by exactly L − f = f''/2 (x − x0)(x1 − x) = −(x − x0)(x1 − x)·2/100²
  // (f'' = −4/100², the interpolation error of a quadratic).
  std::string rows = "[";
  for (int i = 0; i <= 12; ++i) {
    const double x = 10.0 * i;
    rows += (i ? "; " : "") + std::to_string(x) + ", " + std::to_string(2 * (1 - x * x / 1e4));
  }
  rows += "]";
  const Expression tab("table(t, " + rows + ")", {});
  for (int i = 0; i <= 12; ++i) CHECK(tab(10.0 * i) == Approx(2 * (1 - 1e-2 * i * i)).margin(1e-14));
  for (double x = 0.37; x < 120; x += 3.1) {
    const double x0 = 10 * std::floor(x / 10), x1 = x0 + 10;
    CHECK(tab(x) - 2 * (1 - x * x / 1e4) == Approx(-(x - x0) * (x1 - x) * 2 / 1e4).margin(1e-13));
  }
  // Outside the rows: no value, but for 1e-6 of the width (120) beyond an end, where the end
  // segment is extended (f(−1e-5) = 2 − 0.02·1e-5/10 on the first chord from (0, 2) to (10, 1.98)).
  CHECK(std::isnan(tab(-0.01)));
  CHECK(std::isnan(tab(120.01)));
  CHECK(std::isnan(tab(-1.3e-4)));
  CHECK(tab(-1e-5) == Approx(2 + 0.02 * 1e-5 / 10).epsilon(1e-14));
  CHECK(tab(120 + 1e-5) == Approx(2 * (1 - 1.44) - (2 * (1.44 - 1.21)) * 1e-5 / 10).epsilon(1e-14));
  // A table of a table's value, and a quantity as the argument.
  CHECK(Expression("2*table(table(t, [0, 0; 1, 2]), [0, 1; 2, 3]) + 1", {})(0.5) == Approx(2 * 2 + 1));
  const Expression q("table(rate(j), [0, 5; 10, 0])", {"rate"});
  REQUIRE(q.quantities().size() == 1);
  const double r = 4;
  CHECK(q(0, std::span<const double>(&r, 1)) == Approx(3));
  // Bad rows, at the rows' position.
  auto position = [](const std::string& text) {
    try {
      Expression e(text, {});
    } catch (const ExpressionError& e) {
      return e.position();
    }
    return -1;
  };
  CHECK(position("table(t, [0, 1; 0, 2])") == 9);        // x not increasing
  CHECK(position("table(t, [0, 1])") == 9);              // one row
  CHECK(position("table(t, [0, 1, 2; 1, 2, 3])") == 9);  // three columns
  CHECK(position("1 + table(t, nowhere.csv)") == 13);    // no such file
  CHECK(position("table(t, /dev/zero)") == 9);           // not a regular file
  CHECK(position("table(t, /)") == 9);                   // a directory
  CHECK(position("table(t)") == 5);                      // no rows
}

TEST_CASE("tables: a torque-speed curve from a CSV file against the same curve as an expression",
          "[expressions][tables]") {
  // A flywheel (J = 0.1 kg m² about z) driven from rest by u(ω) = u0 (1 − (ω/ω0)²), u0 = 2 N m,
  // ω0 = 100 rad/s. The table has nodes every 10 rad/s; between them its chords lie below the
  // concave curve by at most u0 h²/(4 ω0²) = u0/400 (the chord's error above). Since u decreases
  // with ω, the table's run is never faster and its speed lags by at most (u0/400) t / J.
  const double J = 0.1, u0 = 2;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mbdae_test_tables";
  std::filesystem::create_directories(dir);
  {
    std::ofstream csv(dir / "curve.csv");
    csv << "# torque-speed curve\nspeed_rad_s,torque_N_m\n";
    for (int i = 0; i <= 12; ++i) csv << 10.0 * i << "," << 2 * (1 - 1e-2 * i * i) << "\n";
  }
  auto model = [](const std::string& torque) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0]}\n"
           "joints:\n"
           "  - {name: shaft, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "forces:\n"
           "  - {name: drive, type: torque, body: wheel, value: [0, 0, \"" + torque + "\"]}\n"
           "sensors:\n"
           "  - {name: w, body: wheel, output: angular_velocity}\n"
           "solver: {type: rk4, end_time: 2.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string file = (dir / "flywheel.yaml").string();
  for (const char* solver : {"rk4", "generalized_alpha"}) {
    DYNAMIC_SECTION(solver) {
      const std::vector<Override> sets = {{"solver.type", solver}};
      const Trace tab = test::run_loaded(load_model_text(model("table(rate(shaft), curve.csv)"), file, sets));
      const Trace fun = test::run_loaded(load_model_text(model("2*(1 - (rate(shaft)/100)^2)"), file, sets));
      std::string rows = "[";
      for (int i = 0; i <= 12; ++i) rows += (i ? "; " : "") + std::to_string(10 * i) + ", " + std::to_string(2 * (1 - 1e-2 * i * i));
      const Trace inl = test::run_loaded(load_model_text(model("table(wz(wheel), " + rows + "])"), file, sets));
      REQUIRE(tab.t.size() == fun.t.size());
      double worst = 0, same = 0, wmax = 0;
      for (size_t i = 0; i < tab.t.size(); ++i) {
        const double d = tab.rows[i][2] - fun.rows[i][2];
        CHECK(d <= 1e-9);  // the chords lie below the concave curve
        CHECK(-d <= u0 / 400 * tab.t[i] / J + 1e-9);
        worst = std::max(worst, -d);
        same = std::max(same, std::abs(tab.rows[i][2] - inl.rows[i][2]));
        wmax = std::max(wmax, fun.rows[i][2]);
      }
      INFO(solver << ": expression - table: worst " << worst << " rad/s; file - inline " << same << "; top speed " << wmax);
      CHECK(wmax > 30);
      CHECK(worst > 1e-3);     // the interpolation error is visible ...
      CHECK(same < 1e-12);     // ... and the same for the file and the inline rows
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("quantities: a load reading angle() cannot continue from a state file; one reading rate() can",
          "[expressions][quantities][restart]") {
  // A flywheel under the torque 2 (1 − ω/100) as a load of rate(shaft): split at t = 1 s, the
  // continued generalized-α run equals the unsplit one bit for bit (the law has no memory).
  auto flywheel = [](const std::string& torque) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0]}\n"
           "joints:\n"
           "  - {name: shaft, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "forces:\n"
           "  - {name: drive, type: torque, body: wheel, value: [0, 0, \"" + torque + "\"]}\n"
           "sensors:\n"
           "  - {name: w, body: wheel, output: angular_velocity}\n"
           "solver: {type: generalized_alpha, end_time: 2.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string model = flywheel("2*(1 - rate(shaft)/100)");
  const Trace full = run(model);
  RunState saved;
  {
    const LoadedModel first = load_model_text(model, "state.yaml", {{"solver.end_time", "1.0"}});
    ModelRun r(first);
    REQUIRE(r.run([](const StateView&, std::span<const double>) { return true; }).ok());
    saved = r.save_state();
  }
  const LoadedModel lm = load_model_text(model, "state.yaml");
  ModelRun cont(lm, &saved);
  std::vector<std::vector<double>> rows;
  REQUIRE(cont.run([&](const StateView&, std::span<const double> row) {
                rows.emplace_back(row.begin(), row.end());
                return true;
              }).ok());
  const size_t half = full.t.size() / 2;
  REQUIRE(rows.size() == half + 1);
  int differing = 0;
  for (size_t k = 0; k < rows.size(); ++k)
    if (rows[k] != full.rows[half + k]) ++differing;
  CHECK(differing == 0);
  const LoadedModel with_angle = load_model_text(flywheel("-5*angle(shaft)"), "state.yaml");
  CHECK_THROWS_WITH(ModelRun(with_angle, &saved), Catch::Contains("force 'drive' uses a joint's angle()"));
}

TEST_CASE("quantities: a state load's point and body frame act as a load of t's", "[expressions][quantities]") {
  // A tumbling free body with a force at an off-centre point in body axes and a body-axes torque:
  // the law as an expression of t, and the same law made a function of the state by "+ 0*x(box)"
  // (a user force element over the box), give the same motion to round-off.
  auto model = [](const std::string& extra) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: box, mass: 2.0, inertia: [0.02, 0.03, 0.04, 0, 0, 0], angular_velocity: [1, 2, 3]}\n"
           "forces:\n"
           "  - {name: push, type: force, body: box, point: [0.1, 0.05, -0.02], frame: body,\n"
           "     value: [\"sin(3*t)" + extra + "\", 2, \"1 + t" + extra + "\"]}\n"
           "  - {name: twist, type: torque, body: box, frame: body, value: [0, \"0.1*cos(t)" + extra + "\", 0]}\n"
           "sensors:\n"
           "  - {name: p, body: box, output: position}\n"
           "  - {name: w, body: box, output: angular_velocity}\n"
           "solver: {type: rk4, end_time: 1.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  for (const char* solver : {"rk4", "generalized_alpha"}) {
    DYNAMIC_SECTION(solver) {
      const Trace a = run(model(""), {{"solver.type", solver}});
      const Trace b = run(model(" + 0*x(box)"), {{"solver.type", solver}});
      REQUIRE(a.rows.size() == b.rows.size());
      double worst = 0;
      for (size_t i = 0; i < a.rows.size(); ++i)
        for (size_t k = 0; k < a.rows[i].size(); ++k) worst = std::max(worst, std::abs(a.rows[i][k] - b.rows[i][k]));
      INFO(solver << ": worst difference " << worst);
      // rk4: the same arithmetic, round-off. Generalized-α: the tangents differ (the load's is
      // analytic, the element's central differences), so the Newton iterates agree to within
      // its convergence test, not to the last bit (positions of a few metres).
      CHECK(worst < (std::string(solver) == "rk4" ? 1e-13 : 1e-9));
      CHECK(std::abs(a.rows.back()[0]) > 1e-3);  // the force moved it sideways
    }
  }
}

TEST_CASE("quantities: a joint_motor naming another joint's angle equals its torque and reaction as two loads",
          "[expressions][quantities][joint_motor]") {
  // Two discs stacked on the z axis: inner on a bearing to ground, outer on a bearing on the inner
  // one. A motor on the outer bearing with u = −2 (φ2 − 0.5 φ1) − 0.1 φ̇2 (φ1 the inner bearing's
  // angle: not its own joint) acts as u on the outer disc and −u on the inner one: the same as
  // two torque loads of those quantities.
  auto model = [](const std::string& forces) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: inner, mass: 2.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0], angular_velocity: [0, 0, 3]}\n"
           "  - {name: outer, mass: 1.0, inertia: [0.02, 0.02, 0.04, 0, 0, 0], position: [0, 0, 0.1]}\n"
           "joints:\n"
           "  - {name: b1, type: revolute, bodies: [ground, inner], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "  - {name: b2, type: revolute, bodies: [inner, outer], point: [0, 0, 0.1], axis: [0, 0, 1]}\n"
           "forces:\n" + forces +
           "sensors:\n"
           "  - {name: a1, joint: b1, output: joint_angle}\n"
           "  - {name: a2, joint: b2, output: joint_angle}\n"
           "solver: {type: rk4, end_time: 2.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string law = "-2*(angle(b2) - 0.5*angle(b1)) - 0.1*rate(b2)";
  const std::string motor = "  - {name: m, type: joint_motor, joint: b2, value: \"-2*(angle() - 0.5*angle(b1)) - 0.1*rate()\"}\n";
  const std::string loads = "  - {name: on_outer, type: torque, body: outer, value: [0, 0, \"" + law + "\"]}\n"
                            "  - {name: on_inner, type: torque, body: inner, value: [0, 0, \"-(" + law + ")\"]}\n";
  for (const char* solver : {"rk4", "generalized_alpha"}) {
    DYNAMIC_SECTION(solver) {
      const Trace a = run(model(motor), {{"solver.type", solver}});
      const Trace b = run(model(loads), {{"solver.type", solver}});
      REQUIRE(a.rows.size() == b.rows.size());
      double worst = 0, swing = 0;
      for (size_t i = 0; i < a.rows.size(); ++i) {
        for (size_t k = 0; k < a.rows[i].size(); ++k) worst = std::max(worst, std::abs(a.rows[i][k] - b.rows[i][k]));
        swing = std::max(swing, std::abs(a.rows[i][1]));
      }
      INFO(solver << ": motor vs two loads, worst difference " << worst << " rad; largest |angle(b2)| " << swing);
      CHECK(swing > 0.1);
      // rk4: the same forces, round-off. Generalized-α: central-difference tangents over other
      // groups of bodies, so the Newton iterates agree within its convergence test.
      CHECK(worst < (std::string(solver) == "rk4" ? 1e-12 : 1e-9));
    }
  }
}

TEST_CASE("quantities: a prismatic joint_motor naming a body's position equals its force and reaction as two loads",
          "[expressions][quantities][joint_motor]") {
  // A carriage on a rail along x and a slider on the carriage along x; the motor on the slider's
  // guide pushes with u = −40 (s − 0.5 x_c) − 0.5 ṡ, x_c = x(carriage) (not its own joint).
  auto model = [](const std::string& forces) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: carriage, mass: 3.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], velocity: [1, 0, 0]}\n"
           "  - {name: slider, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, 0, 0.2]}\n"
           "joints:\n"
           "  - {name: rail, type: prismatic, bodies: [ground, carriage], point: [0, 0, 0], axis: [1, 0, 0]}\n"
           "  - {name: guide, type: prismatic, bodies: [carriage, slider], point: [0, 0, 0.2], axis: [1, 0, 0]}\n"
           "forces:\n" + forces +
           "sensors:\n"
           "  - {name: s, joint: guide, output: joint_displacement}\n"
           "  - {name: x, joint: rail, output: joint_displacement}\n"
           "solver: {type: rk4, end_time: 2.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  const std::string law = "-40*(displacement(guide) - 0.5*x(carriage)) - 0.5*speed(guide)";
  const std::string motor = "  - {name: m, type: joint_motor, joint: guide, value: \"" + law + "\"}\n";
  const std::string loads = "  - {name: on_slider, type: force, body: slider, value: [\"" + law + "\", 0, 0]}\n"
                            "  - {name: on_carriage, type: force, body: carriage, value: [\"-(" + law + ")\", 0, 0]}\n";
  const Trace a = run(model(motor));
  const Trace b = run(model(loads));
  REQUIRE(a.rows.size() == b.rows.size());
  double worst = 0, swing = 0;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    for (size_t k = 0; k < a.rows[i].size(); ++k) worst = std::max(worst, std::abs(a.rows[i][k] - b.rows[i][k]));
    swing = std::max(swing, std::abs(a.rows[i][0]));
  }
  INFO("motor vs two loads, worst difference " << worst << " m; largest |s| " << swing);
  CHECK(swing > 0.05);
  CHECK(worst < 1e-12);
}

TEST_CASE("expressions: an assignment is refused, comparisons are not", "[io][expression]") {
  auto position = [](const std::string& text) {
    try {
      Expression e(text, {});
    } catch (const ExpressionError& e) {
      return e.position();
    }
    return -1;
  };
  // "(t=0.5)*0+t" was 0.5 at every t: muParser's '=' assigned t.
  CHECK(position("(t=0.5)*0+t") == 2);
  CHECK(position("t += 1") == 2);
  CHECK(position("1 + (t *= 2)") == 7);
  CHECK(position("t = 1") == 2);
  // The comparisons stay expressions of t.
  for (const char* ok : {"t == 0.5 ? 1 : 0", "t >= 1", "t <= 1", "t != 2", "(t>=1)*(t<=2)"}) {
    INFO(ok);
    CHECK(position(ok) == -1);
  }
  CHECK(Expression("t >= 1 ? 2 : 3", {})(1.5) == 2);
  CHECK(Expression("t >= 1 ? 2 : 3", {})(0.5) == 3);
}

TEST_CASE("table files: only in the model's folder, and a bad row is not shown", "[io][expression]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mbdae_table_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "model");
  std::ofstream(dir / "model" / "ok.csv") << "x, y\n0, 1\n1, 2\n";
  std::ofstream(dir / "secret.csv") << "x, y\n0, 1\n1, 2\n";
  std::ofstream(dir / "model" / "bad.csv") << "x, y\n0, 1\nroot:x:0:0:secret\n";
  const std::string model = (dir / "model").string();
  auto message = [&](const std::string& text) -> std::string {
    try {
      Expression e(text, {}, model);
    } catch (const ExpressionError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message("table(t, ok.csv)").empty());
  CHECK(Expression("table(t, ok.csv)", {}, model).table_files() == std::vector<std::string>{(dir / "model" / "ok.csv").string()});
  // Outside the model's folder: refused, whether by '..' or by an absolute path.
  CHECK(message("table(t, ../secret.csv)").find("outside the model's folder") != std::string::npos);
  CHECK(message("table(t, " + (dir / "secret.csv").string() + ")").find("outside the model's folder") != std::string::npos);
  // A row that is not numbers is named by its number, its text is not shown.
  const std::string bad = message("table(t, bad.csv)");
  CHECK(bad.find("row 3") != std::string::npos);
  CHECK(bad.find("secret") == std::string::npos);
  // A FIFO is not read (it would block, or never end).
  REQUIRE(::mkfifo((dir / "model" / "fifo.csv").c_str(), 0600) == 0);
  CHECK(message("table(t, fifo.csv)").find("a FIFO") != std::string::npos);
  fs::remove_all(dir);
}
