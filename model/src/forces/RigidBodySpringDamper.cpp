// Rigid-body spring-damper (Exudyn RigidBodySpringDamper): 6 × 6 stiffness K and damping D
// between two markers that coincide at t0 (at `point`, frame `frame`). With A = R_a A_a and
// B = R_b A_b the marker frames, d = p_b − p_a their separation and R = Aᵀ B, the rotation law
// (key `rotation_law`) gives the coordinates x = [u; θ] and the law frame J:
//
//   rotation_vector  u = Aᵀ d,  θ = φ = log R,  J = A;  δθ = J_l(φ)⁻¹ Aᵀ δψ_b
//   tait_bryan       u = Aᵀ d,  θ = xyz angles of R (R = Rx Ry Rz), J = A;  δθ = G(θ)⁻¹ Aᵀ δψ_b
//                    with G = [e_x, Rx e_y, Rx Ry e_z] (ω in A = G θ̇); singular at θ_y = ±90°
//   mid_frame        u = Mᵀ d,  θ = φ = log R,  J = M = A exp(φ/2) (the frame halfway along the
//                    rotation from A to B);  δθ = J_l(φ)⁻¹ Aᵀ δψ_b, δu = Mᵀ δp_b + Mᵀ [d]× δψ_M
//                    with δψ_M = A P Aᵀ δψ_b, P = ½ J_l(φ/2) J_l(φ)⁻¹
//
// (δp_b, δψ_b: virtual displacement of b's marker point and virtual rotation of b, world axes;
// J_l the left Jacobian of SO(3), math/Rotation.h.) Potential V = ½ xᵀ K x. With f = K x the
// stiffness wrench on b is exactly −∂V/∂(δp_b, δψ_b):
//   F = −J f_u,   T = −A (δθ/δψ map)ᵀ f_θ  (+ A Pᵀ Aᵀ (d × M f_u) for mid_frame),
// and a gets −F at b's marker point and −T (the wrench pair of a potential that does not change
// when both bodies move together). For a symmetric K the stiffness is conservative with every law.
// Damping: g = D [Jᵀ ḋ; Jᵀ (ω_b − ω_a)], F −= J g_u, T −= J g_θ (mid_frame: g_u acts at the
// mid-point d/2 back from b's marker, T += ½ d × J g_u).
//
// mid_frame is unchanged when a and b are swapped (A ↔ B leaves M, turns d, φ and the velocities
// into their negatives, so x → −x and V, the forces and the damping are the same): the relative
// rotation by the SO(3) logarithm, the separation resolved in the geodesic mid frame (the SO(3)
// Jacobians as in T. D. Barfoot, State Estimation for Robotics, Cambridge 2017, sec. 7.1.3). It is
// not Exudyn's intrinsicFormulation of ObjectConnectorRigidBodySpringDamper, whose translation is
// the SE(3) logarithm's, u = J_l(φ)⁻¹ A0ᵀ d, with an extra torque (M(−u/2)) × F on both bodies;
// the two agree to first order only. rotation_vector is symmetric when K and D are
// diag(k_t I, k_r I), tait_bryan only to first order.
#include "Forces.h"

#include <mbdae/model/math/Rotation.h>

namespace mbdae::forces {

const ForceTypeInfo& rigid_body_spring_damper() {
  static const ForceTypeInfo info{
      ForceType::RigidBodySpringDamper, "rigid_body_spring_damper",
      "6 x 6 stiffness and damping in a joint frame (Exudyn RigidBodySpringDamper)",
      {point_key("the joint point, world, t0"),
       {"frame", false, "the joint frame, world, t0 (default: world axes)", KeyKind::Orientation, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.frame = v.rotation; }},
       {"stiffness", true, "6 x 6 K: [N/m, N/rad; N m/m, N m/rad]", KeyKind::Matrix6, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.stiffness6 = v.matrix6; }},
       {"damping", false, "6 x 6 D: the same units per m/s, rad/s", KeyKind::Matrix6, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.damping6 = v.matrix6; }},
       {"rotation_law", false,
        "how the relative rotation is measured: rotation_vector (default), tait_bryan or mid_frame "
        "(the same motion whichever body is listed first)",
        KeyKind::Choice, KeyRange::Any, {"rotation_vector", "tait_bryan", "mid_frame"},
        [](ForceElement& f, const KeyValue& v) { f.rotation_law = static_cast<SpringRotationLaw>(v.choice); }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.frame &&
            ((f.frame->transpose() * *f.frame - Mat3::Identity()).norm() > 1e-6 || f.frame->determinant() < 0))
          p.push_back({"frame", "frame is not a rotation matrix"});
      },
      [](const ForceElement& f) { return at_point(f, f.frame ? *f.frame : Mat3::Identity()); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double* V) {
        const Mat3 A = m.Ra * g.Aa;
        const Mat3 R = A.transpose() * (m.Rb * g.Ab);
        const Vec3 wrel = m.wb - m.wa;
        Vec6 x;
        Mat3 J = A;      // the law frame
        Mat3 mapT;       // (∂θ/∂(Aᵀ δψ_b))ᵀ
        Vec3 extra = Vec3::Zero();  // mid_frame: the torque of the frame's turn
        if (f.rotation_law == SpringRotationLaw::TaitBryan) {
          const Vec3 th = math::matrix_to_rxyz(R).angles;
          x << A.transpose() * m.d, th;
          mapT = math::rxyz_G_global(th).inverse().transpose();
        } else {
          const Vec3 phi = math::so3_log(R);
          const Mat3 JlinvT = math::so3_left_jacobian_inverse(phi).transpose();
          mapT = JlinvT;
          if (f.rotation_law == SpringRotationLaw::MidFrame) J = A * math::so3_exp(0.5 * phi);
          x << J.transpose() * m.d, phi;
          if (f.rotation_law == SpringRotationLaw::MidFrame) {
            const Mat3 P = 0.5 * math::so3_left_jacobian(0.5 * phi) * JlinvT.transpose();
            const Vec3 fu = J * (f.stiffness6.topRows<3>() * x);
            extra = A * (P.transpose() * (A.transpose() * m.d.cross(fu)));
          }
        }
        const Vec6 fk = f.stiffness6 * x;
        Vec6 xi;
        xi << J.transpose() * m.dd, J.transpose() * wrel;
        const Vec6 gd = f.damping6 * xi;
        Fb = -(J * (fk.head<3>() + gd.head<3>()));
        Tb = extra - A * (mapT * fk.tail<3>()) - J * gd.tail<3>();
        if (f.rotation_law == SpringRotationLaw::MidFrame) Tb += 0.5 * m.d.cross(J * gd.head<3>());
        if (V) *V += 0.5 * x.dot(fk);
      }};
  return info;
}

}  // namespace mbdae::forces
