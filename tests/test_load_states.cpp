// Loads (`force`, `torque`) that read controller states, state(name), against closed forms and
// against the same law written in C++:
// - a mass on a vertical prismatic joint lifted to height 1 by a PID force u = kp e + ki ∫e + kd ė
//   (e = 1 − z) whose integral is a controller state read by the load: the closed form of the
//   third-order linear system (a triple pole, worked out below), on every solver that takes
//   controller states, and its steady state e → 0, ∫e → m g / ki (the integral carries gravity);
// - the same force as a C++ user force of the controller state (ForceElement::user_of_states) and
//   the same state's derivative in C++: the same trajectory to round-off;
// - the implicit formulation's tangent holds the state's column (against central differences of
//   the residual);
// - the refusals: solvers without controller states refuse the state at file:line:col, the
//   analyses by name, a state file continues such a run bit for bit but refuses a load that
//   also reads angle();
// - a joint_motor whose law reads a state and a body's quantity (a user law over the body and
//   the state) equals the motor of its own joint's rate and the PI closed form.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ResidualDifferences.h"

#include "RunTrace.h"

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Analyses.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Trace = test::RunTrace;

// m z'' = −m g + u, u = kp e + ki I + kd ė, e = 1 − z, I' = e, z(0) = ż(0) = I(0) = 0. With
// y = I − m g / ki (y' = e, y'' = ė = −ż, y''' = −z''):
//   m y''' + kd y'' + kp y' + ki y = 0,  y(0) = −m g / ki, y'(0) = 1, y''(0) = 0.
// The gains put a triple pole at −p, (s + p)³ = s³ + 3p s² + 3p² s + p³: kd = 3 p m,
// kp = 3 p² m, ki = p³ m. Then y = (C0 + C1 t + C2 t²) e^{−pt} with C0 = y(0), C1 = y'(0) + p C0,
// C2 = (y''(0) + 2 p C1 − p² C0) / 2, and
//   y' = (P' − p P) e^{−pt},  y'' = (P'' − 2 p P' + p² P) e^{−pt}  (P = C0 + C1 t + C2 t²).
// z = 1 − y', ż = −y'', I = y + m g / ki; as t → ∞, z → 1 and I → m g / ki. (Here
// y' = (1 + 2t + 0.905 t²) e^{−2t}: the mass rises to 1 without overshoot.)
constexpr double kM = 2.0, kG = 9.81, kP = 2.0;
constexpr double kKd = 3 * kP * kM, kKp = 3 * kP * kP * kM, kKi = kP * kP * kP * kM;  // 12, 24, 16
struct PidExact {
  double c0 = -kM * kG / kKi, c1 = 1 + kP * c0, c2 = (0 + 2 * kP * c1 - kP * kP * c0) / 2;
  double P(double t) const { return c0 + c1 * t + c2 * t * t; }
  double dP(double t) const { return c1 + 2 * c2 * t; }
  double y(double t) const { return P(t) * std::exp(-kP * t); }
  double y1(double t) const { return (dP(t) - kP * P(t)) * std::exp(-kP * t); }
  double y2(double t) const { return (2 * c2 - 2 * kP * dP(t) + kP * kP * P(t)) * std::exp(-kP * t); }
  double z(double t) const { return 1 - y1(t); }
  double vz(double t) const { return -y2(t); }
  double i(double t) const { return y(t) + kM * kG / kKi; }
};

std::string hover(const std::string& forces, const std::string& solver = "generalized_alpha") {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: drone, mass: 2.0, inertia: [0.02, 0.02, 0.04, 0, 0, 0]}\n"
         "joints:\n"
         "  - {name: lift, type: prismatic, bodies: [ground, drone], point: [0, 0, 0], axis: [0, 0, 1]}\n"
         "states:\n"
         "  - {name: i_err, initial: 0, derivative: \"1 - z(drone)\"}\n"
         "forces:\n" +
         forces +
         "sensors:\n"
         "  - {name: p, body: drone, output: position}\n"
         "  - {name: v, body: drone, output: velocity}\n"
         "  - {name: i_err, state: i_err, output: controller_state}\n"
         "solver: {type: " + solver + ", end_time: 10.0, step: 1.0e-3}\n"
         "output: {every: 1.0e-2}\n";
}
const std::string kThrust =
    "  - {name: thrust, type: force, body: drone, value: [0, 0, \"24*(1 - z(drone)) + 16*state(i_err) - 12*vz(drone)\"]}\n";
