// Unit tests of the rotation parametrizations (model/math/Rotation.h).
//
// Angular-velocity references come from central finite differences of the rotation matrix along
// smooth curves theta(t): skew(w_B) = R^T R_dot, skew(w_W) = R_dot R^T, with step h = 1e-6
// (truncation ~h^2, rounding ~1e-16/h), so the tolerance is 1e-7 on O(1) quantities.

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <stdexcept>

#include "mbdae/model/math/Rotation.h"

using namespace mbdae;
using namespace mbdae::math;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kH = 1e-6;       // finite-difference step
constexpr double kFdTol = 1e-7;   // tolerance of FD comparisons

/// Largest absolute entry; NaN if any entry is NaN (so a NaN result fails every `< tol` check).
double max_abs(const Eigen::MatrixXd& A) { return A.cwiseAbs().maxCoeff<Eigen::PropagateNaN>(); }

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vec3 v(n(rng), n(rng), n(rng));
  return v.normalized();
}

Vec4 random_quaternion(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vec4 q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized();
}

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

/// Body angular velocity from central differences of R(t).
Vec3 fd_w_B(const std::function<Mat3(double)>& R, double t) {
  const Mat3 Rd = (R(t + kH) - R(t - kH)) / (2.0 * kH);
  return unskew(R(t).transpose() * Rd);
}

/// World angular velocity from central differences of R(t).
Vec3 fd_w_W(const std::function<Mat3(double)>& R, double t) {
  const Mat3 Rd = (R(t + kH) - R(t - kH)) / (2.0 * kH);
  return unskew(Rd * R(t).transpose());
}

/// A smooth curve p(t) = p0 + p1 t + p2 t^2 in R^n, with its derivative.
template <int N>
struct PolyCurve {
  Eigen::Matrix<double, N, 1> p0, p1, p2;
  Eigen::Matrix<double, N, 1> x(double t) const { return p0 + t * p1 + t * t * p2; }
  Eigen::Matrix<double, N, 1> xd(double t) const { return p1 + 2.0 * t * p2; }
};

/// A unit-quaternion curve theta(t) = p(t)/|p(t)| with its exact derivative.
struct QuatCurve {
  PolyCurve<4> p;
  Vec4 q(double t) const { return p.x(t).normalized(); }
  Vec4 qd(double t) const {
    const Vec4 x = p.x(t), xd = p.xd(t);
    const double n = x.norm();
    const Vec4 u = x / n;
    return (xd - u * u.dot(xd)) / n;
  }
};

Mat3 reference_rotation(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

void require_rotation(const Mat3& R, double tol = 1e-14) {
  REQUIRE(max_abs(R.transpose() * R - Mat3::Identity()) < tol);
  REQUIRE(std::abs(R.determinant() - 1.0) < tol);
}

}  // namespace

// ------------------------------------------------------------------------------------------------

TEST_CASE("skew and unskew", "[rotation]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 100; ++i) {
    const Vec3 v = random_vec(rng, 3.0), x = random_vec(rng, 3.0);
    REQUIRE(max_abs(skew(v) * x - v.cross(x)) < 1e-14);
    REQUIRE(max_abs(skew(v) + skew(v).transpose()) == 0.0);
    REQUIRE(max_abs(unskew(skew(v)) - v) == 0.0);
  }
  // unskew of a general matrix: axial vector of its skew part (average of the two entries)
  Mat3 S;
  S << 9.0, -3.0, 2.2,  //
      2.0, 8.0, -1.0,   //
      -1.8, 1.4, 7.0;
  REQUIRE(max_abs(unskew(S) - Vec3(1.2, 2.0, 2.5)) < 1e-15);
}

