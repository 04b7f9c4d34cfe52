// Controller states in the implicit formulation (Multibody.h).

#include "Controllers.h"

#include "../FiniteDifference.h"

namespace mbdae::units {

struct Controllers::Scratch final : UnitScratch {
  std::vector<BodyMotion> motion;  // derivative()
  std::vector<double> q, v;        // add_derivatives()
  std::vector<double> tq, tv;      // add_tangent()
  MatX B;
};

Controllers::Controllers(UnitContext& cx) : cx_(cx) {
  for (const CompiledModel::Controller& cc : cx.cm->controllers()) {
    State cd;
    cd.src = cc.src;
    cd.bodies = cc.bodies;
    cd.states = cc.states;
    list_.push_back(std::move(cd));
  }
}

void Controllers::claim(UnitLayout& layout) {
  cx_.controller_first = layout.add_coordinates(static_cast<int>(list_.size()));
  for (size_t k = 0; k < list_.size(); ++k) list_[k].c = cx_.controller_first + static_cast<int>(k);
}

void Controllers::on_layout() {
  for (State& cd : list_) {
    cd.coords.clear();
    cd.sizes.clear();
    for (const BodyIndex bi : cd.bodies) cd.sizes.push_back(cx_.bodies.append_coords(bi, cd.coords));
    cd.n_body_coords = static_cast<int>(cd.coords.size());
    for (const int st : cd.states) cd.coords.push_back(cx_.controller_first + st);
  }
}

void Controllers::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const State& cd : list_) {
    tp.add_block({cd.c}, {cd.c});
    tp.add_block({cd.c}, cd.coords);
  }
}

void Controllers::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (State& cd : list_) cd.tangent_map = BlockMap::make(tangent, {cd.c}, cd.coords);
}

std::unique_ptr<UnitScratch> Controllers::make_scratch() const { return std::make_unique<Scratch>(); }

void Controllers::initial_state(VecRef q0, VecRef v0) const {
  // q = ∫z dt from t0, v = z.
  for (const State& cd : list_) {
    q0[cd.c] = 0.0;
    v0[cd.c] = cd.src->initial;
  }
}

double Controllers::derivative(Scratch& W, const State& cd, double t, const double* qloc, const double* vloc) const {
  std::vector<BodyMotion>& bm = W.motion;  // grows once
  bm.resize(cd.bodies.size());
  int o = 0;
  for (size_t k = 0; k < cd.bodies.size(); ++k) {
    const Kin kk = cx_.bodies.kin(cd.bodies[k], qloc + o, vloc + o);
    bm[k] = {kk.p, kk.R, kk.v, kk.w};
    o += cd.sizes[k];
  }
  const size_t ns = cd.coords.size() - static_cast<size_t>(cd.n_body_coords);
  return cd.src->derivative(t, bm, std::span<const double>(vloc + cd.n_body_coords, ns));
}

void Controllers::add_derivatives(Scratch& W, const UnitState& s, double sign, VecRef r) const {
  for (const State& cd : list_) {
    gather_local(cd.coords, s.q.data(), s.v.data(), W.q, W.v);
    r[cd.c] += sign * derivative(W, cd, s.t, W.q.data(), W.v.data());
  }
}

void Controllers::residual(UnitScratch* w, const UnitState& s, VecRef r) const {
  for (const State& cd : list_) r[cd.c] = s.a[cd.c];  // ż − g
  add_derivatives(static_cast<Scratch&>(*w), s, -1.0, r);
}

void Controllers::forces(UnitScratch* w, const UnitState& s, VecRef f) const {
  for (const State& cd : list_) f[cd.c] = 0.0;
  add_derivatives(static_cast<Scratch&>(*w), s, 1.0, f);
}

void Controllers::add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                              SparseMatrix& A) const {
  // r_c = a_c − g(t, q, v): c_a on the diagonal, −∂g/∂q and −∂g/∂v by central differences over the
  // coordinates g reads.
  Scratch& W = static_cast<Scratch&>(*w);
  for (const State& cd : list_) {
    const int nc = static_cast<int>(cd.coords.size());
    gather_local(cd.coords, s.q.data(), s.v.data(), W.tq, W.tv);
    if (W.B.cols() < nc) W.B.resize(1, nc);  // only grows; the map reads its first nc entries
    W.B.setZero();
    double gp = 0, gm = 0;
    for (int pass = 0; pass < 2; ++pass) {
      const double c = pass == 0 ? c_q : c_v;
      if (c == 0) continue;
      std::vector<double>& x = pass == 0 ? W.tq : W.tv;
      detail::central_differences(
          x, 0, pass == 0 ? cd.n_body_coords : nc, gp, gm,
          [&](int, double& out) { out = derivative(W, cd, s.t, W.tq.data(), W.tv.data()); },
          [&](int k, double p, double m, double h2) { W.B(0, k) -= c * (p - m) / h2; });
    }
    cd.tangent_map.scatter_add(A, W.B);
    if (c_a != 0) A.coeffRef(cd.c, cd.c) += c_a;
  }
}

void Controllers::add_mass(UnitScratch*, const UnitState&, SparseMatrix& M) const {
  for (const State& cd : list_) M.coeffRef(cd.c, cd.c) = 1.0;  // ż = g: "mass" 1
}

std::string Controllers::coordinate_label(int i) const {
  const int z = i - cx_.controller_first;
  if (z < 0 || z >= static_cast<int>(list_.size())) return {};
  return "controller state '" + list_[static_cast<size_t>(z)].src->name +
         "' (its time integral; its rate is the state)";
}

}  // namespace mbdae::units
