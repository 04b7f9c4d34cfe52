// Rigid bodies in absolute coordinates: the equations of each body (Multibody.h, Eq. 52) and the
// Euler-parameter norm rows (Eq. 53–54). Source: Exudyn ObjectRigidBody documentation (seed 001).

#include "RigidBodies.h"

#include <Eigen/LU>

#include <mbdae/model/math/Rotation.h>

#include "../FiniteDifference.h"

namespace mbdae::units {

RigidBodies::RigidBodies(UnitContext& cx) : cx_(cx) {
  for (const CompiledModel::Body& cb : cx.cm->bodies()) {
    BodyData bd;
    bd.name = cb.name;
    bd.param = cb.rotation;
    bd.nr = cb.rotation == RotationParametrization::EulerParameters ? 4 : 3;
    bd.n = 3 + bd.nr;
    bd.m = cb.mass;
    bd.J = cb.inertia_ref;
    bd.b = cb.com;
    bd.loads = cb.loads;
    cx.bodies.list.push_back(bd);
  }
}

void RigidBodies::claim(UnitLayout& layout) {
  for (BodyData& bd : cx_.bodies.list) bd.off = layout.add_coordinates(bd.n);
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i)
    if (cx_.bodies.list[i].param == RotationParametrization::EulerParameters) ep_body_.push_back(static_cast<int>(i));
  layout.add_rows(static_cast<int>(ep_body_.size()));
}

void RigidBodies::on_layout() {
  ep_row_.assign(cx_.bodies.list.size(), -1);
  for (size_t k = 0; k < ep_body_.size(); ++k) ep_row_[static_cast<size_t>(ep_body_[k])] = active_row(static_cast<int>(k));
}

void RigidBodies::add_pattern(PatternBuilder& tp, PatternBuilder& jp) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    tp.add_block(bd.off, bd.n, bd.off, bd.n);
    if (ep_row_[i] >= 0) jp.add_block(ep_row_[i], 1, bd.off + 3, 4);
  }
}

void RigidBodies::make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) {
  tangent_map_.clear();
  ep_jac_map_.assign(cx_.bodies.list.size(), BlockMap{});
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    std::vector<int> c;
    for (int k = 0; k < bd.n; ++k) c.push_back(bd.off + k);
    tangent_map_.push_back(BlockMap::make(tangent, c, c));
    if (ep_row_[i] >= 0)
      ep_jac_map_[i] = BlockMap::make(jacobian, {ep_row_[i]}, {bd.off + 3, bd.off + 4, bd.off + 5, bd.off + 6});
  }
}

void RigidBodies::initial_state(VecRef q0, VecRef v0) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const RigidBody& rb = cx_.model().bodies()[i];
    q0.segment<3>(bd.off) = rb.position;
    v0.segment<3>(bd.off) = rb.velocity;
    const Vec3 wB = rb.orientation.transpose() * rb.angular_velocity;
    switch (bd.param) {
      case RotationParametrization::EulerParameters: {
        const Vec4 e = math::matrix_to_ep(rb.orientation);
        q0.segment<4>(bd.off + 3) = e;
        // ω_B = G θ̇ with G Gᵀ = 4 I and G θ = 0: θ̇ = Gᵀ ω_B / 4 (tangent to the unit sphere).
        v0.segment<4>(bd.off + 3) = math::ep_G_local(e).transpose() * wB / 4.0;
        break;
      }
      case RotationParametrization::TaitBryan: {
        const Vec3 a = math::matrix_to_rxyz(rb.orientation).angles;
        q0.segment<3>(bd.off + 3) = a;
        v0.segment<3>(bd.off + 3) = math::rxyz_G_local(a).partialPivLu().solve(wB);
        break;
      }
      case RotationParametrization::RotationVector: {
        const Vec3 a = math::so3_log(rb.orientation);
        q0.segment<3>(bd.off + 3) = a;
        v0.segment<3>(bd.off + 3) = math::rotvec_G_local(a).partialPivLu().solve(wB);
        break;
      }
    }
  }
}

