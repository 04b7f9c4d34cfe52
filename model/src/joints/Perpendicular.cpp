// Perpendicular joint (Adams' "perpendicular" joint primitive): `axis_b` (fixed in b) stays
// perpendicular to `axis` (fixed in a) (1 equation). The axes must be perpendicular at t0.
#include "Joints.h"

#include <cmath>

namespace mbdae::joints {

namespace {
/// Largest |cos| of the two axes' angle at t0 taken as perpendicular (the assembly removes it).
constexpr double kPerpendicularCos = 1e-6;
}  // namespace

const JointTypeInfo& perpendicular() {
  static const JointTypeInfo info{
      JointType::Perpendicular, "perpendicular", "axis_b fixed in b stays perpendicular to axis fixed in a (1 equation)",
      "where its reaction torque is reported, world, t0",
      {axis_key("the axis fixed in the first body, world, t0"),
       axis_b_key("the axis fixed in the second body, world, t0; perpendicular to axis")},
      false, false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        check_axis(j.axis, "axis", p);
        check_axis(j.axis_b, "axis_b", p);
        if (!p.empty()) return;
        const double c = j.axis.normalized().dot(j.axis_b.normalized());
        if (!(std::abs(c) <= kPerpendicularCos))
          p.push_back({"axis_b", "axis and axis_b are not perpendicular (cosine of their angle " + num(c) +
                                     "); a perpendicular joint holds them at 90 degrees"});
      },
      [](const Joint& j) {
        JointLayout g = coincident(j, frame_from_axis(j.axis, 2));
        g.frame_b = frame_from_axis(j.axis_b, 2);
        g.equations = {{EquationKind::Rot, 2, 2, "z_a·z_b"}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
