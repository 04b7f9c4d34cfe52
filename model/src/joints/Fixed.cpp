// Fixed joint: no relative motion (6 equations).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& fixed() {
  static const JointTypeInfo info{
      JointType::Fixed, "fixed", "no relative motion (6 equations)", "the joint point, world, t0", {}, false, false,
      JointCoordinateKind::None, no_check, [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, Mat3::Identity());
        g.equations = point_rows();
        g.equations.push_back({K::Rot, 1, 2, "y_a·z_b"});
        g.equations.push_back({K::Rot, 2, 0, "z_a·x_b"});
        g.equations.push_back({K::Rot, 0, 1, "x_a·y_b"});
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
