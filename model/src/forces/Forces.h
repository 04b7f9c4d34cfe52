#pragma once
// Internal header of the force element types (ForceTypes.h): each type's file defines one function
// returning its ForceTypeInfo, declared here and listed by Registry.cpp from
// model/ForceTypeList.h.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <mbdae/model/ForceTypes.h>

namespace mbdae::forces {

#define MBDAE_FORCE_TYPE(enumerator, factory) const ForceTypeInfo& factory();
#include <mbdae/model/ForceTypeList.h>
#undef MBDAE_FORCE_TYPE

/// The coordinates of a joint element's joint from its markers (both at the joint point, z along
/// the axis): φ = atan2(x_b·y_a, x_b·x_a) (with count_turns, continued from *m.last_angle, which it
/// updates; from 0 without one), φ̇ = (ω_b − ω_a)·z_a, s = z_a·d, ṡ = z_a·ḋ + (ω_a × z_a)·d.
inline JointCoordinates joint_coordinates(const ForceGeometry& g, const PairMotion& m, bool count_turns) {
  const Mat3 FA = m.Ra * g.Aa;
  const Vec3 e = FA.col(2);
  JointCoordinates q;
  if (count_turns) {
    const Vec3 xb = m.Rb * g.Ab.col(0);
    const double wrapped = std::atan2(xb.dot(FA.col(1)), xb.dot(FA.col(0)));
    const double last = m.last_angle ? *m.last_angle : 0.0;
    q.angle = last + std::remainder(wrapped - last, 2 * std::numbers::pi);
    if (m.last_angle) *m.last_angle = q.angle;
  }
  q.rate = (m.wb - m.wa).dot(e);
  q.displacement = e.dot(m.d);
  q.speed = e.dot(m.dd) + m.wa.cross(e).dot(m.d);
  return q;
}

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
/// The model checks of an element on a joint's coordinate (joint_motor, joint_friction,
/// joint_limit; OnJoint.cpp). element_joint: f.joint names a joint of `model` of a type `acts_on`
/// accepts (else a problem naming what the element, `what`, acts on: `accepted`); the joint, or
/// nullptr after a problem or if f.joint is empty (check() names that).
const Joint* element_joint(const ForceElement& f, const System& model, bool (*acts_on)(JointType),
                           const std::string& what, const char* accepted, std::vector<KeyProblem>& p);
/// copied_from_joint: the element's bodies, point and axis (and, with `same_type`, its
/// joint_type) are joint j's, as the System function `adder` copies them; else a problem.
void copied_from_joint(const ForceElement& f, const Joint& j, bool same_type, const std::string& adder,
                       std::vector<KeyProblem>& p);

/// No check beyond those of every force element.
inline void no_check(const ForceElement&, std::vector<KeyProblem>&) {}

/// Both markers at `point`, frame F.
inline ForceMarkers at_point(const ForceElement& f, const Mat3& F) {
  ForceMarkers m;
  m.point_a = m.point_b = f.point;
  m.frame = F;
  return m;
}

/// The push along +e on b of a one-sided penalty stop on a coordinate q (rate qd) between
/// f.lower and f.upper (either may be absent): −max(0, k p + c q̇) beyond upper, max(0, k p − c q̇)
/// below lower, with p ≥ 0 the penetration (linear spring and damper; the stop never pulls), 0
/// between; adds the stored energy ½ k p² to *V if V is given.
inline double penalty_stop(const ForceElement& f, double q, double qd, double* V) {
  double pen = 0, push = 0;
  if (f.upper && q > *f.upper) {
    pen = q - *f.upper;
    push = -std::max(0.0, f.stiffness * pen + f.damping * qd);
  } else if (f.lower && q < *f.lower) {
    pen = *f.lower - q;
    push = std::max(0.0, f.stiffness * pen - f.damping * qd);
  }
  if (V) *V += 0.5 * f.stiffness * pen * pen;
  return push;
}

}  // namespace mbdae::forces
