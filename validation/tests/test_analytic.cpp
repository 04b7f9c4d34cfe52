/// @file test_analytic.cpp
/// Checks every closed form of Analytic.h against an independent computation: a numerical
/// integration of the same ODE with Boost.Odeint (Runge–Kutta–Fehlberg 7(8), tolerance 1e-13)
/// written here, finite differences, or exact invariants. Also checks the published numbers of
/// References.h against the closed forms or against their own ODE reductions.
/// Deterministic (no random input, no timing); runs in well under a second.

#include <algorithm>
#include <array>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/numeric/odeint.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include <Eigen/Geometry>

#include "mbdae/validation/Analytic.h"
#include "mbdae/validation/References.h"

namespace mv = mbdae::validation;
namespace refs = mbdae::validation::refs;
namespace odeint = boost::numeric::odeint;
using mbdae::Mat3;
using mbdae::Vec3;
using mbdae::Vec4;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kOdeTol = 1e-13;

/// ODE state. A std::vector rather than std::array: odeint copies default-constructed steppers,
/// and with std::array members GCC then warns about uninitialized temporaries.
using State = std::vector<double>;

/// Integrates x' = sys(x, t) from times.front() and calls obs(x, t) at every entry of times
/// (increasing). Fehlberg 7(8) with absolute and relative tolerance kOdeTol.
template <class Sys, class Obs>
void IntegrateAt(Sys sys, State x, const std::vector<double>& times, Obs obs) {
  auto stepper = odeint::make_controlled(kOdeTol, kOdeTol,
                                         odeint::runge_kutta_fehlberg78<State>());
  odeint::integrate_times(stepper, sys, x, times.begin(), times.end(), 1e-4, obs);
}

std::vector<double> Linspace(double t0, double t1, int n) {
  std::vector<double> t(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = t0 + (t1 - t0) * i / (n - 1);
  return t;
}

/// φ'' = −ω0² sin φ as a first-order system (φ, φ').
struct PendulumOde {
  double omega0;
  void operator()(const State& x, State& dx, double /*t*/) const {
    dx[0] = x[1];
    dx[1] = -omega0 * omega0 * std::sin(x[0]);
  }
};

/// Euler's equations for a torque-free body: I Ω̇ + Ω × (I Ω) = 0.
struct EulerOde {
  Vec3 I;
  void operator()(const State& x, State& dx, double /*t*/) const {
    const Vec3 w(x[0], x[1], x[2]);
    const Vec3 wdot = (-w.cross(I.cwiseProduct(w))).cwiseQuotient(I);
    for (int i = 0; i < 3; ++i) dx[static_cast<std::size_t>(i)] = wdot(i);
  }
};

/// Rigid body about a fixed point O under gravity: state (q_WB = [w,x,y,z], w_B).
/// q̇ = ½ q ⊗ (0, w_B); J_O ẇ_B = −w_B × J_O w_B + p_BoCm_B × (R_WBᵀ m g_W).
struct HeavyBodyOde {
  Vec3 J_O;       // principal inertia about O, body axes
  Vec3 p_OCm_B;   // COM offset, body axes
  Vec3 mg_W;      // weight, world
  void operator()(const State& x, State& dx, double /*t*/) const {
    Eigen::Quaterniond q(x[0], x[1], x[2], x[3]);
    const Vec3 w(x[4], x[5], x[6]);
    const Eigen::Quaterniond qn = q.normalized();
    const Vec3 f_B = qn.toRotationMatrix().transpose() * mg_W;
    const Vec3 wdot = (p_OCm_B.cross(f_B) - w.cross(J_O.cwiseProduct(w))).cwiseQuotient(J_O);
    const Eigen::Quaterniond qdot = q * Eigen::Quaterniond(0.0, w(0), w(1), w(2));
    dx[0] = 0.5 * qdot.w();
    dx[1] = 0.5 * qdot.x();
    dx[2] = 0.5 * qdot.y();
    dx[3] = 0.5 * qdot.z();
    dx[4] = wdot(0);
    dx[5] = wdot(1);
    dx[6] = wdot(2);
  }
};

}  // namespace

// =================================================================================================
// Jacobi amplitude
// =================================================================================================

TEST_CASE("Jacobi amplitude: inverse of F and integral of dn, also for large arguments",
          "[validation][analytic]") {
  for (double k : {0.0, 0.3, 0.9, 0.999}) {
    // am is the inverse of the incomplete integral F(φ | k²), for any real φ.
    for (double u : {-37.3, -1.0, 0.0, 0.2, 1.7, 5.0, 123.4, 1.0e4}) {
      const double am = mv::CalcJacobiAmplitude(k, u);
      CHECK(boost::math::ellint_1(k, am) == Approx(u).epsilon(1e-13).margin(1e-13));
    }
    // am(u) = ∫ dn: integrate am' = √(1 − k² sin² am) from 0 to 60.
    const auto times = Linspace(0.0, 60.0, 121);
    double max_err = 0.0;
    IntegrateAt(
        [k](const State& x, State& dx, double) {
          dx[0] = std::sqrt(1.0 - k * k * std::sin(x[0]) * std::sin(x[0]));
        },
        State{0.0}, times,
        [&](const State& x, double t) {
          max_err = std::max(max_err, std::abs(x[0] - mv::CalcJacobiAmplitude(k, t)));
        });
    INFO("k = " << k << ": max |am - odeint| = " << max_err);
    CHECK(max_err < 1e-9);  // odeint's relative tolerance acts on |am| ~ 60
  }
  CHECK_THROWS_AS(mv::CalcJacobi(1.0, 0.5), std::invalid_argument);
}

