// Coordinate joint: one world coordinate of b's marker relative to a's is held at `offset` (1).
#include "Joints.h"

#include <algorithm>

namespace mbdae::joints {

const JointTypeInfo& coordinate() {
  static const JointTypeInfo info{
      JointType::Coordinate, "coordinate", "one world coordinate of the separation is held (1 equation)",
      "the joint point, world, t0",
      {{"coordinate", true, "x, y or z: the world axis", KeyKind::Choice, KeyRange::Any, {"x", "y", "z"},
        [](Joint& j, const KeyValue& v) { j.coordinate = v.choice; }},
       {"offset", false, "the value held, m (default 0)", KeyKind::Number, KeyRange::Any, {},
        [](Joint& j, const KeyValue& v) { j.offset = v.number; }}}, false,
      false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        if (j.coordinate < 0 || j.coordinate > 2)
          p.push_back({"coordinate", "coordinate must be 0, 1 or 2 (x, y, z), got " + std::to_string(j.coordinate)});
      },
      [](const Joint& j) {
        static const char* cn[3] = {"x", "y", "z"};
        const int i = std::clamp(j.coordinate, 0, 2);
        JointLayout g = coincident(j, Mat3::Identity());
        g.equations = {{EquationKind::TransWorld, i, 0, cn[i], j.offset}};
        return g;
      }};
  return info;
}

}  // namespace mbdae::joints
