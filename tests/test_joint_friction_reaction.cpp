// joint_friction with the joint's reaction as the normal force (`normal: reaction`) on the impulse
// stepper, against closed forms and an independent computation:
// - a block on a horizontal prismatic guide pressed by its weight (reaction m g): pushed by
//   2 μ m g for T1 and released, it accelerates and decelerates at μ g and stops at 2 T1 after
//   μ g T1² (v0² / (2 μ g) after the release); a push below μ m g does not move it; an extra
//   downward load F_z doubles the normal force (deceleration μ (g + F_z / m)), a preload N0 adds
//   μ N0 / m; nothing gives N;
// - a wheel on a horizontal revolute pin loaded by its weight: constant torque μ r m g, stop time
//   J ω0 / (μ r m g); with an axial load F_a and the friction arm r_a the torque is
//   μ (r m g + r_a F_a);
// - a pendulum whose pin friction follows the rod force, whose reaction changes all the time:
//   against a hand-written ODE (J_O φ̈ = m g l cos φ − μ r |F(φ, φ̇, φ̈)| sgn φ̇ with
//   F = m (a_C − g), solved for φ̈ at every evaluation, integrated by RK4 here); first-order
//   convergence of the stepper towards it, and far from the same ODE with a constant N = m g;
// - the solvers that do not take it refuse it at its key, and the formulations by the element's name.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

struct Trace {
  std::vector<double> t;
  std::vector<std::vector<double>> rows;
  double col(size_t i, size_t k) const { return rows[i][k]; }
};

Trace run(const std::string& text, long* steps = nullptr) {
  const LoadedModel lm = load_model_text(text, "reaction_friction.yaml");
  ModelRun r(lm);
  Trace tr;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    tr.t.push_back(s.t);
    tr.rows.emplace_back(row.begin(), row.end());
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  if (steps) *steps = static_cast<long>(res.stats.steps);
  return tr;
}

constexpr double g = 9.81, mu = 0.3, m = 2.0, T1 = 0.5;

/// The block on the guide along x, gravity −z; `push` an expression of t along x, `down` a constant
/// force along −z, `extra` more keys of the friction; columns s, ṡ.
std::string block(const std::string& push, double down, const std::string& extra, double t_end,
                  const std::string& solver = "impulse") {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: block, mass: 2.0, shape: {box: [0.1, 0.1, 0.1]}, position: [0, 0, 0]}\n"
         "joints:\n"
         "  - {name: slide, type: prismatic, bodies: [ground, block], point: [0, 0, 0], axis: [1, 0, 0]}\n"
         "forces:\n"
         "  - {name: push, type: force, body: block, value: [\"" + push + "\", 0, " + std::to_string(-down) + "]}\n"
         "  - {name: friction, type: joint_friction, joint: slide, friction: 0.3, normal: reaction" + extra + "}\n"
         "sensors:\n"
         "  - {name: s, joint: slide, output: joint_displacement}\n"
         "solver: {type: " + solver + ", end_time: " + std::to_string(t_end) + ", step: 0.001}\n"
         "output: {every: 0.001}\n";
}

size_t at(const Trace& tr, double t) {
  const auto i = static_cast<size_t>(std::lround(t / 0.001));
  REQUIRE(std::abs(tr.t[i] - t) < 1e-9);
  return i;
}

/// The mean acceleration of ṡ between t0 and t1.
double mean_accel(const Trace& tr, double t0, double t1) {
  return (tr.col(at(tr, t1), 1) - tr.col(at(tr, t0), 1)) / (t1 - t0);
}

}  // namespace

