// Newton–Euler bodies (Chaney, "Simulating Single Rigid Bodies", 1999, seed 000) with joints at
// acceleration level (seed 004, ch. 6–7; Baumgarte, "Stabilization of constraints and integrals
// of motion in dynamical systems", Comput. Methods Appl. Mech. Eng. 1, 1972). Equations and state
// layout in NewtonEuler.h.

#include <mbdae/formulations/NewtonEuler.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <span>
#include <stdexcept>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/model/math/Rotation.h>

#include "ForceKernels.h"
#include "JointKernels.h"
#include "BlockLdlt.h"

namespace mbdae {

const char* to_string(JointSolveMethod m) {
  switch (m) {
    case JointSolveMethod::EquationSystem: return "equation_system";
    case JointSolveMethod::Schur: return "schur";
  }
  return "?";
}

namespace {

/// A body: the compiled model's (mass, inertia about the COM and its inverse, COM offset, loads).
using BodyNE = CompiledModel::Body;

struct JointNE : detail::JointGeometry {
  std::string name;
  BodyIndex a = kGround, b = kGround;
  int row0 = 0, nr = 0;
  const TimeFunction* motion = nullptr;  // driven joints (points into the compiled model)
  const TimeFunction* speed = nullptr;   // speed-driven joints (points into the compiled model)
  const std::array<TimeFunction, 6>* offsets = nullptr;  // generic joints with offsets (the same)
};

/// A force element; markers relative to the bodies' reference points (as in the implicit
/// formulation), wrenches reduced to the reference points and then moved to the COM.
struct ForceNE : detail::ForceGeometry {
  const ForceElement* src = nullptr;  // points into the compiled model
  std::vector<BodyIndex> bodies;
  std::vector<int> states;  // controller states it reads (indices)
};

/// A controller state: the bodies and states its derivative reads.
struct ControllerNE {
  const ControllerState* src = nullptr;  // points into the compiled model
  std::vector<BodyIndex> bodies;
  std::vector<int> states;
};

using Mat66 = Eigen::Matrix<double, 6, 6>;

Vec4 quat_exp_body(const Vec3& phi) { return math::ep_from_rotvec(phi); }

/// One (joint, side) pair on a body: joint `joint` acts on the body as its body a (side 0) or b.
struct BodyJoint {
  int joint = 0, side = 0;
};

/// Where one dense block of the joint system goes in the block factorization.
struct BlockTarget {
  int joint_r = 0, side_r = 0;  // Schur: block (joint_r, joint_c) += Jr M⁻¹ Jcᵀ on their shared body
  int joint_c = 0, side_c = 0;  // equation system: block (joint_r, its body on side_r) = Jr
  bool diag = false;        // a diagonal block of node `index`
  bool transposed = false;  // the block is stored as (c, r) in the elimination order
  int index = 0;            // node (diag) or off-diagonal block index (BlockLdlt::find)
};

}  // namespace

/// The scratch memory of the evaluations and what the projections reuse of the last derivative()
/// (NewtonEulerSystem::make_workspace()): sized once, so derivative() and the projections do not
/// allocate.
struct NewtonEulerSystem::Workspace::Data {
  detail::BlockLdlt ldl;                 // the joint system's factorization (pattern of Impl::ldl)
  std::vector<detail::FrameKin> kin;
  std::vector<Mat66> JA, JB;     // joint rows × u of body a / b (rows 0 … nr−1 valid)
  std::vector<Mat66> JMA, JMB;   // the same times M⁻¹ of the body (Schur only)
  VecX c, ct, gamma, f, Minvf, rhs, lambda, x, zero, du, tmp, gp;
  std::vector<std::vector<detail::FrameKin>> force_kin;  // per force element
  std::vector<detail::FrameKin> power_rest;            // force_powers()
  std::vector<std::vector<Wrench>> force_out;            // per force element
  std::vector<BodyMotion> motion_ws;                     // user forces, controller states
  std::vector<double> state_ws;                          // values of the states an element reads
  std::vector<double> last_angle;  // run state: each force element's turn count (PairMotion::last_angle)
  VecX ud;                                               // derivative(): u̇ of the bodies (6 n)
  detail::JointEval ev;
  /// The last factor() succeeded: the projections may iterate with its J M⁻¹ Jᵀ.
  bool factored = false;
  /// (t, q) of the last assemble_joints(): JA/JB, c and ∂C/∂t are those of this state.
  double assembled_t = 0;
  VecX assembled_q;
};

struct NewtonEulerSystem::Impl {
  using Data = Workspace::Data;
  std::shared_ptr<const CompiledModel> cm;  // the tables this formulation reads (CompiledModel.h)
  const System& model() const { return cm->system(); }
  /// With joint_elements_by_impulses: the joint_friction and joint_limit elements with
  /// ForceElement::by_impulses set, which forces[i].src then points to (the compiled model's stay
  /// as given).
  std::deque<ForceElement> impulse_elements;
  NewtonEulerOptions opt;
  std::span<const BodyNE> bodies;  // cm's
  std::vector<JointNE> joints;
  int n = 0, m = 0;

  // ---- sparse joint system (pattern fixed at construction) ----
  // Schur: the matrix is J M⁻¹ Jᵀ (scalars = joint rows). Equation system: [M Jᵀ; J 0] with the
  // unknowns (u̇, −λ) (scalars = 6 per body, then the joint rows). perm maps a scalar (original
  // order) to its position in the elimination order.
  std::vector<int> perm;
  std::vector<int> npos;                            // node → position in the elimination order
  std::vector<std::vector<BodyJoint>> body_joints;  // joints on each body
  std::vector<BlockTarget> blocks;                  // Schur products / KKT J blocks
  detail::BlockLdlt ldl;  // analysed pattern: each workspace factorizes its own copy
  std::vector<ForceNE> forces;
  std::vector<std::string> force_names;  // of `forces`, in their order
  std::vector<ControllerNE> controllers;
  size_t max_force_bodies = 0;  // also the controller states' bodies
  size_t max_states = 0;        // most controller states one element or state reads

  bool schur() const { return opt.joint_solve == JointSolveMethod::Schur; }
  bool reusable(const Data& W) const { return schur() && W.factored; }
  bool assembled_at(const Data& W, double t, const VecX& q) const {
    return t == W.assembled_t && q.size() == W.assembled_q.size() && q == W.assembled_q;
  }
  int num_scalars() const { return schur() ? m : 6 * n + m; }
  /// Original scalar index of joint row `row` (KKT: after the 6n body scalars).
  int joint_scalar(int row) const { return schur() ? row : 6 * n + row; }
  /// Scalars of node `node` of the sparse matrix (analyze_pattern): 6 for a body, a joint's rows.
  int node_size(int node) const {
    const bool S = schur();
    return (!S && node < n) ? 6 : joints[static_cast<size_t>(S ? node : node - n)].nr;
  }

  Mat3 rot(BodyIndex i, const VecX& q) const {
    const Vec4 Q = q.segment<4>(7 * i + 3);
    return math::ep_to_matrix(Q / Q.norm());
  }

  const detail::FrameKin& k_of(const Data& W, BodyIndex i) const {
    static const detail::FrameKin ground;
    return i == kGround ? ground : W.kin[static_cast<size_t>(i)];
  }

