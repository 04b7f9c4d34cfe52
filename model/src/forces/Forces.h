#pragma once
// Internal header of the force element types (ForceTypes.h): each type's file defines one function
// returning its ForceTypeInfo; Registry.cpp lists them.

#include <string>
#include <vector>

#include <mbdae/model/ForceTypes.h>

namespace mbdae::forces {

const ForceTypeInfo& spring_damper();
const ForceTypeInfo& torsional_spring_damper();
const ForceTypeInfo& rigid_body_spring_damper();
const ForceTypeInfo& cartesian_spring_damper();
const ForceTypeInfo& user();
const ForceTypeInfo& end_stop();
const ForceTypeInfo& joint_motor();

/// The `point` key (ForceElement::point).
inline ForceKey point_key(const char* meaning) {
  return {"point", true, meaning, KeyKind::Vector, KeyRange::Coordinate, {},
          [](ForceElement& f, const KeyValue& v) { f.point = v.vector; }};
}
/// A scalar stiffness (required) or damping (optional) ≥ 0.
inline ForceKey scalar_stiffness_key(const char* meaning) {
  return {"stiffness", true, meaning, KeyKind::Number, KeyRange::NonNegative, {},
          [](ForceElement& f, const KeyValue& v) { f.stiffness = v.number; }};
}
inline ForceKey scalar_damping_key(const char* meaning) {
  return {"damping", false, meaning, KeyKind::Number, KeyRange::NonNegative, {},
          [](ForceElement& f, const KeyValue& v) { f.damping = v.number; }};
}
/// No check beyond those of every force element.
inline void no_check(const ForceElement&, std::vector<KeyProblem>&) {}

/// Both markers at `point`, frame F.
inline ForceMarkers at_point(const ForceElement& f, const Mat3& F) {
  ForceMarkers m;
  m.point_a = m.point_b = f.point;
  m.frame = F;
  return m;
}

}  // namespace mbdae::forces
