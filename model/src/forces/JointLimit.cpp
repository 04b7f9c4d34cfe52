// Joint limit: one-sided penalty stops on the angle of a revolute joint or the slide of a
// prismatic joint (bodies, point and axis are the joint's), the rotational counterpart of the
// end_stop and Adams' / Chrono's joint limits. With the coordinate q (φ turns counted, or s, both
// 0 at t0, measured as the joint_motor measures them) and the penetration p = q − upper (or
// lower − q) > 0, the torque (or force) pushing b back is k p + c q̇ (or k p − c q̇), never pulling
// (clipped at 0); potential ½ k p². The impulse stepper takes the stops as unilateral impulses with
// Newton restitution e (ForceElement::by_impulses): the law then gives nothing.
#include "Forces.h"

#include <algorithm>
#include <cmath>

#include <mbdae/model/JointTypes.h>

namespace mbdae::forces {

const ForceTypeInfo& joint_limit() {
  static const ForceTypeInfo info{
      ForceType::JointLimit, "joint_limit",
      "one-sided stops on the angle of a revolute or the slide of a prismatic joint (penalty, or impulses with restitution)",
      {{"lower", false, "the least angle (rad) or slide (m) from the initial configuration (no lower stop if absent)",
        KeyKind::Number, KeyRange::Any, {}, [](ForceElement& f, const KeyValue& v) { f.lower = v.number; }},
       {"upper", false, "the largest angle (rad) or slide (m) (no upper stop if absent)", KeyKind::Number, KeyRange::Any,
        {}, [](ForceElement& f, const KeyValue& v) { f.upper = v.number; }},
       scalar_stiffness_key("penalty k, N m/rad (revolute) or N/m (prismatic)"),
       scalar_damping_key("penalty c, N m s/rad or N s/m"),
       {"restitution", false, "Newton restitution e in [0, 1] of the impulse stepper's stops (default 0)",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.restitution = v.number; }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.joint.empty()) p.push_back({nullptr, "no joint"});
        if (!f.lower && !f.upper) p.push_back({nullptr, "give lower, upper or both"});
        if (f.lower && f.upper && !(*f.lower < *f.upper)) p.push_back({"upper", "upper must be > lower"});
        if ((f.lower && !std::isfinite(*f.lower)) || (f.upper && !std::isfinite(*f.upper)))
          p.push_back({nullptr, "lower and upper must be finite"});
        if (!(f.restitution >= 0 && f.restitution <= 1)) p.push_back({"restitution", "restitution must be in [0, 1]"});
        if (f.joint_type == JointType::Cylindrical)
          p.push_back({nullptr, "a cylindrical joint has two coordinates: a joint_limit acts on a revolute or prismatic joint"});
      },
      [](const ForceElement& f) { return at_point(f, frame_from_axis(f.axis, 2)); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double* V) {
        if (f.by_impulses) return;
        const bool turns = f.joint_type == JointType::Revolute;
        const JointCoordinates c = joint_coordinates(g, m, turns);
        const double q = turns ? c.angle : c.displacement, qd = turns ? c.rate : c.speed;
        const double push = penalty_stop(f, q, qd, V);  // along +e on b
        const Vec3 e = m.Ra * g.Aa.col(2);
        if (turns) Tb = push * e;
        else Fb = push * e;
      },
      [](const ForceElement& f, const System& model, std::vector<KeyProblem>& p) {
        const auto revolute_or_prismatic = [](JointType t) {
          return t == JointType::Revolute || t == JointType::Prismatic;
        };
        if (const Joint* j = element_joint(f, model, revolute_or_prismatic, "a joint_limit",
                                           "revolute or prismatic joint", p))
          copied_from_joint(f, *j, true, "add_joint_limit", p);
      }};
  return info;
}

}  // namespace mbdae::forces