  /// Pose and twist (world) of every body, one rotation matrix per body.
  void body_kinematics(Data& W, const VecX& q, const VecX* v) const {
    for (int i = 0; i < n; ++i) {
      detail::FrameKin& k = W.kin[static_cast<size_t>(i)];
      k.p = q.segment<3>(7 * i);
      k.R = rot(i, q);
      if (v) {
        k.v = v->segment<3>(6 * i);
        k.w.noalias() = k.R * v->segment<3>(6 * i + 3);
      } else {
        k.v.setZero();
        k.w.setZero();
      }
    }
  }

  /// s(t), ṡ, s̈ of a driven joint (zero otherwise).
  static detail::DriveState drive(const JointNE& jd, double t) {
    return detail::drive_state(jd.motion, jd.offsets, t, jd.speed);
  }

  /// Joint blocks JA/JB, C, ∂C/∂t and γ at (t, q, v) (v may be null: then γ is not formed).
  /// Calls body_kinematics().
  void assemble_joints(Data& W, double t, const VecX& q, const VecX* v) const {
    W.assembled_t = t;
    W.assembled_q = q;
    body_kinematics(W, q, v);
    for (size_t jj = 0; jj < joints.size(); ++jj) {
      const JointNE& jd = joints[jj];
      const detail::FrameKin& ka = k_of(W, jd.a);
      const detail::FrameKin& kb = k_of(W, jd.b);
      detail::eval_joint(jd, ka, kb, v != nullptr, drive(jd, t), W.ev);
      for (int r = 0; r < jd.nr; ++r) {
        W.c[jd.row0 + r] = W.ev.c[static_cast<size_t>(r)];
        W.ct[jd.row0 + r] = W.ev.ct[static_cast<size_t>(r)];
        W.gamma[jd.row0 + r] = W.ev.gamma[static_cast<size_t>(r)];
      }
      // W is with respect to (δp, δφ_world) of the COM; u has w_B: J = [W_p, W_φ R].
      // Rows beyond the joint's rows are zero (the block factorization computes with them).
      if (jd.a != kGround) {
        W.JA[jj].leftCols<3>() = W.ev.Wa.leftCols<3>();
        W.JA[jj].rightCols<3>().noalias() = W.ev.Wa.rightCols<3>() * ka.R;
        W.JA[jj].bottomRows(6 - jd.nr).setZero();
      }
      if (jd.b != kGround) {
        W.JB[jj].leftCols<3>() = W.ev.Wb.leftCols<3>();
        W.JB[jj].rightCols<3>().noalias() = W.ev.Wb.rightCols<3>() * kb.R;
        W.JB[jj].bottomRows(6 - jd.nr).setZero();
      }
    }
  }

  const Mat66& jblock(const Data& W, int joint, int side) const {
    return side == 0 ? W.JA[static_cast<size_t>(joint)] : W.JB[static_cast<size_t>(joint)];
  }

  /// y = J x (rows of all joints).
  void apply_j(const Data& W, const VecX& x, VecX& y) const {
    for (size_t jj = 0; jj < joints.size(); ++jj) {
      const JointNE& jd = joints[jj];
      // Fixed-size products: the rows of JA/JB beyond the joint's rows are zero.
      Vec6 acc = Vec6::Zero();
      if (jd.a != kGround) acc.noalias() += W.JA[jj] * x.segment<6>(6 * jd.a);
      if (jd.b != kGround) acc.noalias() += W.JB[jj] * x.segment<6>(6 * jd.b);
      y.segment(jd.row0, jd.nr) = acc.head(jd.nr);
    }
  }

  /// y += Jᵀ l.
  void add_jt(const Data& W, const VecX& l, VecX& y) const {
    for (size_t jj = 0; jj < joints.size(); ++jj) {
      const JointNE& jd = joints[jj];
      Vec6 lr = Vec6::Zero();
      lr.head(jd.nr) = l.segment(jd.row0, jd.nr);
      if (jd.a != kGround) y.segment<6>(6 * jd.a).noalias() += W.JA[jj].transpose() * lr;
      if (jd.b != kGround) y.segment<6>(6 * jd.b).noalias() += W.JB[jj].transpose() * lr;
    }
  }

  void apply_minv(const VecX& xin, VecX& y) const {
    for (int i = 0; i < n; ++i) {
      y.segment<3>(6 * i) = xin.segment<3>(6 * i) / bodies[static_cast<size_t>(i)].mass;
      y.segment<3>(6 * i + 3).noalias() = bodies[static_cast<size_t>(i)].inertia_com_inv * xin.segment<3>(6 * i + 3);
    }
  }

