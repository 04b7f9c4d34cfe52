// Unit tests of the Newton–Euler formulation and the explicit integrators: state layout, loads at
// points in world and body axes, damping, full (non-diagonal) inertia, quaternion policy, failures.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <Eigen/LU>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Models.h>

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
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  VecX q, v, qd, vd;
  ne.initial_state(q, v);
  ne.derivative(ws, 0, q, v, qd, vd);
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

// ---- sparse joint solve: both methods against an independent dense computation ----------------

namespace {

RigidBody bar_body(const std::string& name, const Vec3& from, const Vec3& to) {
  // Uniform 1 kg bar of length |to − from| with a 0.1 × 0.1 m section, COM at mid-bar, body x
  // along the bar.
  RigidBody b;
  b.name = name;
  b.mass = 1;
  const double L = (to - from).norm();
  b.inertia << 0.02 / 12, (L * L + 0.01) / 12, (L * L + 0.01) / 12, 0, 0, 0;
  b.position = 0.5 * (from + to);
  const Vec3 x = (to - from) / L;
  const Vec3 t = std::abs(x.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitY();
  const Vec3 y = (t - x * x.dot(t)).normalized();
  b.orientation.col(0) = x;
  b.orientation.col(1) = y;
  b.orientation.col(2) = x.cross(y);
  return b;
}

/// A tree: trunk "t0" from the origin up to (0, 0, 1), two branches of two bars each from its
/// top, joints revolute (trunk, axes x and y) and spherical (branches).
System tree_model() {
  System s;
  s.gravity = Vec3(0, 0, -9.81);
  s.add_body(bar_body("t0", Vec3(0, 0, 0), Vec3(0, 0, 1)));
  s.add_revolute("g_t0", "ground", "t0", Vec3(0, 0, 0), Vec3(1, 0, 0));
  const Vec3 top(0, 0, 1);
  s.add_body(bar_body("l0", top, Vec3(1, 0, 1)));
  s.add_body(bar_body("l1", Vec3(1, 0, 1), Vec3(2, 0, 1.5)));
  s.add_body(bar_body("r0", top, Vec3(-1, 0.5, 1)));
  s.add_body(bar_body("r1", Vec3(-1, 0.5, 1), Vec3(-2, 0.5, 0.5)));
  s.add_revolute("t0_l0", "t0", "l0", top, Vec3(0, 1, 0));
  s.add_spherical("l0_l1", "l0", "l1", Vec3(1, 0, 1));
  s.add_spherical("t0_r0", "t0", "r0", top);
  s.add_revolute("r0_r1", "r0", "r1", Vec3(-1, 0.5, 1), Vec3(0, 0, 1));
  return s;
}

/// A spatial four-bar R-S-S-R: crank a (revolute about z at the origin), coupler, rocker b
/// (revolute about z at (2, 0, 0)); 16 independent joint equations for 18 coordinates.
System rssr_four_bar() {
  System s;
  s.gravity = Vec3(0, -9.81, 0);
  const Vec3 A(0, 0, 0), B(0, 1, 0), C(2, 1.2, 0), D(2, 0, 0);
  s.add_body(bar_body("crank", A, B));
  s.add_body(bar_body("coupler", B, C));
  s.add_body(bar_body("rocker", D, C));
  s.add_revolute("g_crank", "ground", "crank", A, Vec3(0, 0, 1));
  s.add_spherical("crank_coupler", "crank", "coupler", B);
  s.add_spherical("coupler_rocker", "coupler", "rocker", C);
  s.add_revolute("rocker_g", "rocker", "ground", D, Vec3(0, 0, 1));
  return s;
}

/// Applied forces of the test models (gravity only) plus the gyroscopic term, per body.
VecX independent_f(const NewtonEulerSystem& ne, const VecX& v) {
  VecX f(ne.num_v());
  for (int i = 0; i < ne.num_bodies(); ++i) {
    const Vec3 wB = ne.angular_velocity_body(i, v);
    f.segment<3>(6 * i) = ne.mass(i) * ne.model().gravity;
    f.segment<3>(6 * i + 3) = -wB.cross(ne.inertia_com(i) * wB);
  }
  return f;
}

/// Dense J (rows × 6n) at q from the columns J e_k.
MatX dense_jacobian(const NewtonEulerSystem& ne, const VecX& q) {
  MatX J(ne.num_joint_rows(), ne.num_v());
  VecX e = VecX::Zero(ne.num_v()), col;
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  for (int k = 0; k < ne.num_v(); ++k) {
    e[k] = 1;
    ne.joint_velocity_violation(ws, q, e, col);
    J.col(k) = col;
    e[k] = 0;
  }
  return J;
}

void check_sparse_solve(const System& s, const char* what) {
  INFO(what);
  NewtonEulerOptions os, oe;
  os.joint_solve = JointSolveMethod::Schur;
  oe.joint_solve = JointSolveMethod::EquationSystem;
  NewtonEulerSystem ns(s, os), ne(s, oe);
  NewtonEulerSystem::Workspace ws_ns = ns.make_workspace();
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  VecX q, v;
  ns.initial_state(q, v);
  // A moving, consistent state: random velocities projected onto J u = 0 (Schur), then
  // compared with the equation-system projection of the same velocities.
  std::srand(7);
  const VecX vr = VecX::Random(ns.num_v());
  VecX v1 = vr, v2 = vr;
  CHECK(ns.project_velocities(ws_ns, q, v1) < 1e-13);
  CHECK(ne.project_velocities(ws, q, v2) < 1e-13);
  CHECK((v1 - v2).norm() < 1e-12 * v1.norm());
  v = v1;
  VecX qd1, vd1, qd2, vd2;
  ns.derivative(ws_ns, 0, q, v, qd1, vd1);
  const VecX l1 = ns.last_multipliers(ws_ns);
  ne.derivative(ws, 0, q, v, qd2, vd2);
  const VecX l2 = ne.last_multipliers(ws);
  INFO("rows " << ns.num_joint_rows() << ", |u̇| " << vd1.norm() << ", |λ| " << l1.norm());
  CHECK((vd1 - vd2).norm() < 1e-12 * vd1.norm());
  CHECK((l1 - l2).norm() < 1e-12 * l1.norm());
  // Newton–Euler residual with a dense J built column by column: M u̇ − Jᵀλ = f.
  const MatX J = dense_jacobian(ns, q);
  const VecX f = independent_f(ns, v);
  VecX Mu(ns.num_v());
  for (int i = 0; i < ns.num_bodies(); ++i) {
    Mu.segment<3>(6 * i) = ns.mass(i) * vd1.segment<3>(6 * i);
    Mu.segment<3>(6 * i + 3) = ns.inertia_com(i) * vd1.segment<3>(6 * i + 3);
  }
  const VecX JtL = J.transpose() * l1;
  CHECK((Mu - JtL - f).norm() < 1e-12 * (f.norm() + JtL.norm()));
  // Acceleration level: γ = −J̇ u by central differences of J along the motion, then the dense
  // saddle-point system [M −Jᵀ; J 0] solved by full-pivot LU gives the same u̇.
  const double h = 1e-6;
  VecX qp = q + h * qd1, qm = q - h * qd1;
  const VecX gamma_fd = -(dense_jacobian(ns, qp) - dense_jacobian(ns, qm)) * v / (2 * h);
  const int N = ns.num_v(), m = ns.num_joint_rows();
  MatX K = MatX::Zero(N + m, N + m);
  for (int i = 0; i < ns.num_bodies(); ++i) {
    K.block<3, 3>(6 * i, 6 * i) = ns.mass(i) * Mat3::Identity();
    K.block<3, 3>(6 * i + 3, 6 * i + 3) = ns.inertia_com(i);
  }
  K.topRightCorner(N, m) = -J.transpose();
  K.bottomLeftCorner(m, N) = J;
  VecX rhs(N + m);
  rhs << f, gamma_fd;
  const VecX sol = K.fullPivLu().solve(rhs);
  INFO("|u̇ − u̇_dense| " << (sol.head(N) - vd1).norm() << ", |J u̇ − γ_fd| "
                         << (J * vd1 - gamma_fd).norm());
  CHECK((J * vd1 - gamma_fd).norm() < 1e-7 * (1 + gamma_fd.norm()));
  CHECK((sol.head(N) - vd1).norm() < 1e-7 * vd1.norm());
  CHECK((sol.tail(m) - l1).norm() < 1e-7 * l1.norm());
}

}  // namespace

TEST_CASE("Sparse joint solve: Schur and equation system agree with a dense computation",
          "[explicit][newton_euler][joints]") {
  check_sparse_solve(validation::models::Chain(12, validation::models::ChainJoint::Spherical),
                     "spherical chain");
  check_sparse_solve(validation::models::Chain(12, validation::models::ChainJoint::Revolute),
                     "revolute chain");
  check_sparse_solve(tree_model(), "tree");
  check_sparse_solve(rssr_four_bar(), "R-S-S-R four-bar (closed loop)");
}

TEST_CASE("Sparse joint solve: position projection reaches the manifold in both methods",
          "[explicit][newton_euler][joints]") {
  for (JointSolveMethod method : {JointSolveMethod::Schur, JointSolveMethod::EquationSystem}) {
    INFO(to_string(method));
    NewtonEulerOptions o;
    o.joint_solve = method;
    NewtonEulerSystem ne(rssr_four_bar(), o);
    NewtonEulerSystem::Workspace ws = ne.make_workspace();
    VecX q, v, c;
    ne.initial_state(q, v);
    std::srand(3);
    q += 1e-3 * VecX::Random(ne.num_q());
    ne.joint_violation(ws, q, c);
    REQUIRE(c.cwiseAbs().maxCoeff() > 1e-4);
    CHECK(ne.project_positions(ws, q, 1e-12, 10) <= 1e-12);
    ne.joint_violation(ws, q, c);
    CHECK(c.cwiseAbs().maxCoeff() <= 1e-12);
  }
}

TEST_CASE("Redundant joints: both methods report the singular joint system",
          "[explicit][newton_euler][joints]") {
  // A planar four-bar with four revolute joints: three of its 3-D equations are redundant.
  System s;
  const Vec3 A(0, 0, 0), B(0, 1, 0), C(2, 1, 0), D(2, 0, 0);
  s.add_body(bar_body("crank", A, B));
  s.add_body(bar_body("coupler", B, C));
  s.add_body(bar_body("rocker", D, C));
  s.add_revolute("g_crank", "ground", "crank", A, Vec3(0, 0, 1));
  s.add_revolute("crank_coupler", "crank", "coupler", B, Vec3(0, 0, 1));
  s.add_revolute("coupler_rocker", "coupler", "rocker", C, Vec3(0, 0, 1));
  s.add_revolute("rocker_g", "rocker", "ground", D, Vec3(0, 0, 1));
  for (JointSolveMethod method : {JointSolveMethod::Schur, JointSolveMethod::EquationSystem}) {
    INFO(to_string(method));
    NewtonEulerOptions o;
    o.joint_solve = method;
    NewtonEulerSystem ne(s, o);
    NewtonEulerSystem::Workspace ws = ne.make_workspace();
    VecX q, v, qd, vd;
    ne.initial_state(q, v);
    try {
      ne.derivative(ws, 0, q, v, qd, vd);
      FAIL("no error for redundant joints");
    } catch (const std::runtime_error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find("singular") != std::string::npos);
      CHECK(std::string(e.what()).find("joint '") != std::string::npos);
    }
    CHECK_THROWS_AS(ne.project_velocities(ws, q, v), std::runtime_error);
  }
}

