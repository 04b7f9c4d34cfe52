// Newton–Euler bodies (Chaney, "Simulating Single Rigid Bodies", 1999, seed 000) with joints at
// acceleration level (seed 004, ch. 6–7; Baumgarte, "Stabilization of constraints and integrals
// of motion in dynamical systems", Comput. Methods Appl. Mech. Eng. 1, 1972). Equations and state
// layout in NewtonEuler.h.

#include <mbdae/formulations/NewtonEuler.h>

#include <cmath>
#include <stdexcept>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <mbdae/model/math/Rotation.h>

#include "JointKernels.h"

namespace mbdae {

const char* to_string(JointSolveMethod m) {
  switch (m) {
    case JointSolveMethod::EquationSystem: return "equation_system";
    case JointSolveMethod::Schur: return "schur";
  }
  return "?";
}

namespace {

struct BodyNE {
  std::string name;
  double m = 0;
  Mat3 J, Jinv;
  Vec3 b;
  std::vector<int> loads;
};

struct JointNE : detail::JointGeometry {
  std::string name;
  BodyIndex a = kGround, b = kGround;
  int row0 = 0;
};

Vec4 quat_exp_body(const Vec3& phi) { return math::ep_from_rotvec(phi); }

}  // namespace

struct NewtonEulerSystem::Impl {
  System model;
  NewtonEulerOptions opt;
  std::vector<BodyNE> bodies;
  std::vector<JointNE> joints;
  int n = 0, m = 0;

  // Workspaces (kept so that derivative() does not allocate after the first call).
  mutable MatX J, MinvJt, A, K;
  mutable VecX c, gamma, f, Minvf, rhs, lambda, sol;
  mutable Eigen::LDLT<MatX> ldlt;
  mutable Eigen::PartialPivLU<MatX> lu;
  mutable detail::JointEval ev;

  Mat3 rot(BodyIndex i, const VecX& q) const {
    const Vec4 Q = q.segment<4>(7 * i + 3);
    return math::ep_to_matrix(Q / Q.norm());
  }

  detail::FrameKin kin(BodyIndex i, const VecX& q, const VecX* v) const {
    detail::FrameKin k;
    if (i == kGround) return k;
    k.p = q.segment<3>(7 * i);
    k.R = rot(i, q);
    if (v) {
      k.v = v->segment<3>(6 * i);
      k.w = k.R * v->segment<3>(6 * i + 3);
    }
    return k;  // ah = 0: ω̇_W = R ẇ_B exactly
  }

  void size_workspaces() const {
    // Joint workspaces only when there are joints (dense: (6n + m)² for the equation system).
    if (m > 0 && (J.rows() != m || J.cols() != 6 * n)) {
      J.setZero(m, 6 * n);
      MinvJt.setZero(6 * n, m);
      A.setZero(m, m);
      if (opt.joint_solve == JointSolveMethod::EquationSystem) K.setZero(6 * n + m, 6 * n + m);
      c.setZero(m);
      gamma.setZero(m);
      rhs.setZero(m);
      lambda.setZero(m);
      sol.setZero(6 * n + m);
    }
    if (f.size() != 6 * n) {
      f.setZero(6 * n);
      Minvf.setZero(6 * n);
    }
  }

  /// J (m × 6n), C and γ at (q, v) (v may be null: then γ is not formed).
  void assemble_joints(const VecX& q, const VecX* v) const {
    size_workspaces();
    J.setZero();
    for (const JointNE& jd : joints) {
      const detail::FrameKin ka = kin(jd.a, q, v), kb = kin(jd.b, q, v);
      detail::eval_joint(jd, ka, kb, v != nullptr, ev);
      for (int r = 0; r < ev.nr; ++r) {
        const int row = jd.row0 + r;
        c[row] = ev.c[static_cast<size_t>(r)];
        gamma[row] = ev.gamma[static_cast<size_t>(r)];
        if (jd.a != kGround) {
          J.block<1, 3>(row, 6 * jd.a) = ev.Wa.block<1, 3>(r, 0);
          J.block<1, 3>(row, 6 * jd.a + 3) = ev.Wa.block<1, 3>(r, 3) * ka.R;
        }
        if (jd.b != kGround) {
          J.block<1, 3>(row, 6 * jd.b) = ev.Wb.block<1, 3>(r, 0);
          J.block<1, 3>(row, 6 * jd.b + 3) = ev.Wb.block<1, 3>(r, 3) * kb.R;
        }
      }
    }
  }