  /// Pose and twist of body i (ground: identity) without the per-body cache.
  detail::FrameKin frame(BodyIndex i, const VecX& q, const VecX* v) const {
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

  /// Applied force (world) and torque (body axes, about the COM) on body i with rotation R.
  void wrench(BodyIndex i, double t, const Mat3& R, const VecX& v, Vec3& F_W, Vec3& tau_B) const {
    const BodyNE& bd = bodies[static_cast<size_t>(i)];
    const Vec3 wB = v.segment<3>(6 * i + 3);
    F_W = bd.mass * model().gravity - opt.linear_damping * v.segment<3>(6 * i);
    tau_B = -opt.angular_damping * wB;
    for (int li : bd.loads) {
      const Load& l = model().loads()[static_cast<size_t>(li)];
      Vec3 val = l.value_of_t ? l.value_of_t(t) : l.value;
      if (l.kind == Load::Kind::Force) {
        const Vec3 F = (l.frame == Load::Frame::Body) ? Vec3(R * val) : val;
        F_W += F;
        tau_B += (l.point - bd.com).cross(R.transpose() * F);  // r × F in body axes
      } else {
        tau_B += (l.frame == Load::Frame::Body) ? val : Vec3(R.transpose() * val);
      }
    }
  }

  /// Kinematics of the reference points of force element e's bodies (from body_kinematics()).
  void reference_kinematics(Data& W, size_t e) const {
    const ForceNE& fe = forces[e];
    std::vector<detail::FrameKin>& ks = W.force_kin[e];
    for (size_t k = 0; k < fe.bodies.size(); ++k) {
      const BodyIndex bi = fe.bodies[k];
      if (bi == kGround) continue;  // stays identity / zero
      detail::FrameKin& kk = ks[k];
      const detail::FrameKin& kc = W.kin[static_cast<size_t>(bi)];
      const Vec3 rb = kc.R * bodies[static_cast<size_t>(bi)].com;  // COM − reference point
      kk.p = kc.p - rb;
      kk.R = kc.R;
      kk.v = kc.v - kc.w.cross(rb);
      kk.w = kc.w;
    }
  }

  /// Adds the wrenches of the force elements to f (translational: world force; rotational: body
  /// torque about the COM). Needs body_kinematics() with velocities.
  void add_force_elements(Data& W, double t, const VecX& v) const {
    for (size_t e = 0; e < forces.size(); ++e) {
      const ForceNE& fe = forces[e];
      reference_kinematics(W, e);
      detail::force_wrenches(*fe.src, fe, t, W.force_kin[e], W.force_out[e], nullptr, W.motion_ws,
                             states_of(W, fe.states, v), &W.last_angle[e]);
      for (size_t k = 0; k < fe.bodies.size(); ++k) {
        const BodyIndex bi = fe.bodies[k];
        if (bi == kGround) continue;
        const Wrench& w = W.force_out[e][k];
        const detail::FrameKin& kc = W.kin[static_cast<size_t>(bi)];
        const Vec3 rb = kc.R * bodies[static_cast<size_t>(bi)].com;
        // Moment about the COM: τ_C = τ_ref + (p_ref − x_C) × F.
        W.f.segment<3>(6 * bi) += w.force;
        W.f.segment<3>(6 * bi + 3) += kc.R.transpose() * (w.torque - rb.cross(w.force));
      }
    }
  }

  /// The values of controller states `which` from v (NewtonEuler.h: after the bodies' 6 n).
  std::span<const double> states_of(Data& W, const std::vector<int>& which, const VecX& v) const {
    W.state_ws.clear();
    for (int k : which) W.state_ws.push_back(v[6 * n + k]);
    return W.state_ws;
  }
  /// ż of every controller state into zdot (size K) at (t, v); needs body_kinematics() with
  /// velocities.
  void controller_derivatives(Data& W, double t, const VecX& v, double* zdot) const {
    for (size_t k = 0; k < controllers.size(); ++k) {
      const ControllerNE& cn = controllers[k];
      W.motion_ws.resize(cn.bodies.size());
      for (size_t j = 0; j < cn.bodies.size(); ++j) {
        const BodyIndex bi = cn.bodies[j];
        const detail::FrameKin& kc = W.kin[static_cast<size_t>(bi)];
        const Vec3 rb = kc.R * bodies[static_cast<size_t>(bi)].com;  // COM − reference point
        W.motion_ws[j] = {kc.p - rb, kc.R, kc.v - kc.w.cross(rb), kc.w};
      }
      zdot[k] = cn.src->derivative(t, W.motion_ws, states_of(W, cn.states, v));
    }
  }

  /// The elimination order and the pattern of the sparse matrix, once (construction).
  void analyze_pattern();
  /// The node graph of the sparse matrix (analyze_pattern): Schur: joints sharing a body;
  /// equation system: each body to its joints.
  std::vector<std::set<int>> node_graph() const;
  /// Scalar positions, block sizes and the factor's pattern from the elimination order and each
  /// eliminated node's neighbours (analyze_pattern).
  void lay_out(const std::vector<int>& order, const std::vector<std::set<int>>& below_nodes);
  /// Where each Schur product or Jacobian block goes in the factor's pattern (analyze_pattern).
  void place_blocks();
  /// The joints' rows from the compiled model (construction).
  void add_joints(const CompiledModel& cm);
  /// The force elements and controller states from the compiled model (construction).
  void add_forces(const CompiledModel& cm);

  /// Numeric values of the matrix from JA/JB and its factorization; throws ItemError (a
  /// std::runtime_error) naming the first dependent joint row, and pointing at its joint, if it is
  /// singular.
  void factor(Data& W, const char* what) const;
  /// factor(): the blocks of J M⁻¹ Jᵀ (Schur) into W.ldl.
  void fill_schur(Data& W) const;
  /// factor(): the blocks of [M Jᵀ; J 0] into W.ldl.
  void fill_kkt(Data& W) const;

  /// Solves M du − Jᵀ λ = fin, J du = g with the factorization of factor().
  void solve(Data& W, const VecX& fin, const VecX& g, VecX& du_out, VecX& lambda_out) const;

  std::string row_label(int row) const {
    const int j = row_joint(row);
    if (j < 0) return "row " + std::to_string(row);
    const JointNE& jd = joints[static_cast<size_t>(j)];
    return "joint '" + jd.name + "' " + jd.rows[static_cast<size_t>(row - jd.row0)].what;
  }
  /// Index of the joint (in model.joints()) that joint row `row` belongs to; -1 if none.
  int row_joint(int row) const {
    for (size_t j = 0; j < joints.size(); ++j)
      if (row >= joints[j].row0 && row < joints[j].row0 + joints[j].nr) return static_cast<int>(j);
    return -1;
  }
};

void NewtonEulerSystem::Impl::analyze_pattern() {
  const int nj = static_cast<int>(joints.size());
  body_joints.assign(static_cast<size_t>(n), {});
  for (int j = 0; j < nj; ++j) {
    const JointNE& jd = joints[static_cast<size_t>(j)];
    if (jd.nr == 0) continue;  // no equations: no node
    if (jd.a != kGround) body_joints[static_cast<size_t>(jd.a)].push_back({j, 0});
    if (jd.b != kGround) body_joints[static_cast<size_t>(jd.b)].push_back({j, 1});
  }
  // Nodes: Schur: the joints (node j); equation system: the bodies (0 … n−1), then the joints
  // (n + j). Elimination order by minimum degree on the node graph with its fill: a chain or a
  // tree is eliminated from the leaves inwards without fill, so L has O(N) blocks. In the
  // equation system the bodies go first (positive pivots, M), then the joints (their pivot block
  // is then −J M⁻¹ Jᵀ, negative definite for independent joints, with the fill of the Schur
  // complement). An interleaved order (Baraff 1996, a joint after the body below it) would also
  // work for trees, but not for every closed loop: two joints eliminated through the same body
  // can have more rows than that body has freedoms. The neighbours a node has when it is
  // eliminated are the block pattern of its column of L.
  const bool S = schur();
  const int nn = S ? nj : n + nj;
  std::vector<std::set<int>> adj = node_graph();
  std::vector<char> done(static_cast<size_t>(nn), 0);
  for (int v = 0; v < nn; ++v)
    if (node_size(v) == 0) done[static_cast<size_t>(v)] = 1;  // joints without equations
  std::vector<int> order;
  std::vector<std::set<int>> below_nodes;
  int bodies_left = S ? 0 : n;
  auto eligible = [&](int node) { return S || node < n || bodies_left == 0; };
  for (;;) {
    int best = -1;
    size_t best_deg = 0;
    for (int v = 0; v < nn; ++v) {
      if (done[static_cast<size_t>(v)] || !eligible(v)) continue;
      const size_t deg = adj[static_cast<size_t>(v)].size();
      if (best < 0 || deg < best_deg) {
        best = v;
        best_deg = deg;
      }
    }
    if (best < 0) break;
    done[static_cast<size_t>(best)] = 1;
    if (!S && best < n) --bodies_left;
    order.push_back(best);
    // Eliminating `best` connects its remaining neighbours (fill).
    const std::set<int> nb = adj[static_cast<size_t>(best)];
    below_nodes.push_back(nb);
    for (int u : nb) {
      adj[static_cast<size_t>(u)].erase(best);
      for (int w : nb)
        if (w != u) adj[static_cast<size_t>(u)].insert(w);
    }
    adj[static_cast<size_t>(best)].clear();
  }
  lay_out(order, below_nodes);
  place_blocks();
}

std::vector<std::set<int>> NewtonEulerSystem::Impl::node_graph() const {
  const bool S = schur();
  const int nj = static_cast<int>(joints.size());
  const int nn = S ? nj : n + nj;
  auto jnode = [&](int j) { return S ? j : n + j; };
  std::vector<std::set<int>> adj(static_cast<size_t>(nn));
  for (int i = 0; i < n; ++i) {
    const auto& bj = body_joints[static_cast<size_t>(i)];
    for (size_t x1 = 0; x1 < bj.size(); ++x1) {
      if (!S) {
        adj[static_cast<size_t>(i)].insert(jnode(bj[x1].joint));
        adj[static_cast<size_t>(jnode(bj[x1].joint))].insert(i);
      } else {
        for (size_t x2 = 0; x2 < bj.size(); ++x2)
          if (x1 != x2) adj[static_cast<size_t>(bj[x1].joint)].insert(bj[x2].joint);
      }
    }
  }
  return adj;
}

void NewtonEulerSystem::Impl::lay_out(const std::vector<int>& order, const std::vector<std::set<int>>& below_nodes) {
  // Node positions, block sizes and pattern in elimination order; scalar positions (perm).
  const bool S = schur();
  const int nn = S ? static_cast<int>(joints.size()) : n + static_cast<int>(joints.size());
  npos.assign(static_cast<size_t>(nn), -1);
  for (size_t k = 0; k < order.size(); ++k) npos[static_cast<size_t>(order[k])] = static_cast<int>(k);
  std::vector<int> sizes;
  std::vector<std::vector<int>> below(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    sizes.push_back(node_size(order[k]));
    for (int u : below_nodes[k]) below[k].push_back(npos[static_cast<size_t>(u)]);
    std::sort(below[k].begin(), below[k].end());
  }
  ldl.analyze(sizes, below);
  const int ns = num_scalars();
  perm.assign(static_cast<size_t>(ns), 0);
  int pos = 0;
  for (int node : order) {
    const int first = (!S && node < n) ? 6 * node : joint_scalar(joints[static_cast<size_t>(S ? node : node - n)].row0);
    for (int k = 0; k < node_size(node); ++k) perm[static_cast<size_t>(first + k)] = pos++;
  }
}

void NewtonEulerSystem::Impl::place_blocks() {
  const bool S = schur();
  auto jnode = [&](int j) { return S ? j : n + j; };
  // Where each product or Jacobian block goes.
  auto target = [&](int node_r, int node_c, BlockTarget& bt) {
    const int pr = npos[static_cast<size_t>(node_r)], pc = npos[static_cast<size_t>(node_c)];
    if (pr == pc) {
      bt.diag = true;
      bt.index = pr;
    } else {
      bt.transposed = pr < pc;
      bt.index = bt.transposed ? ldl.find(pc, pr) : ldl.find(pr, pc);
      if (bt.index < 0) throw std::logic_error("NewtonEulerSystem: block missing from the joint system's pattern");
    }
  };
  blocks.clear();
  for (int i = 0; i < n; ++i)
    for (const BodyJoint& x1 : body_joints[static_cast<size_t>(i)]) {
      if (S) {
        // Block (j1, j2) of J M⁻¹ Jᵀ gets one product per body the two joints share.
        for (const BodyJoint& x2 : body_joints[static_cast<size_t>(i)]) {
          if (x1.joint > x2.joint) continue;
          BlockTarget bt;
          bt.joint_r = x1.joint;
          bt.side_r = x1.side;
          bt.joint_c = x2.joint;
          bt.side_c = x2.side;
          target(x1.joint, x2.joint, bt);
          blocks.push_back(bt);
        }
      } else {
        // Block (joint, body) of [M Jᵀ; J 0] is the joint's Jacobian on the body.
        BlockTarget bt;
        bt.joint_r = x1.joint;
        bt.side_r = x1.side;
        target(jnode(x1.joint), i, bt);
        blocks.push_back(bt);
      }
    }
}

void NewtonEulerSystem::Impl::fill_schur(Data& W) const {
  for (size_t jj = 0; jj < joints.size(); ++jj) {
    const JointNE& jd = joints[jj];
    for (int side = 0; side < 2; ++side) {
      const BodyIndex bi = side == 0 ? jd.a : jd.b;
      if (bi == kGround) continue;
      const BodyNE& bd = bodies[static_cast<size_t>(bi)];
      const Mat66& Jb = jblock(W, static_cast<int>(jj), side);
      Mat66& JM = side == 0 ? W.JMA[jj] : W.JMB[jj];
      JM.leftCols<3>() = Jb.leftCols<3>() / bd.mass;
      JM.rightCols<3>().noalias() = Jb.rightCols<3>() * bd.inertia_com_inv;  // J_C⁻¹ is symmetric
    }
  }
  // Products at the blocks' fixed sizes (detail::block_capacity; the rows of JA/JB beyond a
  // joint's rows are zero).
  for (const BlockTarget& bt : blocks) {
    const Mat66& JMr = bt.side_r == 0 ? W.JMA[static_cast<size_t>(bt.joint_r)] : W.JMB[static_cast<size_t>(bt.joint_r)];
    const Mat66& Jc = jblock(W, bt.joint_c, bt.side_c);
    Mat66& T = bt.diag ? W.ldl.diag(bt.index) : W.ldl.off(bt.index);
    // Block (r, c) = J_r M⁻¹ J_cᵀ, or stored as (c, r): J_c (J_r M⁻¹)ᵀ.
    const Mat66& A = bt.transposed ? Jc : JMr;
    const Mat66& B = bt.transposed ? JMr : Jc;
    const int na = joints[static_cast<size_t>(bt.transposed ? bt.joint_c : bt.joint_r)].nr;
    const int nb = joints[static_cast<size_t>(bt.transposed ? bt.joint_r : bt.joint_c)].nr;
    detail::with_capacity(na, [&](auto Pa) {
      detail::with_capacity(nb, [&](auto Pb) {
        constexpr int a = decltype(Pa)::value, b = decltype(Pb)::value;
        T.topLeftCorner<a, b>().noalias() += A.topRows<a>() * B.topRows<b>().transpose();
      });
    });
  }
}

void NewtonEulerSystem::Impl::fill_kkt(Data& W) const {
  for (int i = 0; i < n; ++i) {
    const BodyNE& bd = bodies[static_cast<size_t>(i)];
    Mat66& D = W.ldl.diag(npos[static_cast<size_t>(i)]);
    D.topLeftCorner<3, 3>() = bd.mass * Mat3::Identity();
    D.bottomRightCorner<3, 3>() = bd.inertia_com;
  }
  for (const BlockTarget& bt : blocks) {
    const int nr = joints[static_cast<size_t>(bt.joint_r)].nr;
    W.ldl.off(bt.index).topRows(nr) = jblock(W, bt.joint_r, bt.side_r).topRows(nr);
  }
}

void NewtonEulerSystem::Impl::factor(Data& W, const char* what) const {
  const bool S = schur();
  W.factored = false;
  W.ldl.set_zero();
  if (S)
    fill_schur(W);
  else
    fill_kkt(W);
  int bad = W.ldl.factorize();
  const VecX& D = W.ldl.d();
  // Pivot signs: J M⁻¹ Jᵀ is SPD; [M Jᵀ; J 0] in this order has positive pivots on the body
  // scalars and negative ones on the joint scalars. A (near) zero pivot marks a joint row that
  // depends on the rows eliminated before it.
  if (bad < 0) {
    double bmax = 0, jmax = 0;
    const int ns = num_scalars();
    for (int s = 0; s < ns; ++s) {
      const double dv = std::abs(D[perm[static_cast<size_t>(s)]]);
      double& mx = (S || s >= 6 * n) ? jmax : bmax;
      mx = std::max(mx, dv);
    }
    for (int s = 0; s < ns && bad < 0; ++s) {
      const int p = perm[static_cast<size_t>(s)];
      const bool joint = S || s >= 6 * n;
      const double dv = joint && !S ? -D[p] : D[p];
      if (!(dv > 1e-13 * (joint ? jmax : bmax))) bad = p;
    }
  }
  if (bad >= 0) {
    // The scalar at position `bad`; name its joint row if it is one.
    int orig = -1;
    for (size_t s = 0; s < perm.size(); ++s)
      if (perm[s] == bad) orig = static_cast<int>(s);
    const int row = S ? orig : orig - 6 * n;
    std::string where = row >= 0 ? " (dependent row: " + row_label(row) + ")" : "";
    const int joint = row >= 0 ? row_joint(row) : -1;
    throw ItemError(std::string(what) + ": " + (S ? "J M⁻¹ Jᵀ" : "[M −Jᵀ; J 0]") + " of the " + std::to_string(m) +
                        " joint equations is singular (redundant joints?)" + where,
                    joint >= 0 ? ItemRef::joint(joint) : ItemRef{});
  }
  W.factored = true;
}

void NewtonEulerSystem::Impl::solve(Data& W, const VecX& fin, const VecX& g, VecX& du_out,
                                    VecX& lambda_out) const {
  if (schur()) {
    // (J M⁻¹ Jᵀ) λ = g − J M⁻¹ f,  du = M⁻¹ (f + Jᵀ λ).
    apply_minv(fin, W.Minvf);
    apply_j(W, W.Minvf, W.rhs);
    for (int r = 0; r < m; ++r) W.x[perm[static_cast<size_t>(r)]] = g[r] - W.rhs[r];
    W.ldl.solve(W.x);
    for (int r = 0; r < m; ++r) lambda_out[r] = W.x[perm[static_cast<size_t>(r)]];
    W.tmp.setZero();
    add_jt(W, lambda_out, W.tmp);
    apply_minv(W.tmp, du_out);
    du_out += W.Minvf;
  } else {
    // [M Jᵀ; J 0] (du, −λ) = (f, g).
    const int N = 6 * n;
    for (int s = 0; s < N; ++s) W.x[perm[static_cast<size_t>(s)]] = fin[s];
    for (int r = 0; r < m; ++r) W.x[perm[static_cast<size_t>(N + r)]] = g[r];
    W.ldl.solve(W.x);
    for (int s = 0; s < N; ++s) du_out[s] = W.x[perm[static_cast<size_t>(s)]];
    for (int r = 0; r < m; ++r) lambda_out[r] = -W.x[perm[static_cast<size_t>(N + r)]];
  }
}

namespace {
/// What the Newton–Euler formulation does not take, refused by name: 1-D shafts and couplings,
/// and (unless the joint elements go by impulses) friction by the joint's reaction.
void refuse_unsupported(const System& model, const NewtonEulerOptions& options) {
  if (!model.modal_bodies().empty())
    throw ModelError(std::vector<ModelProblem>{
        {"modal body '" + model.modal_bodies().front().name +
             "': modal coordinates are carried by the implicit formulation (MultibodySystem), not by "
             "the Newton-Euler bodies",
         ItemRef::body(model.modal_bodies().front().body)}});
  if (!model.couplings().empty() || !model.shafts().empty() || !model.shaft_forces().empty()) {
    // The Newton-Euler joint rows have no turn-counting angle coordinate for a holonomic coupling,
    // and its states have bodies in space only (no 1-D shafts).
    std::vector<ModelProblem> p;
    for (size_t i = 0; i < model.shafts().size(); ++i)
      p.push_back({"shaft '" + model.shafts()[i].name +
                       "': 1-D shafts are handled by the implicit formulation (MultibodySystem), not by the "
                       "Newton-Euler bodies",
                   ItemRef::shaft(static_cast<int>(i))});
    for (size_t i = 0; i < model.shaft_forces().size(); ++i)
      p.push_back({"shaft force '" + model.shaft_forces()[i].name +
                       "': efforts on 1-D shafts are handled by the implicit formulation (MultibodySystem), not by "
                       "the Newton-Euler bodies",
                   ItemRef::shaft_force(static_cast<int>(i))});
    for (size_t i = 0; i < model.couplings().size(); ++i)
      p.push_back({"coupling '" + model.couplings()[i].name +
                       "': couplings of joint coordinates are handled by the implicit formulation "
                       "(MultibodySystem), not by the Newton-Euler bodies",
                   ItemRef::coupling(static_cast<int>(i))});
    throw ModelError(std::move(p));
  }
  if (!model.cables().empty())
    throw ModelError(std::vector<std::string>{
        "cable '" + model.cables().front().name +
        "': flexible cables are handled by the implicit formulation (MultibodySystem), not by the Newton-Euler "
        "bodies"});
  if (!options.joint_elements_by_impulses) {
    // The explicit path finds λ from the accelerations after the forces: a friction force of the
    // multipliers would make that a nonlinear system. Refused by name (JointFriction.cpp).
    std::vector<ModelProblem> p;
    for (size_t i = 0; i < model.forces().size(); ++i)
      if (model.forces()[i].type == ForceType::JointFriction && model.forces()[i].normal_from_reaction)
        p.push_back({"force '" + model.forces()[i].name +
                         "': joint friction with the joint's reaction as the normal force (normal: reaction) is "
                         "handled by the impulse stepper, not by the explicit Newton-Euler path",
                     ItemRef::force(static_cast<int>(i))});
    if (!p.empty()) throw ModelError(std::move(p));
  }
}
}  // namespace

void NewtonEulerSystem::Impl::add_joints(const CompiledModel& cm) {
  for (const CompiledModel::Joint& cj : cm.joints()) {
    JointNE jd;
    jd.name = cj.name;
    jd.a = cj.a;
    jd.b = cj.b;
    static_cast<detail::JointGeometry&>(jd) = cj.at_com;  // the state's points are the centres of mass
    jd.row0 = m;
    jd.nr = static_cast<int>(jd.rows.size());
    jd.motion = cj.motion;
    jd.speed = cj.speed;
    jd.offsets = cj.offsets;
    m += jd.nr;
    joints.push_back(std::move(jd));
  }
}

void NewtonEulerSystem::Impl::add_forces(const CompiledModel& cm) {
  // Force elements: markers from the reference points' initial poses (as the implicit
  // formulation), workspaces per element (with each element's turn count: run state, not the
  // system's).
  size_t max_bodies = 0;
  for (const CompiledModel::Force& cf : cm.forces()) {
    ForceNE fn;
    fn.src = cf.src;
    if (opt.joint_elements_by_impulses &&
        (cf.src->type == ForceType::JointFriction || cf.src->type == ForceType::JointLimit)) {
      impulse_elements.push_back(*cf.src);
      impulse_elements.back().by_impulses = true;
      fn.src = &impulse_elements.back();
    }
    fn.bodies = cf.bodies;
    fn.states = cf.states;
    static_cast<detail::ForceGeometry&>(fn) = cf.geometry;
    max_bodies = std::max(max_bodies, fn.bodies.size());
    forces.push_back(std::move(fn));
  }
  for (const CompiledModel::Controller& cc : cm.controllers()) {
    ControllerNE cn;
    cn.src = cc.src;
    cn.bodies = cc.bodies;
    cn.states = cc.states;
    max_bodies = std::max(max_bodies, cn.bodies.size());
    max_states = std::max(max_states, cn.states.size());
    controllers.push_back(std::move(cn));
  }
  for (const ForceNE& fn : forces) max_states = std::max(max_states, fn.states.size());
  max_force_bodies = max_bodies;
}

NewtonEulerSystem::NewtonEulerSystem(const System& model, NewtonEulerOptions options)
    : NewtonEulerSystem(compile(model), options) {}

NewtonEulerSystem::NewtonEulerSystem(std::shared_ptr<const CompiledModel> compiled, NewtonEulerOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!compiled) throw std::invalid_argument("NewtonEulerSystem: no compiled model");
  const System& model = compiled->system();
  refuse_unsupported(model, options);
  Impl& I = *impl_;
  I.cm = std::move(compiled);
  const CompiledModel& cm = *I.cm;
  I.opt = options;
  if (options.linear_damping < 0 || options.angular_damping < 0)
    throw std::invalid_argument("NewtonEulerOptions: damping must be >= 0, got linear " +
                                std::to_string(options.linear_damping) + ", angular " +
                                std::to_string(options.angular_damping));
  I.n = static_cast<int>(cm.bodies().size());
  I.bodies = cm.bodies();
  I.add_joints(cm);
  I.add_forces(cm);
  for (const ForceNE& fn : I.forces) I.force_names.push_back(fn.src->name);
  for (const BodyNE& bd : I.bodies)
    for (int li : bd.loads) I.force_names.push_back(I.model().loads()[static_cast<size_t>(li)].name);
  I.analyze_pattern();
}

NewtonEulerSystem::~NewtonEulerSystem() = default;

NewtonEulerSystem::Workspace::Workspace(const NewtonEulerSystem& owner, std::unique_ptr<Data> data)
    : owner_(&owner), data_(std::move(data)) {}
NewtonEulerSystem::Workspace::Workspace(Workspace&&) noexcept = default;
NewtonEulerSystem::Workspace& NewtonEulerSystem::Workspace::operator=(Workspace&&) noexcept = default;
NewtonEulerSystem::Workspace::~Workspace() = default;
const VecX& NewtonEulerSystem::Workspace::multipliers() const { return data_->lambda; }

NewtonEulerSystem::Workspace NewtonEulerSystem::make_workspace() const {
  const Impl& I = *impl_;
  auto W = std::make_unique<Workspace::Data>();
  // Sized once here: derivative() and the projections do not allocate.
  W->ldl = I.ldl;  // the analysed pattern, its values this workspace's
  for (const ForceNE& fn : I.forces) {
    W->force_kin.emplace_back(fn.bodies.size(), detail::FrameKin{});
    W->force_out.emplace_back(fn.bodies.size(), Wrench{});
  }
  W->motion_ws.reserve(I.max_force_bodies);
  W->last_angle.assign(I.forces.size(), 0.0);  // every joint at its drawn zero at the start
  const size_t nj = I.joints.size();
  W->kin.assign(static_cast<size_t>(I.n), detail::FrameKin{});
  W->JA.assign(nj, Mat66::Zero());
  W->JB.assign(nj, Mat66::Zero());
  W->JMA.assign(nj, Mat66::Zero());
  W->JMB.assign(nj, Mat66::Zero());
  for (VecX* w : {&W->c, &W->ct, &W->gamma, &W->rhs, &W->lambda, &W->gp}) w->setZero(I.m);
  for (VecX* w : {&W->f, &W->Minvf, &W->zero, &W->du, &W->tmp, &W->ud}) w->setZero(6 * I.n);
  W->state_ws.reserve(I.max_states);
  W->x.setZero(I.num_scalars());
  return Workspace(*this, std::move(W));
}

NewtonEulerSystem::Workspace::Data& NewtonEulerSystem::data(Workspace& ws) const {
  if (ws.owner_ != this)
    throw std::invalid_argument("NewtonEulerSystem: the workspace was made by another system");
  return *ws.data_;
}

const System& NewtonEulerSystem::model() const { return impl_->model(); }
const std::shared_ptr<const CompiledModel>& NewtonEulerSystem::compiled() const { return impl_->cm; }
const NewtonEulerOptions& NewtonEulerSystem::options() const { return impl_->opt; }
int NewtonEulerSystem::num_bodies() const { return impl_->n; }
int NewtonEulerSystem::num_states() const { return static_cast<int>(impl_->controllers.size()); }
int NewtonEulerSystem::num_joint_rows() const { return impl_->m; }

void NewtonEulerSystem::initial_state(VecX& q, VecX& v) const {
  const Impl& I = *impl_;
  const int K = static_cast<int>(I.controllers.size());
  q.resize(7 * I.n + K);
  v.resize(6 * I.n + K);
  for (int k = 0; k < K; ++k) {  // controller states: q = ∫z dt from t0, v = z
    q[7 * I.n + k] = 0.0;
    v[6 * I.n + k] = I.controllers[static_cast<size_t>(k)].src->initial;
  }
  for (int i = 0; i < I.n; ++i) {
    const RigidBody& rb = I.model().bodies()[static_cast<size_t>(i)];
    const Mat3& R = rb.orientation;
    const Vec3 rc = R * rb.com;
    q.segment<3>(7 * i) = rb.position + rc;
    q.segment<4>(7 * i + 3) = math::matrix_to_ep(R);
    v.segment<3>(6 * i) = rb.velocity + rb.angular_velocity.cross(rc);
    v.segment<3>(6 * i + 3) = R.transpose() * rb.angular_velocity;
  }
}

double NewtonEulerSystem::mass(BodyIndex i) const { return impl_->cm->bodies().at(static_cast<size_t>(i)).mass; }
const Mat3& NewtonEulerSystem::inertia_com(BodyIndex i) const {
  return impl_->cm->bodies().at(static_cast<size_t>(i)).inertia_com;
}
const Mat3& NewtonEulerSystem::inertia_com_inv(BodyIndex i) const {
  return impl_->cm->bodies().at(static_cast<size_t>(i)).inertia_com_inv;
}
const Vec3& NewtonEulerSystem::com_offset(BodyIndex i) const { return impl_->cm->bodies().at(static_cast<size_t>(i)).com; }
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
  impl_->wrench(i, t, impl_->rot(i, q), v, F_W, tau_B);
}

