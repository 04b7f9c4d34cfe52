// A universal (Cardan) joint whose cross arms meet at 60° instead of 90°, between two shafts bent
// by 30°: the driven input against the exact kinematic relation of the skewed cross, derived here
// from the joint's definition (not from the program), with generalized-α, IDA and RK4; and a
// torque-driven run against an independent model of the same joint built from two revolute joints
// through a light cross body, with the energy balance (work of the torque = kinetic energy).
//
// Geometry (world, t0): shaft 1 turns about s1 = x, shaft 2 about s2 = (cos β, sin β, 0), β = 30°;
// the joint centre is the origin. Arm u1 = z is fixed in shaft 1, arm u2 = cos φ0 z + sin φ0 w,
// w = z × s2 = (−sin β, cos β, 0), is fixed in shaft 2, so u1·u2 = cos φ0 at t0, φ0 = 60°.
//
// Kinematic relation. Turning shaft 1 by θ1 about s1 and shaft 2 by θ2 about s2:
//   u1(θ1) = Rx(θ1) z,   u2(θ2) = cos θ2 u2 + sin θ2 (s2 × u2),
// and the joint holds u1(θ1)·u2(θ2) = cos φ0, i.e. A cos θ2 + B sin θ2 = C with A = u1(θ1)·u2,
// B = u1(θ1)·(s2 × u2), C = cos φ0, so θ2 = atan2(B, A) ± acos(C / √(A² + B²)), the sign fixed by
// θ2(0) = 0 and continuity. A real θ2 exists for every θ1 as long as β ≤ φ0 (A² + B² = 1 − (u1·s2)²
// ≥ cos² β > C²); for φ0 = 90° it is the textbook Cardan relation tan θ2 = tan θ1 / cos β (up to
// the choice of the zero angles).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {

constexpr double kPi = std::numbers::pi;
const double kBeta = kPi / 6;  // bend angle between the shafts
const double kPhi0 = kPi / 3;  // angle between the cross arms
const Vec3 kS1 = Vec3::UnitX();
const Vec3 kS2(std::cos(kBeta), std::sin(kBeta), 0);
const Vec3 kU1 = Vec3::UnitZ();
const Vec3 kU2 = std::cos(kPhi0) * Vec3::UnitZ() + std::sin(kPhi0) * Vec3(-std::sin(kBeta), std::cos(kBeta), 0);

/// Output angle θ2 for input θ1 (the root nearest `previous`).
double output_angle(double theta1, double previous) {
  const Vec3 u1 = math::rot_x(theta1) * kU1;
  const double A = u1.dot(kU2), B = u1.dot(kS2.cross(kU2)), C = std::cos(kPhi0);
  const double R = std::hypot(A, B);
  REQUIRE(R > std::abs(C));
  const double base = std::atan2(B, A), half = std::acos(C / R);
  double best = 0, err = 1e300;
  for (double r : {base + half, base - half}) {
    const double k = std::round((previous - r) / (2 * kPi));  // the branch nearest the previous value
    const double cand = r + 2 * kPi * k;
    if (std::abs(cand - previous) < err) {
      err = std::abs(cand - previous);
      best = cand;
    }
  }
  return best;
}

/// Angle of shaft 2 about s2 from its rotation matrix R = Rot(s2, θ2) Rz(β), near `previous`.
double shaft2_angle(const Mat3& R, double previous) {
  const Vec3 u = R * math::rot_z(kBeta).transpose() * kU2;
  const double a = std::atan2(u.dot(kS2.cross(kU2)), u.dot(kU2));
  return a + 2 * kPi * std::round((previous - a) / (2 * kPi));
}

RigidBody shaft(const std::string& name, const Vec3& axis, const Mat3& R) {
  RigidBody b;
  b.name = name;
  b.mass = 1.0;
  b.inertia << 0.01, 0.1, 0.1, 0, 0, 0;  // about the COM (the reference point), body x = shaft axis
  b.position = 0.5 * axis * (name == "in" ? -1 : 1);
  b.orientation = R;
  return b;
}

