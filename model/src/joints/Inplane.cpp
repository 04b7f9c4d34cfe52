// Inplane joint (point on a plane, Adams' "inplane" joint primitive): b's point stays in the plane
// through a's point with normal `axis` (1 equation). b slides in the plane and turns freely.
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& inplane() {
  static const JointTypeInfo info{
      JointType::Inplane, "inplane", "b's point stays in the plane through a's point normal to the axis (1 equation)",
      "a point of the plane and b's point in it, world, t0", {axis_key("the plane's normal, world, t0")}, false,
      false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = {{EquationKind::TransFrame, 2, 0, "z_a·d"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