void NewtonEulerSystem::applied_forces(Workspace& ws, double t, const VecX& q, const VecX& v, VecX& f) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  f.resize(6 * I.n);
  I.body_kinematics(W, q, &v);
  for (int i = 0; i < I.n; ++i) {
    Vec3 F, tau;
    I.wrench(i, t, W.kin[static_cast<size_t>(i)].R, v, F, tau);
    W.f.segment<3>(6 * i) = F;
    W.f.segment<3>(6 * i + 3) = tau;
  }
  I.add_force_elements(W, t, v);  // adds to W.f from the kinematics above
  f = W.f;
}

void NewtonEulerSystem::derivative(Workspace& ws, double t, const VecX& q, const VecX& v, VecX& qdot,
                                   VecX& vdot) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  const int K = static_cast<int>(I.controllers.size());
  qdot.resize(7 * I.n + K);
  vdot.resize(6 * I.n + K);
  // Body kinematics once (one rotation matrix per body), then joints and applied forces.
  if (I.m > 0)
    I.assemble_joints(W, t, q, &v);
  else
    I.body_kinematics(W, q, &v);
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    const Vec4 Q = q.segment<4>(7 * i + 3);
    const Vec3 wB = v.segment<3>(6 * i + 3);
    qdot.segment<3>(7 * i) = v.segment<3>(6 * i);
    qdot.segment<4>(7 * i + 3) = math::ep_dot_from_w_B(Q, wB);  // ½ Q ⊗ (0, w_B), linear in Q
    Vec3 F, tau;
    I.wrench(i, t, W.kin[static_cast<size_t>(i)].R, v, F, tau);
    W.f.segment<3>(6 * i) = F;
    W.f.segment<3>(6 * i + 3) = tau - wB.cross(bd.inertia_com * wB);
  }
  I.add_force_elements(W, t, v);
  if (K > 0) {  // controller states: q̇ = z, v̇ = ż
    qdot.tail(K) = v.tail(K);
    I.controller_derivatives(W, t, v, vdot.data() + 6 * I.n);
  }
  if (I.m == 0) {
    I.apply_minv(W.f, vdot);  // writes the bodies' 6 n entries only
    return;
  }
  // γ̃ = γ − 2α Ċ − β² C (Baumgarte 1972), with Ċ = J u + ∂C/∂t.
  I.apply_j(W, v, W.rhs);
  const double a2 = 2 * I.opt.baumgarte_alpha, b2 = I.opt.baumgarte_beta * I.opt.baumgarte_beta;
  for (int r = 0; r < I.m; ++r) W.gamma[r] -= a2 * (W.rhs[r] + W.ct[r]) + b2 * W.c[r];
  I.factor(W, "NewtonEuler");
  I.solve(W, W.f, W.gamma, W.ud, W.lambda);
  vdot.head(6 * I.n) = W.ud;
}

