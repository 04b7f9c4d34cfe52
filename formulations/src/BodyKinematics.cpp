#include <mbdae/formulations/BodyKinematics.h>

#include <limits>

#include <mbdae/model/JointTypes.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double inf_norm(const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }
}  // namespace

// ---- implicit formulation ------------------------------------------------------------------------

MultibodyKinematics::MultibodyKinematics(const MultibodySystem& sys)
    : sys_(sys), ws_(sys.make_workspace()), c_(sys.num_constraints()), cv_(sys.num_constraints()) {}

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
double MultibodyKinematics::energy() { return sys_.energy(ws_, t_, *q_, *v_); }
JointCoordinate MultibodyKinematics::shaft_motion(int shaft) const {
  return has_accelerations() ? sys_.shaft_motion(shaft, *q_, *v_, *a_) : sys_.shaft_motion(shaft, *q_, *v_);
}
CablePoint MultibodyKinematics::cable_point(int cable, double s) const {
  return sys_.cable_point(cable, s, *q_, *v_);
}
double MultibodyKinematics::coupling_multiplier(int coupling) const {
  return has_reactions() ? sys_.coupling_multiplier(coupling, *lambda_) : kNaN;
}
ConstraintViolation MultibodyKinematics::constraint_violation() {
  ConstraintViolation out;
  if (c_.size() == 0) return out;
  // Velocity-level rows (rolling without slip) have C = 0 by definition.
  sys_.constraints(ws_, t_, *q_, c_);
  sys_.constraint_velocity(ws_, t_, *q_, *v_, cv_);
  out.position = inf_norm(c_);
  out.velocity = inf_norm(cv_);
  return out;
}

// ---- explicit, impulse and Lie-group paths -------------------------------------------------------

NewtonEulerKinematics::NewtonEulerKinematics(const NewtonEulerSystem& sys, Layout layout, bool dynamics)
    : sys_(sys), ws_(sys.make_workspace()), layout_(layout), dynamics_(dynamics), c_(sys.num_joint_rows()),
      cv_(sys.num_joint_rows()) {
  if (layout_ == Layout::LieGroup) qw_.resize(sys.num_q());
  if (!dynamics_) return;
  qd_.resize(sys.num_q());
  vd_.resize(sys.num_v());
  // Each joint's markers from its layout (JointTypes.h) and the bodies' initial poses.
  const System& m = sys.model();
  auto pose = [&](const std::string& name, Mat3& R, Vec3& p) {
    const BodyIndex i = *m.find_body(name);
    R = i == kGround ? Mat3::Identity() : m.bodies()[static_cast<size_t>(i)].orientation;
    p = i == kGround ? Vec3::Zero() : m.bodies()[static_cast<size_t>(i)].position;
  };
  int offset = 0;
  for (const Joint& j : m.joints()) {
    const JointLayout l = joint_layout(j);
    Mat3 Ra, Rb;
    Vec3 pa, pb;
    pose(j.bodies[0], Ra, pa);
    pose(j.bodies[1], Rb, pb);
    marker_b_.push_back(Rb.transpose() * (l.point_b - pb));
    frame_a_.push_back(Ra.transpose() * l.frame_a);
    row_offset_.push_back(offset);
    offset += static_cast<int>(l.equations.size());
  }
}