// ---- force elements and driven joints on the explicit path -------------------------------------

TEST_CASE("Explicit path: damped mass on a spring follows the closed form",
          "[explicit][newton_euler][forces]") {
  // m ẍ + d ẋ + k (x − L0) = 0 along x (the spring acts through the COM, no gravity):
  // x − L0 = e^{−ζω₀t} (A cos ω_d t + (ζω₀A/ω_d) sin ω_d t), ω₀ = √(k/m), ζ = d/(2mω₀).
  const double m = 2.0, k = 200.0, d = 4.0, L0 = 1.0, A = 0.1;
  System s;
  RigidBody b;
  b.name = "mass";
  b.mass = m;
  b.inertia << 0.5, 0.5, 0.5, 0, 0, 0;  // about the reference point
  b.com = Vec3(0.2, 0, 0);  // reference point off the COM: the spring is attached at the COM
  b.position = Vec3(L0 + A - 0.2, 0, 0);
  s.add_body(b);
  ForceElement f;
  f.name = "spring";
  f.type = ForceType::SpringDamper;
  f.bodies = {"ground", "mass"};
  f.point = Vec3::Zero();
  f.point_b = Vec3(L0 + A, 0, 0);
  f.stiffness = k;
  f.damping = d;
  f.length = L0;
  s.add_force(f);
  NewtonEulerSystem ne(s);
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ExplicitOptions o;
  o.method = ExplicitMethod::Dopri5;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  o.t_end = 2.0;
  o.output_every = 0.1;
  const double w0 = std::sqrt(k / m), zeta = d / (2 * m * w0), wd = w0 * std::sqrt(1 - zeta * zeta);
  double err = 0, E_prev = INFINITY;
  bool energy_decreases = true;
  REQUIRE(solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
            const double x = ne.com_position(0, st.q).x() - L0;
            const double xa = std::exp(-zeta * w0 * st.t) * (A * std::cos(wd * st.t) + zeta * w0 * A / wd * std::sin(wd * st.t));
            err = std::max(err, std::abs(x - xa));
            CHECK(ne.com_position(0, st.q).tail<2>().norm() < 1e-14);
            const double E = ne.energy(ws, st.q, st.v);
            energy_decreases = energy_decreases && E <= E_prev + 1e-12;
            E_prev = E;
            return true;
          }).ok());
  INFO("max |x − x_closed_form| " << err << " m");
  CHECK(err < 1e-8);
  CHECK(energy_decreases);  // the spring potential is part of energy(); the damper dissipates
  CHECK(E_prev < 0.5 * k * A * A * 0.5);
}

