/// @file Rotation.cpp
/// Rotation parametrizations; formulas and sources are documented in Rotation.h.

#include "mbdae/model/math/Rotation.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace mbdae::math {

namespace {

// ---- Coefficient functions of the SO(3) exponential and its Jacobians --------------------------
// All are even functions of t = |v|. For small t their closed forms cancel catastrophically, so
// below a threshold they are evaluated from their Taylor series in t^2 (Horner). The series
// coefficients are generated at compile time from their general term.

constexpr int kTerms = 9;  // t^0 .. t^16; for t < 1 the first omitted term is below 1e-19.
using Series = std::array<double, kTerms>;

constexpr double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// a(t) = (1 - cos t)/t^2 = sum_k (-1)^k t^(2k) / (2k+2)!  -- not needed as series (see below).
// b(t) = (t - sin t)/t^3 = sum_k (-1)^k t^(2k) / (2k+3)!
constexpr Series make_b_series() {
  Series s{};
  for (int k = 0; k < kTerms; ++k) s[k] = (k % 2 == 0 ? 1.0 : -1.0) / factorial(2 * k + 3);
  return s;
}
// a'(t)/t = sum_j (-1)^(j+1) (2j+2) t^(2j) / (2j+4)!
constexpr Series make_a1_series() {
  Series s{};
  for (int j = 0; j < kTerms; ++j)
    s[j] = (j % 2 == 0 ? -1.0 : 1.0) * (2.0 * j + 2.0) / factorial(2 * j + 4);
  return s;
}
// b'(t)/t = sum_j (-1)^(j+1) (2j+2) t^(2j) / (2j+5)!
constexpr Series make_b1_series() {
  Series s{};
  for (int j = 0; j < kTerms; ++j)
    s[j] = (j % 2 == 0 ? -1.0 : 1.0) * (2.0 * j + 2.0) / factorial(2 * j + 5);
  return s;
}

constexpr Series kB = make_b_series();
constexpr Series kA1 = make_a1_series();
constexpr Series kB1 = make_b1_series();

double horner(const Series& s, double t2) {
  double r = s[kTerms - 1];
  for (int k = kTerms - 2; k >= 0; --k) r = r * t2 + s[k];
  return r;
}

/// sin(t)/t, accurate for all t >= 0 (the quotient does not cancel; only t = 0 needs care).
double sinc(double t) {
  if (t < 1e-2) {
    const double t2 = t * t;  // next omitted term t^8/9! < 3e-21
    return 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0 * (1.0 - t2 / 42.0));
  }
  return std::sin(t) / t;
}

/// a(t) = (1 - cos t)/t^2 = 2 sin^2(t/2)/t^2 = sinc(t/2)^2 / 2: no cancellation anywhere.
double coef_a(double t) {
  const double s = sinc(0.5 * t);
  return 0.5 * s * s;
}

/// b(t) = (t - sin t)/t^3.
double coef_b(double t) {
  if (t < 1.0) return horner(kB, t * t);
  return (t - std::sin(t)) / (t * t * t);
}

/// a'(t)/t = (t sin t - 2 (1 - cos t)) / t^4.
double coef_a1(double t) {
  if (t < 1.0) return horner(kA1, t * t);
  const double s = std::sin(0.5 * t);
  return (t * std::sin(t) - 4.0 * s * s) / (t * t * t * t);
}

/// b'(t)/t = ((1 - cos t) t - 3 (t - sin t)) / t^5.
double coef_b1(double t) {
  if (t < 1.0) return horner(kB1, t * t);
  const double s = std::sin(0.5 * t);
  return (2.0 * s * s * t - 3.0 * (t - std::sin(t))) / (t * t * t * t * t);
}

/// c(t) = (1 - (t/2) cot(t/2)) / t^2, the v~^2 coefficient of the inverse Jacobians.
/// The series (Bernoulli numbers) converges only for t < 2 pi, so it is used for t < 0.25 where
/// the first omitted term is ~1e-20 relative.
double coef_c(double t) {
  if (t < 0.25) {
    const double t2 = t * t;
    return 1.0 / 12.0 +
           t2 * (1.0 / 720.0 +
                 t2 * (1.0 / 30240.0 + t2 * (1.0 / 1209600.0 + t2 * (1.0 / 47900160.0))));
  }
  const double h = 0.5 * t;
  return (1.0 - h * std::cos(h) / std::sin(h)) / (t * t);
}

/// Shortest round-trip decimal representation of x (for error messages).
std::string num(double x) {
  std::array<char, 32> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), res.ptr);
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Skew, elementary rotations
// ------------------------------------------------------------------------------------------------

