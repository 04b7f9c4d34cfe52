// Analyses engineers run on mechanisms, against closed forms: kinematic analysis and inverse
// dynamics of a driven offset slider-crank (reference/analytic.md), static equilibrium of a body
// hanging on springs, eigenfrequencies of a pendulum and a spring chain, and the mobility count.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <mbdae/solvers/InverseDynamics.h>
#include <mbdae/solvers/Kinematics.h>
#include <mbdae/solvers/Linearization.h>
#include <mbdae/solvers/Mobility.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/Statics.h>
#include <mbdae/validation/Analytic.h>
#include <mbdae/validation/Models.h>

using namespace mbdae;

namespace {

/// Inertia 6-vector about the reference point from principal moments about the COM (body axes)
/// and the COM offset (parallel-axis theorem).
Vec6 inertia_at(double m, const Vec3& Jc, const Vec3& c) {
  const Mat3 J = Mat3(Jc.asDiagonal()) + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  Vec6 out;
  out << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  return out;
}

Mat3 rot_z(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }

// Offset slider-crank of reference/analytic.md: crank r about the origin (axis z), rod l, slider
// on y = e. Uniform rods; the crank's reference point is the pivot, the rod's its COM.
constexpr double kR = 0.1, kL = 0.35, kE = 0.03;
constexpr double kOmega = 2 * M_PI, kAlpha = 1.0;  // θ(t) = ω t + α t²/2

/// differenced: the drive gives only s(t); ṡ and s̈ come from TimeFunction's differences.
System slider_crank(bool driven, RotationParametrization param, bool differenced = false) {
  System s;
  s.name = "offset slider-crank";
  s.gravity = Vec3(0, -9.81, 0);
  const double c0 = std::sqrt(kL * kL - kE * kE);
  const Vec3 B(kR, 0, 0), C(kR + c0, kE, 0);
  RigidBody crank;
  crank.name = "crank";
  crank.mass = 1.0;
  crank.com = Vec3(kR / 2, 0, 0);
  crank.inertia = inertia_at(1.0, Vec3(1e-4, kR * kR / 12, kR * kR / 12), crank.com);
  crank.rotation = param;
  s.add_body(crank);
  RigidBody rod;
  rod.name = "rod";
  rod.mass = 2.0;
  rod.position = (B + C) / 2;
  rod.orientation = rot_z(std::atan2(kE, c0));
  rod.inertia << 2e-4, 2.0 * kL * kL / 12, 2.0 * kL * kL / 12, 0, 0, 0;
  rod.rotation = param;
  s.add_body(rod);
  RigidBody slider;
  slider.name = "slider";
  slider.mass = 3.0;
  slider.position = C;
  slider.inertia << 1e-3, 1e-3, 1e-3, 0, 0, 0;
  slider.rotation = param;
  s.add_body(slider);
  Joint drive;
  drive.name = "crank_drive";
  drive.type = JointType::Revolute;
  drive.bodies = {"ground", "crank"};
  drive.axis = Vec3::UnitZ();
  if (driven) {
    drive.motion.value = [](double t) { return kOmega * t + 0.5 * kAlpha * t * t; };
    if (!differenced) {
      drive.motion.velocity = [](double t) { return kOmega + kAlpha * t; };
      drive.motion.acceleration = [](double) { return kAlpha; };
    }
  }
  s.add_joint(drive);
  s.add_revolute("crank_rod", "crank", "rod", B, Vec3::UnitZ());
  s.add_revolute("rod_slider", "rod", "slider", C, Vec3::UnitZ());
  s.add_prismatic("slider_guide", "ground", "slider", C, Vec3::UnitX());
  return s;
}

}  // namespace

