// Point-to-point spring-damper between `point` (on a) and `point_b` (on b): tension
// T = k (L − L0) + c L̇ along the line; potential ½ k (L − L0)². L0 = `length` or the initial
// distance.
#include "Forces.h"

namespace mbdae::forces {

const ForceTypeInfo& spring_damper() {
  static const ForceTypeInfo info{
      ForceType::SpringDamper, "spring_damper", "point-to-point spring-damper, tension k (L - L0) + c dL/dt",
      {{"points", true, "[point on a, point on b], world, t0", KeyKind::PointPair, KeyRange::Coordinate, {},
        [](ForceElement& f, const KeyValue& v) {
          f.point = v.points[0];
          f.point_b = v.points[1];
        }},
       scalar_stiffness_key("k, N/m"), scalar_damping_key("c, N s/m"),
       {"length", false, "free length L0, m (default: the initial distance)", KeyKind::Number, KeyRange::NonNegative,
        {}, [](ForceElement& f, const KeyValue& v) { f.length = v.number; }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (!f.length && !((f.point_b - f.point).norm() > 1e-12))
          p.push_back({"points", "the two points coincide; give a length > 0"});
      },
      [](const ForceElement& f) {
        ForceMarkers m = at_point(f, Mat3::Identity());
        m.point_b = f.point_b;
        m.reference = f.length ? *f.length : (f.point_b - f.point).norm();
        return m;
      },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3&, double* V) {
        const double L = m.d.norm();
        const Vec3 e = m.d / L;
        const double ext = L - g.L0;
        const double T = f.stiffness * ext + f.damping * e.dot(m.dd);  // tension
        Fb = -T * e;
        if (V) *V += 0.5 * f.stiffness * ext * ext;
        // a's force acts at a's own point (the line of action): the same moment as at b's point.
      }};
  return info;
}

}  // namespace mbdae::forces
