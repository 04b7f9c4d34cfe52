// Force elements in the implicit formulation: their generalised forces and tangents (Multibody.h).

#include "ForceElements.h"

#include "../FiniteDifference.h"

namespace mbdae::units {

ForceElements::ForceElements(UnitContext& cx) : cx_(cx) {
  // Each element's turn count is run state, in the workspaces (ForceScratch::last_angle).
  for (const CompiledModel::Force& cf : cx.cm->forces()) {
    ForceData fd;
    fd.index = forces_.size();
    fd.src = cf.src;
    fd.bodies = cf.bodies;
    fd.states = cf.states;
    static_cast<detail::ForceGeometry&>(fd) = cf.geometry;
    forces_.push_back(std::move(fd));
  }
}

std::unique_ptr<UnitScratch> ForceElements::make_scratch() const {
  auto W = std::make_unique<ForceScratch>();
  W->last_angle.assign(forces_.size(), 0.0);  // every joint at its drawn zero at the start
  return W;
}

void ForceElements::on_layout() {
  const int n_ctrl0 = cx_.controller_first;
  for (ForceData& fd : forces_) {
    fd.coords.clear();
    fd.sizes.clear();
    for (const BodyIndex bi : fd.bodies) fd.sizes.push_back(cx_.bodies.append_coords(bi, fd.coords));
    fd.n_body_coords = static_cast<int>(fd.coords.size());
    for (const int st : fd.states) fd.coords.push_back(n_ctrl0 + st);
  }
}

void ForceElements::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const ForceData& fd : forces_) tp.add_block(fd.coords, fd.coords);
}

void ForceElements::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (ForceData& fd : forces_) fd.tangent_map = BlockMap::make(tangent, fd.coords, fd.coords);
}

void ForceElements::wrenches(ForceScratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                             std::vector<Wrench>& out, double* V, const double* states) const {
  const size_t ns = fd.coords.size() - static_cast<size_t>(fd.n_body_coords);
  detail::force_wrenches(*fd.src, fd, t, ks, out, V, W.user_motion, std::span<const double>(states, states ? ns : 0),
                         &W.last_angle[fd.index]);
}

const double* ForceElements::element_states(ForceScratch& W, const ForceData& fd, const double* v) const {
  std::vector<double>& x = W.elem_states;  // grows once
  x.clear();
  for (size_t k = static_cast<size_t>(fd.n_body_coords); k < fd.coords.size(); ++k) x.push_back(v[fd.coords[k]]);
  return x.data();
}

void ForceElements::kin(const ForceData& fd, const double* qloc, const double* vloc, std::vector<Kin>& ks) const {
  ks.resize(fd.bodies.size());
  int o = 0;
  for (size_t k = 0; k < fd.bodies.size(); ++k) {
    ks[k] = cx_.bodies.kin(fd.bodies[k], qloc + o, vloc ? vloc + o : nullptr);
    o += fd.sizes[k];
  }
}

void ForceElements::generalized(ForceScratch& W, const ForceData& fd, double t, const double* qloc,
                                const double* vloc, double* out) const {
  std::vector<Kin>& ks = W.gen_kin;
  kin(fd, qloc, vloc, ks);
  generalized_kin(W, fd, t, ks, vloc ? vloc + fd.n_body_coords : nullptr, out);
}

void ForceElements::generalized_from_wrenches(const ForceData& fd, const std::vector<Kin>& ks,
                                              const std::vector<Wrench>& w, double* out) {
  Eigen::Map<VecX> g(out, static_cast<int>(fd.coords.size()));
  g.setZero();
  int o = 0;
  for (size_t k = 0; k < fd.bodies.size(); ++k) {
    const int nb = fd.sizes[k];
    if (nb) {
      g.segment<3>(o) += w[k].force;
      g.segment(o + 3, nb - 3) += ks[k].RG.transpose() * w[k].torque;
    }
    o += nb;
  }
}

void ForceElements::generalized_kin(ForceScratch& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                                    const double* states, double* out) const {
  std::vector<Wrench>& w = W.gen_wrench;
  wrenches(W, fd, t, ks, w, nullptr, states);
  generalized_from_wrenches(fd, ks, w, out);
}

void ForceElements::residual(UnitScratch* ws, const UnitState& s, VecRef r) const {
  // From the kinematics evaluated once for every body: no kinematics per element.
  ForceScratch& W = static_cast<ForceScratch&>(*ws);
  std::vector<Kin>& kk = W.elem_kin;  // grows once
  std::vector<Wrench>& w = W.elem_wrench;
  for (const ForceData& fd : forces_) {
    if (fd.coords.empty()) continue;
    kk.resize(fd.bodies.size());
    for (size_t k = 0; k < fd.bodies.size(); ++k) kk[k] = (*s.kin)[fd.bodies[k]];
    wrenches(W, fd, s.t, kk, w, nullptr, element_states(W, fd, s.v.data()));
    int o = 0;
    for (size_t k = 0; k < fd.bodies.size(); ++k) {
      const int nb = fd.sizes[k];
      if (nb) {  // a body's coordinates are contiguous (append_coords)
        const int g = fd.coords[static_cast<size_t>(o)];
        r.segment<3>(g) += -1.0 * w[k].force;
        r.segment(g + 3, nb - 3) += -1.0 * (kk[k].RG.transpose() * w[k].torque);
      }
      o += nb;
    }
  }
}

