#include <mbdae/io/Sensors.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <mbdae/model/math/Rotation.h>

namespace mbdae::io {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* unit_of(SensorOutput o) {
  switch (o) {
    case SensorOutput::Position:
    case SensorOutput::Displacement: return "m";
    case SensorOutput::Velocity:
    case SensorOutput::VelocityLocal: return "m/s";
    case SensorOutput::RotationMatrix: return "";
    case SensorOutput::Rotation: return "rad";
    case SensorOutput::AngularVelocity:
    case SensorOutput::AngularVelocityLocal: return "rad/s";
    case SensorOutput::Acceleration:
    case SensorOutput::AccelerationLocal: return "m/s^2";
    case SensorOutput::AngularAcceleration:
    case SensorOutput::AngularAccelerationLocal: return "rad/s^2";
    case SensorOutput::ReactionForce: return "N";
    case SensorOutput::ReactionTorque: return "N m";
    case SensorOutput::Energy: return "J";
    case SensorOutput::ConstraintViolation: return "";
  }
  return "";
}

void put3(const Vec3& x, std::span<double> out, size_t& k) {
  for (int i = 0; i < 3; ++i) out[k++] = x[i];
}
}  // namespace

SensorSet::SensorSet(std::vector<SensorSpec> specs, const MultibodySystem& system, const VecX& q0)
    : specs_(std::move(specs)), system_(system) {
  const System& model = system.model();
  for (size_t s = 0; s < specs_.size(); ++s) {
    const SensorSpec& sp = specs_[s];
    Resolved r;
    std::vector<std::string> suffixes;
    switch (sp.output) {
      case SensorOutput::Energy: suffixes = {""}; break;
      case SensorOutput::ConstraintViolation: suffixes = {".position", ".velocity"}; break;
      case SensorOutput::RotationMatrix:
        suffixes = {".r11", ".r12", ".r13", ".r21", ".r22", ".r23", ".r31", ".r32", ".r33"};
        break;
      default: suffixes = {".x", ".y", ".z"}; break;
    }
    if (sp.output == SensorOutput::ReactionForce || sp.output == SensorOutput::ReactionTorque) {
      for (size_t j = 0; j < model.joints().size(); ++j)
        if (model.joints()[j].name == sp.joint) r.joint = static_cast<int>(j);
      if (r.joint < 0)
        throw std::invalid_argument("sensor '" + sp.name + "': unknown joint '" + sp.joint + "'");
    } else if (sp.output != SensorOutput::Energy && sp.output != SensorOutput::ConstraintViolation) {
      const auto b = model.find_body(sp.body);
      if (!b || *b == kGround)
        throw std::invalid_argument("sensor '" + sp.name + "': unknown body '" + sp.body + "'");
      r.body = *b;
      r.p0 = system.position(r.body, q0, sp.point);
    }
    resolved_.push_back(r);
    for (const std::string& suf : suffixes) {
      columns_.push_back(sp.name + suf);
      units_.push_back(unit_of(sp.output));
      column_sensor_.push_back(static_cast<int>(s));
    }
  }
  c_.resize(system.num_constraints());
  cv_.resize(system.num_constraints());
}