TEST_CASE("joint_friction by reaction: a block pressed by its weight slips at mu g and stops after v0^2/(2 mu g)",
          "[forces][joint_friction][reaction]") {
  const double F = 2 * mu * m * g;  // accelerates at μ g while pushed, decelerates at μ g after
  const Trace tr = run(block("t < 0.5 ? " + std::to_string(F) + " : 0", 0, "", 1.5));
  const double a = mu * g, v1 = a * T1;
  const double accel = mean_accel(tr, 0.1, 0.4), decel = -mean_accel(tr, 0.6, 0.9);
  // Stop: the first output after the release with ṡ = 0 (the stepper stops within a step).
  double t_stop = -1;
  for (size_t i = 0; i < tr.t.size(); ++i)
    if (tr.t[i] > T1 && tr.col(i, 1) == 0 && t_stop < 0) t_stop = tr.t[i];
  const double dist = tr.rows.back()[0] - tr.col(at(tr, T1), 0);
  WARN("block, normal: reaction, impulse h 1e-3: accel " << accel << " (mu g " << a << "), decel " << decel
                                                         << ", stop at " << t_stop << " s (closed form 2 T1 = 1 s), "
                                                         << "distance after release " << dist << " m (v0^2/(2 mu g) "
                                                         << v1 * v1 / (2 * a) << " m)");
  CHECK(accel == Approx(a).epsilon(1e-9));
  CHECK(decel == Approx(a).epsilon(1e-9));
  CHECK(std::abs(t_stop - 2 * T1) <= 1e-3 + 1e-9);
  // Symplectic Euler: h Σ v_k misses the integral of a linear decay by at most v1 h / 2.
  CHECK(std::abs(dist - v1 * v1 / (2 * a)) <= 0.5 * v1 * 1e-3 + 1e-9);
  CHECK(tr.rows.back()[1] == 0.0);
}

TEST_CASE("joint_friction by reaction: a push below mu m g does not move the block", "[forces][joint_friction][reaction]") {
  for (double frac : {0.5, 0.99}) {
    const Trace tr = run(block(std::to_string(frac * mu * m * g), 0, "", 1.0));
    WARN("stick, push " << frac << " mu m g: displacement " << tr.rows.back()[0] << " m");
    CHECK(std::abs(tr.rows.back()[0]) < 1e-12);
  }
  // Just above the limit it slips at (push − μ m g) / m.
  const Trace tr = run(block(std::to_string(1.1 * mu * m * g), 0, "", 1.0));
  CHECK(mean_accel(tr, 0.2, 0.8) == Approx(0.1 * mu * g).epsilon(1e-8));
}

TEST_CASE("joint_friction by reaction: the normal force follows the load and adds the preload", "[forces][joint_friction][reaction]") {
  // Released at 2 m/s: deceleration μ N / m with N = m g + F_z (+ N0).
  auto decel = [](double down, const std::string& extra) {
    std::string text = block("0", down, extra, 0.4);
    text.replace(text.find("position: [0, 0, 0]}"), 20, "position: [0, 0, 0], velocity: [2.0, 0, 0]}");
    const Trace tr = run(text);
    return -mean_accel(tr, 0.05, 0.25);
  };
  const double d1 = decel(m * g, "");                        // the weight again pressed on: N = 2 m g
  const double d2 = decel(0, ", normal_force: 10");          // preload N0 = 10 N: N = m g + 10
  const double d3 = decel(m * g, ", normal_force: 10");      // both
  WARN("decelerations: load m g " << d1 << " (2 mu g " << 2 * mu * g << "), preload 10 N " << d2 << " ("
                                  << mu * (g + 10 / m) << "), both " << d3 << " (" << mu * (2 * g + 10 / m) << ")");
  CHECK(d1 == Approx(2 * mu * g).epsilon(1e-9));
  CHECK(d2 == Approx(mu * (g + 10 / m)).epsilon(1e-9));
  CHECK(d3 == Approx(mu * (2 * g + 10 / m)).epsilon(1e-9));
}