const VecX& NewtonEulerSystem::last_multipliers(const Workspace& ws) const { return ws.multipliers(); }

void NewtonEulerSystem::joint_violation(Workspace& ws, double t, const VecX& q, VecX& c) const {
  Impl::Data& W = data(ws);
  impl_->assemble_joints(W, t, q, nullptr);
  c = W.c;
}

void NewtonEulerSystem::joint_velocity_violation(Workspace& ws, double t, const VecX& q, const VecX& v,
                                                 VecX& cd) const {
  Impl::Data& W = data(ws);
  impl_->assemble_joints(W, t, q, nullptr);
  cd.resize(impl_->m);
  impl_->apply_j(W, v, cd);
  cd += W.ct;
}

void NewtonEulerSystem::joint_violation(Workspace& ws, const VecX& q, VecX& c) const {
  joint_violation(ws, 0.0, q, c);
}

void NewtonEulerSystem::joint_velocity_violation(Workspace& ws, const VecX& q, const VecX& v, VecX& cd) const {
  joint_velocity_violation(ws, 0.0, q, v, cd);
}

void NewtonEulerSystem::joint_rows_world(int joint, const VecX& q, const VecX& v,
                                         JointRowsWorld& out) const {
  joint_rows_world(0.0, joint, q, v, out);
}

