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

/// Both markers at `point`, frame F.
inline ForceMarkers at_point(const ForceElement& f, const Mat3& F) {
  ForceMarkers m;
  m.point_a = m.point_b = f.point;
  m.frame = F;
  return m;
}

}  // namespace mbdae::forces