TEST_CASE("Explicit path: torsional spring-damper on a revolute joint follows the closed form",
          "[explicit][newton_euler][forces]") {
  // I θ̈ + d θ̇ + k θ = 0 about the joint axis z through the COM; θ(0) = 0, θ̇(0) = W:
  // θ = (W/ω_d) e^{−ζω₀t} sin ω_d t.
  const double Izz = 0.5, k = 50.0, d = 1.0, W = 2.0;
  System s;
  RigidBody b;
  b.name = "wheel";
  b.mass = 3;
  b.inertia << 0.3, 0.4, Izz, 0, 0, 0;
  b.angular_velocity = Vec3(0, 0, W);
  s.add_body(b);
  s.add_revolute("axle", "ground", "wheel", Vec3::Zero(), Vec3::UnitZ());
  s.add_torsional_spring_damper("torsion", "ground", "wheel", Vec3::Zero(), Vec3::UnitZ(), k, d);
  for (JointSolveMethod method : {JointSolveMethod::Schur, JointSolveMethod::EquationSystem}) {
    INFO(to_string(method));
    NewtonEulerOptions no;
    no.joint_solve = method;
    NewtonEulerSystem ne(s, no);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ExplicitOptions o;
    o.method = ExplicitMethod::Dopri5;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    o.t_end = 2.0;
    o.output_every = 0.1;
    o.project_positions = o.project_velocities = true;
    const double w0 = std::sqrt(k / Izz), zeta = d / (2 * Izz * w0), wd = w0 * std::sqrt(1 - zeta * zeta);
    double err = 0;
    REQUIRE(solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
              const Mat3 R = ne.rotation(0, st.q);
              const double th = std::atan2(R(1, 0), R(0, 0));
              const double tha = W / wd * std::exp(-zeta * w0 * st.t) * std::sin(wd * st.t);
              err = std::max(err, std::abs(th - tha));
              return true;
            }).ok());
    INFO("max |θ − θ_closed_form| " << err << " rad");
    CHECK(err < 1e-8);
  }
}

