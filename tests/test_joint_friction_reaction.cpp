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
// The implicit solvers (generalized-α, trapezoidal index 2, IDA), with the law regularized by
// tanh(v/v_ε):
// - the block: deceleration μ g while it slips, the stop distance v0²/(2 μ g) within the
//   regularization's share (π²/12) v_ε²/(μ g) plus μ g h², a push P below μ m g holds it creeping at
//   the regularized law's speed v_ε artanh(P/(μ m g)); the joint_friction sensor gives −μ m g;
// - the wheel: deceleration μ r m g / J (and with the axial arm), stopped by J ω0/(μ r m g);
// - the pendulum against the same hand-written ODE with the same tanh regularization (second order
//   as the step shrinks) and with the exact sgn law (within the regularization's effect), and its
//   energy: the friction's work (the sensor's power integrated) equals the energy lost;
// - ∂r/∂λ (assemble_multiplier_tangent) and ∂r/∂q, ∂r/∂v against central differences of the
//   residual.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/Analyses.h>
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

Trace run(const std::string& text, long* steps = nullptr, SolverStats* stats = nullptr) {
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
  if (stats) *stats = res.stats;
  return tr;
}

/// The implicit solvers that take the friction by reaction (ida where this build has it).
std::vector<std::string> implicit_solvers() {
  std::vector<std::string> out;
  for (const char* name : {"generalized_alpha", "trapezoidal_index2", "ida"})
    if (const SolverInfo* s = find_solver(name)) {
      REQUIRE(s->support.reaction_friction);
      out.push_back(name);
    }
  return out;
}

/// Replaces the first occurrence of `from` in `text` by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t i = text.find(from);
  REQUIRE(i != std::string::npos);
  return text.replace(i, from.size(), to);
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
  double veps = 0;               // > 0: tanh(r φ̇ / v_ε) in place of sgn φ̇ (the smooth solvers' law)
  /// φ̈ from J_O φ̈ = m g l cos φ − μ r N sgn φ̇ with N = |F| = m |a_C − g| (a_C depends on φ̈):
  /// a fixed point with the contraction μ r m l / J_O < 1, iterated to round-off.
  double accel(double phi, double w) const {
    const double JO = pJc + pm * pl * pl;
    const double drive = pm * g * pl * std::cos(phi);
    const double s = veps > 0 ? std::tanh(pr * w / veps) : (w > 0 ? 1.0 : (w < 0 ? -1.0 : (drive > 0 ? 1.0 : -1.0)));
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
      CHECK(d[0].message.find("handled by " + solver_names_where(+[](const SolverInfo& x) {
                                return x.support.reaction_friction;
                              }) + ", not by " + solver) != std::string::npos);
    }
  }
  CHECK(refused >= 2);  // rk4, dopri5
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
  MultibodyOptions mo;
  mo.reaction_friction = true;  // the time integrators that form ∂r/∂λ
  CHECK_NOTHROW(MultibodySystem(s, mo));
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

// ------------------------------------------------------------------------------------------------
// The implicit solvers.

namespace {

std::string exact(double x) {
  std::ostringstream o;
  o.precision(17);
  o << x;
  return o.str();
}

constexpr double veps_b = 1e-4;  // the regularization velocity of the checks, m/s

/// The block of block() on `solver` with v_ε = veps_b, released at v0 along the guide (or at rest).
std::string block_implicit(const std::string& solver, const std::string& push, double v0, double t_end) {
  std::string text = block(push, 0, ", regularization_velocity: " + exact(veps_b), t_end, solver);
  text = replaced(text, "position: [0, 0, 0]}", "position: [0, 0, 0], velocity: [" + exact(v0) + ", 0, 0]}");
  return replaced(text, "sensors:\n", "sensors:\n  - {name: fr, force: friction, output: joint_friction}\n");
}

}  // namespace

