// Rigid-body spring-damper (Exudyn RigidBodySpringDamper): in the joint frame fixed to a at
// `point`, displacement u = A_Jᵀ d and rotation vector φ of the relative rotation; [F; M] =
// K [u; φ] + D [u̇; ω_rel] acts on b (−on a); potential ½ [u; φ]ᵀ K [u; φ].
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
        [](ForceElement& f, const KeyValue& v) { f.damping6 = v.matrix6; }}},
      true, true, no_check,
      [](const ForceElement& f) { return at_point(f, f.frame ? *f.frame : Mat3::Identity()); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double* V) {
        const Mat3 AJ = m.Ra * g.Aa;
        const Mat3 Rrel = AJ.transpose() * (m.Rb * g.Ab);
        Vec6 x, xd;
        x << AJ.transpose() * m.d, math::so3_log(Rrel);
        xd << AJ.transpose() * m.dd, AJ.transpose() * (m.wb - m.wa);
        const Vec6 FJ = f.stiffness6 * x + f.damping6 * xd;
        Fb = -(AJ * FJ.head<3>());
        Tb = -(AJ * FJ.tail<3>());
        if (V) *V += 0.5 * x.dot(f.stiffness6 * x);
      }};
  return info;
}

}  // namespace mbdae::forces
