// Modally reduced bodies in the floating frame of reference (model/ModalBody.h has the
// kinematics, the inertia invariants and the equations; sources named there). The rigid-body
// unit adds the equations of each body's rigid part (mass m, centre of mass c̄, inertia J0 about
// the frame's origin); this unit adds the rest: the FFRF equations of the frame minus those of
// its rigid part, and the modal equations.

#include "ModalBodies.h"

#include <mbdae/model/math/Rotation.h>

#include "RigidBodies.h"

namespace mbdae::units {

namespace {

/// The kinetic energy's blocks and momenta at (v_B, ω, q, q̇) (ModalBody.h).
struct Momenta {
  Mat3 mtr, mrr;
  Eigen::Matrix<double, 3, Eigen::Dynamic> mrf;
  Vec3 P, H;
};

Momenta momenta(const ModalReduction& md, const Vec3& vB, const Vec3& w, const double* q, const double* qd, bool modes) {
  Momenta o;
  o.mtr = md.A0;
  o.mrr = md.inertia;
  o.mrf = md.C0;
  if (modes) {
    for (int k = 0; k < md.n; ++k) {
      const auto ku = static_cast<size_t>(k);
      o.mtr += q[k] * md.A[ku];
      o.mrr += q[k] * (md.J[ku] + md.J[ku].transpose());
      o.mrf += q[k] * md.C[ku];
      for (int l = 0; l < md.n; ++l) o.mrr += q[k] * q[l] * md.Jkl[static_cast<size_t>(k * md.n + l)];
    }
  }
  o.P = md.mass * vB + o.mtr * w;
  o.H = o.mtr.transpose() * vB + o.mrr * w;
  if (modes && md.n > 0) {
    const Eigen::Map<const VecX> qdv(qd, md.n);
    o.P += md.m_tf * qdv;
    o.H += o.mrf * qdv;
  }
  return o;
}

}  // namespace

ModalBodies::ModalBodies(UnitContext& cx) : cx_(cx) {
  for (const ModalBody& mb : cx.model().modal_bodies()) {
    Item it;
    it.src = &mb;
    list_.push_back(std::move(it));
  }
}

void ModalBodies::claim(UnitLayout& layout) {
  for (Item& it : list_) it.first = layout.add_coordinates(it.src->modes->n);
}

void ModalBodies::on_layout() {
  for (Item& it : list_) {
    it.coords.clear();
    cx_.bodies.append_coords(it.src->body, it.coords);
    for (int k = 0; k < it.src->modes->n; ++k) it.coords.push_back(it.first + k);
  }
}

void ModalBodies::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const Item& it : list_) tp.add_block(it.coords, it.coords);
}

void ModalBodies::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (Item& it : list_) it.map = BlockMap::make(tangent, it.coords, it.coords);
}

void ModalBodies::initial_state(VecRef q0, VecRef v0) const {
  for (const Item& it : list_) {
    const int n = it.src->modes->n;
    if (n == 0) continue;
    q0.segment(it.first, n) = it.src->q0;
    v0.segment(it.first, n) = it.src->v0;
  }
}

