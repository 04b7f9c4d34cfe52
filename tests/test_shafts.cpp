// 1-D shafts (rotors and masses), their spring-dampers and loads, and the couplings belt, screw
// and bevel, against closed forms and independent runs:
// (1) two rotors geared at ratio r, a torque T on the first: the reduced inertia
//     α1 = T / (J1 + r² J2), α2 = −r α1 (Modelica's IdealGear; any dynamics text);
// (2) a rotor coupled 1:1 to a pendulum's revolute joint moves the pendulum as the same inertia
//     added to the pendulum's body about the hinge (an independent run of a model without shafts);
// (3) two rotors joined by a torsional spring: f = sqrt(k (J1 + J2) / (J1 J2)) / 2π from modes;
// (4) a screw (revolute screw, prismatic nut): x = L θ / 2π, θ counted by the joint's own angle,
//     and θ̈ = T / (J + m (L/2π)²);
// (5) a belt: r_a θ_a = r_b θ_b in the same sense (crossed: opposite), α_a = T / (J_a + (r_a/r_b)² J_b);
// (6) a bevel pair with perpendicular axes: θ_b = −(z_a/z_b) θ_a, by the joints' own angles;
// (7) the residual's tangent with shafts, shaft springs and couplings against finite differences;
// (8) refusals at their place in the file.

#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ResidualDifferences.h"

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Analyses.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

struct Sample {
  double t;
  VecX q, v, a, lambda;
};