TEST_CASE("elementary rotations and is_rotation", "[rotation]") {
  const double a = 0.7;
  REQUIRE(max_abs(rot_x(a) - reference_rotation(Vec3::UnitX(), a)) < 1e-15);
  REQUIRE(max_abs(rot_y(a) - reference_rotation(Vec3::UnitY(), a)) < 1e-15);
  REQUIRE(max_abs(rot_z(a) - reference_rotation(Vec3::UnitZ(), a)) < 1e-15);
  REQUIRE(is_rotation(rot_x(a) * rot_y(0.3)));
  REQUIRE_FALSE(is_rotation(Mat3(Vec3(1.0, 1.0, -1.0).asDiagonal())));  // reflection
  REQUIRE_FALSE(is_rotation(1.001 * Mat3::Identity()));
}

// ---- Euler parameters ---------------------------------------------------------------------------

TEST_CASE("Euler parameters: matrix is a rotation and matches axis-angle", "[rotation]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> ang(-kPi, kPi);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 axis = random_unit(rng);
    const double angle = ang(rng);
    const Vec4 q = ep_from_axis_angle(3.0 * axis, angle);  // axis normalised inside
    REQUIRE(std::abs(q.norm() - 1.0) < 1e-15);
    const Mat3 R = ep_to_matrix(q);
    require_rotation(R);
    REQUIRE(max_abs(R - reference_rotation(axis, angle)) < 1e-14);
    // R rotates body -> world: the body axis is fixed, and R x = x cos + (a x x) sin + ... .
    REQUIRE(max_abs(R * axis - axis) < 1e-14);
  }
  // Chaney Eq. (10) written out for one quaternion
  const Vec4 q = ep_normalized(Vec4(0.9, 0.1, -0.3, 0.2));
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  Mat3 Rc;
  Rc << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),  //
      2 * (x * y + w * z), 1 - 2 * (z * z + x * x), 2 * (y * z - w * x),   //
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
  REQUIRE(max_abs(ep_to_matrix(q) - Rc) < 1e-15);
}

TEST_CASE("Euler parameters: ep_to_matrix is the unnormalised quadratic form", "[rotation]") {
  // Policy: no normalisation inside; for theta = s q (|q| = 1), R = s^2 R(q).
  const Vec4 q = ep_normalized(Vec4(0.5, -0.1, 0.7, 0.3));
  const double s = 1.1;
  REQUIRE(max_abs(ep_to_matrix(s * q) - s * s * ep_to_matrix(q)) < 1e-14);
  REQUIRE(max_abs(ep_to_matrix(ep_normalized(s * q)) - ep_to_matrix(q)) < 1e-15);
}

TEST_CASE("Euler parameters: invalid input throws", "[rotation]") {
  REQUIRE_THROWS_AS(ep_normalized(Vec4::Zero()), std::invalid_argument);
  REQUIRE_THROWS_AS(ep_from_axis_angle(Vec3::Zero(), 1.0), std::invalid_argument);
  REQUIRE_THROWS_WITH(ep_normalized(Vec4::Zero()), Catch::Contains("norm 0"));
}

TEST_CASE("Euler parameters: matrix_to_ep round trip (Shepperd)", "[rotation]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 1000; ++i) {
    Vec4 q = random_quaternion(rng);
    const Vec4 q2 = matrix_to_ep(ep_to_matrix(q));
    REQUIRE(q2[0] >= 0.0);
    REQUIRE(std::abs(q2.norm() - 1.0) < 1e-15);
    if (q[0] < 0.0) q = -q;
    REQUIRE(max_abs(q2 - q) < 1e-15 * 4);
  }
  SECTION("edge cases: identity, small angles, near and at pi, about each axis and random") {
    REQUIRE(max_abs(matrix_to_ep(Mat3::Identity()) - Vec4(1, 0, 0, 0)) == 0.0);
    const double angles[] = {1e-12, 1e-9, 1e-5, 0.5, kPi - 1e-5, kPi - 1e-9, kPi};
    Vec3 axes[] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 2, -3).normalized(),
                   Vec3(-1, 1, 1).normalized()};
    for (const Vec3& axis : axes)
      for (double angle : angles) {
        const Mat3 R = reference_rotation(axis, angle);
        const Vec4 q = matrix_to_ep(R);
        REQUIRE(q[0] >= 0.0);
        REQUIRE(max_abs(ep_to_matrix(q) - R) < 1e-15 * 4);
        // relative accuracy of the vector part at small angles
        const Vec4 qref = ep_from_axis_angle(axis, angle);
        const double err = std::min((q - qref).norm(), (q + qref).norm());  // sign free at pi
        REQUIRE(err <= 1e-15 * qref.tail<3>().norm());
      }
  }
}