TEST_CASE("joint_friction by reaction, implicit solvers: the block slips at mu g and stops after v0^2/(2 mu g)",
          "[forces][joint_friction][reaction][implicit]") {
  const double v0 = 2.0, h = 1e-3, a = mu * g;
  const double dist = v0 * v0 / (2 * a);
  // Regularization: the tanh law decelerates at μ g tanh(v/v_ε) < μ g, so the block runs on by
  // (1/(μ g)) ∫ v (coth(v/v_ε) − 1) dv ≤ (π²/12) v_ε² / (μ g); the step that ends the slip adds at
  // most the distance of a step at the speed μ g h.
  const double bound = 3.14159265358979 * 3.14159265358979 / 12 * veps_b * veps_b / a + a * h * h;
  for (const std::string& solver : implicit_solvers()) {
    INFO(solver);
    SolverStats st;
    const Trace tr = run(block_implicit(solver, "0", v0, 1.0), nullptr, &st);
    // Columns: fr.torque, fr.force, fr.power, s, ṡ.
    const double decel = -(tr.col(at(tr, 0.5), 4) - tr.col(at(tr, 0.1), 4)) / 0.4;
    const double s_end = tr.rows.back()[3];
    WARN(solver << ", block v0 2 m/s, v_eps 1e-4, h 1e-3: decel " << decel << " (mu g " << a << "), stop distance "
                << s_end << " m (v0^2/(2 mu g) " << dist << ", error " << s_end - dist << ", bound " << bound
                << "), sensor force " << tr.col(at(tr, 0.3), 1) << " N (-mu m g " << -mu * m * g << "); "
                << double(st.newton_iterations) / double(st.steps) << " Newton iterations a step");
    CHECK(decel == Approx(a).epsilon(1e-7));
    CHECK(std::abs(s_end - dist) <= bound);
    CHECK(tr.col(at(tr, 0.3), 1) == Approx(-mu * m * g).epsilon(1e-9));
    CHECK(std::abs(tr.rows.back()[4]) < veps_b);
  }
}

TEST_CASE("joint_friction by reaction, implicit solvers: a push below mu m g holds the block creeping at the "
          "regularized law's speed",
          "[forces][joint_friction][reaction][implicit]") {
  for (const std::string& solver : implicit_solvers())
    for (double frac : {0.5, 0.99}) {
      INFO(solver << " push " << frac << " mu m g");
      const Trace tr = run(block_implicit(solver, std::to_string(frac * mu * m * g), 0.0, 1.0));
      // μ m g tanh(v/v_ε) = P: the creep speed v_ε artanh(P / (μ m g)), reached in a few v_ε/(μ g).
      const double creep = veps_b * std::atanh(std::stod(std::to_string(frac * mu * m * g)) / (mu * m * g));
      const double s_end = tr.rows.back()[3], v_end = tr.rows.back()[4];
      const double s_half = tr.col(at(tr, 0.5), 3);
      WARN(solver << ", push " << frac << " mu m g: speed " << v_end << " m/s (v_eps artanh " << creep
                  << "), displacement after 1 s " << s_end << " m, in the last 0.5 s " << s_end - s_half << " m");
      CHECK(v_end == Approx(creep).epsilon(1e-6));
      // Steady creep over the last half second; in all a displacement of the order of v_ε × 1 s
      // (the start, where tanh(v/v_ε) rises from 0, adds less than the creep of one second).
      CHECK(s_end - s_half == Approx(0.5 * creep).epsilon(1e-6));
      CHECK(s_end < 2 * creep * 1.0);
    }
}

