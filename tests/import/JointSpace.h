#pragma once
/// @file JointSpace.h
/// Test support: the map between joint coordinates (q, q̇, q̈ of a kinematic tree, as MuJoCo's qpos,
/// qvel, qacc) and mbdae's absolute Newton–Euler state (each body's COM position and quaternion,
/// COM velocity and body-axes angular velocity; NewtonEuler.h), for a model whose bodies hang on
/// a tree of revolute, prismatic and fixed joints from the ground, each joint listed as
/// [parent, child].
///
/// Kinematics, with the joint's world axis e and point P at the reference configuration (q = 0)
/// carried along by the parent, o a body's reference point, ω, α its angular velocity and
/// acceleration (world), a its reference point's acceleration:
///
///   revolute:  ω_c = ω_p + e q̇,  α_c = α_p + e q̈ + ω_p × e q̇,
///              a_c = a_P + α_c × d + ω_c × (ω_c × d),  d = o_c − P,
///              a_P = a_p + α_p × (P − o_p) + ω_p × (ω_p × (P − o_p));
///   prismatic: ω_c = ω_p,  a_c = a_p + α_p × r + ω_p × (ω_p × r) + 2 ω_p × e q̇ + e q̈,  r = o_c − o_p;
///   fixed:     as prismatic with q̇ = q̈ = 0.
///
/// mbdae's velocities are u = (v_C, w_B) per body, u = J(q) q̇, and u̇ = J q̈ + b(q, q̇) with
/// v̇_C = a + α × (R c) + ω × (ω × R c) and ẇ_B = Rᵀ α (c the COM offset in body axes). The
/// joint-space mass matrix is Jᵀ diag(m I, J_C) J, the bias forces Jᵀ (diag(m I, J_C) b − f) with
/// f the applied forces and the gyroscopic torque −w_B × J_C w_B, and q̈ follows from mbdae's
/// u̇ as the least-squares solution of J q̈ = u̇ − b (exact when u̇ satisfies the joints).

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/model/System.h>

namespace mbdae::testing {

class JointSpace {
 public:
  struct Link {
    int body;         ///< index in System::bodies()
    int parent;       ///< body index of the parent, −1 for the ground
    JointType type;
    int coordinate;   ///< index in q, −1 for a fixed joint
    Vec3 e0, P0;      ///< axis and point, world, at q = 0
    std::string joint;
  };

  explicit JointSpace(const System& s) : sys_(s) {
    const int n = static_cast<int>(s.bodies().size());
    std::vector<int> placed(static_cast<size_t>(n), 0);
    std::map<std::string, int> index;
    for (int i = 0; i < n; ++i) index[s.bodies()[static_cast<size_t>(i)].name] = i;
    auto body_of = [&](const std::string& name) { return name == "ground" ? -1 : index.at(name); };
    std::vector<bool> used(s.joints().size(), false);
    bool progress = true;
    while (progress) {
      progress = false;
      for (size_t k = 0; k < s.joints().size(); ++k) {
        if (used[k]) continue;
        const Joint& j = s.joints()[k];
        const int a = body_of(j.bodies[0]), b = body_of(j.bodies[1]);
        const bool a_known = a < 0 || placed[static_cast<size_t>(a)];
        if (!a_known) continue;
        if (b < 0 || placed[static_cast<size_t>(b)]) throw std::runtime_error("closed loop at joint " + j.name);
        if (j.type != JointType::Revolute && j.type != JointType::Prismatic && j.type != JointType::Fixed)
          throw std::runtime_error("joint " + j.name + ": only revolute, prismatic and fixed joints are mapped");
        Link l{b, a, j.type, -1, j.axis.normalized(), j.point, j.name};
        if (j.type != JointType::Fixed) {
          l.coordinate = nq_++;
          coordinate_joint_.push_back(j.name);
        }
        links_.push_back(l);
        placed[static_cast<size_t>(b)] = 1;
        used[k] = true;
        progress = true;
      }
    }
    for (int i = 0; i < n; ++i)
      if (!placed[static_cast<size_t>(i)])
        throw std::runtime_error("body " + s.bodies()[static_cast<size_t>(i)].name + " hangs on no tree joint");
  }

  int nq() const { return nq_; }
  const std::vector<std::string>& coordinate_joints() const { return coordinate_joint_; }

  struct Motion {
    std::vector<Eigen::Isometry3d> X;  ///< body frames (reference point, R_WB)
    std::vector<Vec3> w, alpha, v, a;  ///< world; v, a of the reference point
  };

