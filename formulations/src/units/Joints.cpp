// Joints as Lagrange-multiplier rows between two markers (Multibody.h); the equations and their
// twist Jacobians are JointKernels.cpp's, mapped to the coordinates by T = [I 0; 0 R G].

#include "Joints.h"

#include <cmath>
#include <limits>

#include "../FiniteDifference.h"

namespace mbdae::units {

namespace {
/// Value of local row lr at `level` from the joint's evaluation e at kinematics ka, kb.
double row_value(const detail::JointEval& e, const Kin& ka, const Kin& kb, int lr, RowLevel level) {
  if (level == RowLevel::Position) return e.c[static_cast<size_t>(lr)];
  if (level == RowLevel::Acceleration) return e.gamma[static_cast<size_t>(lr)];
  Vec6 ta, tb;
  ta << ka.v, ka.w;
  tb << kb.v, kb.w;
  return e.Wa.row(lr).dot(ta) + e.Wb.row(lr).dot(tb) + e.ct[static_cast<size_t>(lr)];
}
}  // namespace

Joints::Joints(UnitContext& cx) : cx_(cx) {
  for (const CompiledModel::Joint& cj : cx.cm->joints()) {
    JointData jd;
    jd.name = cj.name;
    jd.type = cj.type;
    jd.a = cj.a;
    jd.b = cj.b;
    static_cast<detail::JointGeometry&>(jd) = cj.at_reference;
    jd.motion = cj.motion;
    jd.speed = cj.speed;
    jd.offsets = cj.offsets;
    joints_.push_back(std::move(jd));
  }
}

void Joints::claim(UnitLayout& layout) {
  for (size_t ji = 0; ji < joints_.size(); ++ji) {
    joints_[ji].first_row = static_cast<int>(row_joint_.size());
    for (size_t r = 0; r < joints_[ji].rows.size(); ++r) row_joint_.push_back(static_cast<int>(ji));
  }
  layout.add_rows(static_cast<int>(row_joint_.size()));
}

void Joints::on_layout() {
  for (JointData& jd : joints_) {
    jd.coords.clear();
    jd.na = cx_.bodies.append_coords(jd.a, jd.coords);
    jd.nb = cx_.bodies.append_coords(jd.b, jd.coords);
    for (size_t r = 0; r < jd.rows.size(); ++r)
      if (const int act = active_row(jd.first_row + static_cast<int>(r)); act >= 0) {
        jd.active.push_back(static_cast<int>(r));
        jd.active_global.push_back(act);
      }
  }
}

void Joints::add_pattern(PatternBuilder& tp, PatternBuilder& jp) const {
  for (const JointData& jd : joints_) {
    tp.add_block(jd.coords, jd.coords);
    jp.add_block(jd.active_global, jd.coords);
  }
}

void Joints::make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) {
  for (JointData& jd : joints_) {
    jd.jac_map = BlockMap::make(jacobian, jd.active_global, jd.coords);
    jd.tangent_map = BlockMap::make(tangent, jd.coords, jd.coords);
  }
}

BlockN Joints::jacobian(const JointData& jd, const Kin& ka, const Kin& kb, const detail::JointEval& e) const {
  const int nact = static_cast<int>(jd.active.size());
  BlockN Jq = BlockN::Zero(nact, jd.na + jd.nb);
  for (int r = 0; r < nact; ++r) {
    const int lr = jd.active[static_cast<size_t>(r)];
    if (jd.na) {
      Jq.block(r, 0, 1, 3) = e.Wa.block(lr, 0, 1, 3);
      Jq.block(r, 3, 1, jd.na - 3) = e.Wa.block(lr, 3, 1, 3) * ka.RG;
    }
    if (jd.nb) {
      Jq.block(r, jd.na, 1, 3) = e.Wb.block(lr, 0, 1, 3);
      Jq.block(r, jd.na + 3, 1, jd.nb - 3) = e.Wb.block(lr, 3, 1, 3) * kb.RG;
    }
  }
  return Jq;
}

