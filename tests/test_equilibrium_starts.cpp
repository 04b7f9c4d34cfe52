// Statics and modes from the poses a user starts from (io/Analyses.h: what `mbdae statics` and
// `mbdae modes` run): exactly at the equilibrium, near it, tilted, released horizontally, and at an
// unstable equilibrium. References are closed forms computed here from the models' data:
// the hanging pose, the frequency sqrt(m g L / I_pivot) of a physical pendulum, the roots of
// det(K − ω² M) = 0 of a double pendulum (Lagrange's equations in the absolute angles) and
// sqrt(k/m) of a bead held by a spring on a wire.

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Analyses.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

constexpr double kG = 9.81;

std::string example(const std::string& name) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name; }

std::string num(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

/// Body positions at the state q (v = 0).
Vec3 position_of(ModelAnalysis& a, const VecX& q, int body) {
  const VecX zero = VecX::Zero(q.size());
  a.kinematics().update(StateView{0.0, q, zero, zero, VecX()});
  return a.kinematics().position(body);
}

/// solve_statics with `steps` load steps, required to converge (else its message is shown).
StaticsReport statics_of(ModelAnalysis& a, int steps = 1) {
  StaticsSettings st;
  st.load_steps = steps;
  StaticsReport rep = solve_statics(a, st);
  INFO(rep.message);
  REQUIRE(rep.converged);
  return rep;
}

/// solve_modes about the static equilibrium (`steps` load steps), required to succeed.
ModesReport modes_at_equilibrium(ModelAnalysis& a, int steps = 1) {
  ModesSettings ms;
  ms.at_equilibrium = true;
  ms.statics.load_steps = steps;
  ModesReport md = solve_modes(a, ms);
  INFO(md.message);
  REQUIRE(md.ok);
  return md;
}

/// The frequencies (Hz) of the oscillating modes of a modes report (a conjugate pair, damped
/// frequency above 1e-3 Hz), ascending. The neutral directions (a spin about a rod) have a zero
/// stiffness, computed to round-off: a real pair ±s with |s| near zero, left out here.
std::vector<double> swinging_frequencies(const ModesReport& md) {
  std::vector<double> f;
  for (const Mode& m : md.modes)
    if (m.damped_frequency_hz > 1e-3) f.push_back(m.frequency_hz);
  return f;
}

// A 2 kg sphere of radius 0.05 m whose centre hangs L = 0.8 m below the pivot, on a joint of the
// given type, started turned by `tilt` (rad) about z about the pivot, at rest. The universal
// joint's cross arm (axis_b, world axes at the start) is the bob's x axis, so that it is horizontal
// when the bob hangs (an arm tilted by β from the horizontal would turn the sphere about the
// vertical as it swings about the arm: I = m L² cos²β + 2/5 m r², another frequency).
constexpr double kMass = 2.0, kLength = 0.8, kRadius = 0.05;

std::string pendulum(const std::string& joint, double tilt) {
  return "gravity: [0, -9.81, 0]\nbodies:\n  - {name: bob, mass: 2.0, shape: {sphere: 0.05}, position: [" +
         num(kLength * std::sin(tilt)) + ", " + num(-kLength * std::cos(tilt)) +
         ", 0], orientation: {axis: [0, 0, 1], angle: " + num(tilt) + "}}\njoints:\n  - {name: pivot, type: " + joint +
         ", bodies: [ground, bob], point: [0, 0, 0]" +
         (joint == "revolute"    ? ", axis: [0, 0, 1]"
          : joint == "universal" ? ", axis: [0, 0, 1], axis_b: [" + num(std::cos(tilt)) + ", " + num(std::sin(tilt)) + ", 0]"
                                 : "") +
         "}\nsolver: {end_time: 1.0, step: 1.0e-3}\n";
}

// Two uniform rods (1 kg, 1 m, spin inertia 1e-4) on spherical joints, end to end, hanging from
// the origin, the whole chain started turned by `tilt` about z.
std::string chain(double tilt) {
  auto body = [&](const char* name, double d) {
    return std::string("  - {name: ") + name +
           ", mass: 1.0, inertia: [1.0e-4, 0.0833333333333333333, 0.0833333333333333333, 0, 0, 0], position: [" +
           num(d * std::sin(tilt)) + ", " + num(-d * std::cos(tilt)) + ", 0], orientation: {axis: [0, 0, 1], angle: " +
           num(tilt - M_PI / 2) + "}}\n";
  };
  return "gravity: [0, -9.81, 0]\nbodies:\n" + body("upper", 0.5) + body("lower", 1.5) +
         "joints:\n  - {name: shoulder, type: spherical, bodies: [ground, upper], point: [0, 0, 0]}\n"
         "  - {name: elbow, type: spherical, bodies: [upper, lower], point: [" +
         num(std::sin(tilt)) + ", " + num(-std::cos(tilt)) + ", 0]}\nsolver: {end_time: 1.0, step: 1.0e-3}\n";
}

/// The two frequencies (Hz) of a double pendulum of uniform rods (mass m, length l, moment of
/// inertia J about the COM for the swing) in its plane: M = [J + m l²/4 + m l², m l²/2;
/// m l²/2, J + m l²/4], K = m g l [3/2, 0; 0, 1/2], det(K − ω² M) = 0.
std::pair<double, double> double_pendulum_hz(double m, double l, double J) {
  const double M11 = J + m * l * l / 4 + m * l * l, M12 = m * l * l / 2, M22 = J + m * l * l / 4;
  const double K11 = 1.5 * m * kG * l, K22 = 0.5 * m * kG * l;
  const double A = M11 * M22 - M12 * M12, B = -(K11 * M22 + K22 * M11), C = K11 * K22;
  const double disc = std::sqrt(B * B - 4 * A * C);
  return {std::sqrt((-B - disc) / (2 * A)) / (2 * M_PI), std::sqrt((-B + disc) / (2 * A)) / (2 * M_PI)};
}

}  // namespace

