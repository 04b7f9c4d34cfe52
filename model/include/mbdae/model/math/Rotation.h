#pragma once
/// @file Rotation.h
/// Rotation parametrizations and their kinematic matrices.
///
/// Conventions (see docs/conventions.md):
///  - R (= R_WB) rotates body -> world: p_W = R p_B.
///  - w_B is the angular velocity in body axes, w_W = R w_B in world axes:
///        skew(w_B) = R^T R_dot,     skew(w_W) = R_dot R^T.
///  - For a parametrization theta, G_local and G_global map parameter rates to angular velocity:
///        w_B = G_local(theta) theta_dot,    w_W = G_global(theta) theta_dot = R G_local theta_dot,
///    and the acceleration level needs  d/dt(G) theta_dot  (the "G_dot * theta_dot" term):
///        alpha_B = G_local theta_ddot + G_local_dot theta_dot   (Exudyn doc Eq. 48).
///  - Euler parameters (unit quaternion) theta = [w, x, y, z] = [cos(phi/2), sin(phi/2) axis].
///  - Tait-Bryan xyz angles a = (a0, a1, a2): R = Rx(a0) Ry(a1) Rz(a2) (Exudyn's "Rxyz").
///  - Rotation vector v = angle * axis, R = exp(skew(v)).
/// Angles are in radians, angular velocities in rad/s. Nothing here allocates.
///
/// Sources: Euler-parameter G matrices: Nikravesh, "Computer-Aided Analysis of Mechanical
/// Systems" (1988), ch. 6, and Shabana, "Dynamics of Multibody Systems", ch. 2; quaternion rate
/// equation: Chaney seed Eq. (14); matrix -> quaternion: Shepperd, "Quaternion from rotation
/// matrix", J. Guidance and Control 1(3), 1978; G matrices per parametrization: Exudyn
/// ObjectRigidBody doc Eq. (46)-(48); SO(3) Jacobians: Chirikjian, "Stochastic Models, Information
/// Theory and Lie Groups" vol. 2 (2011), and Sola, Deray, Atchuthan, "A micro Lie theory for state
/// estimation in robotics" (2018), Eqs. (143)-(146).

#include <Eigen/Geometry>  // cross products for callers and implementation

#include "mbdae/model/Types.h"