void Joints::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  // Kinematics with velocities: the joints use only their position parts (R, G, RG, p), which are
  // the same as without velocities (eval_joint reads velocities only for γ).
  detail::JointEval e;
  for (const JointData& jd : joints_) {
    if (jd.active.empty()) continue;
    const Kin& ka = (*s.kin)[jd.a];
    const Kin& kb = (*s.kin)[jd.b];
    detail::eval_joint(jd, ka, kb, false, jd.drive(s.t), e);
    Row6 fa = Row6::Zero(), fb = Row6::Zero();
    for (size_t k = 0; k < jd.active.size(); ++k) {
      const double l = s.lambda[jd.active_global[k]];
      fa += l * e.Wa.row(jd.active[k]);
      fb += l * e.Wb.row(jd.active[k]);
    }
    if (jd.na) {
      const int o = cx_.bodies[jd.a].off;
      r.segment<3>(o) += fa.head<3>().transpose();
      r.segment(o + 3, jd.na - 3) += ka.RG.transpose() * fa.tail<3>().transpose();
    }
    if (jd.nb) {
      const int o = cx_.bodies[jd.b].off;
      r.segment<3>(o) += fb.head<3>().transpose();
      r.segment(o + 3, jd.nb - 3) += kb.RG.transpose() * fb.tail<3>().transpose();
    }
  }
}

void Joints::rows(UnitScratch*, const UnitState& s, RowLevel level, VecRef out) const {
  detail::JointEval e;
  for (const JointData& jd : joints_) {
    if (jd.active.empty()) continue;
    const Kin& ka = (*s.kin)[jd.a];
    const Kin& kb = (*s.kin)[jd.b];
    detail::eval_joint(jd, ka, kb, level == RowLevel::Acceleration, jd.drive(s.t), e);
    for (size_t k = 0; k < jd.active.size(); ++k) out[jd.active_global[k]] = row_value(e, ka, kb, jd.active[k], level);
  }
}

void Joints::add_tangent(UnitScratch*, const UnitState& s, double c_q, double, double, SparseMatrix& A) const {
  if (c_q == 0) return;
  // ∂(C_qᵀ λ)/∂q, local to each joint.
  detail::JointEval e;
  for (const JointData& jd : joints_) {
    if (jd.active.empty()) continue;
    bool any = false;
    for (int g : jd.active_global) any = any || s.lambda[g] != 0;
    if (!any) continue;
    const int nc = jd.na + jd.nb;
    VecN ql(nc), lam(static_cast<int>(jd.active.size()));
    for (int k = 0; k < nc; ++k) ql[k] = s.q[jd.coords[static_cast<size_t>(k)]];
    for (size_t k = 0; k < jd.active.size(); ++k) lam[static_cast<int>(k)] = s.lambda[jd.active_global[k]];
    // Coordinate k moves body a (k < na) or body b: only that body's kinematics are recomputed.
    const Kin ka0 = cx_.bodies.kin(jd.a, ql.data(), nullptr), kb0 = cx_.bodies.kin(jd.b, ql.data() + jd.na, nullptr);
    auto gen_force = [&](int k, VecN& out) {
      const bool on_a = k < jd.na;
      const Kin ka = on_a ? cx_.bodies.kin(jd.a, ql.data(), nullptr) : ka0;
      const Kin kb = on_a ? kb0 : cx_.bodies.kin(jd.b, ql.data() + jd.na, nullptr);
      detail::eval_joint(jd, ka, kb, false, jd.drive(s.t), e);
      out = jacobian(jd, ka, kb, e).transpose() * lam;
    };
    BlockN B(nc, nc);
    VecN fp, fm;
    detail::central_differences(ql, 0, nc, fp, fm, gen_force, [&](int k, const VecN& p, const VecN& m, double h2) {
      B.col(k) = (p - m) / h2;
    });
    jd.tangent_map.scatter_add(A, B, c_q);
  }
}

void Joints::add_jacobian(UnitScratch*, const UnitState& s, RowLevel level, SparseMatrix& J) const {
  detail::JointEval e;
  for (const JointData& jd : joints_) {
    if (jd.active.empty()) continue;
    if (level == RowLevel::Velocity) {
      velocity_jacobian(jd, s, J);
      continue;
    }
    const Kin& ka = (*s.kin)[jd.a];
    const Kin& kb = (*s.kin)[jd.b];
    detail::eval_joint(jd, ka, kb, false, jd.drive(s.t), e);
    jd.jac_map.scatter_add(J, jacobian(jd, ka, kb, e));
  }
}