// =================================================================================================
// Pendulum
// =================================================================================================

TEST_CASE("Pendulum libration matches odeint over five periods", "[validation][analytic]") {
  const double omega0 = 1.7;
  for (double phi0 : {0.3, 2.0, -2.5, 3.1}) {
    const auto pend = mv::Pendulum::Libration(omega0, phi0);
    const double T = pend.CalcPeriod();
    const auto times = Linspace(0.0, 5.0 * T, 401);
    double err_phi = 0.0, err_rate = 0.0, err_acc = 0.0, err_energy = 0.0;
    IntegrateAt(PendulumOde{omega0}, State{phi0, 0.0}, times,
                   [&](const State& x, double t) {
                     const auto s = pend.CalcState(t);
                     err_phi = std::max(err_phi, std::abs(s.phi - x[0]));
                     err_rate = std::max(err_rate, std::abs(s.phi_dot - x[1]));
                     err_acc = std::max(err_acc,
                                        std::abs(s.phi_ddot + omega0 * omega0 * std::sin(x[0])));
                     const double e = 0.5 * s.phi_dot * s.phi_dot +
                                      omega0 * omega0 * (1.0 - std::cos(s.phi));
                     err_energy = std::max(err_energy, std::abs(e - pend.CalcEnergyPerInertia()));
                   });
    INFO("phi0 = " << phi0 << ": max err phi " << err_phi << ", phi' " << err_rate << ", phi'' "
                   << err_acc << ", energy " << err_energy);
    // Near the separatrix (φ0 = 3.1, k = 0.99980) the trajectory is ill-conditioned and the
    // difference is odeint's: it drops tenfold per decade of tolerance (1e-13 → 9e-9,
    // 1e-14 → 8e-10), while the closed form stays put.
    const double tol = std::abs(phi0) > 3.0 ? 5e-8 : 1e-9;
    CHECK(err_phi < tol);
    CHECK(err_rate < tol);
    CHECK(err_acc < 3 * tol);
    CHECK(err_energy < 1e-12);
    // Periodicity and the half-period turning point.
    CHECK(pend.CalcState(T).phi == Approx(phi0).margin(1e-12));
    CHECK(pend.CalcState(0.5 * T).phi == Approx(-phi0).margin(1e-12));
    CHECK(pend.CalcState(7.0 * T).phi_dot == Approx(0.0).margin(1e-11));
  }
  // Small amplitude: T → 2π/ω0.
  CHECK(mv::Pendulum::Libration(omega0, 1e-6).CalcPeriod() ==
        Approx(2.0 * kPi / omega0).epsilon(1e-12));
  CHECK_THROWS_AS(mv::Pendulum::Libration(omega0, kPi), std::invalid_argument);
  CHECK_THROWS_AS(mv::Pendulum::Libration(0.0, 1.0), std::invalid_argument);
}

TEST_CASE("Pendulum rotation matches odeint over several revolutions", "[validation][analytic]") {
  const double omega0 = 2.3;
  for (double factor : {1.05, 2.5, -3.0}) {
    const double rate0 = factor * 2.0 * omega0;
    const auto pend = mv::Pendulum::Rotation(omega0, rate0);
    const double T = pend.CalcPeriod();
    const auto times = Linspace(0.0, 6.0 * T, 401);
    double err_phi = 0.0, err_rate = 0.0, err_acc = 0.0;
    IntegrateAt(PendulumOde{omega0}, State{0.0, rate0}, times,
                   [&](const State& x, double t) {
                     const auto s = pend.CalcState(t);
                     err_phi = std::max(err_phi, std::abs(s.phi - x[0]));
                     err_rate = std::max(err_rate, std::abs(s.phi_dot - x[1]));
                     err_acc = std::max(err_acc,
                                        std::abs(s.phi_ddot + omega0 * omega0 * std::sin(x[0])));
                   });
    INFO("phi'(0) = " << rate0 << ": max err phi " << err_phi << ", phi' " << err_rate
                      << ", phi'' " << err_acc);
    CHECK(err_phi < 1e-9);
    CHECK(err_rate < 1e-9);
    CHECK(err_acc < 1e-9);
    // One revolution per period, unwrapped; also far out in time.
    const double dir = factor > 0.0 ? 1.0 : -1.0;
    CHECK(pend.CalcState(T).phi == Approx(dir * 2.0 * kPi).epsilon(1e-13));
    CHECK(pend.CalcState(1000.0 * T).phi == Approx(dir * 2000.0 * kPi).epsilon(1e-13));
    CHECK(pend.CalcState(1000.0 * T).phi_dot == Approx(rate0).epsilon(1e-12));
  }
  CHECK_THROWS_AS(mv::Pendulum::Rotation(omega0, 2.0 * omega0), std::invalid_argument);
}

