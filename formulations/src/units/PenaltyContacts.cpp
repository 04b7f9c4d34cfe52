// Penalty contacts in the implicit formulation (Multibody.h). Sources: Hunt & Crossley (J. Appl.
// Mech. 42, 1975) and the damping factor of Flores, Machado, Silva & Martins (Multibody Syst. Dyn.
// 25, 2011); see docs/joints_forces_analyses.md.

#include "PenaltyContacts.h"

#include <algorithm>
#include <cmath>

#include <mbdae/contact/ContactPairs.h>

#include "../FiniteDifference.h"

namespace mbdae::units {

struct PenaltyContacts::Scratch final : UnitScratch {
  std::vector<int> pairs;
  GridBroadPhase grid;
  std::vector<Vec3> centre, finite_centre;
  std::vector<std::pair<int, int>> cand;
  std::vector<Mat3> rot;
};

PenaltyContacts::PenaltyContacts(UnitContext& cx) : cx_(cx) {
  const CompiledModel& cm = *cx.cm;
  const auto& cs = cx.model().contacts();
  std::vector<ModelProblem> problems;
  bool bodies_known = true;
  for (size_t k = 0; k < cs.size(); ++k) {
    const ItemRef item = ItemRef::contact(static_cast<int>(k));
    for (auto& p : contact_problems(cs[k])) problems.push_back({std::move(p), item});
    Shape sh;
    if (const std::optional<BodyIndex> b = cm.shapes()[k].body) {
      sh.body = *b;
    } else {
      problems.push_back({"contact '" + cs[k].name + "': unknown body '" + cs[k].body + "'", item});
      bodies_known = false;
    }
    sh.g = cm.shapes()[k].pose;
    sh.bound = cm.shapes()[k].bound;
    shapes_.push_back(sh);
  }
  if (!bodies_known) throw ModelError(std::move(problems));  // the pairs need the bodies
  if (cx.model().contact_penalty)
    for (auto& p : penalty_problems(*cx.model().contact_penalty, "contact_penalty: "))
      problems.push_back({std::move(p), {}});
  for (size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].shape == ShapeType::Plane) {
      plane_shapes_.push_back(static_cast<int>(k));
    } else {
      finite_shapes_.push_back(static_cast<int>(k));
      finite_bound_.push_back(shapes_[k].bound);
      finite_group_.push_back(static_cast<int>(shapes_[k].body));
    }
  }
  for (ModelProblem& p : contact_pair_problems(cx.model(), ContactPath::Penalty)) problems.push_back(std::move(p));
  for (size_t i = 0; i < cs.size(); ++i)
    for (size_t j = i + 1; j < cs.size(); ++j) add_pair(i, j, problems);
  if (!problems.empty()) throw ModelError(std::move(problems));
}

