// Rigid bodies on SE(3) or SO(3)×R³ (Bauer, seed 002; Munthe-Kaas, "Runge–Kutta methods on Lie
// groups", BIT 38, 1998, for dexp⁻¹). Equations in LieGroupBodies.h.

#include <mbdae/formulations/LieGroupBodies.h>

#include <stdexcept>

#include <mbdae/formulations/CompiledModel.h>

namespace mbdae {

const char* to_string(LieGroupType g) { return g == LieGroupType::SE3 ? "SE3" : "SO3xR3"; }

namespace {
const CompiledModel& checked(const std::shared_ptr<const CompiledModel>& cm) {
  if (!cm) throw std::invalid_argument("LieGroupBodies: no compiled model");
  return *cm;
}
}  // namespace

LieGroupBodies::LieGroupBodies(const System& model, LieGroupType group, double linear_damping,
                               double angular_damping)
    : LieGroupBodies(compile(model), group, linear_damping, angular_damping) {}

LieGroupBodies::LieGroupBodies(std::shared_ptr<const CompiledModel> compiled, LieGroupType group,
                               double linear_damping, double angular_damping)
    : cm_(std::move(compiled)), model_(checked(cm_).system()), group_(group), c_lin_(linear_damping),
      c_rot_(angular_damping) {
  const System& model = model_;
  if (!model.modal_bodies().empty())
    throw std::invalid_argument("LieGroupBodies: modal bodies are not supported on the Lie-group path, got '" +
                                model.modal_bodies().front().name + "'");
  if (!model.couplings().empty())
    throw std::invalid_argument("LieGroupBodies: couplings are not supported on the Lie-group path, got '" +
                                model.couplings().front().name + "'");
  if (!model.shafts().empty())
    throw std::invalid_argument("LieGroupBodies: 1-D shafts are not supported on the Lie-group path, got '" +
                                model.shafts().front().name + "'");
  if (!model.shaft_forces().empty())
    throw std::invalid_argument("LieGroupBodies: efforts on 1-D shafts are not supported on the Lie-group path, got '" +
                                model.shaft_forces().front().name + "'");
  if (!model.cables().empty())
    throw std::invalid_argument("LieGroupBodies: flexible cables are not supported on the Lie-group path, got '" +
                                model.cables().front().name + "'");
  if (!model.joints().empty())
    throw std::invalid_argument("LieGroupBodies: joints are not supported on the Lie-group path, got " +
                                std::to_string(model.joints().size()));
  if (!model.forces().empty())
    throw std::invalid_argument("LieGroupBodies: force elements are not supported on the "
                                "Lie-group path, got '" + model.forces().front().name + "'");
  for (const CompiledModel::Body& cb : cm_->bodies()) {
    m_.push_back(cb.mass);
    J_.push_back(cb.inertia_com);
    Jinv_.push_back(cb.inertia_com_inv);
    b_.push_back(cb.com);
    loads_.push_back(cb.loads);
  }
}

LieGroupState LieGroupBodies::initial_state() const {
  LieGroupState s;
  const int n = num_bodies();
  s.g.resize(static_cast<size_t>(n));
  s.xi.resize(6 * n);
  for (int i = 0; i < n; ++i) {
    const RigidBody& rb = model_.bodies()[static_cast<size_t>(i)];
    const Mat3& R = rb.orientation;
    const Vec3 rc = R * rb.com;
    s.g[static_cast<size_t>(i)] = {R, rb.position + rc};
    const Vec3 vC = rb.velocity + rb.angular_velocity.cross(rc);
    s.xi.segment<3>(6 * i) = R.transpose() * rb.angular_velocity;
    s.xi.segment<3>(6 * i + 3) = group_ == LieGroupType::SE3 ? Vec3(R.transpose() * vC) : vC;
  }
  return s;
}

Vec3 LieGroupBodies::com_velocity(const LieGroupState& s, int i) const {
  const Vec3 v = s.xi.segment<3>(6 * i + 3);
  return group_ == LieGroupType::SE3 ? Vec3(s.g[static_cast<size_t>(i)].R * v) : v;
}

void LieGroupBodies::twist_rate(double t, const LieGroupState& s, VecX& xidot) const {
  const int n = num_bodies();
  xidot.resize(6 * n);
  for (int i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    const Mat3& R = s.g[k].R;
    const Vec3 w = s.xi.segment<3>(6 * i);
    const Vec3 vC = com_velocity(s, i);
    Vec3 F_W = m_[k] * model_.gravity - c_lin_ * vC;
    Vec3 tau_B = -c_rot_ * w;
    for (int li : loads_[k]) {
      const Load& l = model_.loads()[static_cast<size_t>(li)];
      const Vec3 val = l.value_of_t ? l.value_of_t(t) : l.value;
      if (l.kind == Load::Kind::Force) {
        const Vec3 F = (l.frame == Load::Frame::Body) ? Vec3(R * val) : val;
        F_W += F;
        tau_B += (l.point - b_[k]).cross(R.transpose() * F);
      } else {
        tau_B += (l.frame == Load::Frame::Body) ? val : Vec3(R.transpose() * val);
      }
    }
    // Rotational part of I ξ̇ = F + ad_ξᵀ I ξ: J ω̇ = τ − ω × J ω (both groups).
    xidot.segment<3>(6 * i) = Jinv_[k] * (tau_B - w.cross(J_[k] * w));
    if (group_ == LieGroupType::SE3) {
      // Translational part: m v̇_B = Rᵀ F_W − m ω × v_B (the −m ω × v of ad_ξᵀ I ξ).
      const Vec3 vB = s.xi.segment<3>(6 * i + 3);
      xidot.segment<3>(6 * i + 3) = R.transpose() * F_W / m_[k] - w.cross(vB);
    } else {
      xidot.segment<3>(6 * i + 3) = F_W / m_[k];
    }
  }
}

Vec6 LieGroupBodies::dexpinv(const Vec6& theta, const Vec6& xi) const {
  if (group_ == LieGroupType::SE3) {
    const Mat6 ad = math::se3_ad(theta);
    const Vec6 a1 = ad * xi;
    return xi + 0.5 * a1 + (1.0 / 12.0) * (ad * a1);
  }
  Vec6 out;
  out.head<3>() = math::so3_tangent_inverse(theta.head<3>()) * xi.head<3>();
  out.tail<3>() = xi.tail<3>();
  return out;
}

math::Pose LieGroupBodies::retract(const math::Pose& g0, const Vec6& theta) const {
  if (group_ == LieGroupType::SE3) return math::compose(g0, math::se3_exp(theta));
  return {g0.R * math::so3_exp(theta.head<3>()), g0.p + theta.tail<3>()};
}

void LieGroupBodies::to_coordinates(const LieGroupState& s, VecX& q, VecX& v) const {
  const int n = num_bodies();
  q.resize(6 * n);
  v.resize(6 * n);
  for (int i = 0; i < n; ++i) {
    q.segment<3>(6 * i) = s.g[static_cast<size_t>(i)].p;
    q.segment<3>(6 * i + 3) = math::so3_log(s.g[static_cast<size_t>(i)].R);
    v.segment<3>(6 * i) = com_velocity(s, i);
    v.segment<3>(6 * i + 3) = s.xi.segment<3>(6 * i);
  }
}

double LieGroupBodies::energy(const LieGroupState& s) const {
  double E = 0;
  for (int i = 0; i < num_bodies(); ++i) {
    const size_t k = static_cast<size_t>(i);
    const Vec3 w = s.xi.segment<3>(6 * i);
    E += 0.5 * m_[k] * com_velocity(s, i).squaredNorm() + 0.5 * w.dot(J_[k] * w) -
         m_[k] * model_.gravity.dot(s.g[k].p);
  }
  return E;
}

Vec3 LieGroupBodies::angular_momentum(const LieGroupState& s) const {
  Vec3 L = Vec3::Zero();
  for (int i = 0; i < num_bodies(); ++i) {
    const size_t k = static_cast<size_t>(i);
    L += s.g[k].R * (J_[k] * s.xi.segment<3>(6 * i)) + s.g[k].p.cross(m_[k] * com_velocity(s, i));
  }
  return L;
}

}  // namespace mbdae
