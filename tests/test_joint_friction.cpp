// joint_friction and joint_limit against closed forms and independent computations:
// - a block on a prismatic joint (given normal force N = m g) pushed by F = 2 μ m g for T1, then
//   released: acceleration μ g while pushed, deceleration μ g after, stop at 2 T1, stop distance
//   μ g T1²; a push F = μ m g / 2 does not move it (the regularized law creeps at
//   v = v_ε atanh(1/2), so the error shrinks with v_ε; the impulse stepper's complementarity holds
//   it exactly);
// - a wheel on a revolute joint with pin friction spun down: constant torque μ r N, stop time
//   J ω0 / (μ r N); with a Stribeck curve, the stop time by quadrature of J dω / T(ω) (Simpson);
//   viscous friction alone: ω = ω0 exp(−c t / J);
// - a cylinder on a cylindrical joint spinning and sliding (J = m r²): the slip vector decelerates
//   like a point mass, stop time v0 m / (μ N), both coordinates stopping together;
// - joint limits: an undamped penalty stop returns a wheel at −ω0 after π √(J/k); the impulse
//   stepper's stop returns a block or a wheel at e times the impact speed;
// - bad inputs refused at their keys.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "RunTrace.h"

#include <mbdae/io/Run.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Trace = test::RunTrace;
Trace run(const std::string& text, const std::vector<Override>& sets = {}) {
  return test::run_text(text, "friction.yaml", sets);
}

constexpr double g = 9.81, mu = 0.3, m = 2.0, N = m * g, T1 = 0.5;

/// The block: push `push` (N, an expression of t) along the slide; columns: s, ṡ (joint_displacement).
std::string block(const std::string& push, const std::string& solver, double v_eps, double step, double t_end) {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: block, mass: 2.0, shape: {box: [0.1, 0.1, 0.1]}, position: [0, 0, 0]}\n"
         "joints:\n"
         "  - {name: slide, type: prismatic, bodies: [ground, block], point: [0, 0, 0], axis: [1, 0, 0]}\n"
         "forces:\n"
         "  - {name: push, type: force, body: block, value: [\"" + push + "\", 0, 0]}\n"
         "  - {name: friction, type: joint_friction, joint: slide, friction: 0.3, normal_force: 19.62,\n"
         "     regularization_velocity: " + std::to_string(v_eps) + "}\n"
         "sensors:\n"
         "  - {name: s, joint: slide, output: joint_displacement}\n"
         "solver: {type: " + solver + ", end_time: " + std::to_string(t_end) + ", step: " + std::to_string(step) + "}\n"
         "output: {every: 0.001}\n";
}

/// Errors of a push-and-release run against the closed forms.
struct SlipErrors {
  double accel, decel, stop_time, distance;
};

SlipErrors push_release(const std::string& solver, double v_eps, double step) {
  const double F = 2 * mu * m * g;  // accelerates at μ g, then decelerates at μ g
  const Trace tr = run(block("t < 0.5 ? " + std::to_string(F) + " : 0", solver, v_eps, step, 1.5));
  auto at = [&](double t) {
    const auto i = static_cast<size_t>(std::lround(t / 0.001));
    REQUIRE(std::abs(tr.t[i] - t) < 1e-9);
    return i;
  };
  const double a = mu * g;
  SlipErrors e{};
  e.accel = std::abs((tr.col(at(0.4), 1) - tr.col(at(0.1), 1)) / 0.3 - a);
  e.decel = std::abs((tr.col(at(0.6), 1) - tr.col(at(0.9), 1)) / 0.3 - a);
  // Stop: the time ṡ falls through 0.1 % of the peak speed μ g T1 (linear interpolation between
  // outputs), plus the time the closed form takes from there (0.001 μ g T1 / (μ g)).
  const double v1 = a * T1, vt = 1e-3 * v1;
  double t_stop = 0;
  for (size_t i = 1; i < tr.t.size(); ++i)
    if (tr.t[i] > T1 && tr.col(i - 1, 1) > vt && tr.col(i, 1) <= vt)
      t_stop = tr.t[i - 1] + (tr.col(i - 1, 1) - vt) / (tr.col(i - 1, 1) - tr.col(i, 1)) * (tr.t[i] - tr.t[i - 1]);
  e.stop_time = std::abs(t_stop + 1e-3 * T1 - 2 * T1);
  e.distance = std::abs(tr.rows.back()[0] - a * T1 * T1);
  return e;
}

