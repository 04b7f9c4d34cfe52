#include <mbdae/formulations/BodyKinematics.h>

#include <limits>

#include <mbdae/model/math/Rotation.h>

namespace mbdae {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double inf_norm(const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }
}  // namespace

// ---- implicit formulation ------------------------------------------------------------------------

MultibodyKinematics::MultibodyKinematics(const MultibodySystem& sys)
    : sys_(sys), c_(sys.num_constraints()), cv_(sys.num_constraints()) {}

void MultibodyKinematics::update(const StateView& s) {
  t_ = s.t;
  q_ = &s.q;
  v_ = &s.v;
  a_ = &s.a;
  lambda_ = &s.lambda;
}

Vec3 MultibodyKinematics::position(BodyIndex i, const Vec3& p_B) const { return sys_.position(i, *q_, p_B); }
Mat3 MultibodyKinematics::rotation(BodyIndex i) const { return sys_.rotation(i, *q_); }
Vec3 MultibodyKinematics::velocity(BodyIndex i, const Vec3& p_B) const { return sys_.velocity(i, *q_, *v_, p_B); }
Vec3 MultibodyKinematics::angular_velocity(BodyIndex i) const { return sys_.angular_velocity(i, *q_, *v_); }
bool MultibodyKinematics::has_accelerations() const { return a_->size() > 0 && a_->size() == q_->size(); }
Vec3 MultibodyKinematics::acceleration(BodyIndex i, const Vec3& p_B) const {
  return has_accelerations() ? sys_.acceleration(i, *q_, *v_, *a_, p_B) : Vec3::Constant(kNaN);
}
Vec3 MultibodyKinematics::angular_acceleration(BodyIndex i) const {
  return has_accelerations() ? sys_.angular_acceleration(i, *q_, *v_, *a_) : Vec3::Constant(kNaN);
}
bool MultibodyKinematics::has_reactions() const { return lambda_->size() == sys_.num_constraints(); }
JointReaction MultibodyKinematics::reaction(int joint) const {
  if (has_reactions()) return sys_.reaction(joint, t_, *q_, *lambda_);
  JointReaction r;
  r.force_W = r.torque_W = r.force_J = r.torque_J = Vec3::Constant(kNaN);
  return r;
}
double MultibodyKinematics::energy() { return sys_.energy(t_, *q_, *v_); }
ConstraintViolation MultibodyKinematics::constraint_violation() {
  ConstraintViolation out;
  if (c_.size() == 0) return out;
  // Velocity-level rows (rolling without slip) have C = 0 by definition.
  sys_.constraints(t_, *q_, c_);
  sys_.constraint_velocity(t_, *q_, *v_, cv_);
  out.position = inf_norm(c_);
  out.velocity = inf_norm(cv_);
  return out;
}

// ---- explicit, impulse and Lie-group paths -------------------------------------------------------

NewtonEulerKinematics::NewtonEulerKinematics(const NewtonEulerSystem& sys, Layout layout)
    : sys_(sys), layout_(layout), c_(sys.num_joint_rows()), cv_(sys.num_joint_rows()) {
  if (layout_ == Layout::LieGroup) qw_.resize(sys.num_q());
}

void NewtonEulerKinematics::update(const StateView& s) {
  t_ = s.t;
  v_ = &s.v;
  if (layout_ == Layout::NewtonEuler) {
    q_ = &s.q;
    return;
  }
  for (int i = 0; i < sys_.num_bodies(); ++i) {
    qw_.segment<3>(7 * i) = s.q.segment<3>(6 * i);
    qw_.segment<4>(7 * i + 3) = math::ep_from_rotvec(s.q.segment<3>(6 * i + 3));
  }
  q_ = &qw_;
}

Vec3 NewtonEulerKinematics::position(BodyIndex i, const Vec3& p_B) const {
  return sys_.com_position(i, *q_) + sys_.rotation(i, *q_) * (p_B - sys_.com_offset(i));
}
Mat3 NewtonEulerKinematics::rotation(BodyIndex i) const { return sys_.rotation(i, *q_); }
Vec3 NewtonEulerKinematics::velocity(BodyIndex i, const Vec3& p_B) const {
  const Mat3 R = sys_.rotation(i, *q_);
  return sys_.com_velocity(i, *v_) + (R * sys_.angular_velocity_body(i, *v_)).cross(R * (p_B - sys_.com_offset(i)));
}
Vec3 NewtonEulerKinematics::angular_velocity(BodyIndex i) const { return sys_.angular_velocity_world(i, *q_, *v_); }
Vec3 NewtonEulerKinematics::acceleration(BodyIndex, const Vec3&) const { return Vec3::Constant(kNaN); }
Vec3 NewtonEulerKinematics::angular_acceleration(BodyIndex) const { return Vec3::Constant(kNaN); }
JointReaction NewtonEulerKinematics::reaction(int) const {
  JointReaction r;
  r.force_W = r.torque_W = r.force_J = r.torque_J = Vec3::Constant(kNaN);
  return r;
}
double NewtonEulerKinematics::energy() { return sys_.energy(*q_, *v_); }
ConstraintViolation NewtonEulerKinematics::constraint_violation() {
  ConstraintViolation out;
  if (c_.size() == 0) return out;
  // At the state's time: driven joints follow their motion s(t).
  sys_.joint_violation(t_, *q_, c_);
  sys_.joint_velocity_violation(t_, *q_, *v_, cv_);
  out.position = inf_norm(c_);
  out.velocity = inf_norm(cv_);
  return out;
}

}  // namespace mbdae