const std::string kNothing = "  - {name: nothing, type: torque, body: drone, value: [0, 0, 0]}\n";

struct SolverCase {
  const char* solver;
  std::vector<Override> sets;
  double tol;   // on z (m), ż (m/s) and I (m s), absolute
  double same;  // between the expression and C++: round-off (fixed step) or 10 times the relative
                // tolerance (adaptive: round-off may change the accepted steps)
};
// Second-order solvers at h = 1e-3: errors of order (h p)²/12 = 3e-7 of the transient (measured
// 1e-7 to 2.3e-7); rk4 at h = 1e-3: (h p)⁴ ~ 1e-11 (measured 8e-14); the adaptive ones at 10 to 20
// times their relative tolerances (measured: IDA 1.9e-9, dopri5 1.2e-12).
std::vector<SolverCase> solver_cases() {
  std::vector<SolverCase> cases = {
      {"generalized_alpha", {}, 1e-6, 1e-10},
      {"trapezoidal_index2", {{"solver.type", "trapezoidal_index2"}}, 1e-6, 1e-10},
      {"rk4", {{"solver.type", "rk4"}}, 1e-11, 1e-10},
      {"dopri5", {{"solver.type", "dopri5"}, {"solver.tolerance.relative", "1e-10"}, {"solver.tolerance.absolute", "1e-12"}}, 1e-9, 1e-9},
  };
  if (find_solver("ida"))
    cases.push_back({"ida", {{"solver.type", "ida"}, {"solver.tolerance.relative", "1e-9"}, {"solver.tolerance.absolute", "1e-11"}}, 2e-8, 1e-8});
  return cases;
}

}  // namespace

TEST_CASE("load states: a PID force reading the integral state lifts a mass as the third-order closed form",
          "[load_states][controller_states]") {
  const PidExact x;
  REQUIRE(kKp == 24.0);
  REQUIRE(kKi == 16.0);
  REQUIRE(kKd == 12.0);
  for (const SolverCase& c : solver_cases()) {
    DYNAMIC_SECTION(c.solver) {
      const Trace tr = test::run_text(hover(kThrust), "hover.yaml", c.sets);
      const int z = tr.col("p.z"), vz = tr.col("v.z"), i = tr.col("i_err");
      double worst_z = 0, worst_v = 0, worst_i = 0;
      for (size_t k = 0; k < tr.t.size(); ++k) {
        const double t = tr.t[k];
        const std::vector<double>& r = tr.rows[k];
        worst_z = std::max(worst_z, std::abs(r[static_cast<size_t>(z)] - x.z(t)));
        worst_v = std::max(worst_v, std::abs(r[static_cast<size_t>(vz)] - x.vz(t)));
        worst_i = std::max(worst_i, std::abs(r[static_cast<size_t>(i)] - x.i(t)));
      }
      INFO(c.solver << ": max |z - z_exact| = " << worst_z << ", max |vz - vz_exact| = " << worst_v
                    << ", max |I - I_exact| = " << worst_i);
      CHECK(worst_z < c.tol);
      CHECK(worst_v < c.tol);
      CHECK(worst_i < c.tol);
      // Steady state at t = 10 s ((C0 + 10 C1 + 100 C2) e^{−20} ~ 1e-7 of the transient left):
      // z = 1, ż = 0, I = m g / ki.
      const std::vector<double>& last = tr.rows.back();
      CHECK(tr.t.back() == Approx(10.0));
      CHECK(std::abs(last[static_cast<size_t>(z)] - 1) < 1e-6 + c.tol);
      CHECK(std::abs(last[static_cast<size_t>(vz)]) < 1e-6 + c.tol);
      CHECK(std::abs(last[static_cast<size_t>(i)] - kM * kG / kKi) < 1e-6 + c.tol);
    }
  }
}