TEST_CASE("joint_friction by reaction, implicit solvers: the wheel on a pin stops at J w0 / (mu r m g)",
          "[forces][joint_friction][reaction][implicit]") {
  const double J = 0.1, mw = 5.0, r = 0.05, mu_w = 0.2, w0 = 10.0;
  for (const std::string& solver : implicit_solvers())
    for (double Fa : {0.0, 30.0}) {
      INFO(solver << " axial load " << Fa);
      const double ra = 0.08;
      const double T = mu_w * (r * mw * g + (Fa > 0 ? ra * Fa : 0.0)), t_closed = J * w0 / T;
      std::string text = wheel(w0, Fa, std::string(Fa > 0 ? ", axial_radius: 0.08" : "") + ", regularization_velocity: " +
                                           exact(veps_b), std::round((t_closed + 0.1) * 1000) / 1000);
      text = replaced(text, "type: impulse", "type: " + solver);
      const Trace tr = run(text);
      const double alpha = -(tr.col(at(tr, 0.9), 1) - tr.col(at(tr, 0.1), 1)) / 0.8;
      // Just before the stop it still turns at α (t_closed − t); after it, below v_ε / r.
      const size_t before = static_cast<size_t>(std::floor((t_closed - 0.02) / 0.001));
      const double w_before = tr.col(before, 1), w_closed_before = T / J * (t_closed - tr.t[before]);
      const double w_after = tr.rows.back()[1];
      WARN(solver << ", wheel, axial load " << Fa << ": deceleration " << alpha << " rad/s^2 (" << T / J << "), w "
                  << w_before << " rad/s at " << tr.t[before] << " s (" << w_closed_before << "), w " << w_after
                  << " rad/s at J w0/(mu r m g) + 0.1 s = " << tr.t.back() << " s");
      // The Euler parameters' rotation is second order in the step: at h = 1e-3 and ω ≤ 10 rad/s
      // the deceleration errs by 4e-6 relative (1e-6 at h/2, 2.8e-7 at h/4, the same with a given
      // normal force); IDA by its tolerance (1e-6).
      CHECK(alpha == Approx(T / J).epsilon(1e-5));
      CHECK(std::abs(w_before - w_closed_before) <= 1e-5 * w0);
      CHECK(std::abs(w_after) < veps_b / r);
    }
}

namespace {

/// pendulum() on `solver` with v_ε (default 1e-4 m/s), output every `every`, and the friction's effort and
/// the energy as sensors (columns c.x, c.y, c.z, w.x, w.y, w.z, E, fr.torque, fr.force, fr.power).
std::string pendulum_implicit(const std::string& solver, double h, double t_end, double every, double veps = 1e-4) {
  std::string text = pendulum(h, t_end);
  text = replaced(text, "type: impulse", "type: " + solver);
  text = replaced(text, "normal: reaction}", "normal: reaction, regularization_velocity: " + exact(veps) + "}");
  text = replaced(text, "output: {every: 0.05}", "output: {every: " + exact(every) + "}");
  return replaced(text, "solver: {",
                  "  - {name: E, output: energy}\n  - {name: fr, force: friction, output: joint_friction}\nsolver: {");
}

}  // namespace

