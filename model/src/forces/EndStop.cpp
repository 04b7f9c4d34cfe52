// End stop: limits the slide s of body b along `axis` (fixed in a, through `point`) to
// [lower, upper] by a one-sided penalty force, as the translational end stops of Adams (BISTOP)
// and Chrono's link limits. With the penetration p = s − upper (or lower − s) > 0, the force
// pushing b back is k p + c ṡ (or k p − c ṡ), never pulling (clipped at 0, so the damper does not
// hold the bodies together as they separate); potential ½ k p². s is measured along a's axis
// from the initial configuration, ṡ = e·ḋ + (ω_a × e)·d.
#include "Forces.h"

#include <mbdae/model/JointTypes.h>

#include <algorithm>
#include <cmath>

namespace mbdae::forces {

const ForceTypeInfo& end_stop() {
  static const ForceTypeInfo info{
      ForceType::EndStop, "end_stop", "one-sided penalty stops limiting the slide along an axis to [lower, upper]",
      {point_key("a point of the axis, world, t0"),
       {"axis", true, "the sliding direction, fixed in the first body, world, t0", KeyKind::Axis, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.axis = v.vector; }},
       {"lower", false, "the least slide, m (no lower stop if absent)", KeyKind::Number, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.lower = v.number; }},
       {"upper", false, "the largest slide, m (no upper stop if absent)", KeyKind::Number, KeyRange::Any, {},
        [](ForceElement& f, const KeyValue& v) { f.upper = v.number; }},
       scalar_stiffness_key("k, N/m"), scalar_damping_key("c, N s/m")},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (!(f.axis.norm() > 1e-12)) p.push_back({"axis", "axis has zero length"});
        if (!f.lower && !f.upper) p.push_back({nullptr, "give lower, upper or both"});
        if (f.lower && f.upper && !(*f.lower < *f.upper))
          p.push_back({"upper", "upper must be > lower"});
        if ((f.lower && !std::isfinite(*f.lower)) || (f.upper && !std::isfinite(*f.upper)))
          p.push_back({nullptr, "lower and upper must be finite"});
      },
      [](const ForceElement& f) { return at_point(f, frame_from_axis(f.axis, 2)); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3&, double* V) {
        const Vec3 e = m.Ra * g.Aa.col(2);
        const double s = e.dot(m.d);
        const double sd = e.dot(m.dd) + m.wa.cross(e).dot(m.d);
        const double push = penalty_stop(f, s, sd, V);  // along +e on b
        Fb = push * e;
      }};
  return info;
}

}  // namespace mbdae::forces
