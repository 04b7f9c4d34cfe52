// Joint motor: a torque about (or a force along) the axis of a revolute, prismatic or cylindrical
// joint, u = effort(t, q), q the joint's coordinates measured between markers at the joint point
// (z along the axis, fixed to a and to b at t0, as the joint's own markers):
//   angle        φ = atan2(x_b·y_a, x_b·x_a), continued from the last evaluation (turns counted)
//   rate         φ̇ = (ω_b − ω_a)·z_a
//   displacement s = z_a·d              (d from a's marker point to b's)
//   speed        ṡ = z_a·ḋ + (ω_a × z_a)·d
// b gets u z_a (torque, or force at its marker point), a the opposite, so the motor's power is
// u φ̇ or u ṡ. No potential energy: the motor is a source (or sink) of energy.
#include "Forces.h"

#include <cmath>
#include <numbers>

#include <mbdae/model/JointTypes.h>

namespace mbdae::forces {

const ForceTypeInfo& joint_motor() {
  static const ForceTypeInfo info{
      ForceType::JointMotor, "joint_motor",
      "torque about (force along) a joint's axis, an expression of t and the joint's coordinates",
      {{"effort", false, "torque (about the axis) or force (along it); default: torque for revolute, force for prismatic, "
        "required for cylindrical", KeyKind::Choice, KeyRange::Any, {"torque", "force"},
        [](ForceElement& f, const KeyValue& v) { f.motor_force = v.choice == 1; }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.joint.empty()) p.push_back({nullptr, "no joint"});
        if (!f.effort) p.push_back({nullptr, "no effort function"});
        if (!(f.axis.norm() > 1e-12)) p.push_back({nullptr, "axis has zero length"});
      },
      [](const ForceElement& f) { return at_point(f, frame_from_axis(f.axis, 2)); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double*) {
        JointCoordinates q = joint_coordinates(g, m, true);
        q.states = m.states;
        const Vec3 e = m.Ra * g.Aa.col(2);
        const double u = f.effort(m.t, q);
        if (f.motor_force) Fb = u * e;
        else Tb = u * e;
      },
      [](const ForceElement& f, const System& model, std::vector<KeyProblem>& p) {
        const Joint* j = element_joint(
            f, model, [](JointType t) { return joint_turns(t) || joint_slides(t); }, "a joint motor",
            "revolute, prismatic or cylindrical joint", p);
        if (!j) return;
        if ((j->type == JointType::Revolute && f.motor_force) || (j->type == JointType::Prismatic && !f.motor_force))
          p.push_back({nullptr, "joint '" + f.joint + "' is " + to_string(j->type) + ", its motor gives a " +
                                    (f.motor_force ? "torque, not a force" : "force, not a torque")});
        else
          copied_from_joint(f, *j, false, "add_joint_motor", p);
      },
      true};
  return info;
}

}  // namespace mbdae::forces
