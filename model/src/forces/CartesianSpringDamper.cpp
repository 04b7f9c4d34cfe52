// Cartesian spring-damper (Exudyn CartesianSpringDamper): F_i = k_i (d_i − offset_i) + c_i ḋ_i
// per world axis on b (−on a); potential ½ Σ k_i (d_i − o_i)². Where the reaction −F acts on a is
// the key `reaction_at`: b's marker point (default; the pair has no net moment, so angular
// momentum is conserved) or a's own marker point (the pair is exactly −∂V: energy is conserved,
// angular momentum only where F ∥ d). The two agree while the markers coincide.
#include "Forces.h"

namespace mbdae::forces {

const ForceTypeInfo& cartesian_spring_damper() {
  static const ForceTypeInfo info{
      ForceType::CartesianSpringDamper, "cartesian_spring_damper", "spring-damper per world axis",
      {point_key("the marker point of both bodies, world, t0"),
       {"stiffness", true, "[kx, ky, kz], N/m", KeyKind::Vector, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.stiffness3 = v.vector; }},
       {"damping", false, "[cx, cy, cz], N s/m", KeyKind::Vector, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.damping3 = v.vector; }},
       {"offset", false, "[ox, oy, oz], m", KeyKind::Vector, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.offset3 = v.vector; }},
       {"reaction_at", false,
        "where -F acts on the first body: b_marker (b's marker point, default; no moment between the "
        "pair) or a_marker (its own marker point; conservative)",
        KeyKind::Choice, KeyRange::Any, {"b_marker", "a_marker"},
        [](ForceElement& f, const KeyValue& v) { f.reaction_at_a_marker = v.choice == 1; }}},
      true, true, no_check,
      [](const ForceElement& f) { return at_point(f, Mat3::Identity()); },
      [](const ForceElement& f, const ForceGeometry&, const PairMotion& m, Vec3& Fb, Vec3&, double* V) {
        const Vec3 u = m.d - f.offset3;
        Fb = -(f.stiffness3.cwiseProduct(u) + f.damping3.cwiseProduct(m.dd));
        if (V) *V += 0.5 * u.dot(f.stiffness3.cwiseProduct(u));
      }};
  return info;
}

}  // namespace mbdae::forces