void NewtonEulerKinematics::update(const StateView& s) {
  t_ = s.t;
  v_ = &s.v;
  if (layout_ == Layout::NewtonEuler) {
    q_ = &s.q;
  } else {
    for (int i = 0; i < sys_.num_bodies(); ++i) {
      qw_.segment<3>(7 * i) = s.q.segment<3>(6 * i);
      qw_.segment<4>(7 * i + 3) = math::ep_from_rotvec(s.q.segment<3>(6 * i + 3));
    }
    q_ = &qw_;
  }
  if (dynamics_) {
    sys_.derivative(ws_, t_, *q_, *v_, qd_, vd_);
    lambda_ = ws_.multipliers();
  }
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
Vec3 NewtonEulerKinematics::acceleration(BodyIndex i, const Vec3& p_B) const {
  if (!dynamics_) return Vec3::Constant(kNaN);
  // a_P = a_C + α × r + ω × (ω × r), r = R (p_B − b), α = R ẇ_B (ω × ω = 0).
  const Mat3 R = sys_.rotation(i, *q_);
  const Vec3 r = R * (p_B - sys_.com_offset(i));
  const Vec3 w = R * sys_.angular_velocity_body(i, *v_);
  return vd_.segment<3>(6 * i) + angular_acceleration(i).cross(r) + w.cross(w.cross(r));
}
Vec3 NewtonEulerKinematics::angular_acceleration(BodyIndex i) const {
  if (!dynamics_) return Vec3::Constant(kNaN);
  return sys_.rotation(i, *q_) * vd_.segment<3>(6 * i + 3);
}
JointCoordinate NewtonEulerKinematics::shaft_motion(int shaft) const {
  throw std::logic_error("shaft " + std::to_string(shaft) +
                         ": 1-D shafts are states of the implicit formulation only, not of the Newton-Euler bodies");
}
CablePoint NewtonEulerKinematics::cable_point(int cable, double) const {
  throw std::logic_error("cable " + std::to_string(cable) +
                         ": flexible cables are states of the implicit formulation only, not of the Newton-Euler bodies");
}
double NewtonEulerKinematics::coupling_multiplier(int coupling) const {
  throw std::logic_error("coupling " + std::to_string(coupling) +
                         ": couplings are equations of the implicit formulation only, not of the Newton-Euler bodies");
}
JointReaction NewtonEulerKinematics::reaction(int joint) const {
  JointReaction r;
  if (!dynamics_) {
    r.force_W = r.torque_W = r.force_J = r.torque_J = Vec3::Constant(kNaN);
    return r;
  }
  // M u̇ = f + Jᵀλ: the joint's wrench on b, reduced to b's centre of mass (the ground's origin),
  // is W_bᵀ λ with W_b the rows' twist Jacobian of b (JointRowsWorld, world axes).
  const size_t j = static_cast<size_t>(joint);
  JointRowsWorld rows_;  // fixed-size blocks, on the stack
  sys_.joint_rows_world(t_, joint, *q_, *v_, rows_);
  Vec6 fb = Vec6::Zero();
  for (int k = 0; k < rows_.nr; ++k) fb += lambda_[row_offset_[j] + k] * rows_.Wb.row(k).transpose();
  const Vec3 F = fb.head<3>(), tau_red = fb.tail<3>();
  const BodyIndex b = rows_.b, a = rows_.a;
  const Vec3 red = b == kGround ? Vec3::Zero() : sys_.com_position(b, *q_);
  const Vec3 P = b == kGround ? marker_b_[j] : position(b, marker_b_[j]);
  r.force_W = F;
  r.torque_W = tau_red - (P - red).cross(F);  // about the joint point on b
  const Mat3 Rj = a == kGround ? frame_a_[j] : Mat3(sys_.rotation(a, *q_) * frame_a_[j]);
  r.force_J = Rj.transpose() * r.force_W;
  r.torque_J = Rj.transpose() * r.torque_W;
  return r;
}
double NewtonEulerKinematics::energy() { return sys_.energy(ws_, *q_, *v_); }
ConstraintViolation NewtonEulerKinematics::constraint_violation() {
  ConstraintViolation out;
  if (c_.size() == 0) return out;
  // At the state's time: driven joints follow their motion s(t).
  sys_.joint_violation(ws_, t_, *q_, c_);
  sys_.joint_velocity_violation(ws_, t_, *q_, *v_, cv_);
  out.position = inf_norm(c_);
  out.velocity = inf_norm(cv_);
  return out;
}

}  // namespace mbdae
