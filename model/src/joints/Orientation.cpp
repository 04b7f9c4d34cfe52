// Orientation joint (Adams' "orientation" joint primitive): no relative rotation, translation free
// (3 equations, the rotational rows of the fixed joint).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& orientation() {
  static const JointTypeInfo info{
      JointType::Orientation, "orientation", "no relative rotation, any translation (3 equations)",
      "where its reaction torque is reported, world, t0", {}, false, false, JointCoordinateKind::None, no_check,
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, Mat3::Identity());
        g.equations = {{K::Rot, 1, 2, "y_a·z_b"}, {K::Rot, 2, 0, "z_a·x_b"}, {K::Rot, 0, 1, "x_a·y_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