Vec3 unskew(const Mat3& S) {
  return Vec3(0.5 * (S(2, 1) - S(1, 2)), 0.5 * (S(0, 2) - S(2, 0)), 0.5 * (S(1, 0) - S(0, 1)));
}

Mat3 rot_x(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Mat3 R;
  R << 1.0, 0.0, 0.0,  //
      0.0, c, -s,      //
      0.0, s, c;
  return R;
}

Mat3 rot_y(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Mat3 R;
  R << c, 0.0, s,     //
      0.0, 1.0, 0.0,  //
      -s, 0.0, c;
  return R;
}

Mat3 rot_z(double a) {
  const double c = std::cos(a), s = std::sin(a);
  Mat3 R;
  R << c, -s, 0.0,  //
      s, c, 0.0,    //
      0.0, 0.0, 1.0;
  return R;
}

bool is_rotation(const Mat3& R, double tol) {
  if (!R.allFinite()) return false;
  const double orth = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
  return orth <= tol && std::abs(R.determinant() - 1.0) <= tol;
}

// ------------------------------------------------------------------------------------------------
// Euler parameters
// ------------------------------------------------------------------------------------------------

Vec4 ep_normalized(const Vec4& theta) {
  const double n = theta.norm();
  if (!(n > 0.0) || !std::isfinite(n))
    throw std::invalid_argument("Euler parameters: cannot normalise a quaternion of norm " +
                                num(n));
  return theta / n;
}

Vec4 matrix_to_ep(const Mat3& R) {
  // Shepperd (1978): 4w^2 = 1 + tr, 4x^2 = 1 + 2 R00 - tr, ...; take the largest one from the
  // diagonal (well conditioned, >= 1/4) and the other three from off-diagonal sums/differences:
  //   4wx = R21 - R12, 4wy = R02 - R20, 4wz = R10 - R01, 4xy = R01 + R10, 4xz = R02 + R20,
  //   4yz = R12 + R21.
  const double tr = R.trace();
  Vec4 q;
  const double d0 = R(0, 0), d1 = R(1, 1), d2 = R(2, 2);
  if (tr >= d0 && tr >= d1 && tr >= d2) {
    const double w = 0.5 * std::sqrt(std::max(0.0, 1.0 + tr));
    const double f = 0.25 / w;
    q << w, f * (R(2, 1) - R(1, 2)), f * (R(0, 2) - R(2, 0)), f * (R(1, 0) - R(0, 1));
  } else if (d0 >= d1 && d0 >= d2) {
    const double x = 0.5 * std::sqrt(std::max(0.0, 1.0 + 2.0 * d0 - tr));
    const double f = 0.25 / x;
    q << f * (R(2, 1) - R(1, 2)), x, f * (R(0, 1) + R(1, 0)), f * (R(0, 2) + R(2, 0));
  } else if (d1 >= d2) {
    const double y = 0.5 * std::sqrt(std::max(0.0, 1.0 + 2.0 * d1 - tr));
    const double f = 0.25 / y;
    q << f * (R(0, 2) - R(2, 0)), f * (R(0, 1) + R(1, 0)), y, f * (R(1, 2) + R(2, 1));
  } else {
    const double z = 0.5 * std::sqrt(std::max(0.0, 1.0 + 2.0 * d2 - tr));
    const double f = 0.25 / z;
    q << f * (R(1, 0) - R(0, 1)), f * (R(0, 2) + R(2, 0)), f * (R(1, 2) + R(2, 1)), z;
  }
  if (q[0] < 0.0) q = -q;
  return q / q.norm();
}

Vec4 ep_from_axis_angle(const Vec3& axis, double angle) {
  const double n = axis.norm();
  if (!(n > 0.0) || !std::isfinite(n))
    throw std::invalid_argument("ep_from_axis_angle: rotation axis must have non-zero length, got " +
                                num(n));
  Vec4 q;
  q[0] = std::cos(0.5 * angle);
  q.tail<3>() = (std::sin(0.5 * angle) / n) * axis;
  return q;
}

Vec4 ep_from_rotvec(const Vec3& v) {
  // [cos(t/2), sin(t/2)/t v] with sin(t/2)/t = sinc(t/2)/2, accurate as t -> 0.
  const double t = v.norm();
  Vec4 q;
  q[0] = std::cos(0.5 * t);
  q.tail<3>() = (0.5 * sinc(0.5 * t)) * v;
  return q;
}

Vec3 ep_to_rotvec(const Vec4& theta) {
  Vec4 q = ep_normalized(theta);
  if (q[0] < 0.0) q = -q;
  const Vec3 e = q.tail<3>();
  const double n = e.norm();
  if (n == 0.0) return Vec3::Zero();
  // angle = 2 atan2(|e|, w) in [0, pi]; for small n, atan2(n, w)/n -> 1/w without cancellation.
  return (2.0 * std::atan2(n, q[0]) / n) * e;
}