void SensorSet::evaluate(const StateView& st, std::span<double> out) const {
  const MultibodySystem& m = system_;
  const bool have_a = st.a.size() == st.q.size() && st.a.size() > 0;
  const bool have_lambda = st.lambda.size() == m.num_constraints();
  size_t k = 0;
  for (size_t s = 0; s < specs_.size(); ++s) {
    const SensorSpec& sp = specs_[s];
    const Resolved& r = resolved_[s];
    const BodyIndex b = r.body;
    switch (sp.output) {
      case SensorOutput::Position: put3(m.position(b, st.q, sp.point), out, k); break;
      case SensorOutput::Displacement: put3(m.position(b, st.q, sp.point) - r.p0, out, k); break;
      case SensorOutput::Velocity: put3(m.velocity(b, st.q, st.v, sp.point), out, k); break;
      case SensorOutput::VelocityLocal:
        put3(m.rotation(b, st.q).transpose() * m.velocity(b, st.q, st.v, sp.point), out, k);
        break;
      case SensorOutput::RotationMatrix: {
        const Mat3 R = m.rotation(b, st.q);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) out[k++] = R(i, j);
        break;
      }
      case SensorOutput::Rotation: put3(math::matrix_to_rxyz(m.rotation(b, st.q)).angles, out, k); break;
      case SensorOutput::AngularVelocity: put3(m.angular_velocity(b, st.q, st.v), out, k); break;
      case SensorOutput::AngularVelocityLocal:
        put3(m.rotation(b, st.q).transpose() * m.angular_velocity(b, st.q, st.v), out, k);
        break;
      case SensorOutput::Acceleration:
        put3(have_a ? m.acceleration(b, st.q, st.v, st.a, sp.point) : Vec3::Constant(kNaN), out, k);
        break;
      case SensorOutput::AccelerationLocal:
        put3(have_a ? Vec3(m.rotation(b, st.q).transpose() * m.acceleration(b, st.q, st.v, st.a, sp.point))
                    : Vec3::Constant(kNaN),
             out, k);
        break;
      case SensorOutput::AngularAcceleration:
        put3(have_a ? m.angular_acceleration(b, st.q, st.v, st.a) : Vec3::Constant(kNaN), out, k);
        break;
      case SensorOutput::AngularAccelerationLocal:
        put3(have_a ? Vec3(m.rotation(b, st.q).transpose() * m.angular_acceleration(b, st.q, st.v, st.a))
                    : Vec3::Constant(kNaN),
             out, k);
        break;
      case SensorOutput::ReactionForce:
      case SensorOutput::ReactionTorque: {
        if (!have_lambda) {
          put3(Vec3::Constant(kNaN), out, k);
          break;
        }
        const JointReaction jr = m.reaction(r.joint, st.t, st.q, st.lambda);
        const bool world = sp.frame == SensorSpec::Frame::World;
        if (sp.output == SensorOutput::ReactionForce) put3(world ? jr.force_W : jr.force_J, out, k);
        else put3(world ? jr.torque_W : jr.torque_J, out, k);
        break;
      }
      case SensorOutput::Energy: out[k++] = m.energy(st.t, st.q, st.v); break;
      case SensorOutput::ConstraintViolation:
        if (c_.size() == 0) {
          out[k++] = 0;
          out[k++] = 0;
          break;
        }
        m.constraints(st.t, st.q, c_);
        m.constraint_velocity(st.t, st.q, st.v, cv_);
        out[k++] = c_.cwiseAbs().maxCoeff();
        out[k++] = cv_.cwiseAbs().maxCoeff();
        break;
    }
  }
}

// ---- explicit and impulse paths -----------------------------------------------------------------

void lie_group_to_newton_euler(const VecX& q_lie, VecX& q_ne) {
  const Eigen::Index n = q_lie.size() / 6;
  q_ne.resize(7 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    q_ne.segment<3>(7 * i) = q_lie.segment<3>(6 * i);
    q_ne.segment<4>(7 * i + 3) = math::ep_from_rotvec(q_lie.segment<3>(6 * i + 3));
  }
}