TEST_CASE("statics and modes at and near the equilibrium: spherical, revolute and universal pendulums",
          "[analyses][statics][modes]") {
  // Small swings about the hanging pose: f = sqrt(m g L / I) / 2π about any horizontal axis
  // through the pivot, I = m L² + 2/5 m r² (a sphere, parallel axes).
  const double I = kMass * kLength * kLength + 0.4 * kMass * kRadius * kRadius;
  const double f = std::sqrt(kMass * kG * kLength / I) / (2 * M_PI);
  struct Case {
    const char* joint;
    int swings;  // swinging modes (each at f)
  };
  for (const Case c : {Case{"spherical", 2}, Case{"revolute", 1}, Case{"universal", 2}}) {
    for (double tilt : {0.0, 1e-6, 1e-3, 0.3}) {
      for (int steps : {1, 4}) {
        INFO(c.joint << ", started turned by " << tilt << " rad, " << steps << " load steps");
        const LoadedModel m = load_model_text(pendulum(c.joint, tilt), "pendulum.yaml");
        ModelAnalysis a(m);
        const StaticsReport rep = statics_of(a, steps);
        CHECK(rep.steps.back().unstable_directions == 0);
        CHECK((position_of(a, rep.q, 0) - Vec3(0, -kLength, 0)).norm() < 1e-9);
        const ModesReport md = modes_at_equilibrium(a, steps);
        const std::vector<double> fs = swinging_frequencies(md);
        REQUIRE(fs.size() == static_cast<size_t>(c.swings));
        for (double x : fs) CHECK(std::abs(x / f - 1) < 1e-9);
        CHECK(md.rigid_body_modes == (c.joint == std::string("spherical") ? 1 : 0));  // the spin about the rod
      }
    }
  }
}

TEST_CASE("statics and modes at and near the equilibrium: a chain of two rods on spherical joints",
          "[analyses][statics][modes]") {
  // Swings in the two vertical planes, each at the double pendulum's two frequencies (the rods'
  // inertia is 1/12 m l² about both axes across them); the spins about the rods are neutral.
  const auto [f1, f2] = double_pendulum_hz(1.0, 1.0, 1.0 / 12);
  for (double tilt : {0.0, 1e-3, 0.3}) {
    INFO("started turned by " << tilt << " rad");
    const LoadedModel m = load_model_text(chain(tilt), "chain.yaml");
    ModelAnalysis a(m);
    const StaticsReport rep = statics_of(a);
    CHECK(rep.steps.back().unstable_directions == 0);
    CHECK((position_of(a, rep.q, 0) - Vec3(0, -0.5, 0)).norm() < 1e-9);
    CHECK((position_of(a, rep.q, 1) - Vec3(0, -1.5, 0)).norm() < 1e-9);
    const ModesReport md = modes_at_equilibrium(a);
    const std::vector<double> fs = swinging_frequencies(md);
    REQUIRE(fs.size() == 4);
    CHECK(std::abs(fs[0] / f1 - 1) < 1e-9);
    CHECK(std::abs(fs[1] / f1 - 1) < 1e-9);
    CHECK(std::abs(fs[2] / f2 - 1) < 1e-9);
    CHECK(std::abs(fs[3] / f2 - 1) < 1e-9);
    CHECK(md.rigid_body_modes == 2);
  }
}

TEST_CASE("statics from a pendulum released horizontally reaches the hanging pose", "[analyses][statics][modes]") {
  // examples/models/simple_pendulum.yaml: a 1 kg sphere of radius 0.01 m, 1 m from the pivot.
  const LoadedModel m = load_model_file(example("simple_pendulum.yaml"));
  ModelAnalysis a(m);
  const StaticsReport rep = statics_of(a);
  CHECK(rep.steps.back().unstable_directions == 0);
  CHECK((position_of(a, rep.q, 0) - Vec3(0, -1, 0)).norm() < 1e-9);
  const double f = std::sqrt(kG / (1 + 0.4 * 1e-4)) / (2 * M_PI);
  const ModesReport md = modes_at_equilibrium(a);
  REQUIRE(md.modes.size() == 1);
  CHECK(std::abs(md.modes[0].frequency_hz / f - 1) < 1e-9);
  CHECK(std::abs(md.modes[0].damping_ratio) < 1e-9);
  CHECK(md.not_equilibrium.empty());
  // About the start (horizontal, at rest) the model is no equilibrium: the weight is unbalanced.
  const ModesReport md0 = solve_modes(a);
  REQUIRE(md0.ok);
  CHECK(md0.not_equilibrium.find("not an equilibrium") != std::string::npos);
  // M a at the start: the bob's centre accelerates downwards at g L² / (L² + 2/5 r²) (L = 1 m,
  // r = 0.01 m), m = 1 kg: the largest entry of M a is that force, at the bob's y.
  const double ma = kG / (1 + 0.4 * 1e-4);
  CHECK(std::abs(md0.unbalanced_force - ma) < 1e-9 * ma);
  CHECK(md0.max_speed == 0.0);
}

