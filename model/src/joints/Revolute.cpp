// Revolute (hinge) joint: the points coincide and only rotation about `axis` is free (5
// equations); `motion` drives the angle (a 6th equation).
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& revolute() {
  static const JointTypeInfo info{
      JointType::Revolute, "revolute", "the points coincide; rotation about the axis only (5 equations)",
      "a point of the axis, world, t0", {axis_key("the hinge axis, world, t0")}, true, false,
      JointCoordinateKind::AngleAboutZ,
      [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = point_rows();
        g.equations.push_back({K::Rot, 2, 0, "z_a·x_b"});
        g.equations.push_back({K::Rot, 2, 1, "z_a·y_b"});
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