/// Displacement after 1 s under a push of half the friction limit.
double stick_displacement(const std::string& solver, double v_eps, double step) {
  const Trace tr = run(block(std::to_string(0.5 * mu * m * g), solver, v_eps, step, 1.0));
  return tr.rows.back()[0];
}

}  // namespace

TEST_CASE("joint_friction: a pushed and released block slips at mu g and stops at v0/(mu g)", "[forces][joint_friction]") {
  // Regularized (implicit and explicit): the errors shrink with v_eps.
  for (const std::string solver : {"generalized_alpha", "rk4"}) {
    std::vector<SlipErrors> errs;
    for (double v_eps : {1e-2, 1e-3, 1e-4}) {
      if (solver == "rk4" && v_eps < 1e-3) continue;  // stiff: slope μ N / v_ε per mass 3e4/s
      errs.push_back(push_release(solver, v_eps, 1e-4));
      const SlipErrors& e = errs.back();
      WARN(solver << " v_eps " << v_eps << ": |accel - mu g| " << e.accel << " m/s^2, |decel - mu g| " << e.decel
                  << " m/s^2, |t_stop - 2 T1| " << e.stop_time << " s, |distance - mu g T1^2| " << e.distance << " m");
      CHECK(e.accel < 1e-6);
      CHECK(e.decel < 1e-6);
    }
    for (size_t k = 1; k < errs.size(); ++k) {
      CHECK(errs[k].distance < errs[k - 1].distance);
      CHECK(errs[k].stop_time <= errs[k - 1].stop_time + 1e-12);
    }
    CHECK(errs.back().distance < 2e-3 * mu * g * T1 * T1);
    CHECK(errs.back().stop_time <= 2e-3);
  }
  // Complementarity (impulse stepper): deceleration exact, stop within a step.
  const SlipErrors e = push_release("impulse", 1e-3, 1e-3);
  WARN("impulse h 1e-3: |accel - mu g| " << e.accel << ", |decel - mu g| " << e.decel << ", |t_stop - 2 T1| "
                                         << e.stop_time << " s, |distance - mu g T1^2| " << e.distance << " m");
  CHECK(e.accel < 1e-9);
  CHECK(e.decel < 1e-9);
  CHECK(e.stop_time <= 1e-3 + 1e-9);
  CHECK(e.distance < 2e-3 * mu * g * T1 * T1);
}

TEST_CASE("joint_friction: a push below mu m g does not move the block", "[forces][joint_friction]") {
  // Regularized: the steady creep v_ε atanh(1/2) over 1 s (after a transient of m v_ε / (μ N)).
  double prev = 1e300;
  for (double v_eps : {1e-2, 1e-3, 1e-4}) {
    const double x = stick_displacement("generalized_alpha", v_eps, 1e-4);
    const double creep = v_eps * std::atanh(0.5);
    WARN("stick, v_eps " << v_eps << ": displacement " << x << " m, creep closed form " << creep << " m");
    CHECK(std::abs(x - creep) < 0.02 * creep);
    CHECK(x < prev);
    prev = x;
  }
  const double x = stick_displacement("impulse", 1e-3, 1e-3);
  WARN("stick, impulse: displacement " << x << " m");
  CHECK(std::abs(x) < 1e-12);
}

namespace {

// A wheel about the vertical z axis (gravity along the axis exerts no torque), J = 0.1 kg m².
constexpr double kJ = 0.1;
std::string wheel(const std::string& friction, const std::string& solver, double w0, double t_end, double step) {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0], angular_velocity: [0, 0, " +
         std::to_string(w0) + "]}\n"
         "joints:\n"
         "  - {name: hub, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
         "forces:\n"
         "  - {name: friction, type: joint_friction, joint: hub, " + friction + "}\n"
         "sensors:\n"
         "  - {name: phi, joint: hub, output: joint_angle}\n" +
         // The impulse stepper's Coulomb friction is an impulse: no friction sensor there.
         (solver == "impulse" ? "" : "  - {name: fr, force: friction, output: joint_friction}\n") +
         "solver: {type: " + solver + ", end_time: " + std::to_string(t_end) + ", step: " + std::to_string(step) + "}\n"
         "output: {every: 0.001}\n";
}

}  // namespace