// =================================================================================================
// Torque-free body
// =================================================================================================

TEST_CASE("Torque-free asymmetric body matches Euler's equations integrated by odeint",
          "[validation][analytic]") {
  const Vec3 I(1.0, 2.0, 3.5);
  struct Case {
    Vec3 w0;
    bool about3;
  };
  const std::vector<Case> cases = {
      {Vec3(1.0, 0.0, 2.0), true},     // Landau–Lifshitz origin, M² > 2E I2
      {Vec3(0.3, -1.2, -0.7), true},   // arbitrary, negative dn component
      {Vec3(2.0, 0.5, 0.3), false},    // M² < 2E I2: about axis 1
      {Vec3(-2.0, 0.5, -0.3), false},  // ... with negative dn component
      {Vec3(0.01, 1.0, 0.02), true},   // near the intermediate axis (tennis-racket flip)
      {Vec3(0.0, 0.0, -1.5), true},    // permanent rotation about axis 3
  };
  for (const auto& c : cases) {
    const mv::TorqueFreeBody body(I, c.w0);
    CHECK(body.precesses_about_axis3() == c.about3);
    const double T = body.CalcPeriod();
    const double t_end = std::isfinite(T) ? 4.0 * T : 10.0;
    const auto times = Linspace(0.0, t_end, 401);
    double err_w = 0.0, err_wdot = 0.0, err_E = 0.0, err_M2 = 0.0;
    IntegrateAt(EulerOde{I}, State{c.w0(0), c.w0(1), c.w0(2)}, times,
                   [&](const State& x, double t) {
                     const Vec3 w = body.Calc_w_B(t);
                     err_w = std::max(err_w, (w - Vec3(x[0], x[1], x[2])).cwiseAbs().maxCoeff());
                     const Vec3 wdot_euler = (-w.cross(I.cwiseProduct(w))).cwiseQuotient(I);
                     err_wdot = std::max(err_wdot,
                                         (body.Calc_wdot_B(t) - wdot_euler).cwiseAbs().maxCoeff());
                     err_E = std::max(err_E, std::abs(0.5 * w.dot(I.cwiseProduct(w)) -
                                                      body.energy()) / body.energy());
                     err_M2 = std::max(err_M2,
                                       std::abs(I.cwiseProduct(w).squaredNorm() -
                                                body.momentum_squared()) / body.momentum_squared());
                   });
    INFO("w0 = " << c.w0.transpose() << ", k = " << body.modulus() << ": max |w - odeint| "
                 << err_w << ", |wdot - Euler(w)| " << err_wdot << ", rel E " << err_E
                 << ", rel M^2 " << err_M2);
    CHECK(err_w < 1e-9);
    CHECK(err_wdot < 1e-9);
    CHECK(err_E < 1e-13);
    CHECK(err_M2 < 1e-13);
    CHECK((body.Calc_w_B(0.0) - c.w0).norm() < 1e-13);
    if (std::isfinite(T)) CHECK((body.Calc_w_B(3.0 * T) - c.w0).norm() < 1e-11);
  }
  // Landau–Lifshitz origin: τ0 = 0.
  CHECK(mv::TorqueFreeBody::FromLandauLifshitz(I, 1.0, 2.0).tau0() == 0.0);
  CHECK_THROWS_AS(mv::TorqueFreeBody(Vec3(2.0, 1.0, 3.0), Vec3(1, 1, 1)), std::invalid_argument);
  CHECK_THROWS_AS(mv::TorqueFreeBody(I, Vec3(0.0, 1.0, 0.0)), std::invalid_argument);  // separatrix
}

// =================================================================================================
// Lagrange top
// =================================================================================================

namespace {

/// Integrates the top as a 3-D rigid body (quaternion + Euler's equations with the gravity
/// torque) and returns the worst differences of u, θ', φ', ψ' against the closed form.
struct TopErrors {
  double u = 0.0, theta_dot = 0.0, phi_dot = 0.0, psi_dot = 0.0;
};

TopErrors CompareTopWithRigidBody(const mv::LagrangeTop& top, double t_end) {
  const auto& in = top.inputs();
  // Euler angles z–x–z with φ(0) = ψ(0) = 0: R(0) = Rx(θ0); body rates (θ', φ' sin θ, ω3).
  const double c = std::cos(0.5 * in.theta0), s = std::sin(0.5 * in.theta0);
  const State x0 = {c, s, 0.0, 0.0, 0.0, in.phi_dot0 * std::sin(in.theta0), in.omega3};
  const HeavyBodyOde ode{Vec3(in.I1_O, in.I1_O, in.I3), Vec3(0.0, 0.0, in.com_distance),
                         Vec3(0.0, 0.0, -in.mass * in.gravity)};
  TopErrors err;
  IntegrateAt(ode, x0, Linspace(0.0, t_end, 301), [&](const State& x, double t) {
    const Eigen::Quaterniond q = Eigen::Quaterniond(x[0], x[1], x[2], x[3]).normalized();
    const Mat3 R = q.toRotationMatrix();
    const Vec3 w_W = R * Vec3(x[4], x[5], x[6]);
    const Vec3 e3_W = R.col(2);
    const double u = e3_W.z();
    const double u_dot = w_W.cross(e3_W).z();
    const double sin2 = 1.0 - u * u;
    const double phi_dot = (w_W.z() - u * w_W.dot(e3_W)) / sin2;  // ω·e_z = φ' + ψ' cos θ
    const double psi_dot = w_W.dot(e3_W) - phi_dot * u;
    const auto st = top.CalcState(t);
    err.u = std::max(err.u, std::abs(st.u - u));
    err.theta_dot = std::max(err.theta_dot, std::abs(st.theta_dot + u_dot / std::sqrt(sin2)));
    err.phi_dot = std::max(err.phi_dot, std::abs(st.phi_dot - phi_dot));
    err.psi_dot = std::max(err.psi_dot, std::abs(st.psi_dot - psi_dot));
  });
  return err;
}

}  // namespace

