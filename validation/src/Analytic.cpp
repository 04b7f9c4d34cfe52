/// @file Analytic.cpp
/// Closed-form reference solutions; see Analytic.h for the formulas and their sources.

#include "mbdae/validation/Analytic.h"

#include <algorithm>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mbdae::validation {
namespace {

constexpr double kPi = std::numbers::pi;

template <typename... Args>
std::string Concat(const Args&... args) {
  std::ostringstream os;
  os.precision(17);
  (os << ... << args);
  return os.str();
}

void Require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

// -------------------------------------------------------------------------------------------------
// Jacobi helpers
// -------------------------------------------------------------------------------------------------

JacobiValues CalcJacobi(double k, double u) {
  Require(k >= 0.0 && k < 1.0, Concat("CalcJacobi: expected modulus 0 <= k < 1, got k = ", k));
  Require(std::isfinite(u), Concat("CalcJacobi: expected a finite argument, got u = ", u));
  // Reduce by whole half-periods 2K: sn(u + 2K) = −sn u, cn(u + 2K) = −cn u, dn(u + 2K) = dn u,
  // am(u + 2K) = am u + π (DLMF 22.4.3, 22.16.2). The reduced argument lies in [−K, K], where
  // cn ≥ 0 and am = atan2(sn, cn) ∈ [−π/2, π/2] without branch ambiguity.
  const double K = boost::math::ellint_1(k);
  const double n = std::round(u / (2.0 * K));
  const double ur = u - 2.0 * K * n;
  double cn = 0.0;
  double dn_boost = 0.0;
  double sn = boost::math::jacobi_elliptic(k, ur, &cn, &dn_boost);
  // Boost 1.74 returns dn with errors up to ~2e-3 near the quarter periods u = ±K (its AGM
  // back-substitution divides two small cosines; e.g. k = 0.5: dn(K) = 0.863994 instead of
  // k' = 0.866025; scipy had the same defect, scipy/scipy#3904). sn and cn are accurate, so use
  // dn² = 1 − k² sn² = cn² + k'² sn² (DLMF 22.6.1), written without cancellation as k → 1.
  const double kc2 = (1.0 - k) * (1.0 + k);
  const double dn = std::sqrt(cn * cn + kc2 * sn * sn);
  const double am = n * kPi + std::atan2(sn, cn);
  if (std::fmod(std::abs(n), 2.0) == 1.0) {
    sn = -sn;
    cn = -cn;
  }
  return {sn, cn, dn, am};
}

double CalcJacobiAmplitude(double k, double u) { return CalcJacobi(k, u).am; }

// -------------------------------------------------------------------------------------------------
// Pendulum
// -------------------------------------------------------------------------------------------------

Pendulum Pendulum::Libration(double omega0, double phi0) {
  Pendulum p{omega0, phi0, Regime::kLibration};
  p.CalcK();  // validates
  return p;
}

Pendulum Pendulum::Rotation(double omega0, double rate0) {
  Pendulum p{omega0, rate0, Regime::kRotation};
  p.CalcK();  // validates
  return p;
}

double Pendulum::CalcK() const {
  Require(omega0 > 0.0 && std::isfinite(omega0),
          Concat("Pendulum: expected omega0 > 0, got ", omega0));
  if (regime == Regime::kLibration) {
    Require(phi0_or_rate != 0.0 && std::abs(phi0_or_rate) < kPi,
            Concat("Pendulum (libration): expected 0 < |phi0| < pi, got phi0 = ", phi0_or_rate));
    return std::sin(0.5 * phi0_or_rate);
  }
  Require(std::abs(phi0_or_rate) > 2.0 * omega0,
          Concat("Pendulum (rotation): expected |phi'(0)| > 2 omega0 = ", 2.0 * omega0,
                 ", got phi'(0) = ", phi0_or_rate));
  return phi0_or_rate / (2.0 * omega0);
}

PendulumState Pendulum::CalcState(double t) const {
  const double k = CalcK();
  const double w = omega0;
  if (regime == Regime::kLibration) {
    // Lawden §5.2: φ = 2 asin(k sn(K − ω0 t | k²)) (from rest at φ0 = 2 asin k).
    const double ka = std::abs(k);
    const double K = boost::math::ellint_1(ka);
    const JacobiValues j = CalcJacobi(ka, K - w * t);
    const double phi = 2.0 * std::asin(std::clamp(k * j.sn, -1.0, 1.0));
    // d/dt sn(K − ω0 t) = −ω0 cn dn, and cos(φ/2) = dn, so φ' = −2kω0 cn.
    const double phi_dot = -2.0 * k * w * j.cn;
    // d/dt cn(K − ω0 t) = +ω0 sn dn  →  φ'' = −2kω0² sn dn = −ω0² sin φ.
    const double phi_ddot = -2.0 * k * w * w * j.sn * j.dn;
    return {phi, phi_dot, phi_ddot};
  }
  // Rotation: φ = 2 am(kω0 t | 1/k²) with modulus 1/|k| (Lawden §5.2); odd in the sign of k.
  const double ka = std::abs(k);
  const double sign = k > 0.0 ? 1.0 : -1.0;
  const JacobiValues j = CalcJacobi(1.0 / ka, ka * w * t);
  const double phi = sign * 2.0 * j.am;
  const double phi_dot = sign * 2.0 * ka * w * j.dn;  // am' = dn
  // dn' = −m sn cn with m = 1/k²: φ'' = −2ω0² sn cn = −ω0² sin φ.
  const double phi_ddot = -sign * 2.0 * w * w * j.sn * j.cn;
  return {phi, phi_dot, phi_ddot};
}

double Pendulum::CalcPeriod() const {
  const double k = std::abs(CalcK());
  if (regime == Regime::kLibration) return 4.0 * boost::math::ellint_1(k) / omega0;
  return 2.0 * boost::math::ellint_1(1.0 / k) / (k * omega0);
}

double Pendulum::CalcEnergyPerInertia() const {
  CalcK();  // validates
  if (regime == Regime::kLibration) return omega0 * omega0 * (1.0 - std::cos(phi0_or_rate));
  return 0.5 * phi0_or_rate * phi0_or_rate;
}

// -------------------------------------------------------------------------------------------------
// Torque-free body
// -------------------------------------------------------------------------------------------------

TorqueFreeBody::TorqueFreeBody(const Vec3& I_B, const Vec3& w0_B) : I_B_(I_B) {
  Require(I_B(0) > 0.0 && I_B(0) < I_B(1) && I_B(1) < I_B(2),
          Concat("TorqueFreeBody: expected principal moments 0 < I1 < I2 < I3, got (", I_B(0),
                 ", ", I_B(1), ", ", I_B(2), ")"));
  Require(w0_B.allFinite() && w0_B.norm() > 0.0,
          Concat("TorqueFreeBody: expected a finite non-zero angular velocity, got (", w0_B(0),
                 ", ", w0_B(1), ", ", w0_B(2), ")"));
  const Vec3 h = I_B.cwiseProduct(w0_B);
  energy_ = 0.5 * w0_B.dot(h);
  momentum_squared_ = h.squaredNorm();
  const double twoE = 2.0 * energy_;
  const double M2 = momentum_squared_;
  Require(std::abs(M2 - twoE * I_B(1)) > 1e-12 * M2,
          Concat("TorqueFreeBody: Omega(0) lies on the separatrix M^2 = 2 E I2 (M^2 = ", M2,
                 ", 2 E I2 = ", twoE * I_B(1), "); the closed form needs k < 1"));
  about_axis3_ = M2 > twoE * I_B(1);

  // Landau–Lifshitz (37.10)–(37.11) written for the "dn axis" d and the "cn axis" c:
  // case M² > 2E I2: d = 3, c = 1; case M² < 2E I2: the indices 1 and 3 are exchanged.
  dn_index_ = about_axis3_ ? 2 : 0;
  cn_index_ = about_axis3_ ? 0 : 2;
  const double Id = I_B(dn_index_);
  const double Ic = I_B(cn_index_);
  const double I2 = I_B(1);
  // (2E Id − M²) and (M² − 2E Ic) have the signs of (Id − Ic); dividing by (Id − Ic)-type
  // factors keeps every radicand non-negative in both cases. Rounding can make them −0.
  const double Ac2 = std::max(0.0, (twoE * Id - M2) / (Ic * (Id - Ic)));
  const double A22 = std::max(0.0, (twoE * Id - M2) / (I2 * (Id - I2)));
  const double Ad2 = std::max(0.0, (M2 - twoE * Ic) / (Id * (Id - Ic)));
  lambda_ = std::sqrt(std::max(0.0, (Id - I2) * (M2 - twoE * Ic) / (Ic * I2 * Id)));
  const double m = std::max(0.0, (I2 - Ic) * (twoE * Id - M2) / ((Id - I2) * (M2 - twoE * Ic)));
  Require(m < 1.0, Concat("TorqueFreeBody: parameter m = k^2 = ", m, " is not below 1"));
  k_ = std::sqrt(m);

  // Euler's equations are invariant under a sign change of any two components of Ω. The dn
  // component never changes sign; if it is negative, flip it together with Ω2.
  const double sigma = w0_B(dn_index_) < 0.0 ? -1.0 : 1.0;
  amp_(cn_index_) = std::sqrt(Ac2);
  amp_(1) = sigma * std::sqrt(A22);
  amp_(dn_index_) = sigma * std::sqrt(Ad2);

  // Time shift: cn(τ0) = Ωc/Ac, sn(τ0) = σ Ω2/A2, so am(τ0) = atan2(sn, cn) and τ0 = F(am | k²).
  const double Ac = std::sqrt(Ac2);
  const double A2 = std::sqrt(A22);
  if (Ac > 0.0 && A2 > 0.0) {
    const double am0 = std::atan2(sigma * w0_B(1) / A2, w0_B(cn_index_) / Ac);
    tau0_ = boost::math::ellint_1(k_, am0);
  } else {
    tau0_ = 0.0;  // permanent rotation about the dn axis
  }
}

TorqueFreeBody TorqueFreeBody::FromLandauLifshitz(const Vec3& I_B, double w1, double w3) {
  return TorqueFreeBody(I_B, Vec3(w1, 0.0, w3));
}

Vec3 TorqueFreeBody::Calc_w_B(double t) const {
  const JacobiValues j = CalcJacobi(k_, lambda_ * t + tau0_);
  Vec3 w;
  w(cn_index_) = amp_(cn_index_) * j.cn;
  w(1) = amp_(1) * j.sn;
  w(dn_index_) = amp_(dn_index_) * j.dn;
  return w;
}

Vec3 TorqueFreeBody::Calc_wdot_B(double t) const {
  // sn' = cn dn, cn' = −sn dn, dn' = −k² sn cn (DLMF 22.13.1–3), times dτ/dt = λ.
  const JacobiValues j = CalcJacobi(k_, lambda_ * t + tau0_);
  Vec3 wdot;
  wdot(cn_index_) = -lambda_ * amp_(cn_index_) * j.sn * j.dn;
  wdot(1) = lambda_ * amp_(1) * j.cn * j.dn;
  wdot(dn_index_) = -lambda_ * k_ * k_ * amp_(dn_index_) * j.sn * j.cn;
  return wdot;
}

double TorqueFreeBody::CalcPeriod() const { return 4.0 * boost::math::ellint_1(k_) / lambda_; }

// -------------------------------------------------------------------------------------------------
// Lagrange top
// -------------------------------------------------------------------------------------------------

LagrangeTop::LagrangeTop(const LagrangeTopInputs& in) : in_(in) {
  Require(in.mass > 0.0, Concat("LagrangeTop: expected mass > 0, got ", in.mass));
  Require(in.gravity > 0.0, Concat("LagrangeTop: expected gravity > 0, got ", in.gravity));
  Require(in.com_distance > 0.0,
          Concat("LagrangeTop: expected com_distance > 0, got ", in.com_distance));
  Require(in.I1_O > 0.0, Concat("LagrangeTop: expected I1_O > 0, got ", in.I1_O));
  Require(in.I3 > 0.0, Concat("LagrangeTop: expected I3 > 0, got ", in.I3));
  Require(in.theta0 > 0.0 && in.theta0 < kPi,
          Concat("LagrangeTop: expected 0 < theta0 < pi, got ", in.theta0));

  // Goldstein §5.7: conserved p_ψ = I3 ω3 = I1' a and p_φ = I1' φ' sin²θ + I3 ω3 cos θ = I1' b;
  // the energy gives α = θ'² + φ'² sin²θ + β cos θ with β = 2 m g l / I1'.
  const double u0 = std::cos(in.theta0);
  const double s2 = 1.0 - u0 * u0;
  a_ = in.I3 * in.omega3 / in.I1_O;
  b_ = (in.I1_O * in.phi_dot0 * s2 + in.I3 * in.omega3 * u0) / in.I1_O;
  beta_ = 2.0 * in.mass * in.gravity * in.com_distance / in.I1_O;
  alpha_ = in.phi_dot0 * in.phi_dot0 * s2 + beta_ * u0;  // θ'(0) = 0

  // f(u) = (α − βu)(1 − u²) − (b − au)² = β u³ + c2 u² + c1 u + c0; f(u0) = 0 because θ'(0) = 0,
  // so deflate by (u − u0): f(u) = (u − u0)(β u² + d1 u + d0).
  const double c2 = -(alpha_ + a_ * a_);
  const double c1 = 2.0 * a_ * b_ - beta_;
  const double d1 = c2 + beta_ * u0;
  const double d0 = c1 + u0 * d1;
  const double disc = std::max(0.0, d1 * d1 - 4.0 * beta_ * d0);
  // Stable quadratic roots (no cancellation between −d1 and √disc).
  const double q = -0.5 * (d1 + std::copysign(std::sqrt(disc), d1));
  double r_a = q / beta_;
  double r_b = q != 0.0 ? d0 / q : r_a;
  if (r_a > r_b) std::swap(r_a, r_b);
  u3_ = r_b;
  // Both other roots on the same side of u0 means u0 is the lower turning point.
  const double tol = 1e-12;
  if (r_a <= u0 + tol) {
    upper_ = true;
    u1_ = std::min(r_a, u0);
    u2_ = u0;
  } else {
    upper_ = false;
    u1_ = u0;
    u2_ = r_a;
  }
  Require(u3_ >= 1.0 - 1e-12, Concat("LagrangeTop: expected the third root u3 >= 1, got ", u3_));
  p_ = 0.5 * std::sqrt(beta_ * (u3_ - u1_));
  k_ = std::sqrt(std::clamp((u2_ - u1_) / (u3_ - u1_), 0.0, 1.0));
  Require(k_ < 1.0, "LagrangeTop: u2 = u3 (the top passes through the upright position)");
}

LagrangeTopState LagrangeTop::CalcState(double t) const {
  const double K = boost::math::ellint_1(k_);
  const double shift = upper_ ? K : 0.0;
  const JacobiValues j = CalcJacobi(k_, p_ * t + shift);
  const double du = u2_ - u1_;
  const double u = u1_ + du * j.sn * j.sn;
  const double u_dot = 2.0 * p_ * du * j.sn * j.cn * j.dn;  // (sn²)' = 2 sn cn dn
  const double s = std::sqrt(std::max(0.0, 1.0 - u * u));
  const double theta = std::acos(std::clamp(u, -1.0, 1.0));
  const double theta_dot = s > 0.0 ? -u_dot / s : 0.0;  // u' = −sin θ θ'
  const double phi_dot = (b_ - a_ * u) / (s * s);
  const double omega3 = a_ * in_.I1_O / in_.I3;
  return {u, u_dot, theta, theta_dot, phi_dot, omega3 - phi_dot * u};
}

double LagrangeTop::CalcNutationPeriod() const { return 2.0 * boost::math::ellint_1(k_) / p_; }

double LagrangeTop::CalcSteadyPrecessionSpin(double mass, double gravity, double com_distance,
                                             double I1_O, double I3, double omega_p,
                                             double alpha0) {
  Require(omega_p != 0.0, "LagrangeTop::CalcSteadyPrecessionSpin: expected omega_p != 0, got 0");
  Require(I3 > 0.0, Concat("LagrangeTop::CalcSteadyPrecessionSpin: expected I3 > 0, got ", I3));
  // θ equation with θ' = θ'' = 0: I1' ω_p² cos α0 − I3 ω3 ω_p + m g l = 0, and ψ' = ω3 − ω_p cos α0.
  return mass * gravity * com_distance / (I3 * omega_p) +
         (I1_O - I3) / I3 * omega_p * std::cos(alpha0);
}

// -------------------------------------------------------------------------------------------------
// Slider-crank
// -------------------------------------------------------------------------------------------------

SliderCrankKinematics CalcSliderCrankKinematics(double theta, double omega, double alpha, double r,
                                                double l, double e) {
  Require(r > 0.0, Concat("CalcSliderCrankKinematics: expected r > 0, got ", r));
  Require(l > 0.0, Concat("CalcSliderCrankKinematics: expected l > 0, got ", l));
  const double st = std::sin(theta);
  const double ct = std::cos(theta);
  // s: height of the crank tip above the slider line; c: horizontal rod projection.
  const double s = r * st - e;
  Require(std::abs(s) < l, Concat("CalcSliderCrankKinematics: cannot assemble, |r sin(theta) - e| = ",
                                  std::abs(s), " >= l = ", l));
  const double c = std::sqrt(l * l - s * s);
  const double s_dot = r * omega * ct;
  const double s_ddot = r * alpha * ct - r * omega * omega * st;
  const double c3 = c * c * c;
  SliderCrankKinematics out{};
  out.x = r * ct + c;
  out.x_dot = -r * omega * st - s * s_dot / c;
  out.x_ddot = -r * alpha * st - r * omega * omega * ct - (s * s_ddot / c + s_dot * s_dot * l * l / c3);
  out.phi = std::atan2(-s, c);
  out.phi_dot = -s_dot / c;
  out.phi_ddot = -(s_ddot / c + s * s_dot * s_dot / c3);
  return out;
}

}  // namespace mbdae::validation