void RigidBodies::applied(BodyIndex i, double t, const Kin& k, Vec3& F, Vec3& tau) const {
  const BodyData& bd = cx_.bodies[i];
  const Vec3 Fg = bd.m * cx_.model().gravity;
  F = Fg;
  tau = (k.R * bd.b).cross(Fg);
  for (int li : bd.loads) {
    const Load& l = cx_.model().loads()[static_cast<size_t>(li)];
    Vec3 val = l.value_of_t ? l.value_of_t(t) : l.value;
    if (l.frame == Load::Frame::Body) val = k.R * val;
    if (l.kind == Load::Kind::Force) {
      F += val;
      tau += (k.R * l.point).cross(val);
    } else {
      tau += val;
    }
  }
}

template <class Out>
void RigidBodies::body_residual_kin(BodyIndex i, double t, const Kin& k, const double* a, Out&& r) const {
  const BodyData& bd = cx_.bodies[i];
  Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>> thdd(a + 3, bd.nr);
  const Vec3 ap(a[0], a[1], a[2]);
  const Vec3 alB = k.G * thdd + k.gdB;
  Vec3 F, tau;
  applied(i, t, k, F, tau);
  const Vec3& b = bd.b;
  const Vec3 wB = k.wB;
  r.template head<3>() = bd.m * (ap + k.R * (alB.cross(b) + wB.cross(wB.cross(b)))) - F;
  const Vec3 mom =
      bd.m * b.cross(k.R.transpose() * ap) + bd.J * alB + wB.cross(bd.J * wB) - k.R.transpose() * tau;
  r.segment(3, bd.nr) = k.G.transpose() * mom;
}

BlockN RigidBodies::body_mass(BodyIndex i, const double* q) const {
  const BodyData& bd = cx_.bodies[i];
  const Kin k = cx_.bodies.kin(i, q, nullptr);
  BlockN M = BlockN::Zero(bd.n, bd.n);
  const Mat3 bt = math::skew(bd.b);
  M.topLeftCorner<3, 3>() = bd.m * Mat3::Identity();
  M.block(0, 3, 3, bd.nr) = -bd.m * k.R * bt * k.G;
  M.block(3, 0, bd.nr, 3) = bd.m * k.G.transpose() * bt * k.R.transpose();
  M.block(3, 3, bd.nr, bd.nr) = k.G.transpose() * bd.J * k.G;
  return M;
}

void RigidBodies::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const BodyIndex bi = static_cast<BodyIndex>(i);
    body_residual_kin(bi, s.t, (*s.kin)[bi], s.a.data() + bd.off, r.segment(bd.off, bd.n));
    if (ep_row_[i] >= 0) r.segment<4>(bd.off + 3) += 2.0 * s.lambda[ep_row_[i]] * s.q.segment<4>(bd.off + 3);
  }
}

void RigidBodies::forces(UnitScratch*, const UnitState& s, VecRef f) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const BodyIndex bi = static_cast<BodyIndex>(i);
    const double zero[7] = {0, 0, 0, 0, 0, 0, 0};
    // f = −(M·0 − f)
    body_residual_kin(bi, s.t, cx_.bodies.kin(bi, s.q.data() + bd.off, s.v.data() + bd.off), zero,
                      f.segment(bd.off, bd.n));
    f.segment(bd.off, bd.n) *= -1.0;
  }
}

void RigidBodies::rows(UnitScratch*, const UnitState& s, RowLevel level, VecRef out) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const int row = ep_row_[i], o = cx_.bodies.list[i].off + 3;
    if (row < 0) continue;
    if (level == RowLevel::Position) out[row] = s.q.segment<4>(o).squaredNorm() - 1.0;
    else if (level == RowLevel::Velocity) out[row] = 2.0 * s.q.segment<4>(o).dot(s.v.segment<4>(o));
    else out[row] = -2.0 * s.v.segment<4>(o).squaredNorm();
  }
}