void NewtonEulerSystem::joint_rows_world(double t, int joint, const VecX& q, const VecX& v,
                                         JointRowsWorld& out) const {
  const Impl& I = *impl_;
  detail::JointEval ev{};  // fixed size, on the stack (zeroed: rows beyond nr are copied out)
  const JointNE& jd = I.joints.at(static_cast<size_t>(joint));
  const detail::FrameKin ka = I.frame(jd.a, q, &v), kb = I.frame(jd.b, q, &v);
  detail::eval_joint(jd, ka, kb, true, Impl::drive(jd, t), ev);
  out.a = jd.a;
  out.b = jd.b;
  out.nr = ev.nr;
  for (int r = 0; r < out.nr; ++r) {
    out.c[r] = ev.c[static_cast<size_t>(r)];
    out.gamma[r] = ev.gamma[static_cast<size_t>(r)];
  }
  out.Wa = ev.Wa;
  out.Wb = ev.Wb;
}

std::string NewtonEulerSystem::joint_row_label(int row) const { return impl_->row_label(row); }

void NewtonEulerSystem::joint_element_rows(Workspace& ws, const VecX& q, const VecX& v,
                                           std::vector<JointElementRows>& out) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  out.clear();
  if (!I.opt.joint_elements_by_impulses) return;
  I.body_kinematics(W, q, &v);
  for (size_t e = 0; e < I.forces.size(); ++e) {
    const ForceNE& fe = I.forces[e];
    if (!fe.src->by_impulses) continue;
    I.reference_kinematics(W, e);
    const detail::FrameKin& ka = W.force_kin[e][0];
    const detail::FrameKin& kb = W.force_kin[e][1];
    const Vec3 ra = ka.R * fe.xa, rb = kb.R * fe.xb;
    const Vec3 d = kb.p + rb - ka.p - ra;
    const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
    const Mat3 FA = ka.R * fe.Aa;
    const Vec3 ax = FA.col(2), xb = kb.R * fe.Ab.col(0);
    JointElementRows r;
    r.force = static_cast<int>(e);
    r.a = fe.bodies[0];
    r.b = fe.bodies[1];
    // The angle as the force laws count it (model/src/forces/Forces.h, joint_coordinates()).
    const double wrapped = std::atan2(xb.dot(FA.col(1)), xb.dot(FA.col(0)));
    double& last = W.last_angle[e];
    r.angle = last + std::remainder(wrapped - last, 2 * M_PI);
    last = r.angle;
    r.rate = (kb.w - ka.w).dot(ax);
    r.displacement = ax.dot(d);
    r.speed = ax.dot(dd) + ka.w.cross(ax).dot(d);
    r.axis = ax;
    // Rows over the COM twists: b's marker point is p_b = x_Cb + r_Cb, and a's force acts there too.
    const Vec3 xCa = r.a == kGround ? Vec3::Zero() : Vec3(W.kin[static_cast<size_t>(r.a)].p);
    const Vec3 xCb = r.b == kGround ? Vec3::Zero() : Vec3(W.kin[static_cast<size_t>(r.b)].p);
    const Vec3 pb = kb.p + rb;
    r.Wa.setZero();
    r.Wb.setZero();
    r.Wa.block<1, 3>(0, 3) = -ax.transpose();
    r.Wb.block<1, 3>(0, 3) = ax.transpose();
    r.Wa.block<1, 3>(1, 0) = -ax.transpose();
    r.Wa.block<1, 3>(1, 3) = -(pb - xCa).cross(ax).transpose();
    r.Wb.block<1, 3>(1, 0) = ax.transpose();
    r.Wb.block<1, 3>(1, 3) = (pb - xCb).cross(ax).transpose();
    out.push_back(r);
  }
}