TEST_CASE("Euler parameters: product, conjugate, rotation vector", "[rotation]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 200; ++i) {
    const Vec4 p = random_quaternion(rng), q = random_quaternion(rng);
    REQUIRE(max_abs(ep_to_matrix(ep_multiply(p, q)) - ep_to_matrix(p) * ep_to_matrix(q)) < 1e-14);
    REQUIRE(max_abs(ep_to_matrix(ep_conjugate(p)) - ep_to_matrix(p).transpose()) < 1e-15);
    const Vec3 v = ep_to_rotvec(p);
    REQUIRE(v.norm() <= kPi + 1e-15);
    REQUIRE(max_abs(so3_exp(v) - ep_to_matrix(p)) < 1e-14);
    const Vec4 q2 = ep_from_rotvec(v);
    REQUIRE(max_abs(ep_to_matrix(q2) - ep_to_matrix(p)) < 1e-14);
  }
  const Vec3 tiny(1e-10, -2e-10, 3e-10);
  REQUIRE((ep_to_rotvec(ep_from_rotvec(tiny)) - tiny).norm() < 1e-15 * tiny.norm());
}

TEST_CASE("Euler parameters: G matrices against finite differences", "[rotation]") {
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    QuatCurve c;
    c.p.p0 = Vec4(n(rng), n(rng), n(rng), n(rng));
    c.p.p1 = Vec4(n(rng), n(rng), n(rng), n(rng));
    c.p.p2 = Vec4(n(rng), n(rng), n(rng), n(rng));
    if (c.p.p0.norm() < 0.3) continue;  // keep |p(t)| away from 0 near t = 0
    const double t = 0.01 * n(rng);
    const auto R = [&](double s) { return ep_to_matrix(c.q(s)); };
    const Vec4 q = c.q(t), qd = c.qd(t);
    REQUIRE(std::abs(q.dot(qd)) < 1e-14);  // the index-2 constraint holds on the curve

    const Vec3 wB = ep_G_local(q) * qd, wW = ep_G_global(q) * qd;
    REQUIRE(max_abs(wB - fd_w_B(R, t)) < kFdTol * (1.0 + wB.norm()));
    REQUIRE(max_abs(wW - fd_w_W(R, t)) < kFdTol * (1.0 + wW.norm()));
    REQUIRE(max_abs(wW - ep_to_matrix(q) * wB) < 1e-13 * (1.0 + wB.norm()));

    // G_dot * theta_dot == 0 (local and global), checked by FD of G(theta(t)) times theta_dot
    const Mat34 GLd = (ep_G_local(c.q(t + kH)) - ep_G_local(c.q(t - kH))) / (2.0 * kH);
    const Mat34 GGd = (ep_G_global(c.q(t + kH)) - ep_G_global(c.q(t - kH))) / (2.0 * kH);
    REQUIRE(max_abs(GLd * qd) < kFdTol * (1.0 + qd.squaredNorm()));
    REQUIRE(max_abs(GGd * qd) < kFdTol * (1.0 + qd.squaredNorm()));

    // Chaney Eq. (14) inverts G_local on the tangent space of the unit sphere
    REQUIRE(max_abs(ep_dot_from_w_B(q, wB) - qd) < 1e-13 * (1.0 + qd.norm()));
  }
  // Structure: G G^T = 4 I, G theta = 0 for unit theta (so G^T lambda is orthogonal to theta)
  const Vec4 q = ep_normalized(Vec4(0.3, -0.5, 0.2, 0.8));
  REQUIRE(max_abs(ep_G_local(q) * ep_G_local(q).transpose() - 4.0 * Mat3::Identity()) < 1e-14);
  REQUIRE(max_abs(ep_G_local(q) * q) < 1e-15);
  REQUIRE(max_abs(ep_G_global(q) * q) < 1e-15);
  REQUIRE(max_abs(ep_G_global(q) - ep_to_matrix(q) * ep_G_local(q)) < 1e-14);
}