Vec4 ep_multiply(const Vec4& p, const Vec4& q) {
  const double pw = p[0], qw = q[0];
  const Vec3 pe = p.tail<3>(), qe = q.tail<3>();
  Vec4 r;
  r[0] = pw * qw - pe.dot(qe);
  r.tail<3>() = pw * qe + qw * pe + pe.cross(qe);
  return r;
}

Vec4 ep_conjugate(const Vec4& theta) { return Vec4(theta[0], -theta[1], -theta[2], -theta[3]); }

Mat34 ep_G_global(const Vec4& theta) {
  // Nikravesh's E = [-e, e~ + w I]: w_W = 2 E theta_dot.
  const double w = theta[0];
  const Vec3 e = theta.tail<3>();
  Mat34 G;
  G.col(0) = -2.0 * e;
  G.rightCols<3>() = 2.0 * (w * Mat3::Identity() + skew(e));
  return G;
}

Vec4 ep_dot_from_w_B(const Vec4& theta, const Vec3& w_B) {
  // Chaney Eq. (14): theta_dot = 1/2 [-e^T; w I + e~] w_B.
  const double w = theta[0];
  const Vec3 e = theta.tail<3>();
  Vec4 qd;
  qd[0] = -0.5 * e.dot(w_B);
  qd.tail<3>() = 0.5 * (w * w_B + e.cross(w_B));
  return qd;
}

// ------------------------------------------------------------------------------------------------
// Tait-Bryan xyz
// ------------------------------------------------------------------------------------------------

Mat3 rxyz_to_matrix(const Vec3& angles) {
  // Written out (ci = cos ai, si = sin ai):
  //   [ c1c2,            -c1s2,            s1   ]
  //   [ c0s2 + s0s1c2,    c0c2 - s0s1s2,  -s0c1 ]
  //   [ s0s2 - c0s1c2,    s0c2 + c0s1s2,   c0c1 ]
  return rot_x(angles[0]) * rot_y(angles[1]) * rot_z(angles[2]);
}

RxyzResult matrix_to_rxyz(const Mat3& R) {
  RxyzResult res{Vec3::Zero(), false};
  // |cos(a1)| from the first row (a1 in [-pi/2, pi/2], so cos(a1) >= 0).
  const double c1 = std::hypot(R(0, 0), R(0, 1));
  double a0;
  if (c1 < 1e-10) {
    // Gimbal lock, s1 = +-1: R row 1 = [sin(a0 + s1 a2) ... ] -> with a2 = 0:
    // R(1,0) = s1 sin(a0), R(1,1) = cos(a0).
    res.gimbal_lock = true;
    const double s1 = R(0, 2) >= 0.0 ? 1.0 : -1.0;
    a0 = std::atan2(s1 * R(1, 0), R(1, 1));
  } else {
    a0 = std::atan2(-R(1, 2), R(2, 2));
  }
  // M = Rx(a0)^T R = Ry(a1) Rz(a2) = [[c1c2, -c1s2, s1], [s2, c2, 0], [-s1c2, s1s2, c1]].
  const Mat3 M = rot_x(a0).transpose() * R;
  const double a1 = std::atan2(M(0, 2), M(2, 2));
  const double a2 = res.gimbal_lock ? 0.0 : std::atan2(M(1, 0), M(1, 1));
  res.angles = Vec3(a0, a1, a2);
  return res;
}

Mat3 rxyz_G_local(const Vec3& angles) {
  // Columns: Rz^T Ry^T e_x, Rz^T e_y, e_z (w_B = R^T w_W).
  const double c1 = std::cos(angles[1]), s1 = std::sin(angles[1]);
  const double c2 = std::cos(angles[2]), s2 = std::sin(angles[2]);
  Mat3 G;
  G << c1 * c2, s2, 0.0,  //
      -c1 * s2, c2, 0.0,  //
      s1, 0.0, 1.0;
  return G;
}

Mat3 rxyz_G_global(const Vec3& angles) {
  // Columns: e_x, Rx e_y, Rx Ry e_z (w_W = a0_dot e_x + a1_dot Rx e_y + a2_dot Rx Ry e_z).
  const double c0 = std::cos(angles[0]), s0 = std::sin(angles[0]);
  const double c1 = std::cos(angles[1]), s1 = std::sin(angles[1]);
  Mat3 G;
  G << 1.0, 0.0, s1,    //
      0.0, c0, -s0 * c1,  //
      0.0, s0, c0 * c1;
  return G;
}