double NewtonEulerSystem::project_positions(Workspace& ws, VecX& q, double tol, int max_iter) const {
  return project_positions(ws, 0.0, q, tol, max_iter);
}

double NewtonEulerSystem::project_velocities(Workspace& ws, const VecX& q, VecX& v) const {
  return project_velocities(ws, 0.0, q, v);
}

double NewtonEulerSystem::project_positions(Workspace& ws, double t, VecX& q, double tol, int max_iter) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  if (I.m == 0) return 0;
  // Schur method after derivative(): the factorization of J M⁻¹ Jᵀ at the last stage of the step
  // serves as the iteration matrix (simplified Gauss–Newton; the correction direction M⁻¹Jᵀ is
  // always the current J's). If an iteration does not reduce ‖C‖∞ to a quarter, J M⁻¹ Jᵀ is
  // factorized at the current q from then on (Gauss–Newton).
  bool newton = !I.reusable(W);
  double err = 0, prev = 0;
  for (int it = 0; it <= max_iter; ++it) {
    I.assemble_joints(W, t, q, nullptr);
    err = W.c.cwiseAbs().maxCoeff();
    if (err <= tol || it == max_iter) break;
    if (!newton && it > 0 && err > 0.25 * prev) newton = true;
    prev = err;
    // Δu = −M⁻¹Jᵀ(JM⁻¹Jᵀ)⁻¹C: M Δu − Jᵀλ = 0, J Δu = −C.
    if (newton) I.factor(W, "position projection");
    W.gp = -W.c;
    I.solve(W, W.zero, W.gp, W.du, W.lambda);
    for (int i = 0; i < I.n; ++i) {
      q.segment<3>(7 * i) += W.du.segment<3>(6 * i);
      const Vec4 Q = q.segment<4>(7 * i + 3);
      // Body-axes rotation increment: R ← R exp(δφ_B~), i.e. Q ← Q ⊗ exp(δφ_B).
      q.segment<4>(7 * i + 3) = math::ep_multiply(Q, quat_exp_body(W.du.segment<3>(6 * i + 3)));
    }
  }
  return err;
}