void PenaltyContacts::add_pair(size_t i, size_t j, std::vector<ModelProblem>& problems) {
  const auto& cs = cx_.model().contacts();
  // Pairs the penalty path does not take are refused by contact_pair_problems().
  bool swapped;
  if (shapes_[i].body == shapes_[j].body || !contact_pair_kind(cs[i].shape, cs[j].shape, swapped).on(ContactPath::Penalty))
    return;
  const Contact& ci = cs[i];
  const Contact& cj = cs[j];
  const ItemRef item = ItemRef::contact(static_cast<int>(j));  // a pair's problems: at its second shape
  Pair cp;
  cp.name = "contacts '" + ci.name + "' and '" + cj.name + "'";
  cp.a = shapes_[i].body;
  cp.b = shapes_[j].body;
  cp.i = static_cast<int>(i);
  cp.j = static_cast<int>(j);
  // Body-frame poses relative to the reference point (ground: world).
  cp.g1 = cx_.cm->shapes()[i].pose;
  cp.g2 = cx_.cm->shapes()[j].pose;
  // Parameters: those of the pair's shape b (the sphere, else the capsule, else the box), else of
  // its shape a, else the model's.
  const Contact& sb = shape_order(ci.shape) <= shape_order(cj.shape) ? cj : ci;
  const Contact& sa = &sb == &cj ? ci : cj;
  const std::optional<PenaltyParameters>& pen = sb.penalty ? sb.penalty : sa.penalty ? sa.penalty : cx_.model().contact_penalty;
  if (!pen) {
    problems.push_back({cp.name + ": no penalty parameters (give a penalty block on a contact or a "
                                  "model-wide contact_penalty) for the implicit formulation",
                        item});
    return;
  }
  cp.pen = *pen;
  const ContactMaterial mat = cx_.cm->material(static_cast<int>(i), static_cast<int>(j));
  cp.mu = mat.friction;
  const double e = mat.restitution;
  cp.mur = mat.rolling_resistance;
  cp.mut = mat.torsional_friction;
  if (cp.pen.law == PenaltyLaw::HuntCrossley) {
    if (cp.pen.damping_factor) {
      cp.chi = *cp.pen.damping_factor;
    } else if (cp.pen.impact_velocity) {
      // Flores, Machado, Silva & Martins (Multibody Syst. Dyn. 25, 2011): χ = 8 (1 − e) / (5 e v⁻).
      if (!(e > 0))
        problems.push_back({cp.name + ": a hunt_crossley penalty with impact_velocity needs restitution > 0 "
                                      "(χ = 8 (1 − e) / (5 e v) is infinite for e = 0); give damping_factor "
                                      "instead",
                            item});
      else
        cp.chi = 8.0 * (1.0 - e) / (5.0 * e * *cp.pen.impact_velocity);
    }
  }
  pair_of_shapes_.emplace((static_cast<std::uint64_t>(i) << 32) | static_cast<std::uint64_t>(j),
                          static_cast<int>(pairs_.size()));
  pairs_.push_back(std::move(cp));
}

void PenaltyContacts::on_layout() {
  for (Pair& cp : pairs_) {
    cp.coords.clear();
    cp.na = cx_.bodies.append_coords(cp.a, cp.coords);
    cp.nb = cx_.bodies.append_coords(cp.b, cp.coords);
  }
}

void PenaltyContacts::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const Pair& cp : pairs_) tp.add_block(cp.coords, cp.coords);
}

void PenaltyContacts::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (Pair& cp : pairs_) cp.tangent_map = BlockMap::make(tangent, cp.coords, cp.coords);
}

std::unique_ptr<UnitScratch> PenaltyContacts::make_scratch() const { return std::make_unique<Scratch>(); }

