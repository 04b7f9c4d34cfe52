// Couplings in the implicit formulation (Multibody.h): angle coordinates and coupling rows.

#include "Couplings.h"

#include <algorithm>
#include <cmath>

#include "../FiniteDifference.h"

namespace mbdae::units {

CouplingAngles::CouplingAngles(UnitContext& cx) : cx_(cx) {
  of_joint_.assign(cx.cm->joints().size(), -1);
  for (const Coupling& cp : cx.model().couplings())
    for (const std::string& jn : cp.joints) {
      const int ji = cx.cm->joint_index(jn);
      if (ji < 0) continue;  // a shaft (System::problems() refused unknown names)
      if (cx.cm->joints()[static_cast<size_t>(ji)].type != JointType::Revolute || of_joint_[static_cast<size_t>(ji)] >= 0)
        continue;
      of_joint_[static_cast<size_t>(ji)] = static_cast<int>(joint_.size());
      joint_.push_back(ji);
    }
}

void CouplingAngles::initial_state(VecRef q0, VecRef v0) const {
  // 0 at t0, rate (ω_b − ω_a)·axis.
  for (size_t k = 0; k < joint_.size(); ++k) {
    const Joint& j = cx_.model().joints()[static_cast<size_t>(joint_[k])];
    const CompiledModel::Joint& cj = cx_.cm->joints()[static_cast<size_t>(joint_[k])];
    auto omega = [&](BodyIndex b) {
      return b == kGround ? Vec3::Zero().eval() : cx_.model().bodies()[static_cast<size_t>(b)].angular_velocity;
    };
    const int c = first_ + static_cast<int>(k);
    q0[c] = 0.0;
    v0[c] = (omega(cj.b) - omega(cj.a)).dot(j.axis.normalized());
  }
}

std::string CouplingAngles::coordinate_label(int i) const {
  const int k = i - first_;
  if (k < 0 || k >= static_cast<int>(joint_.size())) return {};
  return "joint '" + cx_.cm->joints()[static_cast<size_t>(joint_[static_cast<size_t>(k)])].name +
         "' angle (coupling coordinate)";
}

struct CouplingRows::Scratch final : UnitScratch {
  VecX q, v, grad, fp, fm;
  MatX B, Bv;  // add_tangent(), add_jacobian() (velocity level)
};

CouplingRows::CouplingRows(UnitContext& cx, const CouplingAngles& angles, const Shafts& shafts)
    : cx_(cx), angles_(angles), shafts_(shafts) {
  for (const int ji : angles.joints()) {
    Row u;
    u.label = "joint '" + cx.cm->joints()[static_cast<size_t>(ji)].name + "' (revolute) angle of its couplings";
    u.item = ItemRef::joint(ji);
    rows_.push_back(std::move(u));
  }
  for (size_t ci = 0; ci < cx.model().couplings().size(); ++ci) {
    const Coupling& cp = cx.model().couplings()[ci];
    Row u;
    u.label = std::string(to_string(cp.kind)) + " coupling '" + cp.name + "'";
    u.item = ItemRef::coupling(static_cast<int>(ci));
    coupling_row_.push_back(static_cast<int>(rows_.size()));
    rows_.push_back(std::move(u));
  }
}

void CouplingRows::on_layout() {
  const CompiledModel& cm = *cx_.cm;
  auto geometry = [&](int ji, EquationKind kind) {
    detail::JointGeometry g = cm.joints()[static_cast<size_t>(ji)].at_reference;
    g.rows = {{kind, 0, 0, ""}};
    g.driven = kind == EquationKind::RotDriven;
    return g;
  };
  // Local index of global coordinate c in row u (added if new); a body's coordinates are added
  // together, so they stay contiguous.
  auto local = [](Row& u, int c) {
    for (size_t k = 0; k < u.coords.size(); ++k)
      if (u.coords[k] == c) return static_cast<int>(k);
    u.coords.push_back(c);
    return static_cast<int>(u.coords.size()) - 1;
  };
  auto body_local = [&](Row& u, BodyIndex b) {
    if (b == kGround) return 0;
    const BodyData& bd = cx_.bodies[b];
    const int first = local(u, bd.off);
    for (int k = 1; k < bd.n; ++k) local(u, bd.off + k);
    return first;
  };
  auto marker_term = [&](Row& u, int ji, EquationKind kind, double c) {
    const CompiledModel::Joint& cj = cm.joints()[static_cast<size_t>(ji)];
    Term tm;
    tm.c = c;
    tm.marker = true;
    tm.geo = geometry(ji, kind);
    tm.a = cj.a;
    tm.b = cj.b;
    tm.la = body_local(u, cj.a);
    tm.lb = body_local(u, cj.b);
    return tm;
  };
  for (size_t k = 0; k < angles_.joints().size(); ++k) {
    const int ji = angles_.joints()[k];
    Row& u = rows_[k];
    Term tm = marker_term(u, ji, EquationKind::RotDriven, 1.0);
    tm.phi = local(u, angles_.coordinate(ji));
    u.terms.push_back(std::move(tm));
  }
  for (size_t ci = 0; ci < cx_.model().couplings().size(); ++ci) {
    const Coupling& cp = cx_.model().couplings()[ci];
    Row& u = rows_[static_cast<size_t>(coupling_row_[ci])];
    for (size_t k = 0; k < cp.joints.size(); ++k) {
      const double c = cp.coefficients[k];
      const int ji = cm.joint_index(cp.joints[k]);
      Term tm;
      tm.c = c;
      if (ji < 0) {  // a shaft: c (q − q0)
        const int si = cx_.model().shaft_index(cp.joints[k]);
        tm.phi = local(u, shafts_.coordinate(si));
        tm.q0 = cx_.model().shafts()[static_cast<size_t>(si)].position;
      } else if (cm.joints()[static_cast<size_t>(ji)].type == JointType::Revolute) {
        tm.phi = local(u, angles_.coordinate(ji));
      } else {
        tm = marker_term(u, ji, EquationKind::TransDriven, c);
      }
      u.terms.push_back(std::move(tm));
    }
  }
  for (size_t k = 0; k < rows_.size(); ++k) rows_[k].active = active_row(static_cast<int>(k));
}

void CouplingRows::add_pattern(PatternBuilder& tp, PatternBuilder& jp) const {
  for (const Row& u : rows_) {
    tp.add_block(u.coords, u.coords);
    if (u.active >= 0) jp.add_block({u.active}, u.coords);
  }
}

void CouplingRows::make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) {
  for (Row& u : rows_) {
    u.tangent_map = BlockMap::make(tangent, u.coords, u.coords);
    if (u.active >= 0) u.jac_map = BlockMap::make(jacobian, {u.active}, u.coords);
  }
}

