#pragma once
// Internal header of the joint types: each type's file defines one function returning its
// JointTypeInfo (JointTypes.h), declared here from model/JointTypeList.h; Registry.cpp lists them. Helpers shared by the type files.

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <mbdae/model/JointTypes.h>

namespace mbdae::joints {

#define MBDAE_JOINT_TYPE(enumerator, factory) const JointTypeInfo& factory();
#include <mbdae/model/JointTypeList.h>
#undef MBDAE_JOINT_TYPE

/// A number in a message (6 significant digits).
inline std::string num(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

/// "axis has zero length" if `axis` is (nearly) zero.
inline void check_axis(const Vec3& axis, const char* key, std::vector<KeyProblem>& p) {
  if (!axis.allFinite()) p.push_back({key, std::string(key) + " is not finite"});
  else if (!(axis.cwiseAbs().maxCoeff() > 1e-12)) p.push_back({key, std::string(key) + " has zero length"});
  else if (!std::isfinite(axis.norm()))
    p.push_back({key, std::string(key) + " is too long (its length overflows; scale it)"});
}

/// The `axis` key (Joint::axis).
inline JointKey axis_key(const char* meaning) {
  return {"axis", true, meaning, KeyKind::Axis, KeyRange::Any, {}, [](Joint& j, const KeyValue& v) { j.axis = v.vector; }};
}
/// The `axis_b` key (Joint::axis_b).
inline JointKey axis_b_key(const char* meaning) {
  return {"axis_b", true, meaning, KeyKind::Axis, KeyRange::Any, {},
          [](Joint& j, const KeyValue& v) { j.axis_b = v.vector; }};
}
/// The `point_b` key (Joint::point_b).
inline JointKey point_b_key(const char* meaning) {
  return {"point_b", true, meaning, KeyKind::Vector, KeyRange::Coordinate, {},
          [](Joint& j, const KeyValue& v) { j.point_b = v.vector; }};
}

/// A layout with both markers at `point` and both frames `F`.
inline JointLayout coincident(const Joint& j, const Mat3& F) {
  JointLayout g;
  g.point_a = g.point_b = j.point;
  g.frame_a = g.frame_b = F;
  return g;
}

/// The three rows that make the marker points coincide (world x, y, z).
inline std::vector<JointEquation> point_rows() {
  using K = EquationKind;
  return {{K::TransWorld, 0, 0, "x"}, {K::TransWorld, 1, 0, "y"}, {K::TransWorld, 2, 0, "z"}};
}

/// No check beyond those of every joint.
inline void no_check(const Joint&, std::vector<KeyProblem>&) {}

}  // namespace mbdae::joints
