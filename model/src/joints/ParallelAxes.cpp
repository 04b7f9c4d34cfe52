// Parallel-axes joint (Adams' "parallel_axes" joint primitive): b's copy of `axis` stays parallel to
// a's (2 equations); b translates freely and turns about the axis.
#include "Joints.h"

namespace mbdae::joints {

const JointTypeInfo& parallel_axes() {
  static const JointTypeInfo info{
      JointType::ParallelAxes, "parallel_axes", "the axis fixed in b stays parallel to the axis fixed in a (2 equations)",
      "where its reaction torque is reported, world, t0", {axis_key("the common axis, world, t0")}, false, false,
      JointCoordinateKind::None, [](const Joint& j, std::vector<KeyProblem>& p) { check_axis(j.axis, "axis", p); },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.equations = {{K::Rot, 0, 2, "x_a·z_b"}, {K::Rot, 1, 2, "y_a·z_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