namespace {

/// Two bars, the first on a revolute about z at the origin, driven if `drive` (s = 0.4 sin 3t),
/// the second on a revolute (axis z) with (bits of `forces`) 1: a torsional spring-damper,
/// 2: a spring-damper from ground to its tip, 4: a Cartesian spring-damper; gravity −y.
System driven_with_forces(bool drive = true, int forces = 7) {
  System s;
  s.gravity = Vec3(0, -9.81, 0);
  // Initial velocities: a rigid rotation about z at ṡ(0) = 1.2 rad/s (consistent, so that both
  // formulations start from the same state whatever their velocity projection's metric).
  RigidBody b1 = bar_body("b1", Vec3(0, 0, 0), Vec3(1, 0, 0));
  RigidBody b2 = bar_body("b2", Vec3(1, 0, 0), Vec3(2, 0, 0));
  const double w = drive ? 1.2 : 0.0;
  for (RigidBody* b : {&b1, &b2}) {
    b->angular_velocity = Vec3(0, 0, w);
    b->velocity = Vec3(0, 0, w).cross(b->position);
  }
  s.add_body(b1);
  s.add_body(b2);
  Joint j;
  j.name = "drive";
  j.type = JointType::Revolute;
  j.bodies = {"ground", "b1"};
  j.point = Vec3::Zero();
  j.axis = Vec3::UnitZ();
  if (drive) {
    j.motion.value = [](double t) { return 0.4 * std::sin(3 * t); };
    j.motion.velocity = [](double t) { return 1.2 * std::cos(3 * t); };
    j.motion.acceleration = [](double t) { return -3.6 * std::sin(3 * t); };
  }
  s.add_joint(j);
  s.add_revolute("elbow", "b1", "b2", Vec3(1, 0, 0), Vec3::UnitZ());
  ForceElement tor;
  tor.name = "elbow_spring";
  tor.type = ForceType::TorsionalSpringDamper;
  tor.bodies = {"b1", "b2"};
  tor.point = Vec3(1, 0, 0);
  tor.axis = Vec3::UnitZ();
  tor.stiffness = 20;
  tor.damping = 0.5;
  tor.length = 0.3;  // reference angle: the elbow is pre-loaded
  if (forces & 1) s.add_force(tor);
  ForceElement sp;
  sp.name = "tip_spring";
  sp.type = ForceType::SpringDamper;
  sp.bodies = {"ground", "b2"};
  sp.point = Vec3(2, 1, 0);
  sp.point_b = Vec3(2, 0, 0);
  sp.stiffness = 30;
  sp.damping = 0.8;
  sp.length = 0.7;
  if (forces & 2) s.add_force(sp);
  ForceElement ca;
  ca.name = "cartesian";
  ca.type = ForceType::CartesianSpringDamper;
  ca.bodies = {"ground", "b2"};
  ca.point = Vec3(1.5, 0, 0);
  ca.stiffness3 = Vec3(5, 8, 0);
  ca.damping3 = Vec3(0.1, 0.2, 0);
  if (forces & 4) s.add_force(ca);
  return s;
}

}  // namespace