void Joints::velocity_jacobian(const JointData& jd, const UnitState& s, SparseMatrix& J) const {
  const int nc = jd.na + jd.nb, nact = static_cast<int>(jd.active.size());
  VecN ql, vl;
  gather_local(jd.coords, s.q.data(), s.v.data(), ql, vl);
  // Coordinate k moves body a (k < na) or body b: only that body's kinematics are recomputed.
  const Kin ka0 = cx_.bodies.kin(jd.a, ql.data(), vl.data());
  const Kin kb0 = cx_.bodies.kin(jd.b, ql.data() + jd.na, vl.data() + jd.na);
  detail::JointEval e;
  auto cdot = [&](int k, VecN& out) {
    const bool on_a = k < jd.na;
    const Kin ka = on_a ? cx_.bodies.kin(jd.a, ql.data(), vl.data()) : ka0;
    const Kin kb = on_a ? kb0 : cx_.bodies.kin(jd.b, ql.data() + jd.na, vl.data() + jd.na);
    detail::eval_joint(jd, ka, kb, false, jd.drive(s.t), e);
    out.resize(nact);
    for (int r = 0; r < nact; ++r) out[r] = row_value(e, ka, kb, jd.active[static_cast<size_t>(r)], RowLevel::Velocity);
  };
  BlockN B(nact, nc);
  VecN fp, fm;
  detail::central_differences(ql, 0, nc, fp, fm, cdot, [&](int k, const VecN& p, const VecN& m, double h2) {
    B.col(k) = (p - m) / h2;
  });
  jd.jac_map.scatter_add(J, B);
}

std::string Joints::row_label(int local) const {
  const JointData& jd = joints_[static_cast<size_t>(row_joint_[static_cast<size_t>(local)])];
  const int r = local - jd.first_row;
  return "joint '" + jd.name + "' (" + to_string(jd.type) + ") equation " + std::to_string(r + 1) + " (" +
         jd.rows[static_cast<size_t>(r)].what + ")";
}

bool Joints::row_velocity_level(int local) const {
  const JointData& jd = joints_[static_cast<size_t>(row_joint_[static_cast<size_t>(local)])];
  return detail::is_velocity_level(jd.rows[static_cast<size_t>(local - jd.first_row)].kind);
}

JointReaction Joints::reaction(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  const JointData& jd = joints_.at(static_cast<size_t>(joint));
  JointReaction out;
  if (jd.active.empty()) return out;
  const Kin ka = cx_.bodies.kin_state(jd.a, q.data(), nullptr), kb = cx_.bodies.kin_state(jd.b, q.data(), nullptr);
  detail::JointEval e;
  detail::eval_joint(jd, ka, kb, false, jd.drive(t), e);
  Row6 fb = Row6::Zero();
  for (size_t k = 0; k < jd.active.size(); ++k) fb += lambda[jd.active_global[k]] * e.Wb.row(jd.active[k]);
  // Generalised constraint force on b is −C_qbᵀ λ: the wrench at b's reference point is −W_bᵀ λ.
  const Vec3 F = -fb.head<3>().transpose();
  const Vec3 tau_ref = -fb.tail<3>().transpose();
  const Vec3 rb = kb.R * jd.xb;
  out.force_W = F;
  out.torque_W = tau_ref - rb.cross(F);
  const Mat3 Rj = ka.R * jd.Aa;
  out.force_J = Rj.transpose() * out.force_W;
  out.torque_J = Rj.transpose() * out.torque_W;
  return out;
}

