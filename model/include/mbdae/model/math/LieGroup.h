#pragma once
/// @file LieGroup.h
/// The special Euclidean group SE(3) of rigid-body poses (SO(3) functions are in Rotation.h,
/// included here).
///
/// Conventions (Bauer seed; Murray, Li, Sastry, "A Mathematical Introduction to Robotic
/// Manipulation" (1994), ch. 2, with the twist ordered rotation first):
///  - A pose g = (R, p) maps body coordinates to world coordinates: x_W = R x_B + p
///    (R = R_WB, p = p_WB, the world position of the body origin).
///  - A twist is xi = (w, v) in R^6, rotation first; its 4x4 matrix is
///        xi^ = [[w~, v], [0, 0]].
///    The body twist xi_B = (w_B, v_B) satisfies g^-1 g_dot = xi_B^ (w_B: angular velocity and
///    v_B: velocity of the body origin, both in body axes).
///  - exp: se(3) -> SE(3) is the matrix exponential of xi^; log is its inverse for angles in
///    [0, pi].
///  - ad_xi = [[w~, 0], [v~, w~]] (so ad_xi eta = [xi, eta], the Lie bracket);
///    Ad_g = [[R, 0], [p~ R, R]] (so (g eta^ g^-1) = (Ad_g eta)^). Then Ad_exp(xi) = exp(ad_xi).
///  - The rigid-body equation of the Bauer seed reads I xi_dot = F + ad_xi^T I xi.
/// Nothing here allocates.

#include <Eigen/Core>

#include "mbdae/model/Types.h"
#include "mbdae/model/math/Rotation.h"

namespace mbdae::math {

/// Rigid-body pose (element of SE(3)): x_W = R x_B + p.
struct Pose {
  Mat3 R = Mat3::Identity();  ///< rotation body -> world (R_WB), orthonormal, det +1
  Vec3 p = Vec3::Zero();      ///< position of the body origin in world [m] (p_WB)
};

/// 4x4 twist matrix xi^ = [[w~, v], [0, 0]] for xi = (w, v).
Eigen::Matrix4d se3_hat(const Vec6& xi);

/// Homogeneous 4x4 matrix [[R, p], [0, 1]] of a pose.
Eigen::Matrix4d se3_to_matrix(const Pose& g);

/// Pose of a homogeneous 4x4 matrix (the last row is ignored). Never throws.
Pose se3_from_matrix(const Eigen::Matrix4d& T);

/// x_W = R x_B + p.
Vec3 transform_point(const Pose& g, const Vec3& x_B);

/// Composition a * b: x -> a(b(x)), i.e. R = R_a R_b, p = R_a p_b + p_a.
Pose compose(const Pose& a, const Pose& b);

/// Inverse pose: R^T, -R^T p.
Pose inverse(const Pose& g);

/// Exponential of the twist xi = (w, v) (exact closed form):
///     R = so3_exp(w),  p = J_l(w) v   with J_l the SO(3) left Jacobian (so3_left_jacobian),
/// accurate at small angles (series coefficients). Never throws.
Pose se3_exp(const Vec6& xi);

/// Logarithm of a pose: xi = (w, v) with w = so3_log(R) (|w| in [0, pi]) and
/// v = J_l(w)^-1 p. Never throws; g.R is assumed to be a rotation.
Vec6 se3_log(const Pose& g);

/// Adjoint of the Lie algebra (6x6): ad_xi = [[w~, 0], [v~, w~]] for xi = (w, v).
Mat6 se3_ad(const Vec6& xi);

/// Adjoint of the group (6x6): Ad_g = [[R, 0], [p~ R, R]]; maps a body twist to the world
/// (spatial) twist: xi_W = Ad_g xi_B.
Mat6 se3_Ad(const Pose& g);

}  // namespace mbdae::math
