// Torsional spring-damper about `axis` (marker z axes of a and b at `point`): torque
// −(k (φ − φ0) + c φ̇) about a's z axis on b, φ the angle of b's x axis about a's z axis
// (atan2, (−π, π]); potential ½ k (φ − φ0)².
#include "Forces.h"

#include <cmath>

#include <mbdae/model/JointTypes.h>

namespace mbdae::forces {

const ForceTypeInfo& torsional_spring_damper() {
  static const ForceTypeInfo info{
      ForceType::TorsionalSpringDamper, "torsional_spring_damper",
      "torque k (phi - phi0) + c dphi/dt about an axis",
      {point_key("a point of the axis, world, t0"),
       {"axis", true, "the axis, world, t0", KeyKind::Axis, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.axis = v.vector; }},
       scalar_stiffness_key("k, N m/rad"), scalar_damping_key("c, N m s/rad"),
       {"angle", false, "reference angle phi0, rad in (-pi, pi] (default 0)", KeyKind::Number, KeyRange::AngleHalfOpen,
        {}, [](ForceElement& f, const KeyValue& v) { f.length = v.number; }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (!(f.axis.norm() > 1e-12)) p.push_back({"axis", "axis has zero length"});
        else if (!std::isfinite(f.axis.norm())) p.push_back({"axis", "axis is too long (its length overflows; scale it)"});
      },
      [](const ForceElement& f) {
        ForceMarkers m = at_point(f, frame_from_axis(f.axis, 2));
        m.reference = f.length ? *f.length : 0.0;
        return m;
      },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3&, Vec3& Tb, double* V) {
        const Mat3 FA = m.Ra * g.Aa;
        const Vec3 xbw = m.Rb * g.Ab.col(0);
        const double phi = std::atan2(xbw.dot(FA.col(1)), xbw.dot(FA.col(0))) - g.L0;
        const double phid = (m.wb - m.wa).dot(FA.col(2));
        Tb = -(f.stiffness * phi + f.damping * phid) * FA.col(2);
        if (V) *V += 0.5 * f.stiffness * phi * phi;
      }};
  return info;
}

}  // namespace mbdae::forces