  /// MinvJt = M⁻¹ Jᵀ, A = J M⁻¹ Jᵀ.
  void form_schur() const {
    for (int i = 0; i < n; ++i) {
      MinvJt.middleRows<3>(6 * i) = J.middleCols<3>(6 * i).transpose() / bodies[static_cast<size_t>(i)].m;
      MinvJt.middleRows<3>(6 * i + 3).noalias() =
          bodies[static_cast<size_t>(i)].Jinv * J.middleCols<3>(6 * i + 3).transpose();
    }
    A.noalias() = J * MinvJt;
  }

  void factor_schur(const char* what) const {
    ldlt.compute(A);
    const double dmax = ldlt.vectorD().cwiseAbs().maxCoeff();
    if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().cwiseAbs().minCoeff() > 1e-13 * dmax))
      throw std::runtime_error(std::string(what) + ": J M⁻¹ Jᵀ of the " + std::to_string(m) +
                               " joint equations is singular (redundant joints?)");
  }

  void apply_minv(const VecX& x, VecX& y) const {
    for (int i = 0; i < n; ++i) {
      y.segment<3>(6 * i) = x.segment<3>(6 * i) / bodies[static_cast<size_t>(i)].m;
      y.segment<3>(6 * i + 3).noalias() = bodies[static_cast<size_t>(i)].Jinv * x.segment<3>(6 * i + 3);
    }
  }
};

NewtonEulerSystem::NewtonEulerSystem(const System& model, NewtonEulerOptions options)
    : impl_(std::make_unique<Impl>()) {
  model.validate();
  Impl& I = *impl_;
  I.model = model;
  I.opt = options;
  if (options.linear_damping < 0 || options.angular_damping < 0)
    throw std::invalid_argument("NewtonEulerOptions: damping must be >= 0, got linear " +
                                std::to_string(options.linear_damping) + ", angular " +
                                std::to_string(options.angular_damping));
  // Not (yet) on this path: say so instead of silently leaving them out.
  if (!model.forces().empty())
    throw std::invalid_argument("the Newton–Euler (explicit/impulse) path does not support force "
                                "elements yet: '" + model.forces().front().name +
                                "'; use an implicit solver");
  for (const Joint& j : model.joints())
    if (j.motion)
      throw std::invalid_argument("the Newton–Euler (explicit/impulse) path does not support "
                                  "driven joints yet: joint '" + j.name + "'; use an implicit solver");
  I.n = static_cast<int>(model.bodies().size());
  for (const RigidBody& rb : model.bodies()) {
    BodyNE b;
    b.name = rb.name;
    b.m = rb.mass;
    b.b = rb.com;
    // Inertia about the COM from the one about the reference point (parallel axis).
    const Mat3 Jo = rb.inertia_tensor();
    b.J = Jo - rb.mass * (rb.com.squaredNorm() * Mat3::Identity() - rb.com * rb.com.transpose());
    b.Jinv = b.J.inverse();
    I.bodies.push_back(b);
  }
  for (size_t li = 0; li < model.loads().size(); ++li) {
    const BodyIndex bi = model.body_index(model.loads()[li].body);
    if (bi != kGround) I.bodies[static_cast<size_t>(bi)].loads.push_back(static_cast<int>(li));
  }
  auto com0 = [&](BodyIndex i, Mat3& R, Vec3& p) {
    if (i == kGround) {
      R.setIdentity();
      p.setZero();
      return;
    }
    const RigidBody& rb = model.bodies()[static_cast<size_t>(i)];
    R = rb.orientation;
    p = rb.position + R * rb.com;
  };
  for (const Joint& j : model.joints()) {
    JointNE jd;
    jd.name = j.name;
    jd.a = model.body_index(j.bodies[0]);
    jd.b = model.body_index(j.bodies[1]);
    Mat3 Ra, Rb;
    Vec3 pa, pb;
    com0(jd.a, Ra, pa);
    com0(jd.b, Rb, pb);
    static_cast<detail::JointGeometry&>(jd) = detail::make_joint_geometry(j, Ra, pa, Rb, pb);
    jd.row0 = I.m;
    I.m += static_cast<int>(jd.rows.size());
    I.joints.push_back(std::move(jd));
  }
  I.size_workspaces();
}

