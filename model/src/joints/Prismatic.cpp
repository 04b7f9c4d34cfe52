// Prismatic (slider) joint: translation along `axis` only, no relative rotation (5 equations);
// `motion` drives the displacement (a 6th equation).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& prismatic() {
  static const JointTypeInfo info{
      JointType::Prismatic, "prismatic", "translation along the axis only, no rotation (5 equations)",
      "a point of the guide, world, t0", {axis_key("the sliding direction, world, t0")}, true, false,
      JointCoordinateKind::DisplacementAlongX,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 0));
        g.equations = {{K::TransFrame, 1, 0, "y_a·d"}, {K::TransFrame, 2, 0, "z_a·d"}, {K::Rot, 1, 2, "y_a·z_b"},
                       {K::Rot, 2, 0, "z_a·x_b"},      {K::Rot, 0, 1, "x_a·y_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
