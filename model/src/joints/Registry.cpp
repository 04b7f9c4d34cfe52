// The registry of joint types (JointTypes.h): one entry per line of model/JointTypeList.h,
// which also makes the enumerators of JointType (so the order agrees by construction).
#include "Joints.h"

#include <cmath>
#include <stdexcept>

namespace mbdae {

const std::vector<JointTypeInfo>& joint_types() {
  static const std::vector<JointTypeInfo> table = [] {
    std::vector<JointTypeInfo> t{
#define MBDAE_JOINT_TYPE(enumerator, factory) joints::factory(),
#include <mbdae/model/JointTypeList.h>
#undef MBDAE_JOINT_TYPE
    };
    for (size_t i = 0; i < t.size(); ++i)
      if (static_cast<size_t>(t[i].type) != i) throw std::logic_error("joint_types: registry out of order");
    return t;
  }();
  return table;
}

const JointTypeInfo& joint_type_info(JointType t) { return joint_types()[static_cast<size_t>(t)]; }

const JointTypeInfo* find_joint_type(std::string_view name) {
  for (const JointTypeInfo& t : joint_types())
    if (name == t.name) return &t;
  return nullptr;
}

const char* to_string(JointType t) { return joint_type_info(t).name; }

JointLayout joint_layout(const Joint& j) {
  const JointTypeInfo& info = joint_type_info(j.type);
  JointLayout g = info.layout(j);
  if (j.motion) {
    // The drive row: the joint's relative coordinate follows s(t).
    switch (info.coordinate) {
      case JointCoordinateKind::AngleAboutZ: g.equations.push_back({EquationKind::RotDriven, 0, 0, "drive (angle)"}); break;
      case JointCoordinateKind::DisplacementAlongX:
        g.equations.push_back({EquationKind::TransDriven, 0, 0, "drive (position)"});
        break;
      case JointCoordinateKind::DisplacementAlongZ:
      case JointCoordinateKind::None: break;  // not drivable (System::check reports a motion)
    }
  } else if (j.speed) {
    // The speed drive row (velocity level): the rate of the relative coordinate follows w(t).
    switch (info.coordinate) {
      case JointCoordinateKind::AngleAboutZ: g.equations.push_back({EquationKind::RateDriven, 2, 1, "speed drive (rate of the angle)"}); break;
      case JointCoordinateKind::DisplacementAlongX:
        g.equations.push_back({EquationKind::RateDriven, 0, 0, "speed drive (rate of the displacement)"});
        break;
      case JointCoordinateKind::DisplacementAlongZ:
      case JointCoordinateKind::None: break;  // not drivable (System::check reports a speed)
    }
  }
  return g;
}

Mat3 frame_from_axis(const Vec3& axis, int along) {
  const Vec3 n = axis.normalized();
  const Vec3 t = (std::abs(n.x()) < 0.9) ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 u = (t - n * n.dot(t)).normalized();
  const Vec3 w = n.cross(u);
  Mat3 F;
  // columns (along, along+1, along+2) cyclic = (n, u, w)
  F.col(along) = n;
  F.col((along + 1) % 3) = u;
  F.col((along + 2) % 3) = w;
  return F;
}

}  // namespace mbdae
