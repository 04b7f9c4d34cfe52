// Distance joint: the distance between `point` on a and `point_b` on b stays `distance` (default:
// the initial distance); 1 equation.
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& distance() {
  static const JointTypeInfo info{
      JointType::Distance, "distance", "the distance of two points is held (1 equation)",
      "the point on the first body, world, t0",
      {point_b_key("the point on the second body, world, t0"),
       {"distance", false, "the distance to hold, m (default: the initial distance)", KeyKind::Number,
        KeyRange::Positive, {}, [](Joint& j, const KeyValue& v) { j.distance = v.number; }}},
      false, false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        const double d0 = (j.point_b - j.point).norm();
        if (j.distance && !(*j.distance > 0)) p.push_back({"distance", "distance must be > 0, got " + num(*j.distance)});
        if (!j.distance && !(d0 > 1e-12)) p.push_back({"point_b", "the two points coincide; give a distance > 0"});
      },
      [](const Joint& j) {
        JointLayout g = coincident(j, Mat3::Identity());
        g.point_b = j.point_b;
        g.length = j.distance ? *j.distance : (j.point_b - j.point).norm();
        g.equations = {{EquationKind::Distance, 0, 0, "distance"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