TEST_CASE("driven offset slider-crank: kinematic analysis reproduces the closed form",
          "[validation][mechanisms][kinematics]") {
  const auto param = GENERATE(RotationParametrization::EulerParameters, RotationParametrization::TaitBryan);
  const bool differenced = GENERATE(false, true);
  DYNAMIC_SECTION(to_string(param) << (differenced ? ", drive rates by differences" : ", drive rates given")) {
    PreparedSystem p = prepare(slider_crank(true, param, differenced));
    const MultibodySystem& mb = *p.system;
    REQUIRE(mb.num_constraints() == mb.num_coordinates());
    KinematicsOptions ko;
    ko.t_end = 1.0;
    ko.output_every = 0.01;
    double ex = 0, exd = 0, exdd = 0, ephi = 0, ephid = 0, ephidd = 0, ejc = 0;
    int rows = 0;
    const SolveResult res = solve_kinematics(mb, 0.0, p.q0, ko, [&](const StateView& s) {
      const double th = kOmega * s.t + 0.5 * kAlpha * s.t * s.t, om = kOmega + kAlpha * s.t;
      const auto ref = validation::CalcSliderCrankKinematics(th, om, kAlpha, kR, kL, kE);
      const int sl = 2, rd = 1;
      ex = std::max(ex, std::abs(mb.position(sl, s.q).x() - ref.x));
      exd = std::max(exd, std::abs(mb.velocity(sl, s.q, s.v).x() - ref.x_dot));
      exdd = std::max(exdd, std::abs(mb.acceleration(sl, s.q, s.v, s.a).x() - ref.x_ddot));
      const Mat3 R = mb.rotation(rd, s.q);
      ephi = std::max(ephi, std::abs(std::remainder(std::atan2(R(1, 0), R(0, 0)) - ref.phi, 2 * M_PI)));
      ephid = std::max(ephid, std::abs(mb.angular_velocity(rd, s.q, s.v).z() - ref.phi_dot));
      ephidd = std::max(ephidd, std::abs(mb.angular_acceleration(rd, s.q, s.v, s.a).z() - ref.phi_ddot));
      // The drive's joint-coordinate sensor: continuous angle θ(t) and its rates.
      const JointCoordinate jc = mb.joint_coordinate(0, s.t, s.q, s.v, s.a);
      ejc = std::max({ejc, std::abs(jc.value - th), std::abs(jc.rate - om), std::abs(jc.acceleration - kAlpha)});
      ++rows;
      return true;
    });
    REQUIRE(res.ok());
    CHECK(rows == 101);
    INFO("x " << ex << " x' " << exd << " x'' " << exdd << " phi " << ephi << " phi' " << ephid
              << " phi'' " << ephidd << " joint coordinate " << ejc);
    CHECK(ex < 1e-8);
    CHECK(exd < 1e-8);
    CHECK(exdd < 1e-8);
    CHECK(ephi < 1e-8);
    CHECK(ephid < 1e-8);
    CHECK(ephidd < 1e-8);
    CHECK(ejc < 1e-8);
  }
}

TEST_CASE("driven slider-crank: inverse-dynamics torque satisfies the power balance over a turn",
          "[validation][mechanisms][inverse_dynamics]") {
  PreparedSystem p = prepare(slider_crank(true, RotationParametrization::EulerParameters));
  const MultibodySystem& mb = *p.system;
  KinematicsOptions ko;
  ko.t_end = 1.0;  // θ from 0 to 2π + 1/2: a full turn
  ko.output_every = 0.02;
  // d(T + V)/dt by a fourth-order central difference of energies on kinematic states at t ± h,
  // t ± 2h (truncation ~h⁴ E⁽⁵⁾/30 ≈ 1e-10 relative for h = 1e-3).
  const double h = 1e-3;
  VecX qk = p.q0, vk, ak;
  auto ws = mb.make_workspace();
  auto energy_at = [&](double t) {
    REQUIRE(solve_kinematic_state(mb, t, qk, vk, ak, ko));
    return mb.kinetic_energy(qk, vk) + mb.potential_energy(ws, t, qk);
  };
  std::vector<double> power, dEdt;
  double max_resid = 0;
  const SolveResult res = solve_inverse_dynamics(
      mb, 0.0, p.q0, ko, [&](const StateView& s, const InverseDynamicsResult& r) {
        REQUIRE(r.driven_joints.size() == 1);
        const double om = kOmega + kAlpha * s.t;
        power.push_back(r.drive_forces[0] * om);
        max_resid = std::max(max_resid, r.residual);
        qk = s.q;
        const double e2 = energy_at(s.t + 2 * h), e1 = energy_at(s.t + h);
        qk = s.q;
        const double m1 = energy_at(s.t - h), m2 = energy_at(s.t - 2 * h);
        dEdt.push_back((-e2 + 8 * e1 - 8 * m1 + m2) / (12 * h));
        return true;
      });
  REQUIRE(res.ok());
  double pmax = 0, err = 0;
  for (size_t k = 0; k < power.size(); ++k) {
    pmax = std::max(pmax, std::abs(power[k]));
    err = std::max(err, std::abs(power[k] - dEdt[k]));
  }
  INFO("max |τω| " << pmax << " W, max |τω − d(T+V)/dt| " << err << " W, equation residual " << max_resid);
  CHECK(pmax > 1.0);
  CHECK(err < 1e-6 * pmax);
  CHECK(max_resid < 1e-9);
}