std::unique_ptr<UnitScratch> CouplingRows::make_scratch() const { return std::make_unique<Scratch>(); }

void CouplingRows::eval(const Row& u, const double* q, const double* v, bool with_gamma, Eval& o, double* grad) const {
  o = Eval{};
  if (grad) std::fill(grad, grad + u.coords.size(), 0.0);
  for (const Term& tm : u.terms) {
    if (tm.marker) {
      add_marker_term(u, tm, q, v, with_gamma, o, grad);
      continue;
    }
    o.c += tm.c * (q[tm.phi] - tm.q0);
    if (v) o.cv += tm.c * v[tm.phi];
    if (grad) grad[tm.phi] += tm.c;
  }
}

void CouplingRows::add_marker_term(const Row&, const Term& tm, const double* q, const double* v, bool with_gamma,
                                   Eval& o, double* grad) const {
  detail::JointEval e;
  const Kin ka = cx_.bodies.kin(tm.a, q + tm.la, v ? v + tm.la : nullptr);
  const Kin kb = cx_.bodies.kin(tm.b, q + tm.lb, v ? v + tm.lb : nullptr);
  detail::DriveState ds;
  if (tm.phi >= 0) {
    ds.s = q[tm.phi];
    ds.sd = v ? v[tm.phi] : 0.0;  // s̈ = φ̈ is a coordinate acceleration: not in γ
  }
  detail::eval_joint(tm.geo, ka, kb, with_gamma, ds, e);
  o.c += tm.c * e.c[0];
  if (v) {
    Vec6 ta, tb;
    ta << ka.v, ka.w;
    tb << kb.v, kb.w;
    o.cv += tm.c * (e.Wa.row(0).dot(ta) + e.Wb.row(0).dot(tb) + e.ct[0]);
  }
  if (with_gamma) o.g += tm.c * e.gamma[0];
  if (!grad) return;
  if (tm.a != kGround) {
    const int na = cx_.bodies[tm.a].nr;
    for (int k = 0; k < 3; ++k) grad[tm.la + k] += tm.c * e.Wa(0, k);
    const VecN ga = ka.RG.transpose() * e.Wa.row(0).tail<3>().transpose();
    for (int k = 0; k < na; ++k) grad[tm.la + 3 + k] += tm.c * ga[k];
  }
  if (tm.b != kGround) {
    const int nb = cx_.bodies[tm.b].nr;
    for (int k = 0; k < 3; ++k) grad[tm.lb + k] += tm.c * e.Wb(0, k);
    const VecN gb = kb.RG.transpose() * e.Wb.row(0).tail<3>().transpose();
    for (int k = 0; k < nb; ++k) grad[tm.lb + 3 + k] += tm.c * gb[k];
  }
  if (tm.phi >= 0) {
    // ∂C/∂s of the RotDriven row: e1' · x_b with e1' = −R_a A_a (cos s, sin s, 0).
    const Vec3 e1p = -(ka.R * tm.geo.Aa * Vec3(std::cos(ds.s), std::sin(ds.s), 0.0));
    grad[tm.phi] += tm.c * e1p.dot(kb.R * tm.geo.Ab.col(0));
  }
}