namespace {

/// A wheel (m = 5 kg, J = 0.1 kg m² about its axis y) on a horizontal pin, gravity −z; `axial` N
/// pushed along the axis; columns φ, φ̇.
std::string wheel(double w0, double axial, const std::string& extra, double t_end) {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: wheel, mass: 5.0, inertia: [0.05, 0.1, 0.05, 0, 0, 0], angular_velocity: [0, " +
         std::to_string(w0) + ", 0]}\n"
         "joints:\n"
         "  - {name: hub, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 1, 0]}\n"
         "forces:\n"
         "  - {name: thrust, type: force, body: wheel, value: [0, " + std::to_string(axial) + ", 0]}\n"
         "  - {name: friction, type: joint_friction, joint: hub, friction: 0.2, radius: 0.05, normal: reaction" +
         extra + "}\n"
         "sensors:\n"
         "  - {name: phi, joint: hub, output: joint_angle}\n"
         "solver: {type: impulse, end_time: " + std::to_string(t_end) + ", step: 0.001}\n"
         "output: {every: 0.001}\n";
}

/// The first output time with φ̇ = 0 exactly (the stepper's stop), -1 if none.
double stop_time(const Trace& tr) {
  for (size_t i = 1; i < tr.t.size(); ++i)
    if (tr.col(i, 1) == 0) return tr.t[i];
  return -1;
}

}  // namespace

TEST_CASE("joint_friction by reaction: a wheel on a pin loaded by its weight stops at J w0 / (mu r m g)",
          "[forces][joint_friction][reaction]") {
  const double J = 0.1, mw = 5.0, r = 0.05, mu_w = 0.2, w0 = 10.0;
  {
    const double T = mu_w * r * mw * g, t_closed = J * w0 / T;  // 0.4905 N m, 2.0387 s
    const Trace tr = run(wheel(w0, 0, "", 2.5));
    const double alpha = -(tr.col(at(tr, 1.5), 1) - tr.col(at(tr, 0.5), 1)) / 1.0;
    WARN("wheel: deceleration " << alpha << " rad/s^2 (mu r m g / J " << T / J << "), stop at " << stop_time(tr)
                                << " s (J w0 / (mu r m g) " << t_closed << " s)");
    CHECK(alpha == Approx(T / J).epsilon(1e-9));
    CHECK(stop_time(tr) >= t_closed - 1e-9);
    CHECK(stop_time(tr) <= t_closed + 1e-3 + 1e-9);
  }
  {  // axial load 30 N with the friction arm r_a = 0.08 m: T = μ (r m g + r_a F_a)
    const double Fa = 30, ra = 0.08;
    const double T = mu_w * (r * mw * g + ra * Fa), t_closed = J * w0 / T;
    const Trace tr = run(wheel(w0, Fa, ", axial_radius: 0.08", 2.5));
    const double alpha = -(tr.col(at(tr, 1.0), 1) - tr.col(at(tr, 0.2), 1)) / 0.8;
    WARN("wheel with axial load: deceleration " << alpha << " rad/s^2 (" << T / J << "), stop at " << stop_time(tr)
                                                << " s (" << t_closed << " s)");
    CHECK(alpha == Approx(T / J).epsilon(1e-9));
    CHECK(stop_time(tr) >= t_closed - 1e-9);
    CHECK(stop_time(tr) <= t_closed + 1e-3 + 1e-9);
    // Without the arm the axial load presses nothing: the weight's torque alone.
    const Trace tr0 = run(wheel(w0, Fa, "", 1.0));
    const double alpha0 = -(tr0.col(at(tr0, 0.8), 1) - tr0.col(at(tr0, 0.2), 1)) / 0.6;
    CHECK(alpha0 == Approx(mu_w * r * mw * g / J).epsilon(1e-9));
  }
}

namespace {

// The pendulum: a bob (m = 1 kg, J_C = 0.01 kg m²) with its centre l = 0.5 m from a pin about y,
// released horizontal; φ the rotation about +y (the centre at l (cos φ, 0, −sin φ)).
constexpr double pm = 1.0, pl = 0.5, pJc = 0.01, pmu = 0.3, pr = 0.05;

struct PendulumOde {
  bool constant_normal = false;  // N = m g instead of the reaction
  /// φ̈ from J_O φ̈ = m g l cos φ − μ r N sgn φ̇ with N = |F| = m |a_C − g| (a_C depends on φ̈):
  /// a fixed point with the contraction μ r m l / J_O < 1, iterated to round-off.
  double accel(double phi, double w) const {
    const double JO = pJc + pm * pl * pl;
    const double drive = pm * g * pl * std::cos(phi);
    const double s = w > 0 ? 1.0 : (w < 0 ? -1.0 : (drive > 0 ? 1.0 : -1.0));
    double a = drive / JO;
    for (int it = 0; it < 200; ++it) {
      const double ax = pl * (-std::sin(phi) * a - std::cos(phi) * w * w);
      const double az = pl * (-std::cos(phi) * a + std::sin(phi) * w * w) + g;
      const double N = constant_normal ? pm * g : pm * std::hypot(ax, az);
      const double an = (drive - pmu * pr * N * s) / JO;
      const bool done = std::abs(an - a) <= 1e-15 * std::max(1.0, std::abs(a));
      a = an;
      if (done) break;
    }
    return a;
  }
  /// (φ, φ̇) at the times `ts` (multiples of h), classical RK4 with step h from rest at φ = 0.
  std::vector<std::pair<double, double>> solve(const std::vector<double>& ts, double h) const {
    double phi = 0, w = 0, t = 0;
    std::vector<std::pair<double, double>> out;
    size_t k = 0;
    while (k < ts.size()) {
      if (std::abs(t - ts[k]) < 0.5 * h) {
        out.emplace_back(phi, w);
        ++k;
        continue;
      }
      const double k1p = w, k1w = accel(phi, w);
      const double k2p = w + 0.5 * h * k1w, k2w = accel(phi + 0.5 * h * k1p, w + 0.5 * h * k1w);
      const double k3p = w + 0.5 * h * k2w, k3w = accel(phi + 0.5 * h * k2p, w + 0.5 * h * k2w);
      const double k4p = w + h * k3w, k4w = accel(phi + h * k3p, w + h * k3w);
      phi += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
      w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
      t += h;
    }
    return out;
  }
};

std::string pendulum(double step, double t_end) {
  std::ostringstream h;  // exactly (std::to_string keeps 6 decimals)
  h.precision(17);
  h << step;
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: bob, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.5, 0, 0]}\n"
         "joints:\n"
         "  - {name: pin, type: revolute, bodies: [ground, bob], point: [0, 0, 0], axis: [0, 1, 0]}\n"
         "forces:\n"
         "  - {name: friction, type: joint_friction, joint: pin, friction: 0.3, radius: 0.05, normal: reaction}\n"
         "sensors:\n"
         "  - {name: c, body: bob, output: position}\n"
         "  - {name: w, body: bob, output: angular_velocity}\n"
         "solver: {type: impulse, end_time: " + std::to_string(t_end) + ", step: " + h.str() + "}\n"
         "output: {every: 0.05}\n";
}

}  // namespace

