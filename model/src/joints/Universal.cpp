// Universal (Cardan) joint: the points coincide and `axis` (fixed in a) stays perpendicular to
// `axis_b` (fixed in b); the two must be perpendicular at t0 (4 equations).
#include "Joints.h"

#include <cmath>

namespace mbdae::joints {

const JointTypeInfo& universal() {
  static const JointTypeInfo info{
      JointType::Universal, "universal", "Cardan joint: the points coincide, axis ⊥ axis_b (4 equations)",
      "the cross's centre, world, t0",
      {axis_key("the axis fixed in the first body, world, t0"), axis_b_key("the axis fixed in the second body, world, t0")},
      false, false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        check_axis(j.axis, "axis", p);
        check_axis(j.axis_b, "axis_b", p);
        if (j.axis.norm() > 1e-12 && j.axis_b.norm() > 1e-12 &&
            std::abs(j.axis.normalized().dot(j.axis_b.normalized())) > 1e-6)
          p.push_back({"axis_b", "axis and axis_b must be perpendicular, their cosine is " +
                                     num(j.axis.normalized().dot(j.axis_b.normalized()))});
      },
      [](const Joint& j) {
        JointLayout g = coincident(j, frame_from_axis(j.axis, 0));
        g.frame_b = frame_from_axis(j.axis_b, 0);
        g.equations = point_rows();
        g.equations.push_back({EquationKind::Rot, 0, 0, "axis_a·axis_b"});
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