NewtonEulerSystem::~NewtonEulerSystem() = default;

const System& NewtonEulerSystem::model() const { return impl_->model; }
const NewtonEulerOptions& NewtonEulerSystem::options() const { return impl_->opt; }
int NewtonEulerSystem::num_bodies() const { return impl_->n; }
int NewtonEulerSystem::num_joint_rows() const { return impl_->m; }

void NewtonEulerSystem::initial_state(VecX& q, VecX& v) const {
  const Impl& I = *impl_;
  q.resize(7 * I.n);
  v.resize(6 * I.n);
  for (int i = 0; i < I.n; ++i) {
    const RigidBody& rb = I.model.bodies()[static_cast<size_t>(i)];
    const Mat3& R = rb.orientation;
    const Vec3 rc = R * rb.com;
    q.segment<3>(7 * i) = rb.position + rc;
    q.segment<4>(7 * i + 3) = math::matrix_to_ep(R);
    v.segment<3>(6 * i) = rb.velocity + rb.angular_velocity.cross(rc);
    v.segment<3>(6 * i + 3) = R.transpose() * rb.angular_velocity;
  }
}

double NewtonEulerSystem::mass(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).m; }
const Mat3& NewtonEulerSystem::inertia_com(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).J; }
const Mat3& NewtonEulerSystem::inertia_com_inv(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).Jinv; }
const Vec3& NewtonEulerSystem::com_offset(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).b; }
Vec3 NewtonEulerSystem::com_position(BodyIndex i, const VecX& q) const { return q.segment<3>(7 * i); }
Vec4 NewtonEulerSystem::quaternion(BodyIndex i, const VecX& q) const { return q.segment<4>(7 * i + 3); }
Mat3 NewtonEulerSystem::rotation(BodyIndex i, const VecX& q) const { return impl_->rot(i, q); }
Vec3 NewtonEulerSystem::reference_position(BodyIndex i, const VecX& q) const {
  return com_position(i, q) - rotation(i, q) * com_offset(i);
}
Vec3 NewtonEulerSystem::com_velocity(BodyIndex i, const VecX& v) const { return v.segment<3>(6 * i); }
Vec3 NewtonEulerSystem::angular_velocity_body(BodyIndex i, const VecX& v) const { return v.segment<3>(6 * i + 3); }
Vec3 NewtonEulerSystem::angular_velocity_world(BodyIndex i, const VecX& q, const VecX& v) const {
  return rotation(i, q) * angular_velocity_body(i, v);
}

void NewtonEulerSystem::applied_wrench(BodyIndex i, double t, const VecX& q, const VecX& v,
                                       Vec3& F_W, Vec3& tau_B) const {
  const Impl& I = *impl_;
  const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
  const Mat3 R = I.rot(i, q);
  const Vec3 wB = v.segment<3>(6 * i + 3);
  F_W = bd.m * I.model.gravity - I.opt.linear_damping * v.segment<3>(6 * i);
  tau_B = -I.opt.angular_damping * wB;
  for (int li : bd.loads) {
    const Load& l = I.model.loads()[static_cast<size_t>(li)];
    Vec3 val = l.value_of_t ? l.value_of_t(t) : l.value;
    if (l.kind == Load::Kind::Force) {
      const Vec3 F = (l.frame == Load::Frame::Body) ? Vec3(R * val) : val;
      F_W += F;
      tau_B += (l.point - bd.b).cross(R.transpose() * F);  // r × F in body axes
    } else {
      tau_B += (l.frame == Load::Frame::Body) ? val : Vec3(R.transpose() * val);
    }
  }
}

