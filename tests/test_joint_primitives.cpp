// The joint primitives (inline, inplane, orientation, parallel_axes, perpendicular), each run from
// a model file on every implicit solver and rk4 and compared with its closed form, derived here:
//
// - inline, a sphere whose centre (the joint point) slides on a line of slope α under gravity:
//   the reaction passes through the centre, so s(t) = v0 t + ½ g sin α t² along the line, the
//   spin ω0 stays constant (isotropic inertia, no torque) and |reaction| = m g cos α.
// - inplane, a box whose centre slides in a tilted plane (normal n): p(t) = p0 + v0 t + ½ a t²
//   with a = g − (g·n) n, whatever the box's tumbling does (the reaction acts at the centre);
//   |reaction| = m |g·n|.
// - orientation, a box thrown with v0 and pushed by a constant torque τ: no rotation at all, the
//   centre flies the parabola p0 + v0 t + ½ g t², the joint's reaction torque is −τ.
// - parallel_axes (world z), a box with principal axes on the world axes under a constant torque
//   τ: it spins about z only, ω_z = τ_z t / J_zz (ω × Jω = 0 about a principal axis), and falls
//   freely; the reaction torque is −(τ_x, τ_y, 0).
// - perpendicular (axis z on ground, axis_b = x on the body), a body of isotropic inertia J
//   spinning at w about its x axis with a torque c about z: with x_b = (cos ψ, sin ψ, 0),
//   L = J (w x_b + ψ̇ z) and L̇ = J ẇ x_b + J w ψ̇ z × x_b + J ψ̈ z = c z + T y_b, the reaction T
//   about y_b = z × x_b (the one direction the row blocks). So ẇ = 0, ψ = c t² / (2 J) and
//   T = J w ψ̇ = w c t: ω(t) = w x_b(ψ) + (c t / J) z.
// Tolerances: each solver's error over 1 s at h = 1e-3 s (second order: the motions here have
// accelerations of order 10 m/s² and 10 rad/s², so h² times that over 1 s is about 1e-5).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "RunTrace.h"

using namespace mbdae;

namespace {

constexpr double kG = 9.81;
const char* kSolvers[] = {"generalized_alpha", "trapezoidal_index2", "ida", "rk4"};

double value(const test::RunTrace& tr, size_t i, const std::string& col) { return tr.col(i, tr.col(col)); }

Vec3 vec(const test::RunTrace& tr, size_t i, const std::string& name) {
  return {value(tr, i, name + ".x"), value(tr, i, name + ".y"), value(tr, i, name + ".z")};
}

test::RunTrace run(const std::string& text, const char* solver) {
  return test::run_text(text, "primitive.yaml", {{"solver.type", solver}});
}

const std::string kSolverBlock = R"Y(
solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3, tolerance: {relative: 1.0e-10, absolute: 1.0e-12}}
output: {every: 0.1}
)Y";

}  // namespace

TEST_CASE("joint primitives: inline, a sphere sliding down a line", "[validation][joint][primitive]") {
  const double a = std::numbers::pi / 6, m = 2.0, v0 = 0.5;
  const Vec3 d(std::cos(a), 0, -std::sin(a)), w0(1, 2, 3), p0(0, 0, 1);
  const std::string text = R"Y(
name: inline
gravity: [0, 0, -9.81]
bodies:
  - {name: ball, mass: 2.0, shape: {sphere: 0.2}, position: [0, 0, 1],
     velocity: ["0.5*cos(pi/6)", 0, "-0.5*sin(pi/6)"], angular_velocity: [1, 2, 3]}
joints:
  - {name: rail, type: inline, bodies: [ground, ball], point: [0, 0, 1], axis: ["cos(pi/6)", 0, "-sin(pi/6)"]}
sensors:
  - {name: p, body: ball, output: position}
  - {name: w, body: ball, output: angular_velocity}
  - {name: r, joint: rail, output: reaction_force}
)Y" + kSolverBlock;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = run(text, solver);
    REQUIRE(tr.t.size() == 11);
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      const Vec3 p = p0 + (v0 * t + 0.5 * kG * std::sin(a) * t * t) * d;
      CHECK((vec(tr, i, "p") - p).norm() < 1e-5);
      CHECK((vec(tr, i, "w") - w0).norm() < 1e-5);
      if (std::string(solver) != "rk4" || i > 0) CHECK(std::abs(vec(tr, i, "r").norm() - m * kG * std::cos(a)) < 1e-4);
    }
  }
}