void ForceElements::forces(UnitScratch* ws, const UnitState& s, VecRef f) const {
  ForceScratch& W = static_cast<ForceScratch&>(*ws);
  std::vector<double>&ql = W.elem_q, &vl = W.elem_v, &g = W.elem_g;  // grow once
  for (const ForceData& fd : forces_) {
    if (fd.coords.empty()) continue;
    gather_local(fd.coords, s.q.data(), s.v.data(), ql, vl);
    g.resize(fd.coords.size());
    generalized(W, fd, s.t, ql.data(), vl.data(), g.data());
    for (size_t k = 0; k < fd.coords.size(); ++k) f[fd.coords[k]] += 1.0 * g[k];
  }
}

void ForceElements::user_force_tangent(ForceScratch& Ws, const ForceData& fd, double t, VecX& ql, const VecX& vl,
                                       double c_q, double c_v, MatX& B) const {
  // f = Tᵀ W with T = blockdiag([I 0; 0 R G]) maps the wrenches W to the coordinates, so
  //   ∂f/∂q = Tᵀ (∂W/∂x T + ∂W/∂ξ ∂ξ/∂q) + ∂(Tᵀ)/∂q W,   ∂f/∂v = Tᵀ ∂W/∂ξ T;
  // the two kinematic terms (no user call) by central differences.
  const ForceElement& f = *fd.src;
  const int nc = static_cast<int>(fd.coords.size()), N = 6 * static_cast<int>(fd.bodies.size());
  std::vector<Kin> ks;
  kin(fd, ql.data(), vl.data(), ks);
  std::vector<Wrench> W;
  wrenches(Ws, fd, t, ks, W, nullptr);
  std::vector<BodyMotion> bm(ks.size());
  for (size_t k = 0; k < ks.size(); ++k) bm[k] = {ks[k].p, ks[k].R, ks[k].v, ks[k].w};
  MatX dWdx = MatX::Zero(N, N), dWdxi = MatX::Zero(N, N);
  f.user_jacobian(t, bm, dWdx, dWdxi);
  auto T_of = [&](const std::vector<Kin>& kk) {
    MatX T = MatX::Zero(N, nc);
    int o = 0;
    for (size_t k = 0; k < kk.size(); ++k) {
      const int nb = fd.sizes[k];
      T.block(6 * static_cast<int>(k), o, 3, 3).setIdentity();
      T.block(6 * static_cast<int>(k) + 3, o + 3, 3, nb - 3) = kk[k].RG;
      o += nb;
    }
    return T;
  };
  const MatX T = T_of(ks);
  MatX Xq(N, nc), Gq(nc, nc);  // ∂ξ/∂q and ∂(Tᵀ)/∂q W
  VecX Wv(N);
  for (size_t k = 0; k < W.size(); ++k) Wv.segment<6>(6 * static_cast<int>(k)) << W[k].force, W[k].torque;
  auto xi_and_gen = [&](VecX& xi, VecX& gen) {
    std::vector<Kin> kk;
    kin(fd, ql.data(), vl.data(), kk);
    xi.resize(N);
    for (size_t k = 0; k < kk.size(); ++k) xi.segment<6>(6 * static_cast<int>(k)) << kk[k].v, kk[k].w;
    gen = T_of(kk).transpose() * Wv;
  };
  struct XiGen {
    VecX xi, gen;
  } p, m;
  detail::central_differences(
      ql, 0, nc, p, m, [&](int, XiGen& o) { xi_and_gen(o.xi, o.gen); },
      [&](int k, const XiGen& fp, const XiGen& fm, double h2) {
        Xq.col(k) = (fp.xi - fm.xi) / h2;
        Gq.col(k) = (fp.gen - fm.gen) / h2;
      });
  B = -(c_q * (T.transpose() * (dWdx * T + dWdxi * Xq) + Gq) + c_v * (T.transpose() * dWdxi * T));
}