TEST_CASE("load states: the same force and state in C++ give the same trajectory", "[load_states][controller_states]") {
  for (const SolverCase& c : solver_cases()) {
    DYNAMIC_SECTION(c.solver) {
      const Trace a = test::run_text(hover(kThrust), "hover.yaml", c.sets);
      LoadedModel lm = load_model_text(hover(kNothing), "hover.yaml", c.sets);
      // The state's derivative and the force, both in C++.
      ControllerState& s = lm.system.controller_states().at(0);
      s.bodies = {"drone"};
      s.states = {};
      s.derivative = [](double, std::span<const BodyMotion> b, std::span<const double>) { return 1 - b[0].p.z(); };
      ForceElement f;
      f.name = "cpp";
      f.type = ForceType::User;
      f.bodies = {"drone"};
      f.states = {"i_err"};
      f.user_of_states = [](double, const std::vector<BodyMotion>& b, std::span<const double> z, std::vector<Wrench>& out) {
        out[0].force = Vec3(0, 0, kKp * (1 - b[0].p.z()) + kKi * z[0] - kKd * b[0].v.z());
      };
      lm.system.add_force(f);
      const Trace b = test::run_loaded(lm);
      REQUIRE(a.t.size() == b.t.size());
      REQUIRE(a.columns == b.columns);
      double worst = 0;
      for (size_t k = 0; k < a.t.size(); ++k)
        for (size_t j = 0; j < a.columns.size(); ++j) worst = std::max(worst, std::abs(a.rows[k][j] - b.rows[k][j]));
      INFO(c.solver << ": max difference expression vs C++ " << worst);
      CHECK(worst < c.same);
    }
  }
}

TEST_CASE("load states: the implicit tangent holds the state's column", "[load_states][formulation][jacobian]") {
  const LoadedModel lm = load_model_text(hover(kThrust), "hover.yaml");
  const MultibodySystem mb(lm.system);
  auto ws = mb.make_workspace();
  const int n = mb.num_coordinates(), m = mb.num_constraints();
  VecX q(n), v(n);
  mb.initial_state(q, v);
  std::mt19937 gen(3);
  std::normal_distribution<double> N(0, 0.1);
  for (int k = 0; k < n; ++k) {
    q[k] += N(gen);
    v[k] += N(gen);
  }
  for (int i = 0; i < static_cast<int>(lm.system.bodies().size()); ++i)
    if (mb.body_size(i) == 7) q.segment<4>(mb.body_offset(i) + 3).normalize();
  const VecX a = VecX::NullaryExpr(n, [&]() { return 3 * N(gen); });
  const VecX lam = VecX::NullaryExpr(m, [&]() { return 5 * N(gen); });
  const double t = 0.3, cq = 0.7, cv = 1.3, ca = 0.4, h = 1e-6;
  SparseMatrix A = mb.tangent_pattern();
  mb.assemble_tangent(ws, t, q, v, a, lam, cq, cv, ca, A);
  const MatX T = test::residual_differences(mb, ws, t, q, v, a, lam, h).tangent(cq, cv, ca);
  const MatX Ad(A);
  INFO("max |tangent - central differences| " << (Ad - T).cwiseAbs().maxCoeff() << " of entries up to "
                                              << T.cwiseAbs().maxCoeff());
  CHECK((Ad - T).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, T.cwiseAbs().maxCoeff()));
  // The force's dependence on the state: ∂r_z/∂v_c = −ki (the state is the velocity of its
  // coordinate c), times c_v.
  const int row = mb.body_offset(0) + 2, col = mb.controller_coordinate(0);
  CHECK(Ad(row, col) == Approx(-cv * kKi).epsilon(1e-6));
}