void PenaltyContacts::wrenches(const Pair& cp, const Kin& k1, const Kin& k2, Wrench& w1, Wrench& w2,
                               double* V) const {
  w1 = Wrench{};
  w2 = Wrench{};
  PlacedShape s1 = cp.g1, s2 = cp.g2;
  s1.c_W = k1.p + k1.R * cp.g1.c_W;
  s1.R_WS = k1.R * cp.g1.R_WS;
  s2.c_W = k2.p + k2.R * cp.g2.c_W;
  s2.R_WS = k2.R * cp.g2.R_WS;
  PairPoint pts[kMaxPairPoints];
  bool swapped = false;
  const int np = narrow_phase(s1, s2, 0.0, pts, swapped);
  // Shape a of the narrow phase is on body A, the normal points from A to B.
  const Kin& kA = swapped ? k2 : k1;
  const Kin& kB = swapped ? k1 : k2;
  Wrench& wA = swapped ? w2 : w1;
  Wrench& wB = swapped ? w1 : w2;
  const PenaltyParameters& pen = cp.pen;
  for (int i = 0; i < np; ++i) {
    const PairPoint& pt = pts[i];
    const double delta = -pt.depth;
    if (!(delta > 0)) continue;
    const Vec3 rA = pt.p - kA.p, rB = pt.p - kB.p;
    const Vec3 vrel = kB.v + kB.w.cross(rB) - kA.v - kA.w.cross(rA);
    const double vn = pt.n.dot(vrel);
    const double deltad = -vn;  // penetration rate
    double Fn;
    if (pen.law == PenaltyLaw::Linear) {
      Fn = pen.stiffness * delta + pen.damping * deltad;
      if (!pen.tensile) Fn = std::max(Fn, 0.0);
      if (V) *V += 0.5 * pen.stiffness * delta * delta;
    } else {
      const double dn = std::pow(delta, pen.exponent);
      Fn = std::max(pen.stiffness * dn * (1.0 + cp.chi * deltad), 0.0);
      if (V) *V += pen.stiffness * dn * delta / (pen.exponent + 1.0);
    }
    Vec3 F = Fn * pt.n;
    if (cp.mu > 0) {
      // Regularised Coulomb friction on the sliding velocity v_t.
      const Vec3 vt = vrel - vn * pt.n;
      const double ve = pen.friction_velocity;
      F -= (cp.mu * Fn / std::sqrt(vt.squaredNorm() + ve * ve)) * vt;
    }
    wB.force += F;
    wB.torque += rB.cross(F);
    wA.force -= F;
    wA.torque -= rA.cross(F);
    if ((cp.mur > 0 && pt.r_eff > 0) || cp.mut > 0) {
      // Rolling resistance and torsional friction: regularised torques on the relative angular
      // velocity, bounded by μ_r r_eff F_n and μ_t F_n (model/Contact.h, PenaltyParameters).
      const Vec3 wrel = kB.w - kA.w;
      const double wn = pt.n.dot(wrel);
      const double we = pen.friction_angular_velocity;
      Vec3 M = Vec3::Zero();
      if (cp.mur > 0 && pt.r_eff > 0) {
        const Vec3 wt = wrel - wn * pt.n;
        M -= (cp.mur * pt.r_eff * Fn / std::sqrt(wt.squaredNorm() + we * we)) * wt;
      }
      if (cp.mut > 0) M -= (cp.mut * Fn * wn / std::sqrt(wn * wn + we * we)) * pt.n;
      wB.torque += M;
      wA.torque -= M;
    }
  }
}

void PenaltyContacts::generalized(const Pair& cp, const double* qloc, const double* vloc, VecN& out) const {
  const Kin k1 = cx_.bodies.kin(cp.a, qloc, vloc);
  const Kin k2 = cx_.bodies.kin(cp.b, qloc + cp.na, vloc + cp.na);
  Wrench w1, w2;
  wrenches(cp, k1, k2, w1, w2, nullptr);
  out.setZero(cp.na + cp.nb);
  if (cp.na) {
    out.segment<3>(0) = w1.force;
    out.segment(3, cp.na - 3) = k1.RG.transpose() * w1.torque;
  }
  if (cp.nb) {
    out.segment<3>(cp.na) = w2.force;
    out.segment(cp.na + 3, cp.nb - 3) = k2.RG.transpose() * w2.torque;
  }
}