namespace mbdae::math {

// ------------------------------------------------------------------------------------------------
// Skew-symmetric matrices and elementary rotations
// ------------------------------------------------------------------------------------------------

/// Cross-product matrix (3x3): skew(v) * x == v.cross(x). Written v~ in the docs. Never throws.
/// (Inline, like ep_to_matrix() and ep_G_local(): they sit in the innermost loops of the
/// formulations.)
inline Mat3 skew(const Vec3& v) {
  Mat3 S;
  S << 0.0, -v.z(), v.y(),  //
      v.z(), 0.0, -v.x(),   //
      -v.y(), v.x(), 0.0;
  return S;
}

/// Inverse of skew(): the axial vector of a skew-symmetric S. Each component is the average of
/// the two entries that hold it, e.g. x = (S(2,1) - S(1,2)) / 2, so for a general S this returns
/// the axial vector of its skew-symmetric part. Never throws.
Vec3 unskew(const Mat3& S);

/// Elementary rotation about the body x axis by angle a [rad] (right-hand rule).
Mat3 rot_x(double a);
/// Elementary rotation about the body y axis by angle a [rad].
Mat3 rot_y(double a);
/// Elementary rotation about the body z axis by angle a [rad].
Mat3 rot_z(double a);

/// True when R is orthonormal with det +1 within `tol` (max-abs entry of R^T R - I, and
/// |det R - 1|). Never throws.
bool is_rotation(const Mat3& R, double tol = 1e-9);

// ------------------------------------------------------------------------------------------------
// Euler parameters theta = [w, x, y, z], e = [x, y, z]
// ------------------------------------------------------------------------------------------------

/// Rotation matrix of Euler parameters theta = [w, x, y, z], evaluated with the quadratic formula
///     R = (w^2 - e.e) I + 2 e e^T + 2 w skew(e)
/// WITHOUT normalising theta. R is an exact rotation only when |theta| = 1; this is the
/// form the implicit (index-3 / index-2) formulation differentiates while the norm constraint
/// theta^T theta - 1 = 0 holds (Exudyn doc Eq. 53). Use ep_normalized() first when theta may
/// have drifted. Never throws.
inline Mat3 ep_to_matrix(const Vec4& theta) {
  // R = (w^2 - e.e) I + 2 e e^T + 2 w e~  (Nikravesh Eq. 6.19; Shabana Eq. 2.43), not normalised.
  const double w = theta[0];
  const Vec3 e = theta.tail<3>();
  Mat3 R = (w * w - e.squaredNorm()) * Mat3::Identity() + 2.0 * e * e.transpose();
  R += 2.0 * w * skew(e);
  return R;
}

/// theta / |theta|. @throws std::invalid_argument if |theta| is zero or not finite.
Vec4 ep_normalized(const Vec4& theta);

/// Unit Euler parameters of a rotation matrix by Shepperd's method (1978): the largest of
/// w^2, x^2, y^2, z^2 is taken from the diagonal, the others from sums/differences of
/// off-diagonal entries, so the result is accurate for every rotation (also near angle pi).
/// The result has w >= 0 and unit norm (normalised at the end, so a slightly non-orthogonal R
/// still gives a unit quaternion). At angle exactly pi (w = 0) the sign of e is arbitrary.
/// Never throws; R is assumed to be a rotation.
Vec4 matrix_to_ep(const Mat3& R);

/// Euler parameters of a rotation by `angle` [rad] about `axis` (normalised inside):
/// theta = [cos(angle/2), sin(angle/2) axis/|axis|] (Chaney Eq. 9).
/// @throws std::invalid_argument if |axis| is zero or not finite.
Vec4 ep_from_axis_angle(const Vec3& axis, double angle);

/// Euler parameters of the rotation vector v (R = exp(skew(v))), accurate for |v| -> 0.
Vec4 ep_from_rotvec(const Vec3& v);

/// Rotation vector (angle in [0, pi]) of Euler parameters theta (normalised inside; theta and
/// -theta give the same result). @throws std::invalid_argument if |theta| is zero.
Vec3 ep_to_rotvec(const Vec4& theta);

/// Hamilton product p * q of quaternions [w, x, y, z]: ep_to_matrix(p*q) = R(p) R(q).
Vec4 ep_multiply(const Vec4& p, const Vec4& q);

/// Conjugate [w, -x, -y, -z]: the inverse rotation for a unit quaternion.
Vec4 ep_conjugate(const Vec4& theta);

/// Local G matrix (3x4) of Euler parameters (Nikravesh's 2 L):
///     G_local = 2 [-e, -skew(e) + w I],      w_B = G_local theta_dot.
/// Exact when |theta| = 1 and theta^T theta_dot = 0. For Euler parameters
/// d/dt(G_local) theta_dot == 0 identically. Never throws.
inline Mat34 ep_G_local(const Vec4& theta) {
  // Nikravesh's L = [-e, -e~ + w I]: w_B = 2 L theta_dot.
  const double w = theta[0];
  const Vec3 e = theta.tail<3>();
  Mat34 G;
  G.col(0) = -2.0 * e;
  G.rightCols<3>() = 2.0 * (w * Mat3::Identity() - skew(e));
  return G;
}

/// Global G matrix (3x4) of Euler parameters (Nikravesh's 2 E):
///     G_global = 2 [-e, skew(e) + w I],      w_W = G_global theta_dot.
/// Also d/dt(G_global) theta_dot == 0 identically. Never throws.
Mat34 ep_G_global(const Vec4& theta);

/// Quaternion rate from body angular velocity (Chaney Eq. 14):
///     theta_dot = 1/4 G_local^T w_B = 1/2 [-e^T; w I + skew(e)] w_B.
/// Keeps theta^T theta_dot = 0 (the index-2 constraint, Exudyn Eq. 54). Never throws.
Vec4 ep_dot_from_w_B(const Vec4& theta, const Vec3& w_B);

// ------------------------------------------------------------------------------------------------
// Tait-Bryan angles xyz: R = Rx(a0) Ry(a1) Rz(a2)
// ------------------------------------------------------------------------------------------------

/// R = Rx(a0) Ry(a1) Rz(a2) for angles = (a0, a1, a2) [rad]. Never throws.
Mat3 rxyz_to_matrix(const Vec3& angles);

/// Result of matrix_to_rxyz().
struct RxyzResult {
  Vec3 angles;       ///< (a0, a1, a2) [rad], a0, a2 in (-pi, pi], a1 in [-pi/2, pi/2]
  bool gimbal_lock;  ///< true when |cos(a1)| < 1e-10: then a2 = 0 is chosen and a0 carries
                     ///< the whole rotation about the locked axis; rxyz_to_matrix(angles)
                     ///< still reproduces R.
};

/// Tait-Bryan xyz angles of a rotation matrix (the inverse of rxyz_to_matrix). a0 is taken
/// from the third column, then a1 and a2 from Rx(a0)^T R, which keeps a2 accurate close to the
/// singularity a1 = +-pi/2. Never throws; R is assumed to be a rotation.
RxyzResult matrix_to_rxyz(const Mat3& R);

/// Local G of Tait-Bryan xyz angles (3x3), w_B = G_local(a) a_dot:
///     G_local = [[ c1 c2,  s2, 0],
///                [-c1 s2,  c2, 0],
///                [ s1,     0,  1]]      (ci = cos(ai), si = sin(ai)).
/// Singular where cos(a1) = 0. Never throws.
Mat3 rxyz_G_local(const Vec3& angles);

/// Global G of Tait-Bryan xyz angles (3x3), w_W = G_global(a) a_dot:
///     G_global = [[1,  0,   s1   ],
///                 [0,  c0, -s0 c1],
///                 [0,  s0,  c0 c1]].
Mat3 rxyz_G_global(const Vec3& angles);

/// d/dt(G_local(a(t))) * a_dot, evaluated at (angles, angles_dot) [rad/s^2].
Vec3 rxyz_G_local_dot_times(const Vec3& angles, const Vec3& angles_dot);

/// d/dt(G_global(a(t))) * a_dot, evaluated at (angles, angles_dot) [rad/s^2].
Vec3 rxyz_G_global_dot_times(const Vec3& angles, const Vec3& angles_dot);

// ------------------------------------------------------------------------------------------------
// Rotation vector / SO(3) exponential map
// ------------------------------------------------------------------------------------------------

/// Exponential map of SO(3) (Rodrigues): R = I + sin(t)/t v~ + (1 - cos t)/t^2 v~^2, t = |v|.
/// The coefficients are evaluated with Taylor series for small t (and (1 - cos t)/t^2 as
/// 2 sin^2(t/2)/t^2), so R is accurate to rounding for |v| -> 0. Never throws.
Mat3 so3_exp(const Vec3& v);

/// Logarithm of SO(3): the rotation vector v with so3_exp(v) = R and |v| in [0, pi].
/// Computed through Shepperd's quaternion, angle = 2 atan2(|e|, w), so it is accurate near 0
/// (relative) and near pi. At angle exactly pi, v and -v are both valid; either is returned.
/// Never throws; R is assumed to be a rotation.
Vec3 so3_log(const Mat3& R);

/// Tangent operator T(v) (3x3) of the rotation vector, mapping v_dot to the BODY (local)
/// angular velocity: w_B = T(v) v_dot, where skew(w_B) = R^T R_dot and R = so3_exp(v).
/// This is the right Jacobian of SO(3) (Chirikjian; Sola Eq. 143):
///     T(v) = I - (1 - cos t)/t^2 v~ + (t - sin t)/t^3 v~^2,    t = |v|.
/// Series expansions are used for t < 1, so it is accurate at small angles. Never throws.
Mat3 so3_tangent(const Vec3& v);

/// Inverse of so3_tangent(): v_dot = T(v)^-1 w_B,
///     T^-1(v) = I + 1/2 v~ + (1 - (t/2) cot(t/2))/t^2 v~^2.
/// Valid for |v| < 2 pi (singular at 2 pi). Never throws.
Mat3 so3_tangent_inverse(const Vec3& v);

/// Left Jacobian of SO(3): w_W = J_l(v) v_dot, J_l(v) = so3_exp(v) T(v) = T(-v)
///     = I + (1 - cos t)/t^2 v~ + (t - sin t)/t^3 v~^2.
/// It is also the matrix that maps the translational part of a twist in se3_exp().
Mat3 so3_left_jacobian(const Vec3& v);

/// Inverse of so3_left_jacobian(): I - 1/2 v~ + (1 - (t/2) cot(t/2))/t^2 v~^2, |v| < 2 pi.
Mat3 so3_left_jacobian_inverse(const Vec3& v);

/// Local G of the rotation vector: w_B = G_local(v) v_dot; identical to so3_tangent(v).
Mat3 rotvec_G_local(const Vec3& v);

/// Global G of the rotation vector: w_W = G_global(v) v_dot, G_global = so3_exp(v) G_local(v)
/// (= so3_left_jacobian(v)).
Mat3 rotvec_G_global(const Vec3& v);

/// d/dt(G_local(v(t))) * v_dot at (v, v_dot). With s = v.v_dot, t = |v|:
///     = -a'(t)/t s (v x v_dot) + b'(t)/t s v x (v x v_dot) + b(t) v_dot x (v x v_dot),
/// a = (1 - cos t)/t^2, b = (t - sin t)/t^3; series for small t. In general NOT zero (Exudyn's
/// "G_dot theta_dot = 0" for the Lie-group node holds for the incremental rotation vector at
/// v = 0 only, where this term vanishes too). Never throws.
Vec3 rotvec_G_local_dot_times(const Vec3& v, const Vec3& v_dot);

/// d/dt(G_global(v(t))) * v_dot at (v, v_dot):
///     = +a'(t)/t s (v x v_dot) + b'(t)/t s v x (v x v_dot) + b(t) v_dot x (v x v_dot).
Vec3 rotvec_G_global_dot_times(const Vec3& v, const Vec3& v_dot);

}  // namespace mbdae::math