TEST_CASE("Explicit path with force elements and a driven joint agrees with generalized-alpha",
          "[explicit][newton_euler][forces]") {
  auto [drive, mask] = GENERATE(table<bool, int>({{true, 0}, {false, 1}, {false, 2}, {false, 4}, {true, 7}}));
  INFO("drive " << drive << " forces " << mask);
  const System s = driven_with_forces(drive, mask);
  // Generalized-α (implicit formulation), small step.
  const PreparedSystem p = prepare(s);
  SimulationSettings gs;
  gs.solver = SolverType::GeneralizedAlpha;
  gs.t_end = 1.0;
  gs.step = 2e-5;
  gs.output_every = 0.25;
  gs.newton_tol = 1e-12;
  std::vector<Vec3> ref_b2, ref_b1;
  REQUIRE(simulate(*p.system, 0, p.q0, p.v0, gs, [&](const StateView& st) {
            ref_b1.push_back(p.system->position(0, st.q, Vec3(0.5, 0, 0)));
            ref_b2.push_back(p.system->position(1, st.q, Vec3(0.5, 0, 0)));
            return true;
          }).ok());
  for (JointSolveMethod method : {JointSolveMethod::Schur, JointSolveMethod::EquationSystem}) {
    INFO(to_string(method));
    NewtonEulerOptions no;
    no.joint_solve = method;
    NewtonEulerSystem ne(s, no);
    NewtonEulerSystem::Workspace ws = ne.make_workspace();
    VecX q0, v0;
    ne.initial_state(q0, v0);
    VecX cd;
    ne.joint_velocity_violation(ws, 0.0, q0, v0, cd);
    REQUIRE(cd.cwiseAbs().maxCoeff() < 1e-14);  // consistent with ṡ(0)
    ExplicitOptions o;
    o.method = ExplicitMethod::Dopri5;
    o.rtol = 1e-10;
    o.atol = 1e-12;
    o.t_end = 1.0;
    o.output_every = 0.25;
    o.project_positions = o.project_velocities = true;
    size_t k = 0;
    double err = 0, travel = 0, drive_err = 0;
    REQUIRE(solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
              const Vec3 x1 = ne.reference_position(0, st.q) + ne.rotation(0, st.q) * Vec3(0.5, 0, 0);
              const Vec3 x2 = ne.reference_position(1, st.q) + ne.rotation(1, st.q) * Vec3(0.5, 0, 0);
              REQUIRE(k < ref_b2.size());
              err = std::max({err, (x1 - ref_b1[k]).norm(), (x2 - ref_b2[k]).norm()});
              travel = std::max(travel, (x2 - ref_b2[0]).norm());
              // Bar 1 follows the drive angle exactly (up to the projection tolerance).
              const Mat3 R1 = ne.rotation(0, st.q);
              if (drive)
                drive_err = std::max(drive_err, std::abs(std::atan2(R1(1, 0), R1(0, 0)) - 0.4 * std::sin(3 * st.t)));
              ++k;
              return true;
            }).ok());
    INFO("max position difference to generalized-alpha " << err << " m, travel " << travel
                                                         << " m, drive error " << drive_err);
    CHECK(k == ref_b2.size());
    CHECK(travel > 0.3);
    if (drive) CHECK(drive_err < 1e-10);
    CHECK(err < 1e-6);
  }
}

TEST_CASE("Impulse stepper rejects driven joints by name (it applies force elements)",
          "[explicit][newton_euler][forces]") {
  const NewtonEulerSystem ne(driven_with_forces());
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ImpulseOptions o;
  o.t_end = 0.1;
  o.step = 1e-3;
  try {
    solve_impulse(ne, 0, q0, v0, o, nullptr);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("joint 'drive'") != std::string::npos);
  }
  // Without the drive the same model (force elements included) runs.
  const NewtonEulerSystem free_ne(driven_with_forces(false));
  free_ne.initial_state(q0, v0);
  const ImpulseResult r = solve_impulse(free_ne, 0, q0, v0, o, nullptr);
  CHECK(r.ok());
}
