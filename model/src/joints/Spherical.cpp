// Spherical (ball) joint: the marker points coincide; 3 equations.
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& spherical() {
  static const JointTypeInfo info{
      JointType::Spherical, "spherical", "the points coincide; free rotation (3 equations)",
      "the joint centre, world, t0", {}, false, false, JointCoordinateKind::None, no_check,
      [](const Joint& j) {
        JointLayout g = coincident(j, Mat3::Identity());
        g.equations = point_rows();
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
