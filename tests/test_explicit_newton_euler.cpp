// Unit tests of the Newton–Euler formulation and the explicit integrators: state layout, loads at
// points in world and body axes, damping, full (non-diagonal) inertia, quaternion policy, failures.

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>

using namespace mbdae;

namespace {

System one_body() {
  System s;
  RigidBody b;
  b.name = "b";
  b.mass = 3.0;
  b.inertia << 2.0, 3.0, 4.0, 0.1, -0.2, 0.3;  // about the reference point, with products
  b.com = Vec3(0.1, 0.0, -0.2);
  b.orientation = math::rot_y(0.5) * math::rot_z(0.2);
  b.position = Vec3(1, 2, 3);
  b.velocity = Vec3(0.1, 0.2, 0.3);
  b.angular_velocity = Vec3(0.5, -1.0, 2.0);
  s.add_body(b);
  return s;
}

}  // namespace

TEST_CASE("Newton-Euler initial state follows the documented layout", "[explicit][newton_euler]") {
  const System s = one_body();
  NewtonEulerSystem ne(s);
  VecX q, v;
  ne.initial_state(q, v);
  REQUIRE(q.size() == 7);
  REQUIRE(v.size() == 6);
  const RigidBody& b = s.bodies()[0];
  CHECK((q.head<3>() - (b.position + b.orientation * b.com)).norm() < 1e-15);
  CHECK((ne.rotation(0, q) - b.orientation).norm() < 1e-14);
  CHECK((ne.reference_position(0, q) - b.position).norm() < 1e-14);
  CHECK((ne.angular_velocity_world(0, q, v) - b.angular_velocity).norm() < 1e-14);
  CHECK((ne.com_velocity(0, v) - (b.velocity + b.angular_velocity.cross(b.orientation * b.com))).norm() < 1e-14);
  // Inertia about the COM by the parallel-axis theorem.
  const Mat3 Jo = b.inertia_tensor();
  const Mat3 Jc = Jo - b.mass * (b.com.squaredNorm() * Mat3::Identity() - b.com * b.com.transpose());
  CHECK((ne.inertia_com(0) - Jc).norm() < 1e-14);
}

TEST_CASE("Newton-Euler derivative: Euler's equations with a full inertia, loads, damping",
          "[explicit][newton_euler]") {
  System s = one_body();
  s.gravity = Vec3(0, 0, -9.81);
  Load f;
  f.name = "f_body";
  f.body = "b";
  f.point = Vec3(0.3, 0.2, 0.1);  // body axes, from the reference point
  f.value = Vec3(1.0, -2.0, 0.5);
  f.frame = Load::Frame::Body;
  s.add_load(f);
  Load tq;
  tq.name = "t_world";
  tq.kind = Load::Kind::Torque;
  tq.body = "b";
  tq.value = Vec3(0.2, 0.0, -0.1);
  s.add_load(tq);
  NewtonEulerOptions opt;
  opt.linear_damping = 0.5;
  opt.angular_damping = 0.25;
  NewtonEulerSystem ne(s, opt);
  VecX q, v, qd, vd;
  ne.initial_state(q, v);
  ne.derivative(0, q, v, qd, vd);
  const RigidBody& b = s.bodies()[0];
  const Mat3 R = b.orientation;
  const Vec3 wB = R.transpose() * b.angular_velocity;
  const Vec3 F = R * f.value + b.mass * s.gravity - 0.5 * ne.com_velocity(0, v);
  const Vec3 tauB = (f.point - b.com).cross(f.value) + R.transpose() * tq.value - 0.25 * wB;
  const Mat3& J = ne.inertia_com(0);
  CHECK((vd.head<3>() - F / b.mass).norm() < 1e-13);
  CHECK((vd.tail<3>() - J.inverse() * (tauB - wB.cross(J * wB))).norm() < 1e-12);
  CHECK((qd.head<3>() - v.head<3>()).norm() < 1e-15);
  // Q̇ matches R_dot = R w̃_B through finite differences of the rotation.
  const double eps = 1e-7;
  VecX q2 = q;
  q2.segment<4>(3) += eps * qd.segment<4>(3);
  const Mat3 Rdot = (ne.rotation(0, q2) - ne.rotation(0, q)) / eps;
  CHECK((Rdot - R * math::skew(wB)).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("Quaternion renormalisation policy", "[explicit][newton_euler]") {
  const System s = one_body();
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  double drift_on = 0, drift_off = 0;
  Vec3 w_on, w_off;
  ExplicitOptions o;
  o.step = 0.05;  // coarse: the norm drift of plain RK4 is visible
  o.t_end = 20;
  o.output_every = 1;
  o.renormalize = true;
  REQUIRE(solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
            drift_on = std::max(drift_on, std::abs(st.q.segment<4>(3).norm() - 1));
            w_on = st.v.tail<3>();
            return true;
          }).ok());
  o.renormalize = false;
  REQUIRE(solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
            drift_off = std::max(drift_off, std::abs(st.q.segment<4>(3).norm() - 1));
            w_off = st.v.tail<3>();
            return true;
          }).ok());
  INFO("||Q| - 1| with renormalisation " << drift_on << ", without " << drift_off);
  CHECK(drift_on < 1e-15);
  CHECK(drift_off > 1e-9);  // plain RK4 does not preserve |Q|
  // R is formed from Q/|Q|: the rotational motion does not depend on the policy beyond the
  // integration error level.
  CHECK((w_on - w_off).norm() < 1e-4);
}

TEST_CASE("Explicit solvers check settings and report failures", "[explicit][newton_euler]") {
  const System s = one_body();
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ExplicitOptions o;
  o.t_end = -1;
  CHECK_THROWS_AS(solve_explicit(ne, 0, q0, v0, o, nullptr), SolverSettingsError);
  o.t_end = 1;
  o.step = 0;
  CHECK_THROWS_AS(solve_explicit(ne, 0, q0, v0, o, nullptr), SolverSettingsError);
  o.step = 1e-2;
  o.output_every = 0.1;
  int calls = 0;
  const SolveResult r = solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
    ++calls;
    return st.t < 0.45;
  });
  CHECK(r.status == SolveStatus::StoppedByObserver);
  CHECK(calls == 6);
  CHECK(r.t_reached == Approx(0.5));
  CHECK(r.message.find("t = 0.5") != std::string::npos);
  // Dormand–Prince counts its evaluations and steps.
  o.method = ExplicitMethod::Dopri5;
  o.output_every = 0;
  const SolveResult d = solve_explicit(ne, 0, q0, v0, o, nullptr);
  REQUIRE(d.ok());
  CHECK(d.stats.steps > 0);
  CHECK(d.stats.residual_evaluations >= 6 * d.stats.steps);
}
