// Inline joint (point on a line, Adams' "inline" joint primitive): b's point stays on the line
// through a's point along `axis` (2 equations). b slides along the line and turns freely.
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& inline_joint() {
  static const JointTypeInfo info{
      JointType::Inline, "inline", "b's point stays on the line through a's point along the axis (2 equations)",
      "a point of the line and b's point on it, world, t0", {axis_key("the line's direction, world, t0")}, false,
      false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = {{K::TransFrame, 0, 0, "x_a·d"}, {K::TransFrame, 1, 0, "y_a·d"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