void ForceElements::difference_tangent(ForceScratch& W, const ForceData& fd, const UnitState& s, double c_q,
                                       double c_v) const {
  // Workspace arrays that only grow: no allocation in the step loop.
  std::vector<double>&qbuf = W.tan_q, &vbuf = W.tan_v, &gpbuf = W.tan_gp, &gmbuf = W.tan_gm, &Bbuf = W.tan_B;
  std::vector<Kin>&ks0 = W.tan_kin0, &ks = W.tan_kin;
  const int nc = static_cast<int>(fd.coords.size());
  const size_t snc = static_cast<size_t>(nc);
  gather_local(fd.coords, s.q.data(), s.v.data(), qbuf, vbuf);
  gpbuf.resize(snc);
  gmbuf.resize(snc);
  Bbuf.resize(snc * snc);
  Eigen::Map<MatX> B(Bbuf.data(), nc, nc);
  Eigen::Map<const VecX> gp(gpbuf.data(), nc), gm(gmbuf.data(), nc);
  B.setZero();
  // A coordinate moves one body: only that body's kinematics are recomputed.
  kin(fd, qbuf.data(), vbuf.data(), ks0);
  ks = ks0;
  auto column = [&](double c) {
    return [&, c](int k, const std::vector<double>&, const std::vector<double>&, double h2) {
      B.col(k) -= c * (gp - gm) / h2;
    };
  };
  for (int pass = 0; pass < 2; ++pass) {
    const double c = pass == 0 ? c_q : c_v;
    if (c == 0) continue;
    double* x = pass == 0 ? qbuf.data() : vbuf.data();
    int o = 0;
    for (size_t j = 0; j < fd.bodies.size(); ++j) {
      const int nb = fd.sizes[j];
      detail::central_differences(
          x, o, o + nb, gpbuf, gmbuf,
          [&](int, std::vector<double>& out) {
            ks[j] = cx_.bodies.kin(fd.bodies[j], qbuf.data() + o, vbuf.data() + o);
            generalized_kin(W, fd, s.t, ks, vbuf.data() + fd.n_body_coords, out.data());
          },
          column(c));
      ks[j] = ks0[j];
      o += nb;
    }
    // The controller states it reads: v only (their q, ∫z, is read by nothing).
    if (pass == 1)
      detail::central_differences(
          x, fd.n_body_coords, nc, gpbuf, gmbuf,
          [&](int, std::vector<double>& out) {
            generalized_kin(W, fd, s.t, ks, vbuf.data() + fd.n_body_coords, out.data());
          },
          column(c));
  }
}

void ForceElements::add_tangent(UnitScratch* ws, const UnitState& s, double c_q, double c_v, double,
                                SparseMatrix& A) const {
  // −∂f/∂q, −∂f/∂v by central differences local to the element's bodies.
  if (c_q == 0 && c_v == 0) return;
  ForceScratch& W = static_cast<ForceScratch&>(*ws);
  for (const ForceData& fd : forces_) {
    const int nc = static_cast<int>(fd.coords.size());
    if (!nc) continue;
    if (!force_type_info(fd.src->type).pairwise && fd.src->user_jacobian && !fd.src->user_of_states) {
      // The user-Jacobian branch allocates: it calls user code with Eigen matrices of its own.
      VecX ql(nc), vl(nc);
      for (int k = 0; k < nc; ++k) {
        ql[k] = s.q[fd.coords[static_cast<size_t>(k)]];
        vl[k] = s.v[fd.coords[static_cast<size_t>(k)]];
      }
      MatX B = MatX::Zero(nc, nc);
      user_force_tangent(W, fd, s.t, ql, vl, c_q, c_v, B);
      fd.tangent_map.scatter_add(A, B);
      continue;
    }
    difference_tangent(W, fd, s, c_q, c_v);
    fd.tangent_map.scatter_add(A, Eigen::Map<MatX>(W.tan_B.data(), nc, nc));
  }
}

void ForceElements::add_potential_energy(UnitScratch* ws, const UnitState& s, double& V) const {
  ForceScratch& W = static_cast<ForceScratch&>(*ws);
  std::vector<Kin>& ks = W.pot_kin;  // grows once
  std::vector<Wrench>& w = W.pot_wrench;
  for (const ForceData& fd : forces_) {
    if (!force_type_info(fd.src->type).pairwise || fd.n_body_coords < static_cast<int>(fd.coords.size())) continue;
    ks.resize(fd.bodies.size());
    for (size_t k = 0; k < fd.bodies.size(); ++k) ks[k] = cx_.bodies.kin_state(fd.bodies[k], s.q.data(), nullptr);
    wrenches(W, fd, s.t, ks, w, &V);
  }
}

void ForceElements::powers(UnitScratch* ws, const UnitState& s, ForcePowers& out) const {
  ForceScratch& W = static_cast<ForceScratch&>(*ws);
  const size_t n = forces_.size();
  out.total.assign(n, 0.0);
  out.elastic.assign(n, 0.0);
  out.potential.assign(n, 0.0);
  std::vector<Kin>& ks = W.pow_kin;  // grows once
  for (size_t e = 0; e < n; ++e) {
    const ForceData& fd = forces_[e];
    if (fd.coords.empty()) continue;  // between fixed bodies: no motion, no power
    ks.resize(fd.bodies.size());
    for (size_t k = 0; k < fd.bodies.size(); ++k) ks[k] = cx_.bodies.kin_state(fd.bodies[k], s.q.data(), s.v.data());
    const size_t ns = fd.coords.size() - static_cast<size_t>(fd.n_body_coords);
    const double* states = element_states(W, fd, s.v.data());
    detail::force_power(*fd.src, fd, s.t, ks, W.pow_wrench, W.pow_rest, W.user_motion,
                        std::span<const double>(states, ns), &W.last_angle[fd.index], out.total[e], out.elastic[e],
                        out.potential[e]);
  }
}

}  // namespace mbdae::units
