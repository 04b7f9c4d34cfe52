// Unit tests of SE(3) (model/math/LieGroup.h). The independent reference for the exponentials is
// Eigen's general matrix exponential (unsupported MatrixFunctions module, Pade approximation with
// scaling and squaring), used in this test only.

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>

#include "mbdae/model/math/LieGroup.h"

using namespace mbdae;
using namespace mbdae::math;

namespace {

constexpr double kPi = std::numbers::pi;

/// Largest absolute entry; NaN if any entry is NaN (so a NaN result fails every `< tol` check).
double max_abs(const Eigen::MatrixXd& A) { return A.cwiseAbs().maxCoeff<Eigen::PropagateNaN>(); }

Vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vec3(n(rng), n(rng), n(rng)).normalized();
}

/// Twist with rotation angle `angle` (random axis) and translation part of size up to `vscale`.
Vec6 random_twist(std::mt19937& rng, double angle, double vscale) {
  std::uniform_real_distribution<double> u(-vscale, vscale);
  Vec6 xi;
  xi.head<3>() = angle * random_unit(rng);
  xi.tail<3>() = Vec3(u(rng), u(rng), u(rng));
  return xi;
}

Pose random_pose(std::mt19937& rng) {
  std::uniform_real_distribution<double> a(0.0, kPi);
  return se3_exp(random_twist(rng, a(rng), 3.0));
}

Vec6 vee(const Eigen::Matrix4d& X) {
  Vec6 xi;
  xi.head<3>() = unskew(X.topLeftCorner<3, 3>());
  xi.tail<3>() = X.topRightCorner<3, 1>();
  return xi;
}

}  // namespace

TEST_CASE("SE(3): exp against the 4x4 matrix exponential", "[lie]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> a(0.0, kPi);
  for (int i = 0; i < 300; ++i) {
    const Vec6 xi = random_twist(rng, i < 150 ? a(rng) : 3.0 * a(rng), 2.0);
    const Eigen::Matrix4d ref = se3_hat(xi).exp();
    const Eigen::Matrix4d T = se3_to_matrix(se3_exp(xi));
    REQUIRE(max_abs(T - ref) < 1e-13);
  }
  SECTION("small angles and pure translation") {
    for (double angle : {0.0, 1e-12, 1e-9, 1e-5, 1e-3}) {
      const Vec6 xi = random_twist(rng, angle, 2.0);
      const Pose g = se3_exp(xi);
      const Eigen::Matrix4d ref = se3_hat(xi).exp();
      REQUIRE(max_abs(se3_to_matrix(g) - ref) < 1e-15 * 4);
      REQUIRE(max_abs(g.R.transpose() * g.R - Mat3::Identity()) < 1e-15);
    }
    Vec6 xi = Vec6::Zero();
    xi.tail<3>() = Vec3(1.0, -2.0, 0.5);
    REQUIRE(max_abs(se3_exp(xi).p - xi.tail<3>()) == 0.0);
    REQUIRE(max_abs(se3_exp(xi).R - Mat3::Identity()) == 0.0);
  }
  SECTION("rotation about an axis through a point: a screw with zero pitch") {
    // w = e_z, v = -w x q with q = (1, 0, 0): rotating by pi about the line through q moves
    // the origin to (2, 0, 0).
    Vec6 xi;
    xi << 0, 0, kPi, 0, -kPi, 0;  // v = -w x q = -(pi e_z) x e_x = -pi e_y
    const Pose g = se3_exp(xi);
    REQUIRE(max_abs(g.p - Vec3(2.0, 0.0, 0.0)) < 1e-15 * 4);
  }
}

TEST_CASE("SE(3): log inverts exp", "[lie]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> a(0.0, kPi - 1e-6);
  for (int i = 0; i < 1000; ++i) {
    const Vec6 xi = random_twist(rng, a(rng), 3.0);
    REQUIRE(max_abs(se3_log(se3_exp(xi)) - xi) < 1e-12);
  }
  for (double angle : {0.0, 1e-12, 1e-9, 1e-5}) {
    const Vec6 xi = random_twist(rng, angle, 1.0);
    const Vec6 back = se3_log(se3_exp(xi));
    REQUIRE((back.head<3>() - xi.head<3>()).norm() <= 2e-15 * angle);  // relative in w
    REQUIRE(max_abs(back.tail<3>() - xi.tail<3>()) < 1e-15 * 4);
  }
  {
    // near pi the axis is conditioned as eps/(pi - angle)
    const Vec6 xi = random_twist(rng, kPi - 1e-5, 1.0);
    REQUIRE(max_abs(se3_log(se3_exp(xi)) - xi) < 1e-9);
  }
  // any pose: exp(log(g)) = g
  for (int i = 0; i < 200; ++i) {
    const Pose g = random_pose(rng);
    REQUIRE(max_abs(se3_to_matrix(se3_exp(se3_log(g))) - se3_to_matrix(g)) < 1e-13);
  }
  // at angle pi, either sign of w is valid; exp(log(g)) must still reproduce g
  Pose g{Mat3(Vec3(1.0, -1.0, -1.0).asDiagonal()), Vec3(0.3, -1.0, 2.0)};
  REQUIRE(max_abs(se3_to_matrix(se3_exp(se3_log(g))) - se3_to_matrix(g)) < 1e-14);
}