TEST_CASE("Lagrange top matches a rigid-body integration by odeint", "[validation][analytic]") {
  // A spinning top: m = 0.5 kg, l = 0.04 m, I1,COM = 2e-4, I3 = 3e-4 kg m².
  mv::LagrangeTopInputs in;
  in.mass = 0.5;
  in.gravity = 9.81;
  in.com_distance = 0.04;
  in.I1_O = 2e-4 + 0.5 * 0.04 * 0.04;
  in.I3 = 3e-4;
  struct Case {
    double theta0, omega3, phi_dot0;
    bool upper;
  };
  const std::vector<Case> cases = {
      {0.5, 60.0, 0.0, true},    // released without precession: cusps, starts at the top
      {1.2, 25.0, 1.0, true},    // looping nutation
      {0.8, 150.0, 10.0, false},  // precession faster than steady: starts at the lower turning point
  };
  for (const auto& c : cases) {
    in.theta0 = c.theta0;
    in.omega3 = c.omega3;
    in.phi_dot0 = c.phi_dot0;
    const mv::LagrangeTop top(in);
    CHECK(top.starts_at_upper_turning_point() == c.upper);
    CHECK(top.u1() <= top.u2());
    CHECK(top.u2() <= 1.0);
    CHECK(top.u3() >= 1.0);
    // The cubic vanishes at the three roots: f(u) = (α − βu)(1 − u²) − (b − au)².
    for (double r : {top.u1(), top.u2(), top.u3()}) {
      const double f = (top.alpha() - top.beta() * r) * (1 - r * r) -
                       (top.b() - top.a() * r) * (top.b() - top.a() * r);
      CHECK(std::abs(f) < 1e-9 * top.alpha());
    }
    const double Tn = top.CalcNutationPeriod();
    const auto st0 = top.CalcState(0.0);
    CHECK(st0.u == Approx(std::cos(c.theta0)).margin(1e-14));
    CHECK(st0.theta_dot == Approx(0.0).margin(1e-12));
    CHECK(st0.phi_dot == Approx(c.phi_dot0).margin(1e-10));
    CHECK(top.CalcState(Tn).u == Approx(std::cos(c.theta0)).margin(1e-13));
    const TopErrors err = CompareTopWithRigidBody(top, 4.0 * Tn);
    INFO("theta0 = " << c.theta0 << ", nutation period " << Tn << " s: max |u - odeint| " << err.u
                     << ", theta' " << err.theta_dot << ", phi' " << err.phi_dot << ", psi' "
                     << err.psi_dot);
    CHECK(err.u < 1e-9);
    CHECK(err.theta_dot < 1e-7);
    CHECK(err.phi_dot < 1e-7);
    CHECK(err.psi_dot < 1e-7);
  }
}

TEST_CASE("Lagrange top: the steady-precession spin gives a constant tilt",
          "[validation][analytic]") {
  const double m = 0.5, g = 9.81, l = 0.04, I1 = 2e-4 + m * l * l, I3 = 3e-4;
  const double omega_p = 2.0, alpha0 = 0.6;
  const double spin = mv::LagrangeTop::CalcSteadyPrecessionSpin(m, g, l, I1, I3, omega_p, alpha0);
  mv::LagrangeTopInputs in{m, g, l, I1, I3, alpha0, spin + omega_p * std::cos(alpha0), omega_p};
  const mv::LagrangeTop top(in);
  CHECK(top.u2() - top.u1() < 1e-9);
  const auto st = top.CalcState(3.7);
  CHECK(st.u == Approx(std::cos(alpha0)).margin(1e-9));
  CHECK(st.phi_dot == Approx(omega_p).epsilon(1e-8));
  CHECK(st.psi_dot == Approx(spin).epsilon(1e-8));
  const TopErrors err = CompareTopWithRigidBody(top, 5.0);
  INFO("steady precession: max |u - odeint| " << err.u << ", phi' " << err.phi_dot);
  CHECK(err.u < 1e-8);
  CHECK(err.phi_dot < 1e-6);
}

// =================================================================================================
// Slider-crank kinematics
// =================================================================================================