void NewtonEulerSystem::derivative(double t, const VecX& q, const VecX& v, VecX& qdot,
                                   VecX& vdot) const {
  const Impl& I = *impl_;
  I.size_workspaces();
  qdot.resize(7 * I.n);
  vdot.resize(6 * I.n);
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    const Vec4 Q = q.segment<4>(7 * i + 3);
    const Vec3 wB = v.segment<3>(6 * i + 3);
    qdot.segment<3>(7 * i) = v.segment<3>(6 * i);
    qdot.segment<4>(7 * i + 3) = math::ep_dot_from_w_B(Q, wB);  // ½ Q ⊗ (0, w_B), linear in Q
    Vec3 F, tau;
    applied_wrench(i, t, q, v, F, tau);
    I.f.segment<3>(6 * i) = F;
    I.f.segment<3>(6 * i + 3) = tau - wB.cross(bd.J * wB);
  }
  if (I.m == 0) {
    I.apply_minv(I.f, vdot);
    return;
  }
  I.assemble_joints(q, &v);
  // γ̃ = γ − 2α Ċ − β² C (Baumgarte 1972), with Ċ = J u.
  I.rhs.noalias() = I.J * v;
  I.rhs = I.gamma - 2 * I.opt.baumgarte_alpha * I.rhs -
          I.opt.baumgarte_beta * I.opt.baumgarte_beta * I.c;
  if (I.opt.joint_solve == JointSolveMethod::Schur) {
    I.form_schur();
    I.factor_schur("NewtonEuler");
    I.apply_minv(I.f, I.Minvf);
    I.rhs.noalias() -= I.J * I.Minvf;
    I.lambda = I.ldlt.solve(I.rhs);
    vdot = I.Minvf;
    vdot.noalias() += I.MinvJt * I.lambda;
  } else {
    const int N = 6 * I.n;
    I.K.setZero();
    for (int i = 0; i < I.n; ++i) {
      const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
      I.K.block<3, 3>(6 * i, 6 * i) = bd.m * Mat3::Identity();
      I.K.block<3, 3>(6 * i + 3, 6 * i + 3) = bd.J;
    }
    I.K.topRightCorner(N, I.m) = -I.J.transpose();
    I.K.bottomLeftCorner(I.m, N) = I.J;
    I.sol.head(N) = I.f;
    I.sol.tail(I.m) = I.rhs;
    I.lu.compute(I.K);
    // Partial-pivot LU does not report singularity; a zero pivot shows as a non-finite solution.
    I.sol = I.lu.solve(I.sol);
    if (!I.sol.allFinite())
      throw std::runtime_error("NewtonEuler: [M −Jᵀ; J 0] of the " + std::to_string(I.m) +
                               " joint equations is singular (redundant joints?)");
    vdot = I.sol.head(N);
    I.lambda = I.sol.tail(I.m);
  }
}

const VecX& NewtonEulerSystem::last_multipliers() const { return impl_->lambda; }

void NewtonEulerSystem::joint_violation(const VecX& q, VecX& c) const {
  impl_->assemble_joints(q, nullptr);
  c = impl_->c;
}

void NewtonEulerSystem::joint_velocity_violation(const VecX& q, const VecX& v, VecX& cd) const {
  impl_->assemble_joints(q, nullptr);
  cd.resize(impl_->m);
  cd.noalias() = impl_->J * v;
}

void NewtonEulerSystem::joint_rows_world(int joint, const VecX& q, const VecX& v,
                                         JointRowsWorld& out) const {
  const Impl& I = *impl_;
  const JointNE& jd = I.joints.at(static_cast<size_t>(joint));
  const detail::FrameKin ka = I.kin(jd.a, q, &v), kb = I.kin(jd.b, q, &v);
  detail::eval_joint(jd, ka, kb, true, I.ev);
  out.a = jd.a;
  out.b = jd.b;
  out.nr = I.ev.nr;
  for (int r = 0; r < out.nr; ++r) {
    out.c[r] = I.ev.c[static_cast<size_t>(r)];
    out.gamma[r] = I.ev.gamma[static_cast<size_t>(r)];
  }
  out.Wa = I.ev.Wa;
  out.Wb = I.ev.Wb;
}