TEST_CASE("joint_friction: a wheel with pin friction spins down in J w0 / (mu r N)", "[forces][joint_friction]") {
  // μ r N = 0.2 · 0.05 m · 100 N = 1 N m: ω0 = 20 rad/s stops at 2 s after 20 rad.
  const std::string fr = "friction: 0.2, radius: 0.05, normal_force: 100, regularization_velocity: 1.0e-5";
  for (const std::string solver : {"generalized_alpha", "trapezoidal_index2", "rk4", "impulse"}) {
    INFO(solver);
    const bool imp = solver == "impulse";
    const Trace tr = run(
        imp ? wheel(fr, solver, 20, 2.5, 1e-3)
            : wheel(solver == "rk4" ? "friction: 0.2, radius: 0.05, normal_force: 100, regularization_velocity: 1.0e-3"
                                    : fr,
                    solver, 20, 2.5, 1e-4));
    double t_stop = 0;
    for (size_t i = 0; i < tr.t.size(); ++i)
      if (tr.col(i, 1) > 0.02) t_stop = tr.t[i];
    const double t_closed = 2.0 - 0.02 * kJ / 1.0;  // where ω passes 0.02 rad/s
    WARN(solver << ": w passes 0.02 rad/s at " << t_stop << " s (closed form " << t_closed << "), final angle "
                << tr.rows.back()[0] << " rad (closed form 20)");
    CHECK(std::abs(t_stop - t_closed) <= 1.5e-3);
    // The impulse stepper's positions are first order (symplectic Euler: h Σ ω_k falls short of the
    // integral by ω0 h / 2 under a constant deceleration).
    CHECK(std::abs(tr.rows.back()[0] - 20.0) < (imp ? 0.5 * 20 * 1e-3 + 1e-9 : 2e-3));
    if (!imp) {  // the friction sensor: −μ r N while slipping, power −μ r N ω
      const size_t i = 1000;  // t = 1 s, ω = 10 rad/s
      CHECK(tr.col(i, 2) == Approx(-1.0).epsilon(1e-9));
      CHECK(tr.col(i, 3) == Approx(0.0).margin(1e-12));
      CHECK(tr.col(i, 4) == Approx(-tr.col(i, 1)).epsilon(1e-9));
    }
  }
}