TEST_CASE("joint primitives: inplane, a tumbling box sliding in a tilted plane", "[validation][joint][primitive]") {
  const double b = 0.4, m = 3.0;
  const Vec3 n(0, std::sin(b), std::cos(b)), g(0, 0, -kG), p0(0.1, 0.2, 0.3);
  const Vec3 v0 = Vec3(0.7, 0.3 * std::cos(b), -0.3 * std::sin(b));  // in the plane
  const Vec3 acc = g - g.dot(n) * n;
  const std::string text = R"Y(
name: inplane
gravity: [0, 0, -9.81]
bodies:
  - {name: box, mass: 3.0, shape: {box: [0.4, 0.2, 0.1]}, position: [0.1, 0.2, 0.3],
     velocity: [0.7, "0.3*cos(0.4)", "-0.3*sin(0.4)"], angular_velocity: [2, -1, 4]}
joints:
  - {name: slide, type: inplane, bodies: [ground, box], point: [0.1, 0.2, 0.3], axis: [0, "sin(0.4)", "cos(0.4)"]}
sensors:
  - {name: p, body: box, output: position}
  - {name: r, joint: slide, output: reaction_force}
)Y" + kSolverBlock;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = run(text, solver);
    REQUIRE(tr.t.size() == 11);
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      CHECK((vec(tr, i, "p") - (p0 + v0 * t + 0.5 * acc * t * t)).norm() < 1e-5);
      if (std::string(solver) != "rk4" || i > 0) CHECK(std::abs(vec(tr, i, "r").norm() - m * kG * std::cos(b)) < 1e-4);
    }
  }
}

TEST_CASE("joint primitives: orientation, a thrown box under a torque does not turn", "[validation][joint][primitive]") {
  const Vec3 p0(0, 0, 2), v0(1, -0.5, 3), g(0, 0, -kG), tau(0.3, -0.2, 0.5);
  const std::string text = R"Y(
name: orientation
gravity: [0, 0, -9.81]
bodies:
  - {name: box, mass: 1.5, shape: {box: [0.3, 0.2, 0.1]}, position: [0, 0, 2], velocity: [1, -0.5, 3]}
joints:
  - {name: keep, type: orientation, bodies: [ground, box], point: [0, 0, 2]}
forces:
  - {type: torque, body: box, value: [0.3, -0.2, 0.5]}
sensors:
  - {name: p, body: box, output: position}
  - {name: w, body: box, output: angular_velocity}
  - {name: q, body: box, output: rotation}
  - {name: r, joint: keep, output: reaction_torque}
)Y" + kSolverBlock;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = run(text, solver);
    REQUIRE(tr.t.size() == 11);
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      CHECK((vec(tr, i, "p") - (p0 + v0 * t + 0.5 * g * t * t)).norm() < 1e-5);
      CHECK(vec(tr, i, "w").norm() < 1e-8);
      CHECK(vec(tr, i, "q").norm() < 1e-8);
      // The reaction torque about the joint point is −τ (the centre moves away from the joint
      // point, but the reaction has no force: the rotational rows carry torques only).
      if (std::string(solver) != "rk4" || i > 0) CHECK((vec(tr, i, "r") + tau).norm() < 1e-6);
    }
  }
}

TEST_CASE("joint primitives: parallel_axes, a box spun about z by a torque", "[validation][joint][primitive]") {
  const double m = 2.0, lx = 0.4, ly = 0.3;
  const double Jzz = m * (lx * lx + ly * ly) / 12;
  const Vec3 tau(0.6, -0.4, 0.25), p0(0, 0, 0), v0(0.2, 0, 1), g(0, 0, -kG);
  const std::string text = R"Y(
name: parallel_axes
gravity: [0, 0, -9.81]
bodies:
  - {name: box, mass: 2.0, shape: {box: [0.4, 0.3, 0.2]}, velocity: [0.2, 0, 1]}
joints:
  - {name: keep, type: parallel_axes, bodies: [ground, box], point: [0, 0, 0], axis: [0, 0, 1]}
forces:
  - {type: torque, body: box, value: [0.6, -0.4, 0.25]}
sensors:
  - {name: p, body: box, output: position}
  - {name: w, body: box, output: angular_velocity}
  - {name: r, joint: keep, output: reaction_torque}
)Y" + kSolverBlock;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = run(text, solver);
    REQUIRE(tr.t.size() == 11);
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      CHECK((vec(tr, i, "p") - (p0 + v0 * t + 0.5 * g * t * t)).norm() < 1e-5);
      CHECK((vec(tr, i, "w") - Vec3(0, 0, tau.z() * t / Jzz)).norm() < 1e-5);
      if (std::string(solver) != "rk4" || i > 0)
        CHECK((vec(tr, i, "r") + Vec3(tau.x(), tau.y(), 0)).norm() < 1e-5);
    }
  }
}