ExplicitSensorSet::ExplicitSensorSet(std::vector<SensorSpec> specs, const NewtonEulerSystem& system, Layout layout,
                                     const VecX& q0)
    : specs_(std::move(specs)), system_(system), layout_(layout) {
  const System& model = system.model();
  const VecX v0 = VecX::Zero(6 * system.num_bodies()), empty;
  to_newton_euler(StateView{0.0, q0, v0, empty, empty});
  for (size_t s = 0; s < specs_.size(); ++s) {
    const SensorSpec& sp = specs_[s];
    std::vector<std::string> suffixes;
    switch (sp.output) {
      case SensorOutput::Energy: suffixes = {""}; break;
      case SensorOutput::ConstraintViolation: suffixes = {".position", ".velocity"}; break;
      case SensorOutput::RotationMatrix:
        suffixes = {".r11", ".r12", ".r13", ".r21", ".r22", ".r23", ".r31", ".r32", ".r33"};
        break;
      case SensorOutput::Acceleration:
      case SensorOutput::AccelerationLocal:
      case SensorOutput::AngularAcceleration:
      case SensorOutput::AngularAccelerationLocal:
      case SensorOutput::ReactionForce:
      case SensorOutput::ReactionTorque:
        throw std::invalid_argument("sensor '" + sp.name + "': output " + to_string(sp.output) +
                                    " is not available on the explicit and impulse paths");
      default: suffixes = {".x", ".y", ".z"}; break;
    }
    BodyIndex b = kGround;
    Vec3 p0 = Vec3::Zero();
    if (sp.output != SensorOutput::Energy && sp.output != SensorOutput::ConstraintViolation) {
      const auto fb = model.find_body(sp.body);
      if (!fb || *fb == kGround)
        throw std::invalid_argument("sensor '" + sp.name + "': unknown body '" + sp.body + "'");
      b = *fb;
      p0 = point_position(b, sp.point);
    }
    body_.push_back(b);
    p0_.push_back(p0);
    for (const std::string& suf : suffixes) {
      columns_.push_back(sp.name + suf);
      units_.push_back(unit_of(sp.output));
      column_sensor_.push_back(static_cast<int>(s));
    }
  }
  c_.resize(system.num_joint_rows());
  cv_.resize(system.num_joint_rows());
}

void ExplicitSensorSet::to_newton_euler(const StateView& s) const {
  v_ = s.v;
  if (layout_ == Layout::NewtonEuler) q_ = s.q;
  else lie_group_to_newton_euler(s.q, q_);
}

Vec3 ExplicitSensorSet::point_position(BodyIndex b, const Vec3& p) const {
  return system_.com_position(b, q_) + system_.rotation(b, q_) * (p - system_.com_offset(b));
}

void ExplicitSensorSet::evaluate(const StateView& st, std::span<double> out) const {
  to_newton_euler(st);
  const NewtonEulerSystem& m = system_;
  size_t k = 0;
  for (size_t s = 0; s < specs_.size(); ++s) {
    const SensorSpec& sp = specs_[s];
    const BodyIndex b = body_[s];
    auto velocity = [&] {
      const Mat3 R = m.rotation(b, q_);
      return Vec3(m.com_velocity(b, v_) + (R * m.angular_velocity_body(b, v_)).cross(R * (sp.point - m.com_offset(b))));
    };
    switch (sp.output) {
      case SensorOutput::Position: put3(point_position(b, sp.point), out, k); break;
      case SensorOutput::Displacement: put3(point_position(b, sp.point) - p0_[s], out, k); break;
      case SensorOutput::Velocity: put3(velocity(), out, k); break;
      case SensorOutput::VelocityLocal: put3(m.rotation(b, q_).transpose() * velocity(), out, k); break;
      case SensorOutput::RotationMatrix: {
        const Mat3 R = m.rotation(b, q_);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) out[k++] = R(i, j);
        break;
      }
      case SensorOutput::Rotation: put3(math::matrix_to_rxyz(m.rotation(b, q_)).angles, out, k); break;
      case SensorOutput::AngularVelocity: put3(m.angular_velocity_world(b, q_, v_), out, k); break;
      case SensorOutput::AngularVelocityLocal: put3(m.angular_velocity_body(b, v_), out, k); break;
      case SensorOutput::Energy: out[k++] = m.energy(q_, v_); break;
      case SensorOutput::ConstraintViolation:
        if (c_.size() == 0) {
          out[k++] = 0;
          out[k++] = 0;
          break;
        }
        m.joint_violation(q_, c_);
        m.joint_velocity_violation(q_, v_, cv_);
        out[k++] = c_.cwiseAbs().maxCoeff();
        out[k++] = cv_.cwiseAbs().maxCoeff();
        break;
      default:  // rejected in the constructor
        put3(Vec3::Constant(kNaN), out, k);
        break;
    }
  }
}

}  // namespace mbdae::io