TEST_CASE("joint_friction by reaction, implicit solvers: the pendulum against the hand-written ODE, and its energy "
          "balance",
          "[forces][joint_friction][reaction][implicit]") {
  const double t_end = 2.5;
  std::vector<double> ts;
  for (int k = 0; k <= 50; ++k) ts.push_back(0.05 * k);
  // (a) The same regularized law, v_ε = 1e-3 m/s: at every turnaround the friction torque turns
  // over while |r φ̇| < a few v_ε, about 4 ms here, which the steps below resolve: second order.
  // (b) The exact Coulomb law (sgn), approached with v_ε = 1e-4 m/s (a turnover of 0.4 ms, which
  // steps of 1e-3 to 2.5e-4 s do not resolve: no clean order there, but errors far below the
  // reaction's effect).
  const auto reg = PendulumOde{false, 1e-3}.solve(ts, 1e-5);
  const auto reg2 = PendulumOde{false, 1e-3}.solve(ts, 2e-5);
  const auto reg4 = PendulumOde{false, 1e-4}.solve(ts, 1e-5);
  const auto sgn = PendulumOde{}.solve(ts, 1e-5);
  const auto cst = PendulumOde{true}.solve(ts, 1e-5);  // N = m g
  double ode_err = 0, reg_vs_sgn = 0, reg4_vs_sgn = 0, far = 0;
  for (size_t k = 0; k < ts.size(); ++k) {
    ode_err = std::max(ode_err, std::abs(reg[k].first - reg2[k].first));
    reg_vs_sgn = std::max(reg_vs_sgn, std::abs(reg[k].first - sgn[k].first));
    reg4_vs_sgn = std::max(reg4_vs_sgn, std::abs(reg4[k].first - sgn[k].first));
    far = std::max(far, std::abs(sgn[k].first - cst[k].first));
  }
  WARN("pendulum ODE: RK4 self-check (v_eps 1e-3) " << ode_err << " rad; tanh law vs sgn law: v_eps 1e-3 "
                                                    << reg_vs_sgn << " rad, v_eps 1e-4 " << reg4_vs_sgn
                                                    << " rad; constant N = m g differs by " << far << " rad");
  auto max_err = [&](const Trace& tr, const std::vector<std::pair<double, double>>& ref) {
    REQUIRE(tr.t.size() == ts.size());
    double e = 0;
    for (size_t k = 0; k < ts.size(); ++k)  // φ in [0, π] here (the bob stays below the pin): no wrap
      e = std::max(e, std::abs(std::atan2(-tr.col(k, 2), tr.col(k, 0)) - ref[k].first));
    return e;
  };
  for (const std::string& solver : implicit_solvers()) {
    INFO(solver);
    const bool ida = solver == "ida";
    std::vector<double> errs;
    for (double h : ida ? std::vector<double>{1e-3} : std::vector<double>{1e-3, 5e-4, 2.5e-4}) {
      SolverStats st;
      const Trace tr = run(pendulum_implicit(solver, h, t_end, 0.05, 1e-3), nullptr, &st);
      errs.push_back(max_err(tr, reg));
      WARN(solver << ", pendulum v_eps 1e-3, h " << h << ": max |phi - phi_ODE| " << errs.back() << " rad over "
                  << t_end << " s; " << double(st.newton_iterations) / double(st.steps)
                  << " Newton iterations a step, " << st.jacobian_evaluations << " Jacobians for " << st.steps
                  << " steps");
    }
    CHECK(ode_err < 0.01 * errs.back());
    if (ida) {
      CHECK(errs[0] < 1e-4);  // its tolerances (relative 1e-6)
    } else {
      // Second order: half the step, about a quarter of the error.
      CHECK(errs[1] < 0.3 * errs[0]);
      CHECK(errs[2] < 0.3 * errs[1]);
    }
    // (b) the exact law, v_ε = 1e-4 m/s, h = 2.5e-4 s (IDA: its own steps).
    const Trace tr = run(pendulum_implicit(solver, 2.5e-4, t_end, 0.05, 1e-4));
    const double e_sgn = max_err(tr, sgn);
    WARN(solver << ", pendulum v_eps 1e-4, h 2.5e-4: max |phi - phi_ODE(sgn)| " << e_sgn << " rad");
    CHECK(e_sgn < (ida ? 5e-4 : 1e-4) * far);  // IDA: by its tolerances (relative 1e-6)
  }
}