// ---- Tait-Bryan xyz -----------------------------------------------------------------------------

TEST_CASE("Tait-Bryan xyz: matrix and round trip", "[rotation]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> a02(-kPi, kPi), a1(-0.5 * kPi, 0.5 * kPi);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 a(a02(rng), a1(rng), a02(rng));
    const Mat3 R = rxyz_to_matrix(a);
    require_rotation(R);
    REQUIRE(max_abs(R - rot_x(a[0]) * rot_y(a[1]) * rot_z(a[2])) < 1e-15);
    const RxyzResult r = matrix_to_rxyz(R);
    REQUIRE_FALSE(r.gimbal_lock);
    REQUIRE(max_abs(r.angles - a) < 1e-12);  // unique inside the principal ranges
    REQUIRE(max_abs(rxyz_to_matrix(r.angles) - R) < 1e-14);
  }
  // any rotation (also from random quaternions) is reproduced
  for (int i = 0; i < 1000; ++i) {
    const Mat3 R = ep_to_matrix(random_quaternion(rng));
    const RxyzResult r = matrix_to_rxyz(R);
    REQUIRE(std::abs(r.angles[1]) <= 0.5 * kPi);
    REQUIRE(max_abs(rxyz_to_matrix(r.angles) - R) < 1e-14);
  }
  SECTION("identity and small angles") {
    REQUIRE(max_abs(matrix_to_rxyz(Mat3::Identity()).angles) == 0.0);
    for (double s : {1e-9, 1e-5}) {
      const Vec3 a(s, -2 * s, 0.5 * s);
      REQUIRE(max_abs(matrix_to_rxyz(rxyz_to_matrix(a)).angles - a) < 1e-15 * 4);
    }
    // near pi for a0 and a2
    const Vec3 a(kPi - 1e-9, 0.3, -(kPi - 1e-9));
    REQUIRE(max_abs(matrix_to_rxyz(rxyz_to_matrix(a)).angles - a) < 1e-12);
  }
  SECTION("gimbal lock a1 = +-pi/2") {
    for (double s1 : {1.0, -1.0})
      for (int i = 0; i < 50; ++i) {
        const Vec3 a(a02(rng), s1 * 0.5 * kPi, a02(rng));
        const Mat3 R = rxyz_to_matrix(a);
        const RxyzResult r = matrix_to_rxyz(R);
        REQUIRE(r.gimbal_lock);
        REQUIRE(r.angles[2] == 0.0);
        REQUIRE(std::abs(r.angles[1] - a[1]) < 1e-12);
        REQUIRE(max_abs(rxyz_to_matrix(r.angles) - R) < 1e-14);
      }
    // close to, but outside the lock threshold: no lock, R reproduced
    const Vec3 a(0.4, 0.5 * kPi - 1e-6, -0.7);
    const RxyzResult r = matrix_to_rxyz(rxyz_to_matrix(a));
    REQUIRE_FALSE(r.gimbal_lock);
    REQUIRE(max_abs(rxyz_to_matrix(r.angles) - rxyz_to_matrix(a)) < 1e-14);
    REQUIRE(max_abs(r.angles - a) < 1e-8);  // a0, a2 conditioned as 1/cos(a1)
  }
}