TEST_CASE("joint_friction: Stribeck curve and viscous friction against quadrature and exp(-c t/J)", "[forces][joint_friction]") {
  {  // Stribeck: T(ω) = r N (μ + (μ_s − μ) exp(−(r ω / v_s)²)); stop time ∫ J dω / T(ω) (Simpson, 2e5 panels).
    const double r = 0.05, Nn = 100, mu_k = 0.2, mu_s = 0.35, vs = 0.05, w0 = 5.0;
    auto T = [&](double w) { const double x = r * w / vs; return r * Nn * (mu_k + (mu_s - mu_k) * std::exp(-x * x)); };
    // Time from ω0 down to ω_end = 0.02 rad/s (the regularized law differs below a few v_ε / r).
    const double w_end = 0.02;
    const int n = 200000;
    double integral = 0;
    const double hw = (w0 - w_end) / n;
    for (int i = 0; i <= n; ++i) {
      const double w = w_end + i * hw;
      integral += (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2)) * kJ / T(w);
    }
    integral *= hw / 3;
    const Trace tr = run(wheel("friction: 0.2, static_friction: 0.35, stribeck_velocity: 0.05, radius: 0.05, "
                               "normal_force: 100, regularization_velocity: 1.0e-5",
                               "generalized_alpha", w0, 0.6, 1e-5));
    double t_cross = 0;
    for (size_t i = 1; i < tr.t.size(); ++i)
      if (tr.col(i - 1, 1) > w_end && tr.col(i, 1) <= w_end)  // linear interpolation between outputs
        t_cross = tr.t[i - 1] + (tr.col(i - 1, 1) - w_end) / (tr.col(i - 1, 1) - tr.col(i, 1)) * 0.001;
    WARN("Stribeck: w passes 0.02 rad/s at " << t_cross << " s, quadrature " << integral << " s");
    CHECK(std::abs(t_cross - integral) < 1e-5);
  }
  {  // viscous only: ω = ω0 exp(−c t / J), c = 0.05 N m s/rad, J = 0.1
    for (const std::string solver : {"generalized_alpha", "rk4"}) {
      const Trace tr = run(wheel("viscous_rotation: 0.05", solver, 10, 2.0, 1e-4));
      for (size_t i : {size_t{500}, size_t{1000}, size_t{2000}}) {
        const double w = 10 * std::exp(-0.05 * tr.t[i] / kJ);
        INFO(solver << " t " << tr.t[i]);
        CHECK(tr.col(i, 1) == Approx(w).epsilon(1e-6));
        CHECK(tr.col(i, 2) == Approx(-0.05 * w).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("joint_friction: a cylinder spinning and sliding stops both at once, like a point mass", "[forces][joint_friction]") {
  // m = 2 kg, r = 0.1 m, J = m r² = 0.02 kg m² about the axis x: the slip (r ω, ṡ) = (0.6, 0.8) m/s
  // decelerates at μ N / m = 2.943 m/s² along itself: stop at 1/2.943 s, s = 0.8 · 1/(2 · 2.943) m,
  // φ = 0.6 · 1/(2 · 2.943) / r rad.
  const double a = mu * N / m, tstop = 1.0 / a;
  for (const std::string solver : {"generalized_alpha", "impulse"}) {
    INFO(solver);
    const bool imp = solver == "impulse";
    const std::string text =
        "gravity: [0, 0, -9.81]\n"
        "bodies:\n"
        "  - {name: roll, mass: 2.0, inertia: [0.02, 0.05, 0.05, 0, 0, 0], velocity: [0.8, 0, 0], "
        "angular_velocity: [6.0, 0, 0]}\n"
        "joints:\n"
        "  - {name: shaft, type: cylindrical, bodies: [ground, roll], point: [0, 0, 0], axis: [1, 0, 0]}\n"
        "forces:\n"
        "  - {name: friction, type: joint_friction, joint: shaft, friction: 0.3, normal_force: 19.62, radius: 0.1,\n"
        "     regularization_velocity: 1.0e-5}\n"
        "sensors:\n"
        "  - {name: phi, joint: shaft, output: joint_angle}\n"
        "  - {name: s, joint: shaft, output: joint_displacement}\n"
        "solver: {type: " + solver + ", end_time: 0.5, step: " + (imp ? "0.0005" : "0.0001") + "}\n"
        "output: {every: 0.001}\n";
    const Trace tr = run(text);
    const size_t i = static_cast<size_t>(std::lround(0.5 * tstop / 0.001));  // halfway: both at half speed
    CHECK(tr.col(i, 1) == Approx(6.0 * (1 - tr.t[i] / tstop)).margin(imp ? 3e-3 : 1e-6));
    CHECK(tr.col(i, 3) == Approx(0.8 * (1 - tr.t[i] / tstop)).margin(imp ? 3e-4 : 1e-7));
    const double s_end = 0.8 * tstop / 2, phi_end = 0.6 * tstop / 2 / 0.1;
    WARN(solver << ": final s " << tr.rows.back()[2] << " m (closed form " << s_end << "), final angle "
                << tr.rows.back()[0] << " rad (closed form " << phi_end << ")");
    CHECK(tr.rows.back()[2] == Approx(s_end).epsilon(imp ? 2e-3 : 1e-4));
    CHECK(tr.rows.back()[0] == Approx(phi_end).epsilon(imp ? 2e-3 : 1e-4));
  }
}

TEST_CASE("joint_limit: an undamped penalty stop returns a wheel at -w0 after pi sqrt(J/k)", "[forces][joint_limit]") {
  // ω0 = 2 rad/s into the stop at 0.5 rad (reached at 0.25 s), k = 1000 N m/rad: contact π √(J/k) = 0.0314159 s.
  const std::string text =
      "gravity: [0, 0, -9.81]\n"
      "bodies:\n"
      "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0], angular_velocity: [0, 0, 2.0]}\n"
      "joints:\n"
      "  - {name: hub, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "forces:\n"
      "  - {name: stop, type: joint_limit, joint: hub, lower: -0.5, upper: 0.5, stiffness: 1000}\n"
      "sensors:\n"
      "  - {name: phi, joint: hub, output: joint_angle}\n"
      "solver: {type: generalized_alpha, end_time: 0.35, step: 1.0e-5}\n"
      "output: {every: 1.0e-5}\n";
  const Trace tr = run(text);
  double t_in = -1, t_out = -1;
  for (size_t i = 1; i < tr.t.size(); ++i) {
    const double a0 = tr.col(i - 1, 0) - 0.5, a1 = tr.col(i, 0) - 0.5;
    const double tc = tr.t[i - 1] + a0 / (a0 - a1) * (tr.t[i] - tr.t[i - 1]);
    if (a0 <= 0 && a1 > 0) t_in = tc;
    if (a0 > 0 && a1 <= 0) t_out = tc;
  }
  const double contact = std::acos(-1.0) * std::sqrt(kJ / 1000.0);
  WARN("revolute penalty stop: contact " << t_out - t_in << " s (closed form " << contact << "), rebound "
                                         << tr.rows.back()[1] << " rad/s (closed form -2)");
  CHECK(t_in == Approx(0.25).margin(1e-7));
  CHECK(t_out - t_in == Approx(contact).epsilon(1e-4));
  CHECK(tr.rows.back()[1] == Approx(-2.0).epsilon(1e-4));
}

TEST_CASE("joint_limit: the impulse stepper's stop rebounds at e times the impact speed", "[forces][joint_limit]") {
  for (double e : {0.0, 0.5, 0.8, 1.0}) {
    {  // a block at 1 m/s into the stop at 0.1 m
      const std::string text =
          "gravity: [0, 0, -9.81]\n"
          "bodies:\n"
          "  - {name: block, mass: 2.0, shape: {box: [0.1, 0.1, 0.1]}, velocity: [1.0, 0, 0]}\n"
          "joints:\n"
          "  - {name: slide, type: prismatic, bodies: [ground, block], point: [0, 0, 0], axis: [1, 0, 0]}\n"
          "forces:\n"
          "  - {name: stop, type: joint_limit, joint: slide, lower: -0.1, upper: 0.1, stiffness: 1.0e4, restitution: " +
          std::to_string(e) + "}\n"
          "sensors:\n"
          "  - {name: s, joint: slide, output: joint_displacement}\n"
          "solver: {type: impulse, end_time: 0.15, step: 0.001}\n"
          "output: {every: 0.001}\n";
      const Trace tr = run(text);
      const double v_after = tr.rows.back()[1];
      WARN("impulse, prismatic stop e " << e << ": rebound / impact speed " << -v_after / 1.0);
      CHECK(-v_after == Approx(e).margin(1e-9));
      double smax = -1;
      for (const auto& r : tr.rows) smax = std::max(smax, r[0]);
      CHECK(smax <= 0.1 + 1e-9);
    }
    {  // a wheel at 2 rad/s into the angle stop at 0.5 rad
      const std::string text =
          "gravity: [0, 0, -9.81]\n"
          "bodies:\n"
          "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.05, 0.1, 0, 0, 0], angular_velocity: [0, 0, 2.0]}\n"
          "joints:\n"
          "  - {name: hub, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}\n"
          "forces:\n"
          "  - {name: stop, type: joint_limit, joint: hub, upper: 0.5, stiffness: 1000, restitution: " +
          std::to_string(e) + "}\n"
          "sensors:\n"
          "  - {name: phi, joint: hub, output: joint_angle}\n"
          "solver: {type: impulse, end_time: 0.3, step: 0.001}\n"
          "output: {every: 0.001}\n";
      const Trace tr = run(text);
      WARN("impulse, revolute stop e " << e << ": rebound / impact speed " << -tr.rows.back()[1] / 2.0);
      CHECK(-tr.rows.back()[1] == Approx(2.0 * e).margin(1e-9));
    }
  }
}

TEST_CASE("joint_friction, joint_limit: bad inputs are refused at their keys", "[forces][joint_friction][io]") {
  auto problems = [](const std::string& forces, const std::string& extra = "",
                     const std::string& solver = "solver: {end_time: 1}\n") {
    const std::string text =
        "bodies:\n"
        "  - {name: a, mass: 1, inertia: [1, 1, 1, 0, 0, 0]}\n"
        "  - {name: b, mass: 1, inertia: [1, 1, 1, 0, 0, 0]}\n"
        "joints:\n"
        "  - {name: hinge, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
        "  - {name: slider, type: prismatic, bodies: [ground, b], point: [0, 0, 0], axis: [1, 0, 0]}\n"
        "  - {name: ball, type: spherical, bodies: [a, b], point: [0, 0, 0]}\n"
        "  - {name: cyl, type: cylindrical, bodies: [a, b], point: [0, 0, 0], axis: [0, 0, 1]}\n"
        "forces:\n" + forces + extra + solver;
    try {
      load_model_text(text, "bad.yaml");
    } catch (const LoadError& e) {
      return e.diagnostics();
    }
    return std::vector<Diagnostic>{};
  };
  auto one = [&](const std::string& item, const std::string& key, const std::string& what) {
    const auto d = problems("  - " + item + "\n");
    INFO(item);
    REQUIRE(d.size() == 1);
    CHECK(d[0].line == 10);
    CHECK(d[0].key_path == "forces[0]" + (key.empty() ? std::string() : "." + key));
    CHECK(d[0].message.find(what) != std::string::npos);
  };
  one("{name: f, type: joint_friction, joint: ball, friction: 0.1, normal_force: 1, radius: 0.1}", "joint",
      "acts on a revolute, prismatic or cylindrical joint");
  one("{name: f, type: joint_friction, joint: hinge, friction: 0.1, normal_force: 1}", "", "pin radius");
  one("{name: f, type: joint_friction, joint: slider, friction: 0.1}", "", "normal_force > 0");
  one("{name: f, type: joint_friction, joint: hinge, viscous_slide: 1}", "viscous_slide", "does not apply to a revolute");
  one("{name: f, type: joint_friction, joint: slider, friction: 0.1, normal_force: 1, radius: 0.1}", "radius",
      "does not apply to a prismatic");
  one("{name: f, type: joint_friction, joint: slider, friction: 0.1, normal_force: 1, static_friction: 0.2}",
      "", "needs stribeck_velocity");
  one("{name: f, type: joint_friction, joint: slider}", "", "no friction");
  one("{name: f, type: joint_friction, joint: slider, bodies: [ground, b], viscous_slide: 1}", "bodies",
      "bodies of its joint");
  one("{name: f, type: joint_limit, joint: cyl, upper: 1, stiffness: 10}", "joint", "acts on a revolute or prismatic joint");
  one("{name: f, type: joint_limit, joint: hinge, stiffness: 10}", "", "give lower, upper or both");
  one("{name: f, type: joint_limit, joint: hinge, upper: 1, stiffness: 10, restitution: 1.5}", "restitution",
      "in [0, 1]");
  // The impulse stepper's Coulomb friction is an impulse: its effort is not a sensor output there.
  const auto d = problems("  - {name: f, type: joint_friction, joint: slider, friction: 0.1, normal_force: 1}\n",
                          "sensors:\n  - {name: fr, force: f, output: joint_friction}\n",
                          "solver: {type: impulse, end_time: 1}\n");
  REQUIRE(!d.empty());
  CHECK(d[0].key_path == "sensors[0].output");
  CHECK(d[0].message.find("is not available with solver.type impulse") != std::string::npos);
}