TEST_CASE("joint primitives: perpendicular, a spinning body turned about the other axis", "[validation][joint][primitive]") {
  // Sphere of radius 0.25 m, 4 kg: J = 2/5 m r² = 0.1 kg m².
  const double J = 0.1, w = 3.0, c = 0.2;
  const std::string text = R"Y(
name: perpendicular
gravity: [0, 0, 0]
bodies:
  - {name: rotor, mass: 4.0, shape: {sphere: 0.25}, angular_velocity: [3, 0, 0]}
joints:
  - {name: keep, type: perpendicular, bodies: [ground, rotor], point: [0, 0, 0], axis: [0, 0, 1], axis_b: [1, 0, 0]}
  - {name: centre, type: spherical, bodies: [ground, rotor], point: [0, 0, 0]}
forces:
  - {type: torque, body: rotor, value: [0, 0, 0.2]}
sensors:
  - {name: w, body: rotor, output: angular_velocity}
  - {name: r, joint: keep, output: reaction_torque}
)Y" + kSolverBlock;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = run(text, solver);
    REQUIRE(tr.t.size() == 11);
    for (size_t i = 0; i < tr.t.size(); ++i) {
      const double t = tr.t[i];
      const double psi = c * t * t / (2 * J);
      const Vec3 xb(std::cos(psi), std::sin(psi), 0);
      CHECK((vec(tr, i, "w") - (w * xb + (c * t / J) * Vec3::UnitZ())).norm() < 1e-5);
      if (std::string(solver) != "rk4" || i > 0) CHECK(std::abs(vec(tr, i, "r").norm() - w * c * t) < 1e-5);
    }
  }
}

TEST_CASE("joint primitives: a perpendicular joint's axes must be perpendicular at t0", "[joint][primitive][loader]") {
  const std::string text = R"Y(
name: bad
bodies:
  - {name: b, mass: 1, shape: {sphere: 0.1}}
joints:
  - {name: keep, type: perpendicular, bodies: [ground, b], point: [0, 0, 0], axis: [0, 0, 1],
     axis_b: [1, 0, 0.1]}
solver: {end_time: 1}
)Y";
  try {
    io::load_model_text(text, "bad.yaml");
    FAIL("loaded");
  } catch (const io::LoadError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("bad.yaml:7:14:") != std::string::npos);
    CHECK(what.find("axis_b") != std::string::npos);
    CHECK(what.find("not perpendicular") != std::string::npos);
  }
}

TEST_CASE("joint primitives: the bead-on-a-wire example oscillates at sqrt(k/m)", "[validation][joint][primitive][example]") {
  // The spring lies along the wire, so the spring length L obeys m L̈ = −k (L − L0) + m g sin 30°:
  // L(t) = Le + (L(0) − Le) cos(ω t), ω = √(k/m), Le = L0 + m g sin 30° / k, from rest at L(0) = 0.5 m.
  const double m = 0.5, k = 50, L0 = 0.3, w = std::sqrt(k / m), Le = L0 + m * kG * 0.5 / k;
  for (const char* solver : kSolvers) {
    INFO(solver);
    const test::RunTrace tr = test::run_loaded(io::load_model_file(
        std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/bead_on_wire.yaml", {{"solver.type", solver}}));
    const int L = tr.col("spring.length");
    double worst = 0, energy_drift = 0;
    for (size_t i = 0; i < tr.t.size(); ++i) {
      worst = std::max(worst, std::abs(tr.col(i, L) - (Le + (0.5 - Le) * std::cos(w * tr.t[i]))));
      energy_drift = std::max(energy_drift, std::abs(tr.col(i, tr.col("E")) - tr.col(0, tr.col("E"))));
    }
    // Second order at h = 1e-3 s over 2 s: the phase error of ω t is of order (ω h)² ω t / 12
    // ≈ 2e-4 rad, times the amplitude 0.15 m.
    CHECK(worst < 1e-4);
    CHECK(energy_drift < 1e-3);  // of the 0.56 J stored at the start
  }
}