TEST_CASE("Tait-Bryan xyz: G matrices and G_dot terms against finite differences", "[rotation]") {
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    PolyCurve<3> c{Vec3(n(rng), 0.5 * n(rng), n(rng)), Vec3(n(rng), n(rng), n(rng)),
                   Vec3(n(rng), n(rng), n(rng))};
    if (std::abs(std::cos(c.p0[1])) < 0.1) continue;
    const double t = 0.0;
    const auto R = [&](double s) { return rxyz_to_matrix(c.x(s)); };
    const Vec3 a = c.x(t), ad = c.xd(t);
    const Vec3 wB = rxyz_G_local(a) * ad, wW = rxyz_G_global(a) * ad;
    REQUIRE(max_abs(wB - fd_w_B(R, t)) < kFdTol * (1.0 + wB.norm()));
    REQUIRE(max_abs(wW - fd_w_W(R, t)) < kFdTol * (1.0 + wW.norm()));
    REQUIRE(max_abs(rxyz_G_global(a) - rxyz_to_matrix(a) * rxyz_G_local(a)) < 1e-14);

    const Mat3 GLd = (rxyz_G_local(c.x(t + kH)) - rxyz_G_local(c.x(t - kH))) / (2.0 * kH);
    const Mat3 GGd = (rxyz_G_global(c.x(t + kH)) - rxyz_G_global(c.x(t - kH))) / (2.0 * kH);
    REQUIRE(max_abs(rxyz_G_local_dot_times(a, ad) - GLd * ad) < kFdTol * (1.0 + ad.squaredNorm()));
    REQUIRE(max_abs(rxyz_G_global_dot_times(a, ad) - GGd * ad) < kFdTol * (1.0 + ad.squaredNorm()));
  }
}

// ---- Rotation vector / SO(3) -------------------------------------------------------------------

TEST_CASE("so3_exp and so3_log: random round trip", "[rotation]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> ang(0.0, kPi);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 axis = random_unit(rng);
    const double angle = ang(rng);
    const Vec3 v = angle * axis;
    const Mat3 R = so3_exp(v);
    require_rotation(R);
    REQUIRE(max_abs(R - reference_rotation(axis, angle)) < 1e-14);
    REQUIRE((so3_log(R) - v).norm() < 1e-14);
  }
  // any rotation matrix: log gives |v| <= pi and exp(log(R)) = R
  for (int i = 0; i < 1000; ++i) {
    const Mat3 R = ep_to_matrix(random_quaternion(rng));
    const Vec3 v = so3_log(R);
    REQUIRE(v.norm() <= kPi + 1e-15);
    REQUIRE(max_abs(so3_exp(v) - R) < 1e-14);
  }
}

TEST_CASE("so3_exp and so3_log: small angles to machine precision", "[rotation]") {
  std::mt19937 rng(42);
  for (double angle : {1e-15, 1e-12, 1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 1e-2}) {
    for (int i = 0; i < 20; ++i) {
      const Vec3 v = angle * random_unit(rng);
      const Mat3 R = so3_exp(v);
      // independent reference: Eigen's angle-axis (half-angle quaternion formula)
      const Mat3 Rref = reference_rotation(v, angle);
      REQUIRE(max_abs(R - Rref) < 1e-15);
      // the skew part sin(t)/t v is accurate relative to its own size
      REQUIRE((unskew(R) - std::sin(angle) / angle * v).norm() <= 4e-16 * angle);
      REQUIRE((so3_log(R) - v).norm() <= 2e-15 * angle);
    }
  }
  REQUIRE(max_abs(so3_exp(Vec3::Zero()) - Mat3::Identity()) == 0.0);
  REQUIRE(so3_log(Mat3::Identity()).norm() == 0.0);
}

TEST_CASE("so3_log near and at pi", "[rotation]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 100; ++i) {
    const Vec3 axis = random_unit(rng);
    for (double angle : {kPi - 1e-5, kPi - 1e-9, kPi}) {
      const Mat3 R = reference_rotation(axis, angle);
      const Vec3 v = so3_log(R);
      REQUIRE(std::abs(v.norm() - angle) < 1e-14);
      REQUIRE(max_abs(so3_exp(v) - R) < 1e-14);
      if (angle < kPi) REQUIRE((v - angle * axis).norm() < 1e-8);  // axis conditioned as 1/(pi-angle)
      else REQUIRE(std::min((v - angle * axis).norm(), (v + angle * axis).norm()) < 1e-14);
    }
  }
  // exactly pi about coordinate axes (diagonal R)
  REQUIRE(std::abs(so3_log(Mat3(Vec3(1, -1, -1).asDiagonal())).norm() - kPi) < 1e-15);
  REQUIRE(std::abs(so3_log(Mat3(Vec3(-1, 1, -1).asDiagonal())).y()) == Approx(kPi));
}