/// Shaft 1 ("in") turns about s1 and may slide along it; shaft 2 ("out") turns about s2 and slides
/// in the plane ⊥ s2 through its bearing (a planar joint); the two are joined at the origin either
/// by the skewed universal joint or (two_revolutes) by two revolute joints through a cross body of
/// mass `cross_mass`. The slides close the chain without redundant equations (the universal
/// joint's point rows fix both shafts), and the bearings' rotation rows (z_a·x_b, z_a·y_b) hold
/// for any shaft angle. The input is driven (θ1 = motion: a generic joint holding y, z and the
/// rotation, with the offset rx = θ1) or free with a constant torque `torque` about s1 (a
/// cylindrical joint).
System shafts(bool two_revolutes, const TimeFunction& motion, double torque, double cross_mass = 0) {
  System s;
  s.gravity = Vec3::Zero();
  s.add_body(shaft("in", kS1, Mat3::Identity()));
  s.add_body(shaft("out", kS2, math::rot_z(kBeta)));
  Joint in;
  in.name = "in_bearing";
  in.bodies = {"ground", "in"};
  in.point = -0.5 * kS1;
  in.axis = kS1;
  if (motion) {
    in.type = JointType::Generic;
    in.constrained = {false, true, true, true, true, true};
    in.offsets[3] = motion;
  } else {
    in.type = JointType::Cylindrical;
  }
  s.add_joint(in);
  Joint out;
  out.name = "out_bearing";
  out.type = JointType::Planar;
  out.bodies = {"ground", "out"};
  out.point = 0.5 * kS2;
  out.axis = kS2;
  s.add_joint(out);
  if (!two_revolutes) {
    Joint u;
    u.name = "cardan";
    u.type = JointType::Universal;
    u.bodies = {"in", "out"};
    u.point = Vec3::Zero();
    u.axis = kU1;
    u.axis_b = kU2;
    s.add_joint(u);
  } else {
    RigidBody c;
    c.name = "cross";
    c.mass = cross_mass;
    const double j = cross_mass * 1e-3;
    c.inertia << j, j, j, 0, 0, 0;
    s.add_body(c);
    s.add_revolute("arm1", "in", "cross", Vec3::Zero(), kU1);
    s.add_revolute("arm2", "cross", "out", Vec3::Zero(), kU2);
  }
  if (torque != 0) {
    Load l;
    l.name = "drive";
    l.kind = Load::Kind::Torque;
    l.body = std::string("in");
    l.value = torque * kS1;
    s.add_load(l);
  }
  return s;
}

TimeFunction ramp() {
  TimeFunction f;
  f.value = [](double t) { return 3 * t + 0.8 * std::sin(2 * t); };  // 0 at t0, never reverses
  f.velocity = [](double t) { return 3 + 1.6 * std::cos(2 * t); };
  f.acceleration = [](double t) { return -3.2 * std::sin(2 * t); };
  return f;
}

}  // namespace

TEST_CASE("universal joint with a 60-degree cross: the kinematic relation of the skewed cross",
          "[validation][joints][universal]") {
  const System s = shafts(false, ramp(), 0);
  const TimeFunction th1 = ramp();
  const PreparedSystem p = prepare(s);
  CHECK(p.redundancy.dependent_rows.empty());
  const MultibodySystem& mb = *p.system;
  ConstrainedSystem::Workspace ws = mb.make_workspace();
  const BodyIndex out = s.body_index("out"), in = s.body_index("in");
  for (SolverType st : {SolverType::GeneralizedAlpha, SolverType::Ida}) {
    SimulationSettings set;
    set.solver = st;
    set.t_end = 4.0;  // θ1 = 12.6 rad, two turns
    set.step = 1e-3;
    set.output_every = 0.01;
    set.rtol = 1e-9;
    set.atol = 1e-11;
    double prev2 = 0, prev_ref = 0, worst = 0, worst_in = 0;
    const SolveResult r = simulate(mb, 0.0, p.q0, p.v0, set, [&](const StateView& v) {
      const double ref = output_angle(th1(v.t), prev_ref);
      const double got = shaft2_angle(mb.rotation(out, v.q), prev2);
      prev_ref = ref;
      prev2 = got;
      worst = std::max(worst, std::abs(got - ref));
      // The input follows its motion (angle of shaft 1 about x).
      const Mat3 R1 = mb.rotation(in, v.q);
      const double a1 = std::atan2(R1(2, 1), R1(1, 1));
      worst_in = std::max(worst_in, std::abs(std::remainder(a1 - th1(v.t), 2 * kPi)));
      return true;
    });
    INFO(r.message);
    REQUIRE(r.ok());
    INFO(to_string(st) << ": max |θ2 − closed form| = " << worst << " rad, input error " << worst_in);
    CHECK(prev_ref > 12.0);  // the output made two turns as well
    CHECK(worst_in < 1e-8);
    CHECK(worst < 1e-8);
  }
  // The explicit path (Newton–Euler bodies, joints at acceleration level, projection).
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ExplicitOptions o;
  o.step = 1e-3;
  o.t_end = 4.0;
  o.output_every = 0.01;
  o.project_positions = o.project_velocities = true;
  double prev2 = 0, prev_ref = 0, worst = 0;
  const SolveResult r = solve_explicit(ne, 0.0, q0, v0, o, [&](const StateView& v) {
    const double ref = output_angle(th1(v.t), prev_ref);
    const double got = shaft2_angle(ne.rotation(out, v.q), prev2);
    prev_ref = ref;
    prev2 = got;
    worst = std::max(worst, std::abs(got - ref));
    return true;
  });
  REQUIRE(r.ok());
  INFO("rk4 with projection: max |θ2 − closed form| = " << worst << " rad");
  CHECK(worst < 1e-8);
}