double Joints::drive_force(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  const JointData& jd = joints_.at(static_cast<size_t>(joint));
  if (!jd.driven) throw std::invalid_argument("joint_drive_force: joint '" + jd.name + "' is not driven");
  const Kin ka = cx_.bodies.kin_state(jd.a, q.data(), nullptr), kb = cx_.bodies.kin_state(jd.b, q.data(), nullptr);
  detail::JointEval e;
  detail::eval_joint(jd, ka, kb, false, jd.drive(t), e);
  const int lr = static_cast<int>(jd.rows.size()) - 1;  // the drive row is the last one
  double lam = 0;
  for (size_t k = 0; k < jd.active.size(); ++k)
    if (jd.active[k] == lr) lam = lambda[jd.active_global[k]];
  // Wrench of the drive row on b: −W_bᵀ λ; its component along the joint axis.
  const Mat3 FA = ka.R * jd.Aa;
  if (joint_type_info(jd.type).coordinate == JointCoordinateKind::AngleAboutZ)
    return -lam * e.Wb.row(lr).tail<3>().dot(FA.col(2));
  return -lam * e.Wb.row(lr).head<3>().dot(FA.col(0));
}

JointCoordinate Joints::coordinate(int joint, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a) const {
  const JointData& jd = joints_.at(static_cast<size_t>(joint));
  const JointCoordinateKind ck = joint_type_info(jd.type).coordinate;
  if (ck == JointCoordinateKind::None) {
    std::string with;
    for (const JointTypeInfo& ti : joint_types())
      if (ti.coordinate != JointCoordinateKind::None) with += std::string(with.empty() ? "" : ", ") + ti.name;
    throw std::invalid_argument("joint_coordinate: joint '" + jd.name + "' is " + to_string(jd.type) +
                                "; only these joint types have one: " + with);
  }
  const Kin ka = cx_.bodies.kin_state(jd.a, q.data(), v.data()), kb = cx_.bodies.kin_state(jd.b, q.data(), v.data());
  const bool acc = a.size() == q.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto alpha = [&](BodyIndex i, const Kin& k) -> Vec3 {
    if (i == kGround || !acc) return Vec3::Zero();
    const BodyData& bd = cx_.bodies[i];
    return k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
  };
  auto accel = [&](BodyIndex i, const Kin& k, const Vec3& r) -> Vec3 {
    if (i == kGround || !acc) return Vec3::Zero();
    return a.segment<3>(cx_.bodies[i].off) + alpha(i, k).cross(r) + k.w.cross(k.w.cross(r));
  };
  JointCoordinate out;
  const Mat3 FA = ka.R * jd.Aa;
  if (ck == JointCoordinateKind::AngleAboutZ) {
    // Angle of b's marker x axis about a's z axis; for a driven joint measured from the
    // prescribed angle, so that it is continuous over any number of turns.
    const Vec3 z = FA.col(2), xb = kb.R * jd.Ab.col(0);
    const double s = jd.motion ? (*jd.motion)(t) : 0.0;
    const Vec3 u = std::cos(s) * FA.col(0) + std::sin(s) * FA.col(1);
    const Vec3 w = -std::sin(s) * FA.col(0) + std::cos(s) * FA.col(1);
    out.value = s + std::atan2(xb.dot(w), xb.dot(u));
    const Vec3 wr = kb.w - ka.w;
    out.rate = wr.dot(z);
    out.acceleration = acc ? (alpha(jd.b, kb) - alpha(jd.a, ka)).dot(z) + wr.dot(ka.w.cross(z)) : nan;
    return out;
  }
  // Translation along the axis: x_a·d (prismatic: frame x; cylindrical: frame z).
  const Vec3 e = ck == JointCoordinateKind::DisplacementAlongX ? Vec3(FA.col(0)) : Vec3(FA.col(2));
  const Vec3 ra = ka.R * jd.xa, rb = kb.R * jd.xb;
  const Vec3 d = kb.p + rb - ka.p - ra;
  const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
  const Vec3 ed = ka.w.cross(e);
  out.value = e.dot(d);
  out.rate = ed.dot(d) + e.dot(dd);
  out.acceleration = nan;
  if (acc) {
    const Vec3 ddd = accel(jd.b, kb, rb) - accel(jd.a, ka, ra);
    const Vec3 edd = alpha(jd.a, ka).cross(e) + ka.w.cross(ed);
    out.acceleration = edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddd);
  }
  return out;
}

}  // namespace mbdae::units