TEST_CASE("so3_tangent: body angular velocity, inverse, small angles", "[rotation]") {
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  SECTION("against finite differences along random curves, |v| up to 2 pi") {
    for (double scale : {1e-9, 1e-5, 1e-2, 0.3, 1.0, 2.0, 3.0, 5.0}) {
      for (int i = 0; i < 20; ++i) {
        PolyCurve<3> c{scale * random_unit(rng), Vec3(n(rng), n(rng), n(rng)),
                       Vec3(n(rng), n(rng), n(rng))};
        const auto R = [&](double s) { return so3_exp(c.x(s)); };
        const Vec3 v = c.x(0.0), vd = c.xd(0.0);
        const Vec3 wB = so3_tangent(v) * vd;
        REQUIRE(max_abs(wB - fd_w_B(R, 0.0)) < kFdTol * (1.0 + wB.norm()));
        REQUIRE(max_abs(rotvec_G_local(v) - so3_tangent(v)) == 0.0);
        const Vec3 wW = rotvec_G_global(v) * vd;
        REQUIRE(max_abs(wW - fd_w_W(R, 0.0)) < kFdTol * (1.0 + wW.norm()));
        REQUIRE(max_abs(rotvec_G_global(v) - so3_exp(v) * so3_tangent(v)) < 1e-14);
        REQUIRE(max_abs(so3_left_jacobian(v) - so3_tangent(-v)) < 1e-15);
        REQUIRE(max_abs(so3_tangent(v) * so3_tangent_inverse(v) - Mat3::Identity()) < 1e-13);
        REQUIRE(max_abs(so3_left_jacobian(v) * so3_left_jacobian_inverse(v) - Mat3::Identity()) <
                1e-13);
      }
    }
  }
  SECTION("series branches against the closed form in long double") {
    // T(v) = I - a K + b K^2, T^-1 = I + K/2 + c K^2; long double (64-bit mantissa) keeps the
    // closed forms accurate to ~1e-16 down to t = 0.05.
    for (double t : {0.05, 0.2, 0.2499, 0.2501, 0.5, 0.999, 1.001, 2.0}) {
      const Vec3 axis = random_unit(rng);
      const Vec3 v = t * axis;
      const long double T = t;
      const long double a = (1.0L - std::cos(T)) / (T * T);
      const long double b = (T - std::sin(T)) / (T * T * T);
      const long double c = (1.0L - (T / 2) * std::cos(T / 2) / std::sin(T / 2)) / (T * T);
      const Mat3 K = skew(v);
      const Mat3 Tref = Mat3::Identity() - double(a) * K + double(b) * K * K;
      const Mat3 Tiref = Mat3::Identity() + 0.5 * K + double(c) * K * K;
      REQUIRE(max_abs(so3_tangent(v) - Tref) < 1e-16 * 4);
      REQUIRE(max_abs(so3_tangent_inverse(v) - Tiref) < 1e-16 * 4);
    }
  }
  REQUIRE(max_abs(so3_tangent(Vec3::Zero()) - Mat3::Identity()) == 0.0);
  REQUIRE(max_abs(so3_tangent_inverse(Vec3::Zero()) - Mat3::Identity()) == 0.0);
}

