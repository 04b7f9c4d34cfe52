// Universal (Cardan) joint: the points coincide and `axis` (fixed in a) keeps the angle φ0 it has
// with `axis_b` (fixed in b) at t0: axis_a · axis_b = cos φ0 (4 equations). φ0 = 90° is the
// usual cross; any other angle is a skewed cross, kinematically the same as two revolute joints
// through a massless cross whose arms meet at φ0. Parallel axes (φ0 = 0 or 180°) are refused:
// they leave the rotation about the common axis to both arms (the row's Jacobian is sin φ0 → 0).
#include "Joints.h"

#include <cmath>
#include <numbers>

namespace mbdae::joints {

namespace {
/// Least angle between the two arms (and least distance from 180°), rad.
constexpr double kMinArmAngle = 1e-3;
}  // namespace

const JointTypeInfo& universal() {
  static const JointTypeInfo info{
      JointType::Universal, "universal",
      "Cardan joint: the points coincide, axis and axis_b keep their initial angle (4 equations)",
      "the cross's centre, world, t0",
      {axis_key("the cross arm fixed in the first body, world, t0"),
       axis_b_key("the cross arm fixed in the second body, world, t0; any angle to axis but 0 or 180 degrees")},
      false, false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        check_axis(j.axis, "axis", p);
        check_axis(j.axis_b, "axis_b", p);
        if (!p.empty()) return;
        const double angle = std::atan2(j.axis.normalized().cross(j.axis_b.normalized()).norm(),
                                        j.axis.normalized().dot(j.axis_b.normalized()));
        if (angle < kMinArmAngle || angle > std::numbers::pi - kMinArmAngle)
          p.push_back({"axis_b", "axis and axis_b are parallel (angle " + num(angle * 180 / std::numbers::pi) +
                                     " degrees); the two cross arms of a universal joint need an angle "
                                     "between 0.06 and 179.94 degrees (90 for the usual cross)"});
      },
      [](const Joint& j) {
        JointLayout g = coincident(j, frame_from_axis(j.axis, 0));
        g.frame_b = frame_from_axis(j.axis_b, 0);
        g.equations = point_rows();
        // The row holds the initial cosine of the arms' angle.
        const Vec3 a = g.frame_a.col(0), b = g.frame_b.col(0);
        g.equations.push_back({EquationKind::Rot, 0, 0, "axis_a·axis_b", a.dot(b)});
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