void RigidBodies::add_tangent(UnitScratch*, const UnitState& s, double c_q, double c_v, double c_a,
                              SparseMatrix& A) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const BodyIndex bi = static_cast<BodyIndex>(i);
    const int n = bd.n;
    double ql[7], vl[7], al[7];
    for (int k = 0; k < n; ++k) {
      ql[k] = s.q[bd.off + k];
      vl[k] = s.v[bd.off + k];
      al[k] = s.a[bd.off + k];
    }
    BlockN B = BlockN::Zero(n, n);
    VecN rp(n), rm(n);
    auto residual = [&](int, VecN& r) { body_residual_kin(bi, s.t, cx_.bodies.kin(bi, ql, vl), al, r); };
    if (c_q != 0) {
      detail::central_differences(ql, 0, n, rp, rm, residual, [&](int k, const VecN& fp, const VecN& fm, double h2) {
        B.col(k) += c_q * (fp - fm) / h2;
      });
      if (ep_row_[i] >= 0) B.block<4, 4>(3, 3).diagonal().array() += c_q * 2.0 * s.lambda[ep_row_[i]];
    }
    if (c_v != 0) {
      detail::central_differences(vl, 0, n, rp, rm, residual, [&](int k, const VecN& fp, const VecN& fm, double h2) {
        B.col(k) += c_v * (fp - fm) / h2;
      });
    }
    if (c_a != 0) B += c_a * body_mass(bi, ql);
    tangent_map_[i].scatter_add(A, B);
  }
}

void RigidBodies::add_mass(UnitScratch*, const UnitState& s, SparseMatrix& M) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i)
    tangent_map_[i].scatter_add(M, body_mass(static_cast<BodyIndex>(i), s.q.data() + cx_.bodies.list[i].off));
}

void RigidBodies::add_jacobian(UnitScratch*, const UnitState& s, RowLevel level, SparseMatrix& J) const {
  const ConstVecRef& x = level == RowLevel::Position ? s.q : s.v;  // ∂(θᵀθ − 1)/∂θ = 2θᵀ, ∂(2θᵀθ̇)/∂θ = 2θ̇ᵀ
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i)
    if (ep_row_[i] >= 0) ep_jac_map_[i].scatter_add(J, 2.0 * x.segment<4>(cx_.bodies.list[i].off + 3).transpose());
}

void RigidBodies::add_kinetic_energy(const UnitState& s, double& E) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const Kin k = cx_.bodies.kin(static_cast<BodyIndex>(i), s.q.data() + bd.off, s.v.data() + bd.off);
    const Vec3 vB = k.R.transpose() * k.v;
    E += 0.5 * bd.m * k.v.squaredNorm() + bd.m * vB.dot(k.wB.cross(bd.b)) + 0.5 * k.wB.dot(bd.J * k.wB);
  }
}

void RigidBodies::add_potential_energy(UnitScratch*, const UnitState& s, double& V) const {
  for (size_t i = 0; i < cx_.bodies.list.size(); ++i) {
    const BodyData& bd = cx_.bodies.list[i];
    const Kin k = cx_.bodies.kin(static_cast<BodyIndex>(i), s.q.data() + bd.off, nullptr);
    V -= bd.m * cx_.model().gravity.dot(k.p + k.R * bd.b);
  }
}

std::string RigidBodies::coordinate_label(int i) const {
  static const char* ep[7] = {"x", "y", "z", "θ0", "θ1", "θ2", "θ3"};
  static const char* r3[6] = {"x", "y", "z", "ψ0", "ψ1", "ψ2"};
  for (const BodyData& bd : cx_.bodies.list)
    if (i >= bd.off && i < bd.off + bd.n) return "body '" + bd.name + "' " + (bd.nr == 4 ? ep[i - bd.off] : r3[i - bd.off]);
  return {};
}

std::string RigidBodies::row_label(int local) const {
  return "body '" + cx_.bodies.list[static_cast<size_t>(ep_body_[static_cast<size_t>(local)])].name +
         "' Euler-parameter norm";
}

}  // namespace mbdae::units