TEST_CASE("universal joint with a 60-degree cross against two revolute joints and a light cross",
          "[validation][joints][universal]") {
  // A torque T = 0.5 N m on shaft 1 from rest, 2 s (θ1 reaches 50 rad); no gravity, no damping:
  // the kinetic energy equals T θ1. The cross of the two-revolute model has mass 1e-6 kg (shafts 1 kg), so the two
  // runs differ by O(1e-6) relatively.
  const double T = 0.5;
  struct Out {
    std::vector<double> th1, th2;
    double balance = 0;
  };
  auto run = [&](bool two) {
    const System s = shafts(two, TimeFunction{}, T, 1e-6);
    const PreparedSystem p = prepare(s);
    CHECK(p.redundancy.dependent_rows.empty());
    const MultibodySystem& mb = *p.system;
    ConstrainedSystem::Workspace ws = mb.make_workspace();
    const BodyIndex in = s.body_index("in"), out = s.body_index("out");
    SimulationSettings set;
    set.solver = SolverType::Ida;
    set.t_end = 2.0;
    set.output_every = 0.05;
    set.rtol = 1e-10;
    set.atol = 1e-12;
    Out o;
    double p1 = 0, p2 = 0;
    const SolveResult r = simulate(mb, 0.0, p.q0, p.v0, set, [&](const StateView& v) {
      const Mat3 R1 = mb.rotation(in, v.q);
      const double a = std::atan2(R1(2, 1), R1(1, 1));
      p1 = a + 2 * kPi * std::round((p1 - a) / (2 * kPi));
      p2 = shaft2_angle(mb.rotation(out, v.q), p2);
      o.th1.push_back(p1);
      o.th2.push_back(p2);
      // Kinetic energy (no potential) against the work of the torque.
      o.balance = std::max(o.balance, std::abs(mb.energy(ws, v.t, v.q, v.v) - T * p1));
      return true;
    });
    INFO(r.message);
    REQUIRE(r.ok());
    return o;
  };
  const Out u = run(false), c = run(true);
  REQUIRE(u.th1.size() == c.th1.size());
  INFO("universal: θ1(2 s) = " << u.th1.back() << " rad, θ2 = " << u.th2.back() << "; two revolutes: "
                               << c.th1.back() << ", " << c.th2.back());
  CHECK(u.th1.back() > 3.0);  // more than half a turn
  double d = 0;
  for (size_t k = 0; k < u.th1.size(); ++k)
    d = std::max({d, std::abs(u.th1[k] - c.th1[k]), std::abs(u.th2[k] - c.th2[k])});
  INFO("max angle difference " << d << " rad; energy balance " << u.balance << " J (universal), " << c.balance
                               << " J (two revolutes)");
  CHECK(d < 1e-5);
  // The kinetic energy reaches T θ1 ≈ 25 J; IDA at rtol 1e-10 over some hundred steps.
  CHECK(u.balance < 1e-8 * T * u.th1.back());
  CHECK(c.balance < 1e-8 * T * c.th1.back());
  // And both follow the kinematic relation (its root followed in steps of θ1 of at most 0.01 rad).
  double k = 0, prev = 0, th1 = 0;
  for (size_t i = 0; i < u.th1.size(); ++i) {
    const int n = 1 + static_cast<int>(std::abs(u.th1[i] - th1) / 0.01);
    for (int j = 1; j <= n; ++j) prev = output_angle(th1 + (u.th1[i] - th1) * j / n, prev);
    th1 = u.th1[i];
    k = std::max(k, std::abs(prev - u.th2[i]));
  }
  CHECK(k < 1e-8);
}
