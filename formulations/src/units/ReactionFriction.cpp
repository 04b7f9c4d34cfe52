// Joint friction by reaction in the implicit formulation (Multibody.h, MultibodyOptions).

#include "ReactionFriction.h"

#include "../FiniteDifference.h"

namespace mbdae::units {

struct ReactionFriction::Scratch final : UnitScratch {
  std::vector<Kin> kin;
  std::vector<Wrench> wrench;
  std::vector<double> q, v, g, gp, gm, B, dN;
};

void ReactionFriction::refuse_unless_enabled(const System& model, const MultibodyOptions& options) {
  // Friction whose normal force is the joint's reaction reads the multipliers in the force law:
  // only a caller that forms ∂r/∂λ with assemble_multiplier_tangent() (the time integrators
  // generalized-α, trapezoidal index 2, IDA) may take it; forces() leaves it out.
  std::vector<ModelProblem> p;
  for (size_t i = 0; i < model.forces().size() && !options.reaction_friction; ++i)
    if (model.forces()[i].type == ForceType::JointFriction && model.forces()[i].normal_from_reaction)
      p.push_back({"force '" + model.forces()[i].name +
                       "': joint friction with the joint's reaction as the normal force (normal: reaction) is "
                       "taken by the time integrators (generalized_alpha, trapezoidal_index2, ida, impulse), not "
                       "by this use of the implicit formulation (MultibodySystem without "
                       "MultibodyOptions::reaction_friction: the analyses, forces() without multipliers)",
                   ItemRef::force(static_cast<int>(i))});
  if (!p.empty()) throw ModelError(std::move(p));
}

ReactionFriction::ReactionFriction(UnitContext& cx, const ForceElements& forces, const Joints& joints)
    : forces_(forces), joints_(joints) {
  for (size_t i = 0; i < forces.list().size(); ++i) {
    const ForceElement& f = *forces.list()[i].src;
    if (f.type != ForceType::JointFriction || !f.normal_from_reaction) continue;
    Element rf;
    rf.force = static_cast<int>(i);
    rf.joint = cx.cm->joint_index(f.joint);
    if (rf.joint < 0) throw std::logic_error("joint_friction '" + f.name + "': no joint '" + f.joint + "'");
    const BodyIndex ja = cx.cm->joints()[static_cast<size_t>(rf.joint)].a;
    const BodyIndex jb = cx.cm->joints()[static_cast<size_t>(rf.joint)].b;
    const std::vector<BodyIndex>& fb = forces.list()[i].bodies;
    if (fb.size() != 2 || fb[0] != ja || fb[1] != jb)
      throw std::logic_error("joint_friction '" + f.name + "': its bodies are not its joint's");
    list_.push_back(std::move(rf));
  }
}

std::unique_ptr<UnitScratch> ReactionFriction::make_scratch() const { return std::make_unique<Scratch>(); }

void ReactionFriction::add_pattern(PatternBuilder&, PatternBuilder& jp) const {
  for (const Element& rf : list_)  // already in C_q's joint block (same bodies)
    jp.add_block(joints_.list()[static_cast<size_t>(rf.joint)].active_global,
                 forces_.list()[static_cast<size_t>(rf.force)].coords);
}

void ReactionFriction::make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) {
  for (Element& rf : list_) {
    const std::vector<int>& c = forces_.list()[static_cast<size_t>(rf.force)].coords;
    rf.lam_map = BlockMap::make(jacobian, joints_.list()[static_cast<size_t>(rf.joint)].active_global, c);
    rf.tangent_map = BlockMap::make(tangent, c, c);
  }
}

/// N_r (joint_friction_reaction_normal: |F_⊥| + (r_a/r) |F_∥|, the preload not included) from the
/// force F = −Σ_k λ_k W_b,k (translation part) that its joint's active rows exert on b at the
/// joint's bodies' kinematics ka, kb; with dN (size: the joint's active rows) ∂N_r/∂λ_k = −(∂N_r/∂F)·W_b,k.
double ReactionFriction::reaction_normal(const Element& rf, double t, const Kin& ka, const Kin& kb,
                                         const double* lambda, double* dN) const {
  const JointData& jd = joints_.list()[static_cast<size_t>(rf.joint)];
  const ForceData& fd = forces_.list()[static_cast<size_t>(rf.force)];
  if (jd.active.empty()) return 0.0;
  detail::JointEval e;
  detail::eval_joint(jd, ka, kb, false, jd.drive(t), e);
  Vec3 F = Vec3::Zero();
  for (size_t k = 0; k < jd.active.size(); ++k)
    F -= lambda[jd.active_global[k]] * e.Wb.row(jd.active[k]).head<3>().transpose();
  const Vec3 axis = ka.R * fd.Aa.col(2);
  Vec3 dNdF;
  const double N = joint_friction_reaction_normal(*fd.src, F, axis, dN ? &dNdF : nullptr);
  if (dN)
    for (size_t k = 0; k < jd.active.size(); ++k) dN[k] = -dNdF.dot(e.Wb.row(jd.active[k]).head<3>());
  return N;
}