  /// Poses, velocities and accelerations of every body at (q, q̇, q̈).
  Motion motion(const VecX& q, const VecX& qd, const VecX& qdd) const {
    const size_t n = sys_.bodies().size();
    Motion m;
    m.X.assign(n, Eigen::Isometry3d::Identity());
    m.w.assign(n, Vec3::Zero());
    m.alpha = m.v = m.a = m.w;
    for (const Link& l : links_) {
      Eigen::Isometry3d Xp = Eigen::Isometry3d::Identity(), Xp0 = Eigen::Isometry3d::Identity();
      Vec3 wp = Vec3::Zero(), alp = Vec3::Zero(), vp = Vec3::Zero(), ap = Vec3::Zero();
      if (l.parent >= 0) {
        const auto p = static_cast<size_t>(l.parent);
        Xp = m.X[p];
        Xp0 = reference(l.parent);
        wp = m.w[p], alp = m.alpha[p], vp = m.v[p], ap = m.a[p];
      }
      const Eigen::Isometry3d Xc0 = reference(l.body);
      const double qi = l.coordinate >= 0 ? q[l.coordinate] : 0, qdi = l.coordinate >= 0 ? qd[l.coordinate] : 0,
                   qddi = l.coordinate >= 0 ? qdd[l.coordinate] : 0;
      Eigen::Isometry3d Jq = Eigen::Isometry3d::Identity();  // the joint's motion, world at q = 0
      if (l.type == JointType::Revolute) {
        Jq.linear() = Eigen::AngleAxisd(qi, l.e0).toRotationMatrix();
        Jq.translation() = l.P0 - Jq.linear() * l.P0;
      } else if (l.type == JointType::Prismatic) {
        Jq.translation() = qi * l.e0;
      }
      const Eigen::Isometry3d Xc = Xp * Xp0.inverse() * Jq * Xc0;
      const Eigen::Isometry3d carry = Xp * Xp0.inverse();
      const Vec3 e = carry.linear() * l.e0, P = carry * l.P0;
      const Vec3 op = Xp.translation(), oc = Xc.translation();
      Vec3 w = wp, al = alp, v, a;
      if (l.type == JointType::Revolute) {
        w = wp + e * qdi;
        al = alp + e * qddi + wp.cross(e) * qdi;
        const Vec3 rP = P - op, d = oc - P;
        const Vec3 vP = vp + wp.cross(rP), aP = ap + alp.cross(rP) + wp.cross(wp.cross(rP));
        v = vP + w.cross(d);
        a = aP + al.cross(d) + w.cross(w.cross(d));
      } else {
        const Vec3 r = oc - op;
        v = vp + wp.cross(r) + e * qdi;
        a = ap + alp.cross(r) + wp.cross(wp.cross(r)) + 2 * wp.cross(e) * qdi + e * qddi;
      }
      const auto c = static_cast<size_t>(l.body);
      m.X[c] = Xc, m.w[c] = w, m.alpha[c] = al, m.v[c] = v, m.a[c] = a;
    }
    return m;
  }

  /// mbdae's Newton–Euler state (x: 7 per body, u: 6 per body) and u̇ at (q, q̇, q̈).
  void newton_euler(const NewtonEulerSystem& ne, const VecX& q, const VecX& qd, const VecX& qdd, VecX& x, VecX& u,
                    VecX& ud) const {
    const Motion m = motion(q, qd, qdd);
    const int n = ne.num_bodies();
    x.setZero(7 * n);
    u.setZero(6 * n);
    ud.setZero(6 * n);
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<size_t>(i);
      const Mat3 R = m.X[k].linear();
      const Vec3 rc = R * ne.com_offset(i);
      const Eigen::Quaterniond Q(R);
      x.segment<3>(7 * i) = m.X[k].translation() + rc;
      x.segment<4>(7 * i + 3) << Q.w(), Q.x(), Q.y(), Q.z();
      u.segment<3>(6 * i) = m.v[k] + m.w[k].cross(rc);
      u.segment<3>(6 * i + 3) = R.transpose() * m.w[k];
      ud.segment<3>(6 * i) = m.a[k] + m.alpha[k].cross(rc) + m.w[k].cross(m.w[k].cross(rc));
      ud.segment<3>(6 * i + 3) = R.transpose() * m.alpha[k];
    }
  }

  /// J (6n × nq): u = J q̇ at q (the velocities are linear in q̇).
  MatX velocity_jacobian(const NewtonEulerSystem& ne, const VecX& q) const {
    MatX J(6 * ne.num_bodies(), nq_);
    VecX x, u, ud;
    for (int k = 0; k < nq_; ++k) {
      newton_euler(ne, q, VecX::Unit(nq_, k), VecX::Zero(nq_), x, u, ud);
      J.col(k) = u;
    }
    return J;
  }

  /// diag(m I, J_C) per body (6n × 6n).
  static MatX body_mass_matrix(const NewtonEulerSystem& ne) {
    const int n = ne.num_bodies();
    MatX M = MatX::Zero(6 * n, 6 * n);
    for (int i = 0; i < n; ++i) {
      M.block<3, 3>(6 * i, 6 * i) = ne.mass(i) * Mat3::Identity();
      M.block<3, 3>(6 * i + 3, 6 * i + 3) = ne.inertia_com(i);
    }
    return M;
  }

 private:
  Eigen::Isometry3d reference(int body) const {
    const RigidBody& b = sys_.bodies()[static_cast<size_t>(body)];
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = b.orientation;
    X.translation() = b.position;
    return X;
  }

  const System& sys_;
  std::vector<Link> links_;
  std::vector<std::string> coordinate_joint_;
  int nq_ = 0;
};

}  // namespace mbdae::testing