TEST_CASE("joint_friction by reaction, implicit solvers: the friction's work equals the energy lost",
          "[forces][joint_friction][reaction][implicit]") {
  for (const std::string& solver : implicit_solvers()) {
    INFO(solver);
    const double h = 2.5e-4;
    const Trace tr = run(pendulum_implicit(solver, h, 2.0, h));
    // W = ∫ power dt by the trapezoidal rule over the output times (every step).
    double W = 0;
    for (size_t k = 1; k < tr.t.size(); ++k) W += 0.5 * (tr.t[k] - tr.t[k - 1]) * (tr.col(k, 9) + tr.col(k - 1, 9));
    const double dE = tr.rows.back()[6] - tr.rows.front()[6];
    WARN(solver << ", pendulum h " << h << ": energy change " << dE << " J, friction work " << W << " J, difference "
                << dE - W << " J");
    CHECK(W < -0.1);
    // Both sides from the same run: they differ by the solver's energy error (second order in h;
    // IDA: its tolerance) and the quadrature of the power (trapezoidal over every step).
    CHECK(std::abs(dE - W) <= 2e-4 * std::abs(W));
  }
}

TEST_CASE("joint_friction by reaction: dr/dlambda, dr/dq, dr/dv against central differences of the residual",
          "[forces][joint_friction][reaction][implicit]") {
  // A pendulum and a slider on it (a revolute and a cylindrical joint, both with friction by
  // reaction, the revolute one with an axial arm), away from any symmetry.
  const std::string text =
      "gravity: [0.3, -0.2, -9.81]\n"
      "bodies:\n"
      "  - {name: arm, mass: 1.5, inertia: [0.02, 0.03, 0.025, 0.001, 0, 0.002], position: [0.4, 0.05, -0.1],\n"
      "     angular_velocity: [0.1, 1.3, -0.2], velocity: [0.1, 0.02, 0.4]}\n"
      "  - {name: sleeve, mass: 0.7, inertia: [0.004, 0.005, 0.006, 0, 0, 0], position: [0.6, 0.05, -0.15],\n"
      "     velocity: [0.2, 0.1, 0.3], angular_velocity: [0.3, 1.1, 0.4]}\n"
      "joints:\n"
      "  - {name: pin, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 1, 0]}\n"
      "  - {name: rod, type: cylindrical, bodies: [arm, sleeve], point: [0.6, 0.05, -0.15], axis: [0.9, 0, -0.2]}\n"
      "forces:\n"
      "  - {name: f1, type: joint_friction, joint: pin, friction: 0.3, radius: 0.05, normal: reaction, axial_radius: 0.08,"
      " regularization_velocity: 0.05, normal_force: 2}\n"
      "  - {name: f2, type: joint_friction, joint: rod, friction: 0.2, static_friction: 0.3, stribeck_velocity: 0.1,"
      " radius: 0.02, normal: reaction, regularization_velocity: 0.05}\n"
      "solver: {type: generalized_alpha, end_time: 1}\n";
  const LoadedModel lm = load_model_text(text, "fd.yaml");
  MultibodyOptions mo;
  mo.reaction_friction = true;
  const MultibodySystem sys(lm.system, mo);
  REQUIRE(sys.forces_read_multipliers());
  const int n = sys.num_coordinates(), mm = sys.num_constraints();
  VecX q(n), v(n), a(n), lam(mm);
  sys.initial_state(q, v);
  for (int i = 0; i < n; ++i) a[i] = 0.3 * std::sin(1.7 * i + 0.4);
  for (int i = 0; i < mm; ++i) lam[i] = 4.0 * std::cos(2.3 * i + 0.1) + (i % 2 ? 3.0 : -2.0);
  auto ws = sys.make_workspace();
  SparseMatrix D = sys.jacobian_pattern();
  sys.assemble_multiplier_tangent(ws, 0.0, q, v, lam, D);
  const MatX Dd = MatX(D);
  VecX rp(n), rm(n);
  double err_l = 0, scale_l = 0, fric_l = 0;
  SparseMatrix C = sys.jacobian_pattern();
  sys.assemble_jacobian(ws, 0.0, q, C);
  const MatX Cd = MatX(C);
  for (int k = 0; k < mm; ++k) {
    const double hk = 1e-6 * std::max(1.0, std::abs(lam[k]));
    VecX lp = lam, lm2 = lam;
    lp[k] += hk;
    lm2[k] -= hk;
    sys.residual(ws, 0.0, q, v, a, lp, rp);
    sys.residual(ws, 0.0, q, v, a, lm2, rm);
    const VecX col = (rp - rm) / (2 * hk);
    err_l = std::max(err_l, (col - Dd.row(k).transpose()).cwiseAbs().maxCoeff());
    scale_l = std::max(scale_l, col.cwiseAbs().maxCoeff());
    fric_l = std::max(fric_l, (Dd.row(k) - Cd.row(k)).cwiseAbs().maxCoeff());  // the friction's share
  }
  // ∂r/∂q and ∂r/∂v of the tangent (c_q = 1, then c_v = 1).
  double err_q = 0, err_v = 0, scale_q = 0, scale_v = 0;
  for (int pass = 0; pass < 2; ++pass) {
    SparseMatrix A = sys.tangent_pattern();
    sys.assemble_tangent(ws, 0.0, q, v, a, lam, pass == 0 ? 1.0 : 0.0, pass == 1 ? 1.0 : 0.0, 0.0, A);
    const MatX Ad = MatX(A);
    for (int k = 0; k < n; ++k) {
      VecX xp = pass == 0 ? q : v, xm = xp;
      const double hk = 1e-6 * std::max(1.0, std::abs(xp[k]));
      xp[k] += hk;
      xm[k] -= hk;
      if (pass == 0) {
        sys.residual(ws, 0.0, xp, v, a, lam, rp);
        sys.residual(ws, 0.0, xm, v, a, lam, rm);
      } else {
        sys.residual(ws, 0.0, q, xp, a, lam, rp);
        sys.residual(ws, 0.0, q, xm, a, lam, rm);
      }
      const VecX col = (rp - rm) / (2 * hk);
      (pass == 0 ? err_q : err_v) = std::max(pass == 0 ? err_q : err_v, (col - Ad.col(k)).cwiseAbs().maxCoeff());
      (pass == 0 ? scale_q : scale_v) = std::max(pass == 0 ? scale_q : scale_v, col.cwiseAbs().maxCoeff());
    }
  }
  WARN("tangents with friction by reaction vs central differences: dr/dlambda " << err_l << " (of " << scale_l
                                                                                << ", friction's share " << fric_l
                                                                                << "), dr/dq " << err_q << " (of "
                                                                                << scale_q << "), dr/dv " << err_v
                                                                                << " (of " << scale_v << ")");
  CHECK(fric_l > 0.01);  // the friction's ∂/∂λ is there
  CHECK(err_l <= 1e-6 * scale_l);
  CHECK(err_q <= 1e-5 * scale_q);
  CHECK(err_v <= 1e-5 * scale_v);
}

TEST_CASE("joint_friction by reaction: refused where its multipliers are not at hand (analyses, expressions)",
          "[forces][joint_friction][reaction][implicit][io]") {
  std::string text = block_implicit("generalized_alpha", "0", 1.0, 0.1);
  // The analyses (statics, modes, kinematics, inverse dynamics) have no multipliers in their forces.
  const LoadedModel lm = load_model_text(text, "analysis.yaml");
  CHECK_THROWS_WITH(ModelAnalysis(lm), Catch::Contains("force 'friction'") && Catch::Contains("normal: reaction"));
  // An expression cannot read its effort: that needs the joint's reaction, not only the motions.
  text = replaced(text, "sensors:\n",
                  "  - {name: extra, type: force, body: block, value: [\"sensor(fr).force\", 0, 0]}\nsensors:\n");
  try {
    load_model_text(text, "expression.yaml");
    FAIL("not refused");
  } catch (const LoadError& e) {
    REQUIRE(!e.diagnostics().empty());
    INFO(e.diagnostics()[0].message);
    CHECK(e.diagnostics()[0].message.find("whose normal force is its joint's reaction") != std::string::npos);
  }
}
