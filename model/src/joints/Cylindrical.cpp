// Cylindrical joint: translation along and rotation about `axis` (4 equations).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& cylindrical() {
  static const JointTypeInfo info{
      JointType::Cylindrical, "cylindrical", "translation along and rotation about the axis (4 equations)",
      "a point of the axis, world, t0", {axis_key("the axis, world, t0")}, false, false,
      JointCoordinateKind::DisplacementAlongZ,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = {{K::TransFrame, 0, 0, "x_a·d"}, {K::TransFrame, 1, 0, "y_a·d"}, {K::Rot, 2, 0, "z_a·x_b"},
                       {K::Rot, 2, 1, "z_a·y_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