TEST_CASE("statics from a double pendulum released horizontally reaches the hanging pose", "[analyses][statics][modes]") {
  // examples/models/double_pendulum.yaml: rods 1 m × 0.04 m × 0.04 m of 1 kg on revolute joints.
  const LoadedModel m = load_model_file(example("double_pendulum.yaml"));
  ModelAnalysis a(m);
  const StaticsReport rep = statics_of(a);
  CHECK(rep.steps.back().unstable_directions == 0);
  CHECK((position_of(a, rep.q, 0) - Vec3(0, -0.5, 0)).norm() < 1e-9);
  CHECK((position_of(a, rep.q, 1) - Vec3(0, -1.5, 0)).norm() < 1e-9);
  const auto [f1, f2] = double_pendulum_hz(1.0, 1.0, (1.0 + 0.04 * 0.04) / 12);
  const ModesReport md = modes_at_equilibrium(a);
  REQUIRE(md.modes.size() == 2);
  CHECK(std::abs(md.modes[0].frequency_hz / f1 - 1) < 1e-9);
  CHECK(std::abs(md.modes[1].frequency_hz / f2 - 1) < 1e-9);
  CHECK_FALSE(solve_modes(a).not_equilibrium.empty());
}

TEST_CASE("statics of a bead that turns freely on a wire, held by a spring", "[analyses][statics][modes]") {
  // examples/models/bead_on_wire.yaml: m = 0.5 kg on a wire 30° below horizontal, k = 50 N/m, free
  // length 0.3 m from the wire's upper end (the origin): rest at L = 0.3 + m g sin 30° / k along
  // the wire, vibration at sqrt(k/m); the bead's three rotations have no stiffness.
  const LoadedModel m = load_model_file(example("bead_on_wire.yaml"));
  ModelAnalysis a(m);
  const StaticsReport rep = statics_of(a);
  CHECK(rep.steps.back().unstable_directions == 0);
  const double L = 0.3 + 0.5 * kG * 0.5 / 50;
  const Vec3 p = L * Vec3(std::cos(M_PI / 6), 0, -std::sin(M_PI / 6));
  CHECK((position_of(a, rep.q, 0) - p).norm() < 1e-9);
  const ModesReport md = modes_at_equilibrium(a);
  const std::vector<double> fs = swinging_frequencies(md);
  REQUIRE(fs.size() == 1);
  CHECK(std::abs(fs[0] / (10.0 / (2 * M_PI)) - 1) < 1e-9);
  CHECK(md.rigid_body_modes == 3);
  // The start turns (angular velocity 5 rad/s) and is off the spring's rest: no equilibrium.
  const ModesReport md0 = solve_modes(a);
  REQUIRE(md0.ok);
  CHECK(md0.not_equilibrium.find("moves") != std::string::npos);
  CHECK(md0.max_speed > 0);
}

TEST_CASE("statics of an inverted pendulum finds it and reports it unstable", "[analyses][statics][modes]") {
  // The pendulum of simple_pendulum.yaml started straight above its pivot: an equilibrium, unstable
  // in one direction; its linearisation has the real eigenvalues ±sqrt(m g L / I).
  const LoadedModel m = load_model_file(example("simple_pendulum.yaml"), {{"bodies[0].position", "[0, 1, 0]"}});
  ModelAnalysis a(m);
  const StaticsReport rep = statics_of(a);
  CHECK(rep.steps.back().unstable_directions == 1);
  CHECK((position_of(a, rep.q, 0) - Vec3(0, 1, 0)).norm() < 1e-9);
  const double s = std::sqrt(kG / (1 + 0.4 * 1e-4));
  const ModesReport md = modes_at_equilibrium(a);
  REQUIRE(md.modes.size() == 2);  // two real eigenvalues, −s and +s
  for (const Mode& mode : md.modes) {
    CHECK(std::abs(std::abs(mode.eigenvalue.real()) / s - 1) < 1e-9);
    CHECK(std::abs(mode.eigenvalue.imag()) < 1e-9 * s);
  }
  CHECK(md.modes[0].eigenvalue.real() * md.modes[1].eigenvalue.real() < 0);
  // At rest at an equilibrium the initial state is one: no warning.
  const ModesReport md0 = solve_modes(a);
  CHECK(md0.not_equilibrium.empty());
}