TEST_CASE("SE(3): compose, inverse, transform_point", "[lie]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 100; ++i) {
    const Pose a = random_pose(rng), b = random_pose(rng);
    REQUIRE(max_abs(se3_to_matrix(compose(a, b)) - se3_to_matrix(a) * se3_to_matrix(b)) < 1e-14);
    const Pose e = compose(a, inverse(a));
    REQUIRE(max_abs(e.R - Mat3::Identity()) < 1e-15 * 4);
    REQUIRE(e.p.norm() < 1e-14);
    const Vec3 x(0.3, -0.2, 1.5);
    REQUIRE(max_abs(transform_point(a, x) - (a.R * x + a.p)) == 0.0);
    REQUIRE(max_abs(transform_point(inverse(a), transform_point(a, x)) - x) < 1e-14);
    const Pose back = se3_from_matrix(se3_to_matrix(a));
    REQUIRE(max_abs(back.R - a.R) == 0.0);
    REQUIRE(max_abs(back.p - a.p) == 0.0);
  }
}

TEST_CASE("SE(3): adjoints", "[lie]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> a(0.0, kPi);
  for (int i = 0; i < 100; ++i) {
    const Vec6 xi = random_twist(rng, a(rng), 2.0), eta = random_twist(rng, a(rng), 2.0);
    const Pose g = random_pose(rng), h = random_pose(rng);
    // ad_xi eta is the Lie bracket [xi^, eta^]
    const Eigen::Matrix4d X = se3_hat(xi), Y = se3_hat(eta);
    REQUIRE(max_abs(se3_ad(xi) * eta - vee(X * Y - Y * X)) < 1e-13);
    REQUIRE(max_abs(se3_ad(xi) * xi) < 1e-15);
    // Ad_g eta^ = g eta^ g^-1
    const Eigen::Matrix4d T = se3_to_matrix(g);
    REQUIRE(max_abs(se3_hat(se3_Ad(g) * eta) - T * Y * T.inverse()) < 1e-13);
    // homomorphism and inverse
    REQUIRE(max_abs(se3_Ad(compose(g, h)) - se3_Ad(g) * se3_Ad(h)) < 1e-13);
    REQUIRE(max_abs(se3_Ad(inverse(g)) - se3_Ad(g).inverse()) < 1e-12);
    // Ad_exp(xi) = exp(ad_xi)
    const Mat6 lhs = se3_Ad(se3_exp(xi));
    const Mat6 rhs = se3_ad(xi).exp();
    REQUIRE(max_abs(lhs - rhs) < 1e-12);
  }
}

TEST_CASE("SE(3): body twist of g(t) = g0 exp(t xi) is xi", "[lie]") {
  std::mt19937 rng(42);
  const double h = 1e-6;
  for (int i = 0; i < 50; ++i) {
    const Pose g0 = random_pose(rng);
    const Vec6 xi = random_twist(rng, 1.3, 2.0);
    const auto g = [&](double t) { return se3_to_matrix(compose(g0, se3_exp(t * xi))); };
    const double t = 0.37;
    const Eigen::Matrix4d gd = (g(t + h) - g(t - h)) / (2.0 * h);
    REQUIRE(max_abs(vee(g(t).inverse() * gd) - xi) < 1e-8);
  }
}

TEST_CASE("SE(3): the Bauer rigid-body equation reduces to Newton-Euler", "[lie]") {
  // I xi_dot = F + ad_xi^T I xi with I = diag(J, m I3) about the COM (Bauer seed):
  //   J w_dot = tau - w x J w,   m v_dot = f - m w x v  (v: COM velocity in body axes).
  Mat3 J;
  J << 2.0, 0.1, -0.2,  //
      0.1, 3.0, 0.3,    //
      -0.2, 0.3, 4.0;
  const double m = 5.0;
  Mat6 I = Mat6::Zero();
  I.topLeftCorner<3, 3>() = J;
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  Vec6 xi;
  xi << 0.3, -1.2, 0.7, 2.0, 0.5, -1.0;
  const Vec3 w = xi.head<3>(), v = xi.tail<3>();
  const Vec6 rhs = se3_ad(xi).transpose() * I * xi;
  REQUIRE(max_abs(rhs.head<3>() - (-w.cross(J * w))) < 1e-14);
  REQUIRE(max_abs(rhs.tail<3>() - (-m * w.cross(v))) < 1e-14);
}
