// Planar joint: b's marker stays in the plane through a's marker with normal `axis` and rotates
// only about the normal (3 equations).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& planar() {
  static const JointTypeInfo info{
      JointType::Planar, "planar", "motion in the plane, rotation about its normal only (3 equations)",
      "a point of the plane, world, t0", {axis_key("the plane's normal")}, false, false,
      JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = {{K::TransFrame, 2, 0, "z_a·d"}, {K::Rot, 2, 0, "z_a·x_b"}, {K::Rot, 2, 1, "z_a·y_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