TEST_CASE("rotation vector: G_dot * v_dot against finite differences", "[rotation]") {
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  for (double scale : {0.0, 1e-9, 1e-5, 1e-2, 0.5, 0.999, 1.001, 2.0, 3.0}) {
    for (int i = 0; i < 20; ++i) {
      PolyCurve<3> c{scale * random_unit(rng), Vec3(n(rng), n(rng), n(rng)),
                     Vec3(n(rng), n(rng), n(rng))};
      const Vec3 v = c.x(0.0), vd = c.xd(0.0);
      const Mat3 GLd = (rotvec_G_local(c.x(kH)) - rotvec_G_local(c.x(-kH))) / (2.0 * kH);
      const Mat3 GGd = (rotvec_G_global(c.x(kH)) - rotvec_G_global(c.x(-kH))) / (2.0 * kH);
      REQUIRE(max_abs(rotvec_G_local_dot_times(v, vd) - GLd * vd) < kFdTol * (1.0 + vd.squaredNorm()));
      REQUIRE(max_abs(rotvec_G_global_dot_times(v, vd) - GGd * vd) < kFdTol * (1.0 + vd.squaredNorm()));
    }
  }
  // the term is not zero in general, and zero at v = 0
  REQUIRE(rotvec_G_local_dot_times(Vec3(0.3, -0.2, 0.5), Vec3(1.0, 2.0, -1.0)).norm() > 0.1);
  REQUIRE(rotvec_G_local_dot_times(Vec3::Zero(), Vec3(1.0, 2.0, -1.0)).norm() == 0.0);
}

TEST_CASE("rotation vector: G_dot * v_dot series branches against long double", "[rotation]") {
  // Closed forms in long double: a'(t)/t = (t sin t - 2 (1 - cos t))/t^4,
  // b'(t)/t = ((1 - cos t) t - 3 (t - sin t))/t^5, b = (t - sin t)/t^3. The result must be
  // accurate relative to its own size (no cancellation of the small-angle coefficients).
  std::mt19937 rng(42);
  for (double t : {0.05, 0.3, 0.7, 0.999, 1.001, 2.5}) {
    const Vec3 v = t * random_unit(rng), vd(0.3, -1.0, 0.7);
    const long double T = t;
    const long double b = (T - std::sin(T)) / (T * T * T);
    const long double a1 = (T * std::sin(T) - 2.0L * (1.0L - std::cos(T))) / (T * T * T * T);
    const long double b1 = ((1.0L - std::cos(T)) * T - 3.0L * (T - std::sin(T))) / (T * T * T * T * T);
    const double s = v.dot(vd);
    const Vec3 vxvd = v.cross(vd);
    const Vec3 ref_local = -double(a1) * s * vxvd + double(b1) * s * v.cross(vxvd) + double(b) * vd.cross(vxvd);
    const Vec3 ref_global = double(a1) * s * vxvd + double(b1) * s * v.cross(vxvd) + double(b) * vd.cross(vxvd);
    REQUIRE((rotvec_G_local_dot_times(v, vd) - ref_local).norm() <= 1e-14 * ref_local.norm());
    REQUIRE((rotvec_G_global_dot_times(v, vd) - ref_global).norm() <= 1e-14 * ref_global.norm());
  }
}

TEST_CASE("rotation vector: angular acceleration alpha_B = G v_ddot + G_dot v_dot", "[rotation]") {
  // d/dt of w_B(t) = G(v(t)) v_dot(t), by FD, for each parametrization's local G.
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int i = 0; i < 30; ++i) {
    PolyCurve<3> c{Vec3(n(rng), 0.4 * n(rng), n(rng)), Vec3(n(rng), n(rng), n(rng)),
                   Vec3(n(rng), n(rng), n(rng))};
    const Vec3 v = c.x(0.0), vd = c.xd(0.0), vdd = 2.0 * c.p2;
    const auto wB_rv = [&](double s) { return Vec3(rotvec_G_local(c.x(s)) * c.xd(s)); };
    const auto wB_tb = [&](double s) { return Vec3(rxyz_G_local(c.x(s)) * c.xd(s)); };
    const Vec3 fd_rv = (wB_rv(kH) - wB_rv(-kH)) / (2.0 * kH);
    const Vec3 fd_tb = (wB_tb(kH) - wB_tb(-kH)) / (2.0 * kH);
    REQUIRE(max_abs(rotvec_G_local(v) * vdd + rotvec_G_local_dot_times(v, vd) - fd_rv) < 1e-6);
    REQUIRE(max_abs(rxyz_G_local(v) * vdd + rxyz_G_local_dot_times(v, vd) - fd_tb) < 1e-6);
  }
}