void CouplingRows::gather(const Row& u, ConstVecRef x, VecX& out) {
  grow(out, static_cast<int>(u.coords.size()));
  for (size_t k = 0; k < u.coords.size(); ++k) out[static_cast<int>(k)] = x[u.coords[k]];
}

void CouplingRows::residual(UnitScratch* w, const UnitState& s, VecRef r) const {
  Scratch& W = static_cast<Scratch&>(*w);
  Eval ue;
  for (const Row& u : rows_) {
    if (u.active < 0) continue;
    gather(u, s.q, W.q);
    grow(W.grad, static_cast<int>(u.coords.size()));
    eval(u, W.q.data(), nullptr, false, ue, W.grad.data());
    const double l = s.lambda[u.active];
    for (size_t k = 0; k < u.coords.size(); ++k) r[u.coords[k]] += l * W.grad[static_cast<int>(k)];
  }
}

void CouplingRows::rows(UnitScratch* w, const UnitState& s, RowLevel level, VecRef out) const {
  Scratch& W = static_cast<Scratch&>(*w);
  Eval ue;
  for (const Row& u : rows_) {
    if (u.active < 0) continue;
    gather(u, s.q, W.q);
    if (level != RowLevel::Position) gather(u, s.v, W.v);
    eval(u, W.q.data(), level == RowLevel::Position ? nullptr : W.v.data(), level == RowLevel::Acceleration, ue,
         nullptr);
    out[u.active] = level == RowLevel::Position ? ue.c : level == RowLevel::Velocity ? ue.cv : ue.g;
  }
}

void CouplingRows::add_tangent(UnitScratch* w, const UnitState& s, double c_q, double, double, SparseMatrix& A) const {
  // ∂(λ ∇C)/∂q, local to each row.
  if (c_q == 0) return;
  Scratch& W = static_cast<Scratch&>(*w);
  for (const Row& u : rows_) {
    if (u.active < 0 || s.lambda[u.active] == 0) continue;
    const int nc = static_cast<int>(u.coords.size());
    gather(u, s.q, W.q);
    if (W.B.rows() < nc) W.B.resize(nc, nc);  // only grows; the map reads its top-left nc × nc
    grow(W.fp, nc);
    grow(W.fm, nc);
    Eval ue;
    detail::central_differences(
        W.q, 0, nc, W.fp, W.fm, [&](int, VecX& out) { eval(u, W.q.data(), nullptr, false, ue, out.data()); },
        [&](int k, const VecX& p, const VecX& m, double h2) { W.B.col(k).head(nc) = (p.head(nc) - m.head(nc)) / h2; });
    u.tangent_map.scatter_add(A, W.B, c_q * s.lambda[u.active]);
  }
}

void CouplingRows::add_jacobian(UnitScratch* w, const UnitState& s, RowLevel level, SparseMatrix& J) const {
  Scratch& W = static_cast<Scratch&>(*w);
  Eval ue;
  for (const Row& u : rows_) {
    if (u.active < 0) continue;
    const int nc = static_cast<int>(u.coords.size());
    gather(u, s.q, W.q);
    if (level == RowLevel::Position) {
      grow(W.grad, nc);
      eval(u, W.q.data(), nullptr, false, ue, W.grad.data());
      u.jac_map.scatter_add(J, W.grad.transpose());
      continue;
    }
    gather(u, s.v, W.v);
    if (W.Bv.cols() < nc) W.Bv.resize(1, nc);  // only grows; the map reads its first nc entries
    double cp = 0, cm = 0;
    detail::central_differences(
        W.q, 0, nc, cp, cm,
        [&](int, double& out) {
          eval(u, W.q.data(), W.v.data(), false, ue, nullptr);
          out = ue.cv;
        },
        [&](int k, double p, double m, double h2) { W.Bv(0, k) = (p - m) / h2; });
    u.jac_map.scatter_add(J, W.Bv);
  }
}

}  // namespace mbdae::units