TEST_CASE("Slider-crank kinematics: derivatives match finite differences along a motion",
          "[validation][analytic]") {
  const double r = 0.1, l = 0.35, e = 0.03;
  const double theta0 = 0.4, omega = 3.0, alpha = -1.5;
  auto at = [&](double t) {
    const double th = theta0 + omega * t + 0.5 * alpha * t * t;
    return mv::CalcSliderCrankKinematics(th, omega + alpha * t, alpha, r, l, e);
  };
  const double h = 1e-3;
  double err_xd = 0.0, err_xdd = 0.0, err_pd = 0.0, err_pdd = 0.0, err_geom = 0.0;
  for (double t : {0.0, 0.3, 0.77, 1.1, 2.0, 3.3}) {
    const auto k0 = at(t), kp1 = at(t + h), km1 = at(t - h), kp2 = at(t + 2 * h),
               km2 = at(t - 2 * h);
    // Fourth-order central differences.
    auto d1 = [&](double fm2, double fm1, double fp1, double fp2) {
      return (fm2 - 8 * fm1 + 8 * fp1 - fp2) / (12 * h);
    };
    auto d2 = [&](double fm2, double fm1, double f0, double fp1, double fp2) {
      return (-fm2 + 16 * fm1 - 30 * f0 + 16 * fp1 - fp2) / (12 * h * h);
    };
    err_xd = std::max(err_xd, std::abs(k0.x_dot - d1(km2.x, km1.x, kp1.x, kp2.x)));
    err_xdd = std::max(err_xdd, std::abs(k0.x_ddot - d2(km2.x, km1.x, k0.x, kp1.x, kp2.x)));
    err_pd = std::max(err_pd, std::abs(k0.phi_dot - d1(km2.phi, km1.phi, kp1.phi, kp2.phi)));
    err_pdd = std::max(err_pdd,
                       std::abs(k0.phi_ddot - d2(km2.phi, km1.phi, k0.phi, kp1.phi, kp2.phi)));
    // Geometry: the rod joins the crank tip to (x, e) with length l along angle φ.
    const double th = theta0 + omega * t + 0.5 * alpha * t * t;
    const double dx = k0.x - r * std::cos(th), dy = e - r * std::sin(th);
    err_geom = std::max({err_geom, std::abs(std::hypot(dx, dy) - l),
                         std::abs(std::atan2(dy, dx) - k0.phi)});
  }
  INFO("max FD error: x' " << err_xd << ", x'' " << err_xdd << ", phi' " << err_pd << ", phi'' "
                           << err_pdd << "; geometry " << err_geom);
  CHECK(err_xd < 1e-10);
  CHECK(err_xdd < 1e-7);
  CHECK(err_pd < 1e-10);
  CHECK(err_pdd < 1e-7);
  CHECK(err_geom < 1e-15);
  // Zero offset, crank at dead centre: x = r + l.
  CHECK(mv::CalcSliderCrankKinematics(0.0, 1.0, 0.0, r, l, 0.0).x == Approx(r + l));
  CHECK_THROWS_AS(mv::CalcSliderCrankKinematics(kPi / 2, 0, 0, 0.5, 0.3, 0.0),
                  std::invalid_argument);
}

// =================================================================================================
// Published numbers (References.h)
// =================================================================================================

TEST_CASE("IFToMM A01 pendulum numbers agree with the closed form", "[validation][references]") {
  namespace a01 = refs::iftomm::a01;
  const double omega0 = std::sqrt(a01::kGravity / a01::kLength);
  const auto pend = mv::Pendulum::Libration(omega0, kPi / 2);  // released at (+1, 0)
  CHECK(boost::math::ellint_1(std::sqrt(0.5)) == Approx(a01::kEllipticK).epsilon(1e-15));
  CHECK(pend.CalcPeriod() == Approx(a01::kPeriod).epsilon(1e-15));
  double worst = 0.0;
  for (const auto& s : a01::kPositions) {
    const double phi = pend.CalcState(s.t).phi;
    worst = std::max({worst, std::abs(a01::kLength * std::sin(phi) - s.x),
                      std::abs(-a01::kLength * std::cos(phi) - s.y)});
  }
  INFO("max |A01 reference - closed form| = " << worst);
  CHECK(worst < 1e-9);
}