/// The generalised force per newton of normal force of the Coulomb–Stribeck part
/// (joint_friction_wrench(f, 1, false)) on the element's coordinates, from its bodies' kinematics.
void ReactionFriction::unit_force(Scratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                                  double* out) const {
  detail::pair_wrenches(*fd.src, fd, t, ks, W.wrench, {}, nullptr, [&](const PairMotion& m, Vec3& Fb, Vec3& Tb) {
    joint_friction_wrench(*fd.src, 1.0, false, fd, m, Fb, Tb);
  });
  ForceElements::generalized_from_wrenches(fd, ks, W.wrench, out);
}

/// −f_r = −N_r(q, λ) g(q, v) from the element's local coordinates and velocities.
void ReactionFriction::local(Scratch& W, const Element& rf, double t, const double* ql, const double* vl,
                             const double* lambda, double* out) const {
  const ForceData& fd = forces_.list()[static_cast<size_t>(rf.force)];
  forces_.kin(fd, ql, vl, W.kin);
  const double N = reaction_normal(rf, t, W.kin[0], W.kin[1], lambda, nullptr);
  unit_force(W, fd, t, W.kin, out);
  Eigen::Map<VecX>(out, static_cast<int>(fd.coords.size())) *= -N;
}

void ReactionFriction::residual(UnitScratch* ws, const UnitState& s, VecRef r) const {
  Scratch& W = static_cast<Scratch&>(*ws);
  std::vector<Kin>& kk = W.kin;
  std::vector<double>& g = W.g;
  for (const Element& rf : list_) {
    const ForceData& fd = forces_.list()[static_cast<size_t>(rf.force)];
    kk.resize(2);
    kk[0] = (*s.kin)[fd.bodies[0]];
    kk[1] = (*s.kin)[fd.bodies[1]];
    const double N = reaction_normal(rf, s.t, kk[0], kk[1], s.lambda.data(), nullptr);
    if (N == 0) continue;
    g.resize(fd.coords.size());
    unit_force(W, fd, s.t, kk, g.data());
    for (size_t k = 0; k < fd.coords.size(); ++k) r[fd.coords[k]] += -1.0 * N * g[k];
  }
}

void ReactionFriction::add_tangent(UnitScratch* ws, const UnitState& s, double c_q, double c_v, double,
                                   SparseMatrix& A) const {
  // −∂f_r/∂q, −∂f_r/∂v at fixed λ, by central differences local to the joint's two bodies.
  if ((c_q == 0 && c_v == 0) || list_.empty()) return;
  Scratch& W = static_cast<Scratch&>(*ws);
  for (const Element& rf : list_) {
    const ForceData& fd = forces_.list()[static_cast<size_t>(rf.force)];
    const int nc = static_cast<int>(fd.coords.size());
    if (!nc) continue;
    const size_t snc = static_cast<size_t>(nc);
    gather_local(fd.coords, s.q.data(), s.v.data(), W.q, W.v);
    W.gp.resize(snc);
    W.gm.resize(snc);
    W.B.resize(snc * snc);
    Eigen::Map<MatX> B(W.B.data(), nc, nc);
    B.setZero();
    for (int pass = 0; pass < 2; ++pass) {
      const double c = pass == 0 ? c_q : c_v;
      if (c == 0) continue;
      detail::central_differences(
          pass == 0 ? W.q.data() : W.v.data(), 0, nc, W.gp, W.gm,
          [&](int, std::vector<double>& out) { local(W, rf, s.t, W.q.data(), W.v.data(), s.lambda.data(), out.data()); },
          [&](int k, const std::vector<double>& fp, const std::vector<double>& fm, double h2) {
            // out holds −f_r, the residual's term: ∂r/∂x = (out(x + h) − out(x − h)) / 2h.
            B.col(k) += c * (Eigen::Map<const VecX>(fp.data(), nc) - Eigen::Map<const VecX>(fm.data(), nc)) / h2;
          });
    }
    rf.tangent_map.scatter_add(A, B);
  }
}

void ReactionFriction::add_multiplier_tangent(UnitScratch* ws, const UnitState& s, SparseMatrix& D) const {
  Scratch& W = static_cast<Scratch&>(*ws);
  for (const Element& rf : list_) {
    const ForceData& fd = forces_.list()[static_cast<size_t>(rf.force)];
    const JointData& jd = joints_.list()[static_cast<size_t>(rf.joint)];
    if (jd.active.empty()) continue;
    const size_t nc = fd.coords.size();
    gather_local(fd.coords, s.q.data(), s.v.data(), W.q, W.v);
    W.g.resize(nc);
    W.dN.resize(jd.active.size());
    forces_.kin(fd, W.q.data(), W.v.data(), W.kin);
    reaction_normal(rf, s.t, W.kin[0], W.kin[1], s.lambda.data(), W.dN.data());
    unit_force(W, fd, s.t, W.kin, W.g.data());
    // r = … − N_r(λ) g: (∂r/∂λ)ᵀ gains −(∂N_r/∂λ) gᵀ on the joint's rows × the element's coordinates.
    const Eigen::Map<const VecX> dNv(W.dN.data(), static_cast<Eigen::Index>(W.dN.size())),
        gv(W.g.data(), static_cast<Eigen::Index>(nc));
    rf.lam_map.scatter_add(D, dNv * gv.transpose(), -1.0);
  }
}

}  // namespace mbdae::units
