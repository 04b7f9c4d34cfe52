// Shafts and their efforts in the implicit formulation (Multibody.h).

#include "Shafts.h"

namespace mbdae::units {

Shafts::Shafts(UnitContext& cx) : cx_(cx) {}

void Shafts::claim(UnitLayout& layout) {
  const int n = static_cast<int>(cx_.model().shafts().size());
  first_ = layout.add_coordinates(n);
  for (int k = 0; k < n; ++k) coord_.push_back(first_ + k);
}

int Shafts::coordinate(const std::string& name) const {
  const int si = cx_.model().shaft_index(name);  // System::problems() refused unknown shafts
  return si < 0 ? -1 : coord_[static_cast<size_t>(si)];
}

void Shafts::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const int c : coord_) tp.add_block(c, 1, c, 1);
}

void Shafts::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  diag_.clear();
  for (const int c : coord_) diag_.push_back(value_index(tangent, c, c));
}

void Shafts::initial_state(VecRef q0, VecRef v0) const {
  for (size_t k = 0; k < coord_.size(); ++k) {
    q0[coord_[k]] = cx_.model().shafts()[k].position;
    v0[coord_[k]] = cx_.model().shafts()[k].rate;
  }
}

void Shafts::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  for (size_t k = 0; k < coord_.size(); ++k) r[coord_[k]] = cx_.model().shafts()[k].inertia * s.a[coord_[k]];
}

void Shafts::forces(UnitScratch*, const UnitState&, VecRef f) const {
  for (const int c : coord_) f[c] = 0.0;  // the efforts: ShaftForces
}

void Shafts::add_tangent(UnitScratch*, const UnitState&, double, double, double c_a, SparseMatrix& A) const {
  for (size_t k = 0; k < coord_.size(); ++k) A.valuePtr()[diag_[k]] += c_a * cx_.model().shafts()[k].inertia;
}

void Shafts::add_mass(UnitScratch*, const UnitState&, SparseMatrix& M) const {
  for (size_t k = 0; k < coord_.size(); ++k) M.valuePtr()[diag_[k]] += cx_.model().shafts()[k].inertia;
}

void Shafts::add_kinetic_energy(const UnitState& s, double& E) const {
  for (size_t k = 0; k < coord_.size(); ++k)
    E += 0.5 * cx_.model().shafts()[k].inertia * s.v[coord_[k]] * s.v[coord_[k]];
}

std::string Shafts::coordinate_label(int i) const {
  const int s = i - first_;
  if (s < 0 || s >= static_cast<int>(coord_.size())) return {};
  const Shaft& sh = cx_.model().shafts()[static_cast<size_t>(s)];
  return "shaft '" + sh.name + "' " + (sh.kind == Shaft::Kind::Rotor ? "angle" : "position");
}

ShaftForces::ShaftForces(UnitContext& cx, const Shafts& shafts) : cx_(cx), shafts_(shafts) {
  for (const ShaftForce& f : cx.model().shaft_forces()) {
    Effort sf;
    sf.src = &f;
    list_.push_back(sf);
  }
}

void ShaftForces::on_layout() {
  auto q0 = [&](const std::string& name) {
    const int si = cx_.model().shaft_index(name);
    return si < 0 ? 0.0 : cx_.model().shafts()[static_cast<size_t>(si)].position;
  };
  for (Effort& sf : list_) {
    const ShaftForce& f = *sf.src;
    sf.ca = shafts_.coordinate(f.shafts[0]);
    if (f.kind != ShaftForce::Kind::SpringDamper) continue;
    sf.cb = shafts_.coordinate(f.shafts[1]);
    sf.free = f.free_value ? *f.free_value : q0(f.shafts[1]) - q0(f.shafts[0]);
    sf.coords.clear();
    if (sf.ca >= 0) sf.coords.push_back(sf.ca);
    if (sf.cb >= 0) sf.coords.push_back(sf.cb);
  }
}

void ShaftForces::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const Effort& sf : list_)
    if (sf.src->kind == ShaftForce::Kind::SpringDamper) tp.add_block(sf.coords, sf.coords);
}

void ShaftForces::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (Effort& sf : list_) sf.tangent_map = BlockMap::make(tangent, sf.coords, sf.coords);
}

void ShaftForces::effort(const Effort& sf, double t, const double* q, const double* v, double& ua, double& ub,
                         double* V) const {
  const ShaftForce& f = *sf.src;
  if (f.kind == ShaftForce::Kind::Load) {
    ua = f.value_of_t ? f.value_of_t(t) : f.value;
    ub = 0;
    return;
  }
  const double qa = sf.ca >= 0 ? q[sf.ca] : 0.0, qb = sf.cb >= 0 ? q[sf.cb] : 0.0;
  const double stretch = qb - qa - sf.free;
  double rate = 0;
  if (v) rate = (sf.cb >= 0 ? v[sf.cb] : 0.0) - (sf.ca >= 0 ? v[sf.ca] : 0.0);
  const double u = f.stiffness * stretch + f.damping * rate;
  ua = u;
  ub = -u;
  if (V) *V += 0.5 * f.stiffness * stretch * stretch;
}

void ShaftForces::add(const UnitState& s, double sign, VecRef r) const {
  for (const Effort& sf : list_) {
    double ua = 0, ub = 0;
    effort(sf, s.t, s.q.data(), s.v.data(), ua, ub, nullptr);
    if (sf.ca >= 0) r[sf.ca] += sign * ua;
    if (sf.cb >= 0) r[sf.cb] += sign * ub;
  }
}

void ShaftForces::add_tangent(UnitScratch*, const UnitState&, double c_q, double c_v, double, SparseMatrix& A) const {
  // A spring-damper's −∂f/∂q, −∂f/∂v = (c_q k + c_v d) [1 −1; −1 1] over its ends that are shafts
  // (a load of t has none).
  for (const Effort& sf : list_) {
    if (sf.coords.empty()) continue;
    const double kk = c_q * sf.src->stiffness + c_v * sf.src->damping;
    Eigen::Matrix2d K;
    K << 1, -1, -1, 1;
    const int nc = static_cast<int>(sf.coords.size());
    sf.tangent_map.scatter_add(A, K.topLeftCorner(nc, nc), kk);
  }
}

void ShaftForces::add_potential_energy(UnitScratch*, const UnitState& s, double& V) const {
  for (const Effort& sf : list_) {
    double ua, ub;
    effort(sf, s.t, s.q.data(), nullptr, ua, ub, &V);
  }
}

double ShaftForces::effort(int force, double t, ConstVecRef q, ConstVecRef v) const {
  double ua = 0, ub = 0;
  effort(list_.at(static_cast<size_t>(force)), t, q.data(), v.data(), ua, ub, nullptr);
  return ua;
}

}  // namespace mbdae::units