TEST_CASE("ADAMS joint pendulums agree with the physical-pendulum closed form",
          "[validation][references]") {
  namespace ja = refs::joints_adams;
  const double I_O = ja::kInertiaCom[1] + ja::kMass * ja::kComDistance * ja::kComDistance;
  CHECK(I_O == Approx(ja::kInertiaAboutJoint).epsilon(1e-15));
  const double d = ja::kComDistance;

  // Revolute case 1 (and spherical case 1): swing in the x–z plane, released at 90°.
  const double omega1 = std::sqrt(ja::kMass * ja::kGravity * d / I_O);
  CHECK(omega1 == Approx(ja::revolute1::kOmega0).epsilon(1e-14));
  const auto pend1 = mv::Pendulum::Libration(omega1, kPi / 2);
  CHECK(pend1.CalcPeriod() == Approx(ja::revolute1::kPeriod).epsilon(1e-14));
  CHECK(ja::spherical1::kPeriod == ja::revolute1::kPeriod);
  double worst1 = 0.0;
  for (const auto& s : ja::revolute1::kCom) {
    const double phi = pend1.CalcState(s.t).phi;
    worst1 = std::max({worst1, std::abs(d * std::sin(phi) - s.x),
                       std::abs(-d * std::cos(phi) - s.z)});
  }
  const auto adams = ja::revolute1::kAdamsAt0_5;
  const double phi_a = pend1.CalcState(adams.t).phi;
  const double adams_err = std::max(std::abs(d * std::sin(phi_a) - adams.x),
                                    std::abs(-d * std::cos(phi_a) - adams.z));

  // Revolute case 2: axis n = (0,1,1)/√2; the in-plane "down" is (0,1,−1)/√2, gravity g/√2.
  const Vec3 joint(ja::revolute2::kJoint[0], ja::revolute2::kJoint[1], ja::revolute2::kJoint[2]);
  const Vec3 down = Vec3(0.0, 1.0, -1.0) / std::sqrt(2.0);
  const Vec3 side = Vec3(ja::revolute2::kCom0[0], ja::revolute2::kCom0[1],
                         ja::revolute2::kCom0[2]) - joint;  // d e_x, perpendicular to down
  const double omega2 = std::sqrt(ja::kMass * ja::kGravity / std::sqrt(2.0) * d / I_O);
  const auto pend2 = mv::Pendulum::Libration(omega2, kPi / 2);
  CHECK(pend2.CalcPeriod() == Approx(ja::revolute2::kPeriod).epsilon(1e-14));
  double worst2 = 0.0;
  for (const auto& s : ja::revolute2::kCom) {
    const double phi = pend2.CalcState(s.t).phi;
    const Vec3 p = joint + std::sin(phi) * side + d * std::cos(phi) * down;
    worst2 = std::max(worst2, (p - Vec3(s.x, s.y, s.z)).cwiseAbs().maxCoeff());
  }
  INFO("revolute 1: max |ref - closed form| " << worst1 << " (ADAMS sample " << adams_err
                                              << "); revolute 2: " << worst2);
  CHECK(worst1 < 1e-8);
  CHECK(adams_err < 5e-6);  // ADAMS prints 6 significant digits
  CHECK(worst2 < 1e-7);     // case-2 numbers are printed with 8–9 digits
}

TEST_CASE("IFToMM A02 N-four-bar numbers agree with the 1-DOF parallelogram ODE",
          "[validation][references]") {
  namespace a02 = refs::iftomm::a02;
  auto b0_at = [](int n, double t_end) {
    const double N = n;
    const double coef = a02::kGravity * ((N + 1) / 2 + N) / ((N + 1) / 3 + N);
    State x{};
    IntegrateAt([coef](const State& s, State& ds, double) {
                     ds[0] = s[1];
                     ds[1] = -coef * std::cos(s[0]);
                   },
                   State{a02::kTheta0, a02::kThetaDot0}, {0.0, t_end},
                   [&](const State& s, double) { x = s; });
    return std::array<double, 4>{std::cos(x[0]), std::sin(x[0]), -x[1] * std::sin(x[0]),
                                 x[1] * std::cos(x[0])};
  };
  for (const auto& ref : {a02::kN2At10, a02::kN40At10}) {
    const auto b = b0_at(ref.n, ref.t);
    const double err = std::max({std::abs(b[0] - ref.x), std::abs(b[1] - ref.y),
                                 std::abs(b[2] - ref.x_dot), std::abs(b[3] - ref.y_dot)});
    INFO("N = " << ref.n << ": max |ref - odeint| = " << err);
    CHECK(err < 1e-8);
  }
  // Exudyn's generalized-α values converge towards the N = 2 reference as h shrinks.
  const auto& ex = a02::kExudynN2At10;
  auto dist = [](const a02::ExudynSample& s) {
    return std::hypot(s.x - a02::kN2At10.x, s.y - a02::kN2At10.y);
  };
  CHECK(dist(ex[1]) < dist(ex[0]));
  CHECK(dist(ex[0]) < 1e-4);
  CHECK(dist(ex[1]) < 1e-6);
}