std::unique_ptr<ModelRun> run(const LoadedModel& lm, std::vector<Sample>& out) {
  auto r = std::make_unique<ModelRun>(lm);
  const SolveResult res = r->run([&](const StateView& s, std::span<const double>) {
    out.push_back({s.t, s.q, s.v, s.a, s.lambda});
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  REQUIRE(r->multibody());
  return r;
}

struct SolverCase {
  const char* name;
  std::vector<Override> sets;
};
std::vector<SolverCase> implicit_solvers() {
  std::vector<SolverCase> out{{"generalized_alpha", {}},
                              {"generalized_alpha index2_ggl", {{"solver.formulation", "index2_ggl"}}},
                              {"trapezoidal_index2", {{"solver.type", "trapezoidal_index2"}}}};
  if (find_solver("ida"))
    out.push_back({"ida", {{"solver.type", "ida"}, {"solver.tolerance", "{relative: 1.0e-11, absolute: 1.0e-13}"}}});
  return out;
}

/// Unwraps a sequence of angles in (−π, π] sampled often enough (less than half a turn apart).
double unwrap(double previous, double wrapped) { return previous + std::remainder(wrapped - previous, 2 * M_PI); }

}  // namespace

TEST_CASE("rotor pair with a gear: the reduced inertia J1 + r^2 J2", "[shaft]") {
  const double J1 = 0.02, J2 = 0.3, r = 0.37, T = 1.5;
  const double a1 = T / (J1 + r * r * J2), a2 = -r * a1;
  const std::string text =
      "bodies: []\n"
      "shafts:\n"
      "  - {name: motor, type: rotor, inertia: 0.02, rate: 0}\n"
      "  - {name: load, type: rotor, inertia: 0.3, angle: 1.0}\n"
      "shaft_forces:\n"
      "  - {name: drive, type: load, shaft: motor, value: 1.5}\n"
      "couplings:\n"
      "  - {name: mesh, type: gear, joints: [motor, load], ratio: 0.37}\n"
      "sensors:\n"
      "  - {name: m, shaft: motor, output: shaft}\n"
      "  - {name: T, output: kinetic_energy}\n"
      "solver: {end_time: 2.0, step: 1.0e-3}\n"
      "output: {every: 0.25}\n";
  for (const SolverCase& c : implicit_solvers()) {
    INFO(c.name);
    const LoadedModel lm = load_model_text(text, "rotors.yaml", c.sets);
    std::vector<Sample> s;
    const auto rn = run(lm, s);
    const MultibodySystem* mb = rn->multibody();
    double worst = 0;
    for (const Sample& x : s) {
      const JointCoordinate m1 = mb->shaft_motion(0, x.q, x.v, x.a), m2 = mb->shaft_motion(1, x.q, x.v, x.a);
      // Linear coordinates moving quadratically in t: every solver reproduces them to round-off
      // (IDA to its tolerance).
      worst = std::max({worst, std::abs(m1.value - 0.5 * a1 * x.t * x.t) / (a1 * 2),
                        std::abs(m2.value - 1.0 - 0.5 * a2 * x.t * x.t) / (a1 * 2), std::abs(m1.rate - a1 * x.t) / (a1 * 2)});
      if (x.t > 0) {
        CHECK(std::abs(m1.acceleration - a1) <= 1e-7 * a1);
        CHECK(std::abs(m2.acceleration - a2) <= 1e-7 * a1);
      }
    }
    INFO("largest relative error of the angles and the rate: " << worst);
    CHECK(worst <= 1e-9);
    // The kinetic energy equals the work T θ1 of the torque.
    const Sample& e = s.back();
    const double Tkin = 0.5 * (J1 * e.v[mb->shaft_coordinate(0)] * e.v[mb->shaft_coordinate(0)] +
                               J2 * e.v[mb->shaft_coordinate(1)] * e.v[mb->shaft_coordinate(1)]);
    CHECK(std::abs(Tkin - T * e.q[mb->shaft_coordinate(0)]) <= 1e-9 * Tkin);
  }
}

TEST_CASE("a rotor coupled to a revolute joint acts as the same inertia on the joint's body", "[shaft]") {
  // A pendulum (COM 0.3 m from the hinge, gravity −y) from the horizontal; A: with a rotor of
  // J = 0.05 coupled 1:1 to its hinge; B: without it, the body's Jzz larger by 0.05.
  auto model = [](bool rotor) {
    return std::string("gravity: [0, -9.81, 0]\n"
                       "bodies:\n"
                       "  - {name: arm, mass: 1.2, com: [0.3, 0, 0], inertia: [0.03, 0.148, ") +
           (rotor ? "0.12" : "0.17") +
           ", 0, 0, 0]}\n"
           "joints:\n"
           "  - {name: hinge, type: revolute, bodies: [ground, arm], point: [0, 0, 0], axis: [0, 0, 1]}\n" +
           (rotor ? "shafts:\n"
                    "  - {name: flywheel, type: rotor, inertia: 0.05, angle: 2.0}\n"
                    "couplings:\n"
                    "  - {name: tie, type: linear, joints: [hinge, flywheel], coefficients: [1, -1]}\n"
                  : "") +
           "sensors:\n"
           "  - {name: hinge, joint: hinge, output: joint_angle}\n"
           "  - {name: E, output: energy}\n"
           "solver: {type: ida, end_time: 2.0, tolerance: {relative: 1.0e-11, absolute: 1.0e-13}}\n"
           "output: {every: 0.01}\n";
  };
  if (!find_solver("ida")) return;  // built without IDA
  std::vector<std::vector<double>> rows[2];
  for (int k = 0; k < 2; ++k) {
    const LoadedModel lm = load_model_text(model(k == 0), "pendulum.yaml", {});
    ModelRun r(lm);
    const SolveResult res = r.run([&](const StateView&, std::span<const double> row) {
      rows[k].emplace_back(row.begin(), row.end());
      return true;
    });
    INFO(res.message);
    REQUIRE(res.ok());
  }
  REQUIRE(rows[0].size() == rows[1].size());
  double worst_angle = 0, worst_rate = 0, worst_energy = 0;
  for (size_t i = 0; i < rows[0].size(); ++i) {
    worst_angle = std::max(worst_angle, std::abs(rows[0][i][0] - rows[1][i][0]));
    worst_rate = std::max(worst_rate, std::abs(rows[0][i][1] - rows[1][i][1]));
    worst_energy = std::max(worst_energy, std::abs(rows[0][i][2] - rows[1][i][2]));
  }
  INFO("largest differences: angle " << worst_angle << " rad, rate " << worst_rate << " rad/s, energy " << worst_energy
                                     << " J");
  CHECK(worst_angle <= 1e-7);
  CHECK(worst_rate <= 1e-6);
  CHECK(worst_energy <= 1e-7);
  // It swings: the angle passes −π/2 (the pendulum's bottom) and comes back.
  double lowest = 0;
  for (const auto& row : rows[0]) lowest = std::min(lowest, row[0]);
  CHECK(lowest < -2.5);
}

TEST_CASE("two rotors on a torsional spring: the frequency sqrt(k (J1 + J2) / (J1 J2)) / 2 pi from modes", "[shaft]") {
  const double J1 = 0.5, J2 = 2.0, k = 300.0;
  const double f = std::sqrt(k * (J1 + J2) / (J1 * J2)) / (2 * M_PI);
  const std::string text =
      "bodies: []\n"
      "shafts:\n"
      "  - {name: engine, type: rotor, inertia: 0.5}\n"
      "  - {name: wheel, type: rotor, inertia: 2.0, angle: 0.3}\n"
      "shaft_forces:\n"
      "  - {name: shaft, type: spring_damper, shafts: [engine, wheel], stiffness: 300}\n"
      "solver: {end_time: 1.0}\n";
  const LoadedModel lm = load_model_text(text, "oscillator.yaml", {});
  const ModelAnalysis an(lm);
  const ModesReport md = solve_modes(an);
  REQUIRE(md.ok);
  CHECK(md.dof == 2);
  CHECK(md.rigid_body_modes == 1);
  double got = 0;
  for (const Mode& m : md.modes)
    if (m.frequency_hz > 1e-6) got = m.frequency_hz;
  INFO("frequency " << got << " Hz, closed form " << f << " Hz");
  CHECK(std::abs(got - f) <= 1e-9 * f);
}

TEST_CASE("screw: x = lead theta / 2 pi and the reduced inertia", "[shaft][coupling]") {
  // A screw (J = 2e-4 kg m² about z) turned by a torque T = 0.02 N m drives a nut of 3 kg along z,
  // lead L = 5 mm per turn; θ̈ = T / (J + m (L/2π)²).
  const double J = 2e-4, m = 3.0, L = 0.005, T = 0.02;
  const double al = T / (J + m * std::pow(L / (2 * M_PI), 2));
  const std::string text =
      "bodies:\n"
      "  - {name: screw, mass: 0.5, inertia: [0.01, 0.01, 2.0e-4, 0, 0, 0], position: [0, 0, 0], rotation: rxyz}\n"
      "  - {name: nut, mass: 3.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, 0, 0.1]}\n"
      "joints:\n"
      "  - {name: bearing, type: revolute, bodies: [ground, screw], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "  - {name: guide, type: prismatic, bodies: [ground, nut], point: [0, 0, 0.1], axis: [0, 0, 1]}\n"
      "couplings:\n"
      "  - {name: thread, type: screw, joints: [bearing, guide], lead: 0.005}\n"
      "forces:\n"
      "  - {name: drive, type: torque, body: screw, value: [0, 0, 0.02]}\n"
      "solver: {end_time: 1.0, step: 1.0e-4}\n"
      "output: {every: 0.005}\n";
  for (const SolverCase& c : implicit_solvers()) {
    INFO(c.name);
    const LoadedModel lm = load_model_text(text, "screw.yaml", c.sets);
    std::vector<Sample> s;
    const auto r = run(lm, s);
    const MultibodySystem* mb = r->multibody();
    double theta = 0, worst = 0, worst_acc = 0;
    for (const Sample& x : s) {
      const JointCoordinate th = mb->joint_coordinate(0, x.t, x.q, x.v, x.a);
      const JointCoordinate xs = mb->joint_coordinate(1, x.t, x.q, x.v, x.a);
      theta = unwrap(theta, th.value);  // the joint's own angle, turns counted here
      worst = std::max(worst, std::abs(xs.value - L * theta / (2 * M_PI)));
      if (x.t > 0) worst_acc = std::max(worst_acc, std::abs(th.acceleration - al) / al);
    }
    INFO("largest |x - L theta / 2 pi| " << worst << " m over " << theta / (2 * M_PI) << " turns; acceleration error "
                                         << worst_acc);
    CHECK(theta > 4 * 2 * M_PI);
    CHECK(worst <= 1e-12);
    CHECK(worst_acc <= 1e-6);
  }
}

TEST_CASE("belt: r_a theta_a = r_b theta_b in the same sense, crossed in the opposite", "[shaft][coupling]") {
  const double Ja = 0.02, Jb = 0.5, ra = 0.1, rb = 0.25, T = 0.4;
  for (const bool crossed : {false, true}) {
    INFO((crossed ? "crossed" : "open"));
    const double sense = crossed ? -1.0 : 1.0;
    const double aa = T / (Ja + std::pow(ra / rb, 2) * Jb), ab = sense * ra / rb * aa;
    const std::string text =
        std::string("bodies:\n"
                    "  - {name: a, mass: 1.0, inertia: [0.01, 0.01, 0.02, 0, 0, 0], rotation: rxyz}\n"
                    "  - {name: b, mass: 2.0, inertia: [0.3, 0.3, 0.5, 0, 0, 0], position: [0.6, 0, 0], rotation: rxyz}\n"
                    "joints:\n"
                    "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
                    "  - {name: jb, type: revolute, bodies: [ground, b], point: [0.6, 0, 0], axis: [0, 0, 2]}\n"
                    "couplings:\n"
                    "  - {name: belt, type: belt, joints: [ja, jb], radii: [0.1, 0.25]") +
        (crossed ? ", crossed: true" : "") +
        "}\n"
        "forces:\n"
        "  - {name: drive, type: torque, body: a, value: [0, 0, 0.4]}\n"
        "solver: {end_time: 2.0, step: 1.0e-3}\n"
        "output: {every: 0.01}\n";
    const LoadedModel lm = load_model_text(text, "belt.yaml", {});
    std::vector<Sample> s;
    const auto r = run(lm, s);
    const MultibodySystem* mb = r->multibody();
    double tha = 0, thb = 0, worst = 0;
    for (const Sample& x : s) {
      const JointCoordinate ca = mb->joint_coordinate(0, x.t, x.q, x.v, x.a);
      const JointCoordinate cb = mb->joint_coordinate(1, x.t, x.q, x.v, x.a);
      tha = unwrap(tha, ca.value);
      thb = unwrap(thb, cb.value);
      worst = std::max({worst, std::abs(ra * tha - sense * rb * thb), std::abs(ra * ca.rate - sense * rb * cb.rate)});
      if (x.t > 0) {
        CHECK(std::abs(ca.acceleration - aa) <= 1e-7 * aa);
        CHECK(std::abs(cb.acceleration - ab) <= 1e-7 * aa);
      }
    }
    INFO("largest |r_a theta_a -+ r_b theta_b| and of the rates: " << worst);
    CHECK(tha > 2 * M_PI);
    CHECK(worst <= 1e-12 * (1 + ra * std::abs(tha)));  // Newton's relative tolerance on the row
  }
}

TEST_CASE("bevel gears with perpendicular axes: theta_b = -(z_a / z_b) theta_a", "[shaft][coupling]") {
  // Axes x and y meeting at the apex (the origin), each pointing from it towards its gear; the
  // pitch cones of 20 and 40 teeth at a 90° shaft angle: tan δ_a = z_a / z_b.
  const double za = 20, zb = 40, r = za / zb;
  const double da = std::atan(za / zb), db = M_PI / 2 - da;
  auto model = [&](const std::string& ratio_keys) {
    return "bodies:\n"
           "  - {name: a, mass: 1.0, inertia: [0.02, 0.01, 0.01, 0, 0, 0], position: [0.1, 0, 0]}\n"
           "  - {name: b, mass: 2.0, inertia: [0.3, 0.5, 0.3, 0, 0, 0], position: [0, 0.2, 0]}\n"
           "joints:\n"
           "  - {name: ja, type: revolute, bodies: [ground, a], point: [0.1, 0, 0], axis: [1, 0, 0]}\n"
           "  - {name: jb, type: revolute, bodies: [ground, b], point: [0, 0.2, 0], axis: [0, 1, 0]}\n"
           "couplings:\n"
           "  - {name: bevel, type: bevel, joints: [ja, jb], " + ratio_keys + "}\n"
           "forces:\n"
           "  - {name: drive, type: torque, body: a, value: [0.3, 0, 0]}\n"
           "solver: {end_time: 3.0, step: 1.0e-3}\n"
           "output: {every: 0.01}\n";
  };
  const std::string cones = "cone_angles: [" + std::to_string(da) + ", " + std::to_string(db) + "]";
  for (const std::string& keys : {std::string("teeth: [20, 40]"), cones}) {
    INFO(keys);
    const LoadedModel lm = load_model_text(model(keys), "bevel.yaml", {});
    REQUIRE(lm.system.couplings()[0].coefficients.size() == 2);
    CHECK(std::abs(lm.system.couplings()[0].coefficients[0] - r) <= 1e-6 * r);  // the cone angles to 7 digits
    std::vector<Sample> s;
    const auto run_ = run(lm, s);
    const MultibodySystem* mb = run_->multibody();
    const double rc = lm.system.couplings()[0].coefficients[0];
    double tha = 0, thb = 0, worst = 0;
    for (const Sample& x : s) {
      tha = unwrap(tha, mb->joint_coordinate(0, x.t, x.q, x.v).value);
      thb = unwrap(thb, mb->joint_coordinate(1, x.t, x.q, x.v).value);
      worst = std::max(worst, std::abs(thb + rc * tha));
    }
    INFO("largest |theta_b + r theta_a| " << worst << " rad over theta_a = " << tha);
    CHECK(tha > 2 * M_PI);
    CHECK(worst <= 1e-11);
  }
}

TEST_CASE("shafts: the residual's tangent against finite differences", "[shaft][jacobian]") {
  const std::string text =
      "bodies:\n"
      "  - {name: a, mass: 1.0, inertia: [0.1, 0.2, 0.3, 0, 0, 0]}\n"
      "joints:\n"
      "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 1, 1]}\n"
      "  - {name: js, type: prismatic, bodies: [ground, a], point: [0, 0, 0], axis: [1, 0, 0]}\n"
      "shafts:\n"
      "  - {name: r1, type: rotor, inertia: 0.4, angle: 0.2, rate: 1}\n"
      "  - {name: r2, type: rotor, inertia: 0.7}\n"
      "  - {name: m1, type: mass, mass: 3.0, position: 0.1, speed: -1}\n"
      "shaft_forces:\n"
      "  - {name: s12, type: spring_damper, shafts: [r1, r2], stiffness: 50, damping: 0.3, free_value: 0.1}\n"
      "  - {name: s2g, type: spring_damper, shafts: [r2, ground], stiffness: 20, damping: 0.2}\n"
      "  - {name: sm, type: spring_damper, shafts: [ground, m1], stiffness: 7}\n"
      "  - {name: u, type: load, shaft: r1, value: \"sin(3*t)\"}\n"
      "couplings:\n"
      "  - {name: g, type: bevel, joints: [ja, r2], teeth: [13, 29]}\n"
      "  - {name: s, type: screw, joints: [r1, m1], lead: 0.01}\n"
      "  - {name: p, type: rack_pinion, joints: [r2, js], radius: 0.05}\n"
      "solver: {end_time: 1.0}\n";
  const LoadedModel lm = load_model_text(text, "fd.yaml", {});
  const MultibodySystem mb(lm.system);
  ConstrainedSystem::Workspace ws = mb.make_workspace();
  const int n = mb.num_coordinates(), m = mb.num_constraints();
  VecX q(n), v(n);
  mb.initial_state(q, v);
  std::mt19937 gen(11);
  std::normal_distribution<double> N(0, 0.1);
  for (int i = 0; i < n; ++i) {
    q[i] += N(gen);
    v[i] += N(gen);
  }
  const VecX a = VecX::NullaryExpr(n, [&]() { return 3 * N(gen); });
  const VecX lam = VecX::NullaryExpr(m, [&]() { return 5 * N(gen); });
  const double t = 0.3, h = 1e-6, cq = 0.7, cv = 1.3, ca = 0.4;
  SparseMatrix A = mb.tangent_pattern();
  mb.assemble_tangent(ws, t, q, v, a, lam, cq, cv, ca, A);
  SparseMatrix M = mb.tangent_pattern();
  mb.assemble_mass(ws, q, M);
  const test::ResidualDifferences rd = test::residual_differences(mb, ws, t, q, v, a, lam, h);
  const MatX Tfd = rd.tangent(cq, cv, ca);
  const MatX& Mfd = rd.da;
  const double err = (MatX(A) - Tfd).cwiseAbs().maxCoeff(), scale = Tfd.cwiseAbs().maxCoeff();
  INFO("tangent: largest difference " << err << ", largest entry " << scale);
  CHECK(err <= 1e-6 * scale);
  CHECK((MatX(M) - Mfd).cwiseAbs().maxCoeff() <= 1e-6 * Mfd.cwiseAbs().maxCoeff());
  // The forces are the residual's negative at zero acceleration and multipliers.
  VecX f(n), r0(n);
  mb.forces(ws, t, q, v, f);
  mb.residual(ws, t, q, v, VecX::Zero(n), VecX::Zero(m), r0);
  CHECK((f + r0).cwiseAbs().maxCoeff() <= 1e-12 * (1 + f.cwiseAbs().maxCoeff()));
}

TEST_CASE("shafts and their couplings: mistakes are refused at their place", "[shaft][io]") {
  struct Bad {
    std::string text;
    std::string path, message;
  };
  const std::string head =
      "bodies:\n"
      "  - {name: a, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0]}\n"
      "joints:\n"
      "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "  - {name: jb, type: revolute, bodies: [ground, a], point: [1, 0, 0], axis: [0, 0, -1]}\n"
      "  - {name: jc, type: revolute, bodies: [ground, a], point: [0, 1, 1], axis: [1, 0, 0]}\n";
  const std::vector<Bad> bads{
      {head + "shafts:\n  - {name: ja, type: rotor, inertia: 1}\nsolver: {end_time: 1}\n", "shafts[0].name",
       "a joint is named 'ja' too"},
      {head + "shafts:\n  - {name: r, type: rotor, mass: 1}\nsolver: {end_time: 1}\n", "shafts[0].mass",
       "does not apply to a rotor"},
      {head + "shafts:\n  - {name: r, type: rotor, inertia: 0}\nsolver: {end_time: 1}\n", "shafts[0].inertia", "in (0"},
      {head + "shafts:\n  - {name: r, type: rotor, inertia: 1}\nshaft_forces:\n  - {name: k, type: spring_damper, "
              "shafts: [r, q], stiffness: 1}\nsolver: {end_time: 1}\n",
       "shaft_forces[0].shafts[1]", "unknown shaft 'q'"},
      {head + "shafts:\n  - {name: r, type: rotor, inertia: 1}\n  - {name: x, type: mass, mass: 1}\n"
              "shaft_forces:\n  - {name: k, type: spring_damper, shafts: [r, x], stiffness: 1}\nsolver: {end_time: 1}\n",
       "shaft_forces[0]", "connects a rotor and a mass"},
      {head + "shafts:\n  - {name: x, type: mass, mass: 1}\ncouplings:\n  - {name: g, type: gear, joints: [ja, x], "
              "ratio: 2}\nsolver: {end_time: 1}\n",
       "couplings[0].joints[1]", "shaft 'x' is a mass; a gear couples two revolute joints (or rotors)"},
      {head + "couplings:\n  - {name: b, type: belt, joints: [ja, jb], radii: [1, 2]}\nsolver: {end_time: 1}\n",
       "couplings[0].joints", "axes point the same way"},
      {head + "couplings:\n  - {name: b, type: bevel, joints: [ja, jb], teeth: [10, 20]}\nsolver: {end_time: 1}\n",
       "couplings[0].joints", "got parallel axes"},
      {head + "couplings:\n  - {name: b, type: bevel, joints: [ja, jc], teeth: [10, 20]}\nsolver: {end_time: 1}\n",
       "couplings[0].joints", "m apart"},
      {head + "couplings:\n  - {name: b, type: screw, joints: [ja, jb], lead: 0.1}\nsolver: {end_time: 1}\n",
       "couplings[0].joints[1]", "a screw couples a revolute joint (or a rotor) and then a prismatic joint"},
      {head + "couplings:\n  - {name: b, type: screw, joints: [ja, jb], lead: 0}\nsolver: {end_time: 1}\n",
       "couplings[0].lead", "must be nonzero"},
      {head + "shafts:\n  - {name: r, type: rotor, inertia: 1}\nsolver: {type: rk4, end_time: 1}\n", "shafts[0]",
       "1-D shafts and their efforts are handled by"},
      {head + "shafts:\n  - {name: r, type: rotor, inertia: 1}\nsensors:\n  - {name: s, shaft: r, body: a, output: "
              "shaft}\nsolver: {end_time: 1}\n",
       "sensors[0].body", "does not apply to output shaft"},
      {head + "sensors:\n  - {name: s, shaft: q, output: shaft}\nsolver: {end_time: 1}\n", "sensors[0].shaft",
       "unknown shaft 'q'"},
  };
  for (const Bad& b : bads) {
    INFO(b.text);
    bool found = false;
    try {
      (void)load_model_text(b.text, "bad.yaml", {});
    } catch (const LoadError& e) {
      for (const Diagnostic& d : e.diagnostics()) {
        INFO(d.key_path << ": " << d.message);
        if (d.key_path == b.path && d.message.find(b.message) != std::string::npos) found = true;
      }
      if (!found) {
        for (const Diagnostic& d : e.diagnostics()) UNSCOPED_INFO(d.key_path << ": " << d.message);
      }
    }
    CHECK(found);
  }
}