void ModalBodies::local(const Item& b, double, const double* q, const double* v, const double* a, double* r) const {
  const ModalReduction& md = *b.src->modes;
  const BodyData& bd = cx_.bodies[b.src->body];
  const int nh = bd.n, n = md.n;
  const Kin k = cx_.bodies.kin(b.src->body, q, v);
  Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>> thdd(a + 3, bd.nr);
  const Vec3 w = k.wB, vB = k.R.transpose() * k.v;
  const Vec3 al = k.G * thdd + k.gdB;
  const Vec3 vBd = k.R.transpose() * Vec3(a[0], a[1], a[2]) - w.cross(vB);
  const Vec3 gB = k.R.transpose() * cx_.model().gravity;
  const double* qm = q + nh;
  const double* qmd = v + nh;
  const double* qmdd = a + nh;
  for (int pass = 0; pass < 2; ++pass) {  // 0: the full equations; 1: minus those of the rigid part
    const bool modes = pass == 0;
    const double sign = modes ? 1.0 : -1.0;
    const Momenta o = momenta(md, vB, w, qm, qmd, modes);
    Vec3 Pd = md.mass * vBd + o.mtr * al, Hd = o.mtr.transpose() * vBd + o.mrr * al;
    Vec3 s = md.mass * md.com;  // ∫ρ x dV in the frame's axes (the gravity's moment arm times m)
    if (modes && n > 0) {
      const Eigen::Map<const VecX> qv(qm, n), qdv(qmd, n), qddv(qmdd, n);
      Mat3 mtr_d = Mat3::Zero(), mrr_d = Mat3::Zero();
      Eigen::Matrix<double, 3, Eigen::Dynamic> mrf_d = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, n);
      for (int i = 0; i < n; ++i) {
        const auto iu = static_cast<size_t>(i);
        mtr_d += qmd[i] * md.A[iu];
        mrr_d += qmd[i] * (md.J[iu] + md.J[iu].transpose());
        mrf_d += qmd[i] * md.C[iu];
        for (int l = 0; l < n; ++l) mrr_d += (qmd[i] * qm[l] + qm[i] * qmd[l]) * md.Jkl[static_cast<size_t>(i * n + l)];
      }
      Pd += md.m_tf * qddv + mtr_d * w;
      Hd += o.mrf * qddv + mtr_d.transpose() * vB + mrr_d * w + mrf_d * qdv;
      s += md.m_tf * qv;
      // The modal equations: Ṗ_f − ∂T/∂q + K q + D q̇ − m_tfᵀ g_B.
      Eigen::Map<VecX> rf(r + nh, n);
      rf = md.m_tf.transpose() * vBd + o.mrf.transpose() * al + md.m_ff * qddv + mrf_d.transpose() * w +
           md.stiffness * qv + md.damping * qdv - md.m_tf.transpose() * gB;
      for (int i = 0; i < n; ++i) {
        const auto iu = static_cast<size_t>(i);
        Mat3 dJ = md.J[iu] + md.J[iu].transpose();
        for (int l = 0; l < n; ++l)
          dJ += qm[l] * (md.Jkl[static_cast<size_t>(i * n + l)] + md.Jkl[static_cast<size_t>(l * n + i)]);
        rf[i] -= vB.dot(md.A[iu] * w) + 0.5 * w.dot(dJ * w) + w.dot(md.C[iu] * qdv);
      }
    }
    const Vec3 rt = k.R * (Pd + w.cross(o.P)) - md.mass * cx_.model().gravity;
    const Vec3 mom = Hd + w.cross(o.H) + vB.cross(o.P) - s.cross(gB);
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 7, 1>> rh(r, nh);
    if (modes) {
      rh.head<3>() = rt;
      rh.segment(3, bd.nr) = k.G.transpose() * mom;
    } else {
      rh.head<3>() += sign * rt;
      rh.segment(3, bd.nr) += sign * (k.G.transpose() * mom);
    }
  }
}

void ModalBodies::gather(const Item& b, const UnitState& s, VecX& q, VecX& v, VecX& a) const {
  const size_t n = b.coords.size();
  q.resize(static_cast<Eigen::Index>(n));
  v.setZero(static_cast<Eigen::Index>(n));
  a.setZero(static_cast<Eigen::Index>(n));
  for (size_t k = 0; k < n; ++k) {
    const int c = b.coords[k];
    q[static_cast<Eigen::Index>(k)] = s.q[c];
    if (s.v.size()) v[static_cast<Eigen::Index>(k)] = s.v[c];
    if (s.a.size()) a[static_cast<Eigen::Index>(k)] = s.a[c];
  }
}

void ModalBodies::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  VecX q, v, a, rl;
  for (const Item& b : list_) {
    gather(b, s, q, v, a);
    rl.resize(q.size());
    local(b, s.t, q.data(), v.data(), a.data(), rl.data());
    const int nh = static_cast<int>(b.coords.size()) - b.src->modes->n;
    for (size_t k = 0; k < b.coords.size(); ++k) {
      if (static_cast<int>(k) < nh) r[b.coords[k]] += rl[static_cast<Eigen::Index>(k)];
      else r[b.coords[k]] = rl[static_cast<Eigen::Index>(k)];
    }
  }
}