TEST_CASE("Heavy top: invariants, consistent accelerations, coefficients and t = 2 s reference",
          "[validation][references]") {
  namespace ht = refs::heavy_top;
  auto v3 = [](const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); };
  const Vec3 X = v3(ht::kComOffset_B);
  const Vec3 w0 = v3(ht::kOmega0_B);
  const Vec3 mg = ht::kMass * v3(ht::kGravity_W);
  // Parallel-axis theorem: J_O = J_COM + m(|X|² 1 − X Xᵀ).
  const Mat3 J_O = v3(ht::kInertiaCom).asDiagonal().toDenseMatrix() +
                   ht::kMass * (X.squaredNorm() * Mat3::Identity() - X * X.transpose());
  CHECK((J_O - v3(ht::kInertiaFixedPoint).asDiagonal().toDenseMatrix()).norm() < 1e-14);
  // Invariants at t = 0 (R = I, z_COM = 0).
  const double E = 0.5 * w0.dot(J_O * w0) - mg.dot(X);
  CHECK(E == Approx(ht::kEnergy).epsilon(1e-15));
  CHECK((J_O * w0).z() == Approx(ht::kAngularMomentumZ).epsilon(1e-15));
  // Consistent initial accelerations from Euler's equations and rigid-body kinematics.
  const Vec3 wdot = J_O.inverse() * (X.cross(mg) - w0.cross(J_O * w0));
  CHECK((wdot - v3(ht::kOmegaDot0_B)).norm() < 1e-9);
  CHECK((w0.cross(X) - v3(ht::kComVelocity0)).norm() < 1e-15);
  const Vec3 acc = wdot.cross(X) + w0.cross(w0.cross(X));
  CHECK((acc - v3(ht::kComAcceleration0)).norm() < 1e-9);
  // Chung–Hulbert (1993) generalized-α coefficients for ρ∞.
  const double rho = ht::kRhoInf;
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  CHECK(am == Approx(ht::kAlphaM).epsilon(1e-15));
  CHECK(af == Approx(ht::kAlphaF).epsilon(1e-15));
  CHECK(0.5 - am + af == Approx(ht::kGamma).epsilon(1e-15));
  CHECK(0.25 * (1 - am + af) * (1 - am + af) == Approx(ht::kBeta).epsilon(1e-15));

  // Independent integration (quaternion + Euler's equations) to t = 2 s.
  const HeavyBodyOde ode{v3(ht::kInertiaFixedPoint), X, mg};
  double drift_E = 0.0, drift_Hz = 0.0, drift_wy = 0.0;
  Vec3 u_end = Vec3::Zero();
  Vec4 q_end = Vec4::Zero();
  IntegrateAt(ode, State{1, 0, 0, 0, w0(0), w0(1), w0(2)}, Linspace(0.0, ht::kTimeRef, 41),
                 [&](const State& x, double) {
                   const Eigen::Quaterniond q =
                       Eigen::Quaterniond(x[0], x[1], x[2], x[3]).normalized();
                   const Mat3 R = q.toRotationMatrix();
                   const Vec3 w(x[4], x[5], x[6]);
                   const double e = 0.5 * w.dot(J_O * w) - mg.dot(R * X);
                   drift_E = std::max(drift_E, std::abs(e - ht::kEnergy) / ht::kEnergy);
                   drift_Hz = std::max(drift_Hz,
                                       std::abs((R * J_O * w).z() - ht::kAngularMomentumZ));
                   drift_wy = std::max(drift_wy, std::abs(w.y() - ht::kOmegaY));
                   u_end = R * X - X;
                   q_end = Vec4(q.w(), q.x(), q.y(), q.z());
                 });
  const Vec4 q_ref(ht::kQuaternionAt2[0], ht::kQuaternionAt2[1], ht::kQuaternionAt2[2],
                   ht::kQuaternionAt2[3]);
  if (q_end.dot(q_ref) < 0) q_end = -q_end;  // q and −q are the same rotation
  const double err_u = (u_end - v3(ht::kComDisplacementAt2)).cwiseAbs().maxCoeff();
  const double err_q = (q_end - q_ref).cwiseAbs().maxCoeff();
  INFO("odeint vs t = 2 s reference: COM displacement " << err_u << ", quaternion " << err_q
                                                       << "; drift rel E " << drift_E << ", H_z "
                                                       << drift_Hz << ", w_y " << drift_wy);
  CHECK(err_u < 1e-5);
  CHECK(err_q < 1e-5);
  CHECK(drift_E < 1e-11);
  CHECK(drift_Hz < 1e-9);
  CHECK(drift_wy < 1e-9);
}

TEST_CASE("Spatial slider-crank: initial geometry, velocities and total energy",
          "[validation][references]") {
  namespace sc = refs::iftomm::spatial_slider_crank;
  auto v3 = [](const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); };
  const Vec3 A = v3(sc::kCrankPivot);
  const Vec3 B = A + sc::kCrankLength * Vec3(0.0, 0.0, 1.0);  // crank tip at θ0 = 0
  const Vec3 S(sc::kSliderX0, 0.0, 0.0);
  CHECK((S - B).norm() == Approx(sc::kRodLength).epsilon(1e-15));
  // Velocities: v_B = ω × (B − A); slider from d/dt |S − B|² = 0.
  const Vec3 vB = Vec3(sc::kCrankOmega0, 0.0, 0.0).cross(B - A);
  const Vec3 rod = S - B;
  const double xdot = rod.dot(vB) / rod.x();
  CHECK(xdot == Approx(sc::kSliderVelocity0[0]).epsilon(1e-14));
  const Vec3 vS(xdot, 0.0, 0.0);
  CHECK(((vB + vS) / 2 - v3(sc::kRodComVelocity0)).norm() < 1e-15);
  // Energy. The rod's angular velocity is ω⊥ + s r̂ with ω⊥ = r × (vS − vB)/|r|²; its spin s
  // about its own axis is fixed by the rod–slider joint. A Cardan joint with the slider axis x
  // and a rod-fixed axis ⊥ (rod, x) requires ω·(r̂ − r̂ₓ eₓ) = 0; that reproduces the published
  // energy to its 8 digits (the README discusses the "world z" wording of reference/iftomm.md).
  const Vec3 rhat = rod.normalized();
  const Vec3 w_perp = rod.cross(vS - vB) / rod.squaredNorm();
  const double spin = rhat.x() * w_perp.x() / (1.0 - rhat.x() * rhat.x());
  const Vec3 w_rod = w_perp + spin * rhat;
  const double I_rod_axial = sc::kRodInertia[0], I_rod_trans = sc::kRodInertia[1];
  const double w_ax = w_rod.dot(rhat);
  const double ke_rod = 0.5 * sc::kRodMass * ((vB + vS) / 2).squaredNorm() +
                        0.5 * (I_rod_axial * w_ax * w_ax +
                               I_rod_trans * (w_rod - w_ax * rhat).squaredNorm());
  // Crank: rotation about x through A; its COM inertia diag(1e-4, 1e-4, 1e-5) with z along it.
  const double I_crank_x = sc::kCrankInertia[0] + sc::kCrankMass * std::pow(sc::kCrankLength / 2, 2);
  const double ke_crank = 0.5 * I_crank_x * sc::kCrankOmega0 * sc::kCrankOmega0;
  const double ke_slider = 0.5 * sc::kSliderMass * xdot * xdot;
  const double g = -sc::kGravity[2];
  const double pe = g * (sc::kCrankMass * (A + B).z() / 2 + sc::kRodMass * (B + S).z() / 2);
  const double E = ke_rod + ke_crank + ke_slider + pe;
  INFO("rod spin " << spin << " rad/s, energy " << E);
  CHECK(E == Approx(sc::kTotalEnergy).epsilon(1e-8));
}

