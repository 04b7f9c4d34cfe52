/// @file LieGroup.cpp
/// SE(3); formulas and conventions are documented in LieGroup.h.

#include "mbdae/model/math/LieGroup.h"

namespace mbdae::math {

Eigen::Matrix4d se3_hat(const Vec6& xi) {
  Eigen::Matrix4d X = Eigen::Matrix4d::Zero();
  X.topLeftCorner<3, 3>() = skew(xi.head<3>());
  X.topRightCorner<3, 1>() = xi.tail<3>();
  return X;
}

Eigen::Matrix4d se3_to_matrix(const Pose& g) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = g.R;
  T.topRightCorner<3, 1>() = g.p;
  return T;
}

Pose se3_from_matrix(const Eigen::Matrix4d& T) {
  return Pose{T.topLeftCorner<3, 3>(), T.topRightCorner<3, 1>()};
}

Vec3 transform_point(const Pose& g, const Vec3& x_B) { return g.R * x_B + g.p; }

Pose compose(const Pose& a, const Pose& b) { return Pose{a.R * b.R, a.R * b.p + a.p}; }

Pose inverse(const Pose& g) {
  const Mat3 Rt = g.R.transpose();
  return Pose{Rt, -(Rt * g.p)};
}

Pose se3_exp(const Vec6& xi) {
  // exp([[w~, v], [0, 0]]) = [[exp(w~), J_l(w) v], [0, 1]]  (Murray-Li-Sastry Prop. 2.9, written
  // with the left Jacobian J_l = sum_k w~^k/(k+1)!).
  const Vec3 w = xi.head<3>();
  return Pose{so3_exp(w), so3_left_jacobian(w) * xi.tail<3>()};
}

Vec6 se3_log(const Pose& g) {
  Vec6 xi;
  const Vec3 w = so3_log(g.R);
  xi.head<3>() = w;
  xi.tail<3>() = so3_left_jacobian_inverse(w) * g.p;
  return xi;
}

Mat6 se3_ad(const Vec6& xi) {
  const Mat3 W = skew(xi.head<3>());
  Mat6 ad;
  ad.topLeftCorner<3, 3>() = W;
  ad.topRightCorner<3, 3>().setZero();
  ad.bottomLeftCorner<3, 3>() = skew(xi.tail<3>());
  ad.bottomRightCorner<3, 3>() = W;
  return ad;
}

Mat6 se3_Ad(const Pose& g) {
  Mat6 Ad;
  Ad.topLeftCorner<3, 3>() = g.R;
  Ad.topRightCorner<3, 3>().setZero();
  Ad.bottomLeftCorner<3, 3>() = skew(g.p) * g.R;
  Ad.bottomRightCorner<3, 3>() = g.R;
  return Ad;
}

}  // namespace mbdae::math