void ModalBodies::forces(UnitScratch*, const UnitState& s, VecRef f) const {
  VecX q, v, a, rl;
  for (const Item& b : list_) {
    gather(b, s, q, v, a);
    a.setZero();
    rl.resize(q.size());
    local(b, s.t, q.data(), v.data(), a.data(), rl.data());
    const int nh = static_cast<int>(b.coords.size()) - b.src->modes->n;
    for (size_t k = 0; k < b.coords.size(); ++k) {
      if (static_cast<int>(k) < nh) f[b.coords[k]] -= rl[static_cast<Eigen::Index>(k)];
      else f[b.coords[k]] = -rl[static_cast<Eigen::Index>(k)];
    }
  }
}

void ModalBodies::add_tangent(UnitScratch*, const UnitState& s, double c_q, double c_v, double c_a,
                              SparseMatrix& A) const {
  for (const Item& b : list_)
    tangent_by_differences(b.coords, s, c_q, c_v, c_a, b.map,
                           [this, &b, &s](const double* q, const double* v, const double* a, double* r) {
                             local(b, s.t, q, v, a, r);
                           },
                           A);
}

void ModalBodies::add_mass(UnitScratch*, const UnitState& s, SparseMatrix& M) const {
  // The residual is linear in a: column j of ∂r/∂a is r(a = e_j) − r(a = 0), exact up to rounding.
  VecX q, v, a, r0, r1;
  for (const Item& b : list_) {
    gather(b, s, q, v, a);
    const Eigen::Index n = q.size();
    a.setZero();
    r0.resize(n);
    r1.resize(n);
    local(b, s.t, q.data(), v.data(), a.data(), r0.data());
    MatX B(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      a.setZero();
      a[j] = 1.0;
      local(b, s.t, q.data(), v.data(), a.data(), r1.data());
      B.col(j) = r1 - r0;
    }
    b.map.scatter_add(M, B);
  }
}

void ModalBodies::add_kinetic_energy(const UnitState& s, double& E) const {
  VecX q, v, a;
  for (const Item& b : list_) {
    gather(b, s, q, v, a);
    const ModalReduction& md = *b.src->modes;
    const int nh = static_cast<int>(b.coords.size()) - md.n;
    const Kin k = cx_.bodies.kin(b.src->body, q.data(), v.data());
    const Vec3 vB = k.R.transpose() * k.v;
    const Momenta full = momenta(md, vB, k.wB, q.data() + nh, v.data() + nh, true);
    const Momenta rigid = momenta(md, vB, k.wB, nullptr, nullptr, false);
    // T = ½ (v_B·P + ω·H + q̇·P_f), P_f = m_tfᵀ v_B + m_rfᵀ ω + m_ff q̇.
    double T = 0.5 * (vB.dot(full.P) + k.wB.dot(full.H));
    if (md.n > 0) {
      const Eigen::Map<const VecX> qd(v.data() + nh, md.n);
      T += 0.5 * qd.dot(md.m_tf.transpose() * vB + full.mrf.transpose() * k.wB + md.m_ff * qd);
    }
    E += T - 0.5 * (vB.dot(rigid.P) + k.wB.dot(rigid.H));
  }
}

void ModalBodies::add_potential_energy(UnitScratch*, const UnitState& s, double& V) const {
  for (const Item& b : list_) {
    const ModalReduction& md = *b.src->modes;
    if (md.n == 0) continue;
    const int nh = static_cast<int>(b.coords.size()) - md.n;
    double qh[7];
    for (int k = 0; k < nh; ++k) qh[k] = s.q[b.coords[static_cast<size_t>(k)]];
    const Kin k = cx_.bodies.kin(b.src->body, qh, nullptr);
    const VecX qm = s.q.segment(b.first, md.n);
    V += 0.5 * qm.dot(md.stiffness * qm) - (k.R.transpose() * cx_.model().gravity).dot(md.m_tf * qm);
  }
}

std::string ModalBodies::coordinate_label(int i) const {
  for (const Item& b : list_)
    if (i >= b.first && i < b.first + b.src->modes->n)
      return "modal body '" + b.src->name + "' mode " + std::to_string(i - b.first + 1);
  return {};
}

}  // namespace mbdae::units