Vec3 rxyz_G_local_dot_times(const Vec3& angles, const Vec3& angles_dot) {
  // d/dt col0 = [-s1c2 a1d - c1s2 a2d, s1s2 a1d - c1c2 a2d, c1 a1d], d/dt col1 = [c2, -s2, 0] a2d.
  const double c1 = std::cos(angles[1]), s1 = std::sin(angles[1]);
  const double c2 = std::cos(angles[2]), s2 = std::sin(angles[2]);
  const double d0 = angles_dot[0], d1 = angles_dot[1], d2 = angles_dot[2];
  return Vec3((-s1 * c2 * d1 - c1 * s2 * d2) * d0 + c2 * d2 * d1,
              (s1 * s2 * d1 - c1 * c2 * d2) * d0 - s2 * d2 * d1,  //
              c1 * d1 * d0);
}

Vec3 rxyz_G_global_dot_times(const Vec3& angles, const Vec3& angles_dot) {
  // d/dt col1 = [0, -s0, c0] a0d, d/dt col2 = [c1 a1d, s0s1 a1d - c0c1 a0d, -s0c1 a0d - c0s1 a1d].
  const double c0 = std::cos(angles[0]), s0 = std::sin(angles[0]);
  const double c1 = std::cos(angles[1]), s1 = std::sin(angles[1]);
  const double d0 = angles_dot[0], d1 = angles_dot[1], d2 = angles_dot[2];
  return Vec3(c1 * d1 * d2,  //
              -s0 * d0 * d1 + (s0 * s1 * d1 - c0 * c1 * d0) * d2,
              c0 * d0 * d1 + (-s0 * c1 * d0 - c0 * s1 * d1) * d2);
}

// ------------------------------------------------------------------------------------------------
// SO(3)
// ------------------------------------------------------------------------------------------------

Mat3 so3_exp(const Vec3& v) {
  const double t = v.norm();
  const Mat3 K = skew(v);
  return Mat3::Identity() + sinc(t) * K + coef_a(t) * (K * K);
}

Vec3 so3_log(const Mat3& R) {
  // Via Shepperd's quaternion: no loss near 0 (e carries the angle with relative accuracy) and
  // none near pi (the largest component is taken from the diagonal).
  const Vec4 q = matrix_to_ep(R);
  const Vec3 e = q.tail<3>();
  const double n = e.norm();
  if (n == 0.0) return Vec3::Zero();
  return (2.0 * std::atan2(n, q[0]) / n) * e;
}

Mat3 so3_tangent(const Vec3& v) {
  const double t = v.norm();
  const Mat3 K = skew(v);
  return Mat3::Identity() - coef_a(t) * K + coef_b(t) * (K * K);
}

Mat3 so3_tangent_inverse(const Vec3& v) {
  const double t = v.norm();
  const Mat3 K = skew(v);
  return Mat3::Identity() + 0.5 * K + coef_c(t) * (K * K);
}

Mat3 so3_left_jacobian(const Vec3& v) {
  const double t = v.norm();
  const Mat3 K = skew(v);
  return Mat3::Identity() + coef_a(t) * K + coef_b(t) * (K * K);
}

Mat3 so3_left_jacobian_inverse(const Vec3& v) {
  const double t = v.norm();
  const Mat3 K = skew(v);
  return Mat3::Identity() - 0.5 * K + coef_c(t) * (K * K);
}

Mat3 rotvec_G_local(const Vec3& v) { return so3_tangent(v); }

Mat3 rotvec_G_global(const Vec3& v) { return so3_left_jacobian(v); }

// d/dt[I -+ a K + b K^2] v_dot with t_dot = s/t, K_dot = v_dot~, K_dot v_dot = 0:
//   -+ (a'/t) s K v_dot + (b'/t) s K^2 v_dot + b (K_dot K + K K_dot) v_dot,  K K_dot v_dot = 0.
Vec3 rotvec_G_local_dot_times(const Vec3& v, const Vec3& v_dot) {
  const double t = v.norm();
  const double s = v.dot(v_dot);
  const Vec3 vxvd = v.cross(v_dot);
  return -coef_a1(t) * s * vxvd + coef_b1(t) * s * v.cross(vxvd) + coef_b(t) * v_dot.cross(vxvd);
}

Vec3 rotvec_G_global_dot_times(const Vec3& v, const Vec3& v_dot) {
  const double t = v.norm();
  const double s = v.dot(v_dot);
  const Vec3 vxvd = v.cross(v_dot);
  return coef_a1(t) * s * vxvd + coef_b1(t) * s * v.cross(vxvd) + coef_b(t) * v_dot.cross(vxvd);
}

}  // namespace mbdae::math