TEST_CASE("load states: refused where states are not taken, continued from a state file",
          "[load_states][controller_states][restart]") {
  // Solvers without controller states refuse the state at its place in the file.
  for (const char* s : {"impulse", "lie_rk4"}) {
    INFO(s);
    try {
      load_model_text(hover(kThrust), "hover.yaml", {{"solver.type", s}});
      FAIL("loaded");
    } catch (const LoadError& e) {
      const std::string what = e.what();
      CHECK(what.find("hover.yaml:7:5: states[0]") != std::string::npos);
      CHECK(what.find("controller states are integrated by generalized_alpha") != std::string::npos);
    }
  }
  // The analyses refuse the state by name.
  const LoadedModel lm = load_model_text(hover(kThrust), "hover.yaml");
  try {
    ModelAnalysis an(lm);
    FAIL("analysed");
  } catch (const ModelError& e) {
    REQUIRE(e.details().size() == 1);
    CHECK(e.details()[0].item == ItemRef::state(0));
    CHECK(std::string(e.what()).find("controller state 'i_err'") != std::string::npos);
  }
  // Split at t = 5 s, the continued generalized-α run equals the unsplit one bit for bit: the
  // state file carries the controller state the load reads.
  const Trace full = test::run_loaded(lm);
  RunState saved;
  {
    const LoadedModel first = load_model_text(hover(kThrust), "hover.yaml", {{"solver.end_time", "5.0"}});
    ModelRun r(first);
    REQUIRE(r.run([](const StateView&, std::span<const double>) { return true; }).ok());
    saved = r.save_state();
  }
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
  // A load that also reads a joint's angle() (its turn count is not in state files) is refused.
  const std::string wheel =
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - {name: wheel, mass: 2.0, inertia: [0.02, 0.02, 0.04, 0, 0, 0]}\n"
      "joints:\n"
      "  - {name: shaft, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "states:\n"
      "  - {name: i_err, initial: 0, derivative: \"1 - rate(shaft)\"}\n"
      "forces:\n"
      "  - {name: drive, type: torque, body: wheel, value: [0, 0, \"-angle(shaft) + state(i_err)\"]}\n"
      "solver: {type: generalized_alpha, end_time: 10.0, step: 1.0e-3}\n";
  const LoadedModel with_angle = load_model_text(wheel, "wheel.yaml");
  CHECK_THROWS_WITH(ModelRun(with_angle, &saved), Catch::Contains("force 'drive' uses a joint's angle()"));
}

TEST_CASE("load states: a joint_motor naming a body's quantity and a state equals the motor of its joint's rate",
          "[load_states][controller_states][joint_motor]") {
  // The PI flywheel of examples/models/pi_flywheel.yaml (J = 0.5 kg m² about a vertical shaft from
  // ground, u = 2 (10 − ω) + 10 i, i' = 10 − ω, load −3 N m) with ω read as the wheel's wz(wheel)
  // instead of the joint's rate(): the motor is then a user law over the wheel and the state.
  // The same motion (ω = rate(shaft) = wz(wheel) here), and the closed form of
  // tests/test_controller_states.cpp: with y = i − T_L/ki, J y'' + kp y' + ki y = 0, roots
  // −2 ± 4i, y(0) = −0.3, y'(0) = 10 (written out below).
  auto model = [](const std::string& law) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: wheel, mass: 10.0, inertia: [0.25, 0.25, 0.5, 0, 0, 0]}\n"
           "joints:\n"
           "  - {name: shaft, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "states:\n"
           "  - {name: i_err, initial: 0, derivative: \"10 - rate(shaft)\"}\n"
           "forces:\n"
           "  - {name: motor, type: joint_motor, joint: shaft, value: \"" + law + "\"}\n"
           "  - {name: load, type: torque, body: wheel, value: [0, 0, -3]}\n"
           "sensors:\n"
           "  - {name: speed, joint: shaft, output: joint_angle}\n"
           "  - {name: i_err, state: i_err, output: controller_state}\n"
           "solver: {type: generalized_alpha, end_time: 4.0, step: 1.0e-3}\n"
           "output: {every: 1.0e-2}\n";
  };
  // y = e^{−at}(C1 cos wd t + C2 sin wd t), a = kp/(2J) = 2, wd = √(ki/J − a²) = 4, C1 = −0.3,
  // C2 = (10 + a C1)/wd = 2.35; ω = 10 − y', i = y + 0.3.
  const double a = 2, wd = 4, c1 = -0.3, c2 = (10 + a * c1) / wd;
  auto w = [&](double t) {
    return 10 - std::exp(-a * t) * ((-a * c1 + wd * c2) * std::cos(wd * t) - (a * c2 + wd * c1) * std::sin(wd * t));
  };
  for (const char* solver : {"generalized_alpha", "rk4"}) {
    DYNAMIC_SECTION(solver) {
      const std::vector<Override> sets = {{"solver.type", solver}};
      const LoadedModel of_body = load_model_text(model("2*(10 - wz(wheel)) + 10*state(i_err)"), "pi.yaml", sets);
      REQUIRE(of_body.system.forces().at(0).type == ForceType::User);
      REQUIRE(of_body.system.forces().at(0).states == std::vector<std::string>{"i_err"});
      const Trace a_run = test::run_loaded(of_body);
      const Trace b_run = test::run_text(model("2*(10 - rate()) + 10*state(i_err)"), "pi.yaml", sets);
      REQUIRE(a_run.t.size() == b_run.t.size());
      double diff = 0, worst_w = 0;
      for (size_t k = 0; k < a_run.t.size(); ++k) {
        for (size_t j = 0; j < a_run.columns.size(); ++j) diff = std::max(diff, std::abs(a_run.rows[k][j] - b_run.rows[k][j]));
        worst_w = std::max(worst_w, std::abs(a_run.rows[k][1] - w(a_run.t[k])));
      }
      INFO(solver << ": wz(wheel) law vs rate() law " << diff << ", |w - w_exact| " << worst_w);
      CHECK(diff < 1e-10);
      // As in tests/test_controller_states.cpp: 2e-3 for generalized-α ((h wd)² w_ref ~ 1e-4), rk4 1e-8.
      CHECK(worst_w < (std::string(solver) == "rk4" ? 1e-8 : 2e-3));
    }
  }
  // Its joint_motor sensor is refused by name (the law is a user force now).
  CHECK_THROWS_WITH(load_model_text(model("2*(10 - wz(wheel)) + 10*state(i_err)"), "pi.yaml",
                                    {{"sensors[1]", "{name: m, force: motor, output: joint_motor}"}}),
                    Catch::Contains("sensors[1].force: output joint_motor applies to joint_motor elements; 'motor' is user"));
}