TEST_CASE("joint_friction by reaction: a pendulum's pin friction follows the rod force (against an ODE)",
          "[forces][joint_friction][reaction]") {
  const double t_end = 2.5;
  std::vector<double> ts;
  for (int k = 0; k <= 50; ++k) ts.push_back(0.05 * k);
  const auto ref = PendulumOde{}.solve(ts, 1e-5);
  const auto cst = PendulumOde{true}.solve(ts, 1e-5);
  // The ODE's own accuracy: the same at half the step.
  const auto ref2 = PendulumOde{}.solve(ts, 2e-5);
  double ode_err = 0, far = 0;
  for (size_t k = 0; k < ts.size(); ++k) {
    ode_err = std::max(ode_err, std::abs(ref[k].first - ref2[k].first));
    far = std::max(far, std::abs(ref[k].first - cst[k].first));
  }
  std::vector<double> errs;
  for (double h : {1e-3, 2.5e-4, 6.25e-5}) {
    long steps = 0;
    const Trace tr = run(pendulum(h, t_end), &steps);
    REQUIRE(tr.t.size() == ts.size());
    // Every step lands on the output grid: t_end / h steps, no extra step where the accumulated
    // time falls short of an output time by round-off (each would shift the motion by h).
    CHECK(steps == std::lround(t_end / h));
    double e_phi = 0, e_w = 0;
    for (size_t k = 0; k < ts.size(); ++k) {
      const double phi = std::atan2(-tr.col(k, 2), tr.col(k, 0));
      // φ runs in [0, π] here (the bob stays below the pin): no wrap.
      e_phi = std::max(e_phi, std::abs(phi - ref[k].first));
      e_w = std::max(e_w, std::abs(tr.col(k, 4) - ref[k].second));
    }
    WARN("pendulum, impulse h " << h << ": max |phi - phi_ODE| " << e_phi << " rad, max |w - w_ODE| " << e_w
                                << " rad/s over " << t_end << " s (ODE self-check " << ode_err
                                << " rad; constant-N ODE differs by " << far << " rad)");
    errs.push_back(e_phi);
  }
  // The reference is first order at the turnarounds (sgn φ̇ jumps within an RK4 step) but far
  // more accurate than what it checks.
  CHECK(ode_err < 0.01 * errs.back());
  // First order: a step 4 times smaller, an error about 4 times smaller.
  CHECK(errs[1] < 0.35 * errs[0]);
  CHECK(errs[2] < 0.35 * errs[1]);
  CHECK(errs[2] < 0.02 * far);
}