double NewtonEulerSystem::project_velocities(Workspace& ws, double t, const VecX& q, VecX& v) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  if (I.m == 0) return 0;
  // After project_positions() the joints are usually assembled at this state already.
  if (!I.assembled_at(W, t, q)) I.assemble_joints(W, t, q, nullptr);
  // Δu = −M⁻¹Jᵀ(JM⁻¹Jᵀ)⁻¹ Ċ, Ċ = J u + ∂C/∂t: M Δu − Jᵀλ = 0, J Δu = −Ċ. With a factorization
  // from a nearby state (see project_positions()) the correction is repeated until ‖Ċ‖∞ is at
  // round-off (1e-14 (1 + ‖u‖∞)): the multipliers then solve the same equations as with a fresh
  // factorization, so the result is the same M-orthogonal projection.
  auto residual = [&] {
    I.apply_j(W, v, W.rhs);
    W.rhs += W.ct;
    return W.rhs.cwiseAbs().maxCoeff();
  };
  double err = residual();
  if (I.reusable(W)) {
    const double floor = 1e-14 * (1 + v.cwiseAbs().maxCoeff());
    for (int it = 0; it < 8 && err > floor; ++it) {
      W.gp = -W.rhs;
      I.solve(W, W.zero, W.gp, W.du, W.lambda);
      v.head(6 * I.n) += W.du;
      const double prev = err;
      err = residual();
      if (err > 0.25 * prev) break;  // slow: finish with a fresh factorization
    }
    if (err <= floor) return err;
  }
  I.factor(W, "velocity projection");
  W.gp = -W.rhs;
  I.solve(W, W.zero, W.gp, W.du, W.lambda);
  v.head(6 * I.n) += W.du;
  return residual();
}

double NewtonEulerSystem::energy(Workspace& ws, const VecX& q, const VecX& v) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  double E = 0;
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    const Vec3 vc = v.segment<3>(6 * i), wB = v.segment<3>(6 * i + 3);
    E += 0.5 * bd.mass * vc.squaredNorm() + 0.5 * wB.dot(bd.inertia_com * wB) -
         bd.mass * I.model().gravity.dot(q.segment<3>(7 * i));
  }
  // Potentials of the spring-dampers (user forces have none).
  if (!I.forces.empty()) {
    I.body_kinematics(W, q, &v);
    for (size_t e = 0; e < I.forces.size(); ++e) {
      const ForceNE& fe = I.forces[e];
      if (!force_type_info(fe.src->type).pairwise || !fe.states.empty()) continue;  // motors: no potential
      I.reference_kinematics(W, e);
      detail::force_wrenches(*fe.src, fe, 0.0, W.force_kin[e], W.force_out[e], &E, W.motion_ws, {}, &W.last_angle[e]);
    }
  }
  return E;
}

const std::vector<std::string>& NewtonEulerSystem::force_names() const { return impl_->force_names; }

void NewtonEulerSystem::force_powers(Workspace& ws, double t, const VecX& q, const VecX& v, ForcePowers& p) const {
  const Impl& I = *impl_;
  Impl::Data& W = data(ws);
  const size_t n = I.forces.size();
  p.total.assign(n, 0.0);
  p.elastic.assign(n, 0.0);
  p.potential.assign(n, 0.0);
  if (I.force_names.empty()) return;
  I.body_kinematics(W, q, &v);
  for (size_t e = 0; e < n; ++e) {
    const ForceNE& fe = I.forces[e];
    I.reference_kinematics(W, e);
    detail::force_power(*fe.src, fe, t, W.force_kin[e], W.force_out[e], W.power_rest, W.motion_ws,
                        I.states_of(W, fe.states, v), &W.last_angle[e], p.total[e], p.elastic[e], p.potential[e]);
  }
  // Then the loads on the bodies (no potential), in the order of force_names().
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    const detail::FrameKin& k = W.kin[static_cast<size_t>(i)];  // at the COM
    for (int li : bd.loads) {
      const Load& l = I.model().loads()[static_cast<size_t>(li)];
      p.total.push_back(detail::load_power(l, t, k.R, k.v, k.w, l.point - bd.com));
      p.elastic.push_back(0.0);
      p.potential.push_back(0.0);
    }
  }
}

Vec3 NewtonEulerSystem::linear_momentum(const VecX& v) const {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < impl_->n; ++i) p += impl_->bodies[static_cast<size_t>(i)].mass * v.segment<3>(6 * i);
  return p;
}

Vec3 NewtonEulerSystem::angular_momentum(const VecX& q, const VecX& v) const {
  const Impl& I = *impl_;
  Vec3 L = Vec3::Zero();
  for (int i = 0; i < I.n; ++i) {
    const BodyNE& bd = I.bodies[static_cast<size_t>(i)];
    L += I.rot(i, q) * (bd.inertia_com * v.segment<3>(6 * i + 3)) +
         q.segment<3>(7 * i).cross(bd.mass * v.segment<3>(6 * i));
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