const std::vector<int>& PenaltyContacts::active_pairs(UnitScratch* ws, const double* q) const {
  // The broad phase shared with the impulse stepper (ContactGeometry.h: the grid for finite
  // shapes, the bounding-sphere test for planes); the pairs far apart give no force and no tangent.
  Scratch& W = static_cast<Scratch&>(*ws);
  std::vector<int>& out = W.pairs;
  out.clear();
  if (pairs_.empty()) return out;
  // At most one entry per pair: reserved (a no-op once the capacity is there), so that no
  // evaluation allocates after the first with a workspace.
  out.reserve(pairs_.size());
  W.cand.reserve(pairs_.size());
  W.grid.reserve(finite_shapes_.size());
  W.centre.resize(shapes_.size());
  W.rot.resize(shapes_.size());
  for (size_t k = 0; k < shapes_.size(); ++k) {
    const Shape& cs = shapes_[k];
    if (cs.body == kGround) {
      W.centre[k] = cs.g.c_W;
      W.rot[k] = cs.g.R_WS;
    } else {
      const Kin kk = cx_.bodies.kin_state(cs.body, q, nullptr);
      W.centre[k] = kk.p + kk.R * cs.g.c_W;
      W.rot[k] = kk.R * cs.g.R_WS;
    }
  }
  constexpr double margin = 1e-6;  // m: a pair just apart still gets its tangent by differences
  auto add = [&](int i, int j) {
    const auto it = pair_of_shapes_.find((static_cast<std::uint64_t>(std::min(i, j)) << 32) |
                                         static_cast<std::uint64_t>(std::max(i, j)));
    if (it != pair_of_shapes_.end()) out.push_back(it->second);
  };
  for (int pi : plane_shapes_) {
    PlacedShape pl = shapes_[static_cast<size_t>(pi)].g;
    pl.c_W = W.centre[static_cast<size_t>(pi)];
    pl.R_WS = W.rot[static_cast<size_t>(pi)];
    for (int si : finite_shapes_)
      if (plane_may_touch(pl, W.centre[static_cast<size_t>(si)], shapes_[static_cast<size_t>(si)].bound, margin))
        add(pi, si);
  }
  W.finite_centre.resize(finite_shapes_.size());
  for (size_t e = 0; e < finite_shapes_.size(); ++e) W.finite_centre[e] = W.centre[static_cast<size_t>(finite_shapes_[e])];
  W.grid.find_pairs(W.finite_centre, finite_bound_, finite_group_, margin, W.cand);
  for (const auto& [i, j] : W.cand) add(finite_shapes_[static_cast<size_t>(i)], finite_shapes_[static_cast<size_t>(j)]);
  return out;
}

void PenaltyContacts::add_forces(UnitScratch* w, const UnitState& s, double sign, VecRef r) const {
  VecN ql, vl, g;
  for (int pi : active_pairs(w, s.q.data())) {
    const Pair& cp = pairs_[static_cast<size_t>(pi)];
    gather_local(cp.coords, s.q.data(), s.v.data(), ql, vl);
    generalized(cp, ql.data(), vl.data(), g);
    for (int k = 0; k < cp.na + cp.nb; ++k) r[cp.coords[static_cast<size_t>(k)]] += sign * g[k];
  }
}

void PenaltyContacts::add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double,
                                  SparseMatrix& A) const {
  // −∂f/∂q, −∂f/∂v by central differences local to the pair's two bodies.
  if (c_q == 0 && c_v == 0) return;
  VecN ql, vl, gp, gm;
  BlockN B;
  for (int pi : active_pairs(w, s.q.data())) {
    const Pair& cp = pairs_[static_cast<size_t>(pi)];
    const int nc = cp.na + cp.nb;
    gather_local(cp.coords, s.q.data(), s.v.data(), ql, vl);
    B.setZero(nc, nc);
    for (int pass = 0; pass < 2; ++pass) {
      const double c = pass == 0 ? c_q : c_v;
      if (c == 0) continue;
      VecN& x = pass == 0 ? ql : vl;
      detail::central_differences(
          x, 0, nc, gp, gm, [&](int, VecN& out) { generalized(cp, ql.data(), vl.data(), out); },
          [&](int k, const VecN& fp, const VecN& fm, double h2) { B.col(k) -= c * (fp - fm) / h2; });
    }
    cp.tangent_map.scatter_add(A, B);
  }
}

void PenaltyContacts::add_potential_energy(UnitScratch* w, const UnitState& s, double& V) const {
  for (int pi : active_pairs(w, s.q.data())) {
    const Pair& cp = pairs_[static_cast<size_t>(pi)];
    Wrench w1, w2;
    wrenches(cp, cx_.bodies.kin_state(cp.a, s.q.data(), nullptr), cx_.bodies.kin_state(cp.b, s.q.data(), nullptr), w1,
             w2, &V);
  }
}

}  // namespace mbdae::units