std::string NewtonEulerSystem::joint_row_label(int row) const {
  for (const JointNE& jd : impl_->joints)
    if (row >= jd.row0 && row < jd.row0 + static_cast<int>(jd.rows.size()))
      return "joint '" + jd.name + "' " + jd.rows[static_cast<size_t>(row - jd.row0)].what;
  return "row " + std::to_string(row);
}

double NewtonEulerSystem::project_positions(VecX& q, double tol, int max_iter) const {
  const Impl& I = *impl_;
  if (I.m == 0) return 0;
  double err = 0;
  for (int it = 0; it <= max_iter; ++it) {
    I.assemble_joints(q, nullptr);
    err = I.c.cwiseAbs().maxCoeff();
    if (err <= tol || it == max_iter) break;
    I.form_schur();
    I.factor_schur("position projection");
    I.lambda = I.ldlt.solve(I.c);
    I.Minvf.noalias() = I.MinvJt * I.lambda;  // Δu = −M⁻¹Jᵀ(JM⁻¹Jᵀ)⁻¹C
    for (int i = 0; i < I.n; ++i) {
      q.segment<3>(7 * i) -= I.Minvf.segment<3>(6 * i);
      const Vec4 Q = q.segment<4>(7 * i + 3);
      // Body-axes rotation increment: R ← R exp(δφ_B~), i.e. Q ← Q ⊗ exp(δφ_B).
      q.segment<4>(7 * i + 3) = math::ep_multiply(Q, quat_exp_body(-I.Minvf.segment<3>(6 * i + 3)));
    }
  }
  return err;
}

double NewtonEulerSystem::project_velocities(const VecX& q, VecX& v) const {
  const Impl& I = *impl_;
  if (I.m == 0) return 0;
  I.assemble_joints(q, nullptr);
  I.form_schur();
  I.factor_schur("velocity projection");
  I.rhs.noalias() = I.J * v;
  I.lambda = I.ldlt.solve(I.rhs);
  v.noalias() -= I.MinvJt * I.lambda;
  I.rhs.noalias() = I.J * v;
  return I.rhs.cwiseAbs().maxCoeff();
}

double NewtonEulerSystem::energy(const VecX& q, const VecX& v) const {
  const Impl& I = *impl_;
  double E = 0;
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    const Vec3 vc = v.segment<3>(6 * i), wB = v.segment<3>(6 * i + 3);
    E += 0.5 * bd.m * vc.squaredNorm() + 0.5 * wB.dot(bd.J * wB) -
         bd.m * I.model.gravity.dot(q.segment<3>(7 * i));
  }
  return E;
}

Vec3 NewtonEulerSystem::linear_momentum(const VecX& v) const {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < impl_->n; ++i) p += impl_->bodies[static_cast<size_t>(i)].m * v.segment<3>(6 * i);
  return p;
}

Vec3 NewtonEulerSystem::angular_momentum(const VecX& q, const VecX& v) const {
  const Impl& I = *impl_;
  Vec3 L = Vec3::Zero();
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    L += I.rot(i, q) * (bd.J * v.segment<3>(6 * i + 3)) +
         q.segment<3>(7 * i).cross(bd.m * v.segment<3>(6 * i));
  }
  return L;
}

double NewtonEulerSystem::normalize_quaternions(VecX& q) const {
  double worst = 0;
  for (int i = 0; i < impl_->n; ++i) {
    auto Q = q.segment<4>(7 * i + 3);
    const double nrm = Q.norm();
    worst = std::max(worst, std::abs(nrm - 1));
    Q /= nrm;
  }
  return worst;
}

}  // namespace mbdae