TEST_CASE("static equilibrium of a body hanging on four springs matches the hand solution",
          "[validation][mechanisms][statics]") {
  // Box (2 kg) hung on four vertical springs (k, rest length L0) from the ground points
  // (±a, 0, ±a) to the box points (±a, 0, ±a) in body axes. By symmetry the equilibrium is the
  // unrotated box at y* = −(L0 + m g/(4k)); the lateral and rotational stiffness is the springs'
  // geometric stiffness (tension / length), so every direction is restrained.
  const double m = 2.0, k = 150.0, L0 = 0.4, a = 0.2, g = 9.81;
  const auto param = GENERATE(RotationParametrization::EulerParameters, RotationParametrization::RotationVector);
  DYNAMIC_SECTION(to_string(param)) {
    System s;
    s.gravity = Vec3(0, -g, 0);
    RigidBody b;
    b.name = "box";
    b.mass = m;
    b.inertia << 0.02, 0.03, 0.04, 0, 0, 0;
    b.position = Vec3(0, -0.5, 0);
    b.rotation = param;
    s.add_body(b);
    int i = 0;
    for (double sx : {-1.0, 1.0})
      for (double sz : {-1.0, 1.0}) {
        const Vec3 top(sx * a, 0, sz * a), bottom(sx * a, -0.5, sz * a);
        s.add_spring_damper("spring" + std::to_string(i++), "ground", "box", top, bottom, k, 1.0, L0);
      }
    const MultibodySystem mb(s);
    VecX q0(mb.num_coordinates()), v0(mb.num_coordinates());
    mb.initial_state(q0, v0);
    // Start far away: displaced and turned by ~0.3 rad about a skew axis.
    q0.head<3>() += Vec3(0.08, 0.15, -0.05);
    if (param == RotationParametrization::EulerParameters) {
      q0.segment<4>(3) = Vec4(0.97, 0.1, 0.15, -0.1);  // not even normalised
    } else {
      q0.segment<3>(3) = Vec3(0.2, -0.15, 0.1);
    }
    const StaticsResult st = solve_static_equilibrium(mb, q0);
    INFO(st.message << " iterations " << st.iterations);
    REQUIRE(st.converged);
    const double y_star = -(L0 + m * g / (4 * k));
    CHECK((mb.position(0, st.q) - Vec3(0, y_star, 0)).cwiseAbs().maxCoeff() < 1e-9);
    CHECK((mb.rotation(0, st.q) - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-9);
    // The springs carry the weight: potential at the equilibrium is stationary (checked through
    // the force residual) and the spring energy is 4·½k(mg/4k)².
    auto ws = mb.make_workspace();
    const double Vs = mb.potential_energy(ws, 0, st.q) - m * g * y_star;
    CHECK(std::abs(Vs - 2 * k * std::pow(m * g / (4 * k), 2)) < 1e-9);
  }
}

TEST_CASE("static equilibrium reports a free direction clearly", "[validation][mechanisms][statics]") {
  // A pendulum under no gravity and no spring has no unique equilibrium (neutral direction).
  System s;
  RigidBody b;
  b.name = "bob";
  b.mass = 1;
  b.inertia << 0.01, 0.01, 0.01, 0, 0, 0;
  b.position = Vec3(1, 0, 0);
  s.add_body(b);
  s.add_revolute("pivot", "ground", "bob", Vec3::Zero(), Vec3::UnitZ());
  s.gravity = Vec3(0, -9.81, 0);
  Load push;  // a constant sideways force that no configuration can balance on the z axis
  push.name = "push";
  push.body = std::string("bob");
  push.kind = Load::Kind::Torque;
  push.value = Vec3(0, 0, 20.0);  // larger than the maximum gravity moment 9.81 N m
  s.add_load(push);
  const MultibodySystem mb(s);
  VecX q0(mb.num_coordinates()), v0(mb.num_coordinates());
  mb.initial_state(q0, v0);
  const StaticsResult st = solve_static_equilibrium(mb, q0);
  CHECK_FALSE(st.converged);
  INFO(st.message);
  CHECK(st.message.find("largest force residual") != std::string::npos);
  CHECK(st.message.find("body 'bob'") != std::string::npos);
}

TEST_CASE("eigenfrequency of a small-angle physical pendulum", "[validation][mechanisms][modal]") {
  const double m = 1.5, d = 0.4, g = 9.81;
  const Vec3 Jc(0.02, 0.01, 0.03);
  const auto param = GENERATE(RotationParametrization::EulerParameters, RotationParametrization::TaitBryan,
                              RotationParametrization::RotationVector);
  DYNAMIC_SECTION(to_string(param)) {
    System s;
    s.gravity = Vec3(0, -g, 0);
    RigidBody b;
    b.name = "pendulum";
    b.mass = m;
    b.inertia << Jc.x(), Jc.y(), Jc.z(), 0, 0, 0;
    b.position = Vec3(0, -d, 0);
    b.rotation = param;
    s.add_body(b);
    s.add_revolute("pivot", "ground", "pendulum", Vec3::Zero(), Vec3::UnitZ());
    const MultibodySystem mb(s);
    VecX q0(mb.num_coordinates()), v0(mb.num_coordinates());
    mb.initial_state(q0, v0);
    const StaticsResult st = solve_static_equilibrium(mb, q0);
    REQUIRE(st.converged);
    const auto modes = modal_analysis(mb, 0.0, st.q, st.lambda);
    REQUIRE(modes.size() == 1);
    const double f_exact = std::sqrt(m * g * d / (Jc.z() + m * d * d)) / (2 * M_PI);
    INFO("f = " << modes[0].frequency_hz << " Hz, exact " << f_exact);
    CHECK(std::abs(modes[0].frequency_hz / f_exact - 1) < 1e-6);
    CHECK(std::abs(modes[0].damping_ratio) < 1e-6);
  }
}

TEST_CASE("eigenfrequencies and damping ratios of a 3-mass spring chain", "[validation][mechanisms][modal]") {
  // ground –k– m –k– m –k– m –k– ground along x, each mass on a prismatic joint; dampers c = βk
  // (stiffness-proportional): ω_i² = (2k/m)(1 − cos(iπ/4)), ζ_i = β ω_i / 2.
  const double m = 2.0, k = 500.0, beta = 1e-3;
  System s;
  for (int i = 0; i < 3; ++i) {
    RigidBody b;
    b.name = "m" + std::to_string(i);
    b.mass = m;
    b.inertia << 0.01, 0.01, 0.01, 0, 0, 0;
    b.position = Vec3(i + 1.0, 0, 0);
    s.add_body(b);
    s.add_prismatic("guide" + std::to_string(i), "ground", b.name, b.position, Vec3::UnitX());
  }
  const char* names[5] = {"ground", "m0", "m1", "m2", "ground"};
  for (int i = 0; i < 4; ++i)
    s.add_spring_damper("k" + std::to_string(i), names[i], names[i + 1], Vec3(i, 0, 0),
                        Vec3(i + 1, 0, 0), k, beta * k);
  PreparedSystem p = prepare(s);
  const StaticsResult st = solve_static_equilibrium(*p.system, p.q0);
  REQUIRE(st.converged);
  const auto modes = modal_analysis(*p.system, 0.0, st.q, st.lambda);
  REQUIRE(modes.size() == 3);
  for (int i = 0; i < 3; ++i) {
    const double w = std::sqrt(2 * k / m * (1 - std::cos((i + 1) * M_PI / 4)));
    INFO("mode " << i << ": f = " << modes[static_cast<size_t>(i)].frequency_hz << " Hz, exact "
                 << w / (2 * M_PI) << "; ζ = " << modes[static_cast<size_t>(i)].damping_ratio
                 << ", exact " << beta * w / 2);
    CHECK(std::abs(modes[static_cast<size_t>(i)].frequency_hz / (w / (2 * M_PI)) - 1) < 1e-6);
    CHECK(std::abs(modes[static_cast<size_t>(i)].damping_ratio / (beta * w / 2) - 1) < 1e-6);
  }
}

TEST_CASE("mobility: Grübler count and rank-based degrees of freedom", "[validation][mechanisms][mobility]") {
  SECTION("planar slider-crank built from spatial joints") {
    const MultibodySystem mb(slider_crank(false, RotationParametrization::EulerParameters));
    VecX q(mb.num_coordinates()), v(mb.num_coordinates());
    mb.initial_state(q, v);
    const MobilityReport r = calc_mobility(mb, 0.0, q);
    CHECK(r.bodies == 3);
    CHECK(r.joint_equations == 20);
    CHECK(r.grubler == -2);
    CHECK(r.mobility == 1);
    CHECK(r.redundant.size() == 3);
  }
  SECTION("driven: no degree of freedom left") {
    const MultibodySystem mb(slider_crank(true, RotationParametrization::TaitBryan));
    VecX q(mb.num_coordinates()), v(mb.num_coordinates());
    mb.initial_state(q, v);
    const MobilityReport r = calc_mobility(mb, 0.0, q);
    CHECK(r.grubler == -3);
    CHECK(r.mobility == 0);
  }
  SECTION("from the model") {
    const MobilityReport r = calc_mobility(slider_crank(false, RotationParametrization::RotationVector));
    CHECK(r.grubler == -2);
    CHECK(r.mobility == 1);
    CHECK(r.coordinates == 18);
  }
  SECTION("Bricard: Grübler 0, mobility 1") {
    const MultibodySystem mb(validation::models::Bricard());
    VecX q(mb.num_coordinates()), v(mb.num_coordinates());
    mb.initial_state(q, v);
    const MobilityReport r = calc_mobility(mb, 0.0, q);
    CHECK(r.grubler == 0);
    CHECK(r.mobility == 1);
    CHECK(r.redundant.size() == 1);
  }
}