TEST_CASE("Contact closed forms agree with direct integration and series",
          "[validation][references]") {
  namespace ct = refs::contact;
  const double g = 9.81, mu = 0.3, v0 = 2.0, r = 0.05;
  // Sliding block: integrate v' = −μg until v = 0 (the stop time is where v crosses zero).
  CHECK(ct::SlidingStopTime(v0, mu, g) * mu * g == Approx(v0));
  {
    const double T = ct::SlidingStopTime(v0, mu, g);
    State x{};
    IntegrateAt([&](const State& s, State& ds, double) {
                     ds[0] = s[1];
                     ds[1] = -mu * g;
                   },
                   State{0.0, v0}, {0.0, T}, [&](const State& s, double) { x = s; });
    CHECK(x[1] == Approx(0.0).margin(1e-12));
    CHECK(x[0] == Approx(ct::SlidingStopDistance(v0, mu, g)).epsilon(1e-12));
  }
  // Incline thresholds.
  CHECK(ct::BlockSticksOnIncline(std::atan(mu) - 1e-9, mu));
  CHECK_FALSE(ct::BlockSticksOnIncline(std::atan(mu) + 1e-9, mu));
  CHECK(ct::BlockInclineAcceleration(0.2, mu, g) == 0.0);
  CHECK(ct::SphereRollsOnIncline(std::atan(3.5 * mu) - 1e-9, mu));
  CHECK_FALSE(ct::SphereRollsOnIncline(std::atan(3.5 * mu) + 1e-9, mu));
  // At the threshold both sphere branches give the same acceleration.
  const double a_thr = std::atan(3.5 * mu);
  CHECK(5.0 / 7.0 * g * std::sin(a_thr) ==
        Approx(g * (std::sin(a_thr) - mu * std::cos(a_thr))).epsilon(1e-14));
  // Sphere slip on a flat plane: integrate v' = −μg, ω' = 5μg/(2r) until v = ωr.
  {
    const double ts = ct::SphereSlipToRollTime(v0, mu, g);
    State x{};
    IntegrateAt([&](const State& s, State& ds, double) {
                     ds[0] = s[1];
                     ds[1] = -mu * g;
                     ds[2] = 5.0 * mu * g / (2.0 * r);
                   },
                   State{0.0, v0, 0.0}, {0.0, ts}, [&](const State& s, double) { x = s; });
    CHECK(x[1] == Approx(x[2] * r).epsilon(1e-12));
    CHECK(x[1] == Approx(ct::SphereRollingSpeed(v0)).epsilon(1e-12));
    CHECK(x[0] == Approx(ct::SphereSlipDistance(v0, mu, g)).epsilon(1e-12));
    const double m = 1.3;
    const double ke = 0.5 * m * x[1] * x[1] + 0.5 * 0.4 * m * r * r * x[2] * x[2];
    CHECK(0.5 * m * v0 * v0 - ke == Approx(ct::SphereSlipEnergyLoss(m, v0)).epsilon(1e-12));
  }
  // Bouncing ball: sum of the flight times of the bounces, and the apex heights.
  {
    const double h0 = 1.2, e = 0.8;
    double t = std::sqrt(2 * h0 / g), v = std::sqrt(2 * g * h0);
    for (int n = 1; n <= 400; ++n) {
      v *= e;
      if (n <= 3) CHECK(v * v / (2 * g) == Approx(ct::RestitutionApexHeight(h0, e, n)));
      t += 2 * v / g;
    }
    CHECK(t == Approx(ct::RestitutionRestTime(h0, e, g)).epsilon(1e-12));
  }
}