TEST_CASE("load states: a C++ user force reading states is checked by name", "[load_states][controller_states]") {
  auto system = [](const std::function<void(ForceElement&)>& edit) {
    System s;
    RigidBody b;
    b.name = "drone";
    b.mass = 2;
    b.inertia << 0.02, 0.02, 0.04, 0, 0, 0;
    s.add_body(b);
    ControllerState z;
    z.name = "i_err";
    z.bodies = {"drone"};
    z.derivative = [](double, std::span<const BodyMotion> m, std::span<const double>) { return 1 - m[0].p.z(); };
    s.add_controller_state(z);
    ForceElement f;
    f.name = "thrust";
    f.type = ForceType::User;
    f.bodies = {"drone"};
    f.states = {"i_err"};
    f.user_of_states = [](double, const std::vector<BodyMotion>&, std::span<const double> st, std::vector<Wrench>& out) {
      out[0].force = Vec3(0, 0, 16 * st[0]);
    };
    edit(f);
    s.add_force(f);
    std::string all;
    for (const std::string& m : s.check()) all += m + "\n";
    return all;
  };
  CHECK(system([](ForceElement&) {}).empty());
  CHECK_THAT(system([](ForceElement& f) { f.states = {"i_eer"}; }),
             Catch::Contains("force 'thrust': unknown controller state 'i_eer'"));
  CHECK_THAT(system([](ForceElement& f) {
               f.user_of_states = nullptr;
               f.user = [](double, const std::vector<BodyMotion>&, std::vector<Wrench>&) {};
             }),
             Catch::Contains("reads controller states, but its function (user) takes none: give user_of_states"));
  CHECK_THAT(system([](ForceElement& f) { f.user = [](double, const std::vector<BodyMotion>&, std::vector<Wrench>&) {}; }),
             Catch::Contains("both user and user_of_states are given"));
  CHECK_THAT(system([](ForceElement& f) { f.user_jacobian = [](double, const std::vector<BodyMotion>&, MatX&, MatX&) {}; }),
             Catch::Contains("takes no user_jacobian"));
  CHECK_THAT(system([](ForceElement& f) { f.type = ForceType::SpringDamper; f.bodies = {"ground", "drone"}; f.stiffness = 1; }),
             Catch::Contains("only a joint_motor or a user force reads controller states, this is a spring_damper"));
}