TEST_CASE("joint_friction by reaction: refused by the solvers and formulations that do not take it",
          "[forces][joint_friction][reaction][io]") {
  int refused = 0;
  for (const SolverInfo& info : solvers()) {
    if (!info.support.joints || !info.support.force_elements || info.support.reaction_friction) continue;
    const std::string solver = info.name;
    INFO(solver);
    ++refused;
    try {
      load_model_text(block("0", 0, "", 1.0, solver), "bad.yaml");
      FAIL("not refused");
    } catch (const LoadError& e) {
      const auto d = e.diagnostics();
      REQUIRE(d.size() == 1);
      CHECK(d[0].key_path == "forces[1].normal");
      CHECK(d[0].line == 8);
      CHECK(d[0].message.find("handled by impulse, not by " + solver) != std::string::npos);
    }
  }
  CHECK(refused >= 4);  // generalized_alpha, trapezoidal_index2, rk4, dopri5 (and ida where built)
  // The C++ path: the formulations name the element.
  System s;
  RigidBody b;
  b.name = "block";
  b.mass = 2.0;
  b.inertia << 0.01, 0.01, 0.01, 0, 0, 0;
  s.add_body(b);
  Joint j;
  j.name = "slide";
  j.type = JointType::Prismatic;
  j.bodies = {"ground", "block"};
  j.axis = Vec3::UnitX();
  s.add_joint(j);
  ForceElement& f = s.add_joint_friction("rubbing", "slide");
  f.friction = 0.3;
  f.normal_from_reaction = true;
  CHECK_THROWS_WITH(MultibodySystem(s), Catch::Contains("force 'rubbing'") && Catch::Contains("normal: reaction"));
  CHECK_THROWS_WITH(NewtonEulerSystem(s), Catch::Contains("force 'rubbing'") && Catch::Contains("normal: reaction"));
  NewtonEulerOptions o;
  o.joint_elements_by_impulses = true;
  CHECK_NOTHROW(NewtonEulerSystem(s, o));
}

TEST_CASE("joint_friction by reaction: bad inputs are refused at their keys", "[forces][joint_friction][reaction][io]") {
  auto first = [](const std::string& item) {
    const std::string text =
        "bodies:\n"
        "  - {name: a, mass: 1, inertia: [1, 1, 1, 0, 0, 0]}\n"
        "joints:\n"
        "  - {name: hinge, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
        "  - {name: slider, type: prismatic, bodies: [a, ground], point: [0, 0, 0], axis: [1, 0, 0]}\n"
        "forces:\n"
        "  - " + item + "\n"
        "solver: {type: impulse, end_time: 1}\n";
    try {
      load_model_text(text, "bad.yaml");
    } catch (const LoadError& e) {
      REQUIRE(!e.diagnostics().empty());
      return e.diagnostics()[0];
    }
    FAIL("not refused: " << item);
    return Diagnostic{};
  };
  auto check = [&](const std::string& item, const std::string& key, const std::string& what) {
    INFO(item);
    const Diagnostic d = first(item);
    CHECK(d.key_path == "forces[0]" + (key.empty() ? std::string() : "." + key));
    CHECK(d.message.find(what) != std::string::npos);
  };
  check("{name: f, type: joint_friction, joint: slider, normal: reaction, viscous_slide: 1}", "normal",
        "no friction coefficient");
  check("{name: f, type: joint_friction, joint: slider, friction: 0.1, normal: reaction, axial_radius: 0.1}",
        "axial_radius", "not to a prismatic joint");
  check("{name: f, type: joint_friction, joint: hinge, friction: 0.1, radius: 0.1, normal_force: 1, axial_radius: 0.1}",
        "axial_radius", "with a given normal force");
  check("{name: f, type: joint_friction, joint: hinge, friction: 0.1, normal: reaction}", "", "pin radius");
  check("{name: f, type: joint_friction, joint: hinge, friction: 0.1, radius: 0.1, normal: sideways}", "normal",
        "given");
}
