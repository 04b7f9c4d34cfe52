// Rolling disc: a disc (body b: centre `point_b`, axis `axis_b`, `radius`) rolls without slip on a
// ground plane (`point`, normal `axis`): one position-level equation (the lowest point of the rim
// is on the plane) and two velocity-level ones (no slip), as Exudyn's JointRollingDisc.
#include "Joints.h"

#include <cmath>

namespace mbdae::joints {

const JointTypeInfo& rolling_disc() {
  static const JointTypeInfo info{
      JointType::RollingDisc, "rolling_disc",
      "a disc rolls without slip on a ground plane (1 position + 2 velocity-level equations)",
      "a point of the plane, world",
      {axis_key("the plane's normal"), point_b_key("the disc's centre, world, t0"), axis_b_key("the disc's axis"),
       {"radius", true, "m", KeyKind::Number, KeyRange::Positive, {},
        [](Joint& j, const KeyValue& v) { j.radius = v.number; }}},
      false, true, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        check_axis(j.axis, "axis", p);
        check_axis(j.axis_b, "axis_b", p);
        if (!(j.radius > 0)) p.push_back({"radius", "radius must be > 0, got " + num(j.radius)});
        if (j.axis.norm() > 1e-12 && j.axis_b.norm() > 1e-12 &&
            1 - std::abs(j.axis.normalized().dot(j.axis_b.normalized())) < 1e-9)
          p.push_back({"axis_b", "the disc lies flat on the plane (axis_b parallel to the normal)"});
      },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.point_b = j.point_b;
        g.frame_b = frame_from_axis(j.axis_b, 2);
        g.radius = j.radius;
        g.equations = {{K::RollNormal, 0, 0, "contact on plane"},
                       {K::RollTangent, 0, 0, "no slip along x_plane"},
                       {K::RollTangent, 1, 0, "no slip along y_plane"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
