// Rigid-body formulation in absolute coordinates; see Multibody.h for the equations.
// Sources: Exudyn ObjectRigidBody documentation (Eq. 52–54, seed 001); Nikravesh, Computer-Aided
// Analysis of Mechanical Systems (1988), for the G matrices and the γ terms of joint constraints.
// Penalty contacts: Hunt & Crossley (J. Appl. Mech. 42, 1975) and the damping factor of Flores,
// Machado, Silva & Martins (Multibody Syst. Dyn. 25, 2011); see docs/joints_forces_analyses.md.

#include <mbdae/formulations/Multibody.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include <Eigen/LU>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/ContactGeometry.h>
#include <mbdae/formulations/ContactPairs.h>
#include <mbdae/model/math/Rotation.h>

#include "FiniteDifference.h"
#include "ForceKernels.h"
#include "JointKernels.h"

namespace mbdae {

namespace {

using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 4>;
using Row6 = Eigen::Matrix<double, 1, 6>;
using BlockN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 14, 14>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 14, 1>;

/// Kinematics of one body at one state, world axes unless noted.
struct Kin : detail::FrameKin {  // p, v, R, w, ah
  Mat3X G;                 // local G (3 × nr): ω_B = G θ̇
  Mat3X RG;                // R G (3 × nr): ω_W = R G θ̇
  Vec3 wB = Vec3::Zero();  // ω in body axes
  Vec3 gdB = Vec3::Zero(); // Ġθ̇, body axes (ah = R Ġθ̇)
};

struct BodyData {
  std::string name;
  RotationParametrization param;
  int off = 0, n = 0, nr = 0;
  double m = 0;
  Mat3 J;
  Vec3 b;
  std::vector<int> loads;
  int ep_row = -1;  // active row of the norm constraint, -1 if none or disabled
  BlockMap tangent_map;
  BlockMap ep_jac_map;  // 1 × 4 (θ columns)
};

struct JointData : detail::JointGeometry {  // markers and equations
  std::string name;
  JointType type;
  BodyIndex a = kGround, b = kGround;
  std::vector<int> active;          // indices into rows that are active
  std::vector<int> active_global;   // their row indices in the active row list
  std::vector<int> coords;          // global coordinate indices of a then b
  int na = 0, nb = 0;
  BlockMap jac_map;      // active rows × coords
  BlockMap tangent_map;  // coords × coords
  const TimeFunction* motion = nullptr;  // driven joints (points into the compiled model)
  const TimeFunction* speed = nullptr;   // speed-driven joints (points into the compiled model)
  const std::array<TimeFunction, 6>* offsets = nullptr;  // generic joints with offsets (the same)
};

/// A force element: bodies, their coordinates, markers fixed at set-up.
struct ForceData : detail::ForceGeometry {  // markers fixed at set-up
  const ForceElement* src = nullptr;  // points into the compiled model
  std::vector<BodyIndex> bodies;
  std::vector<int> coords, sizes;     // global coordinate indices (body by body, then the
                                      // controller states it reads), sizes (bodies only)
  int n_body_coords = 0;              // the bodies' share of coords
  BlockMap tangent_map;
};

/// A controller state z (System::controller_states()): its coordinate c (q_c = ∫z dt, v_c = z,
/// a_c = ż), the bodies and states its derivative reads, and its tangent row.
struct ControllerData {
  const ControllerState* src = nullptr;  // points into the compiled model
  int c = 0;                             // global coordinate
  std::vector<BodyIndex> bodies;
  std::vector<int> sizes;                // coordinates of each body
  std::vector<int> coords;               // global coordinates: the bodies', then the states' read
  int n_body_coords = 0;
  BlockMap tangent_map;                  // row {c} × coords
};

/// A pair of contact shapes on different bodies, handled as a penalty force element.
struct ContactPairData {
  std::string name;       // "contacts 'x' and 'y'", for messages
  BodyIndex a = kGround, b = kGround;  // bodies of shapes 1 and 2 (model order)
  PlacedShape g1, g2;     // geometry, pose in the body frame (from the reference point)
  PenaltyParameters pen;  // the pair's parameters
  double mu = 0;          // pair friction √(μ_a μ_b)
  double mur = 0;         // pair rolling resistance max(μ_r,a, μ_r,b)
  double mut = 0;         // pair torsional friction max(μ_t,a, μ_t,b), m
  double chi = 0;         // Hunt–Crossley damping factor χ, s/m
  std::vector<int> coords;  // coordinates of a then b
  int na = 0, nb = 0;
  BlockMap tangent_map;
};

struct FullRow {
  int body = -1;   // Euler-parameter norm row of this body
  int joint = -1;  // or row `local` of this joint
  int local = 0;
  int unit = -1;   // or this coupling row unit (Impl::units)
};

/// One term of a coupling row unit: c φ (an angle coordinate, `marker` false) or c times one
/// marker equation of a joint between bodies a and b (TransDriven with s = 0: a prismatic joint's
/// displacement; RotDriven with s = φ: a revolute joint's angle row).
struct RowTerm {
  double c = 1;
  int phi = -1;         // local index of the angle coordinate φ (or a shaft's coordinate), -1 if none
  double q0 = 0;        // the coordinate's value at t0 (a shaft's; 0 for an angle φ)
  bool marker = false;  // a marker equation (geo.rows[0])
  detail::JointGeometry geo;
  BodyIndex a = kGround, b = kGround;
  int la = 0, lb = 0;   // local index of the first coordinate of body a, b (not ground)
};

/// A constraint row of the couplings (Multibody.h): a revolute joint's angle row or a coupling's
/// equation, over its local coordinates `coords`.
struct RowUnit {
  std::string label;
  ItemRef item;
  std::vector<int> coords;  // global coordinate indices
  std::vector<RowTerm> terms;
  int active = -1;          // its active row, -1 if disabled
  BlockMap jac_map, tangent_map;
};

/// A 1-D shaft (System::shafts()): its coordinate and inertia.
struct ShaftData {
  int coord = 0;     // global coordinate index
  double J = 0;      // kg m² or kg
  int diag = -1;     // value index of (coord, coord) in the tangent pattern (also the mass matrix's)
};
/// An effort on shafts (System::shaft_forces()): coordinates of its ends (-1: ground).
struct ShaftForceData {
  const ShaftForce* src = nullptr;  // points into the compiled model
  int ca = -1, cb = -1;             // spring_damper: a, b; load: ca
  double free = 0;                  // Δ0 of a spring_damper
  std::vector<int> coords;          // spring_damper: the ends that are shafts (a then b)
  BlockMap tangent_map;             // coords × coords
};

/// Value, rate and γ of a row unit.
struct UnitEval {
  double c = 0, cv = 0, g = 0;
};


}  // namespace

/// The scratch memory of the evaluations (MultibodySystem::make_workspace()): the work arrays of
/// each function, one member per array (no two functions share one, so nested calls cannot
/// overwrite each other's). Each only grows: no allocation once they have their sizes.
struct MultibodySystem::WorkspaceData final : ConstrainedSystem::Workspace::Data {
  std::vector<Kin> all_kin;                          // Impl::all_kin()
  std::vector<BodyMotion> user_motion;               // Impl::force_wrenches(): user forces
  std::vector<Kin> gen_kin;                          // Impl::force_generalized()
  std::vector<Wrench> gen_wrench;                    // Impl::force_generalized_kin()
  std::vector<double> elem_q, elem_v, elem_g;        // Impl::add_element_forces(q, v)
  std::vector<Kin> elem_kin;                         // Impl::add_element_forces(ks)
  std::vector<Wrench> elem_wrench;
  std::vector<double> elem_states;                   // Impl::element_states()
  std::vector<BodyMotion> ctrl_motion;               // Impl::controller_derivative()
  std::vector<double> ctrl_q, ctrl_v;                // Impl::add_controller_derivatives()
  std::vector<double> ctan_q, ctan_v;                // assemble_tangent(): controller states
  MatX ctan_B;
  std::vector<int> pairs;                            // Impl::active_pairs()
  GridBroadPhase grid;
  std::vector<Vec3> centre, finite_centre;
  std::vector<std::pair<int, int>> cand;
  std::vector<Mat3> rot;
  VecX res_q, res_grad;                              // residual(): coupling rows
  VecX con_q;                                        // constraints()
  VecX cv_q, cv_v;                                   // constraint_velocity()
  VecX gam_q, gam_v;                                 // gamma()
  std::vector<double> tan_q, tan_v, tan_gp, tan_gm, tan_B;  // assemble_tangent(): force elements
  std::vector<Kin> tan_kin0, tan_kin;
  VecX tan_uq, tan_fp, tan_fm;                       // assemble_tangent(): coupling rows
  MatX tan_uB;
  VecX jac_q, jac_grad;                              // assemble_jacobian()
  VecX vj_q, vj_v;                                   // assemble_velocity_jacobian()
  MatX vj_B;
  std::vector<Kin> rf_kin;                           // Impl::add_reaction_friction(), the friction tangents
  std::vector<Wrench> rf_wrench;                     // Impl::reaction_friction_unit()
  std::vector<double> rf_q, rf_v, rf_g, rf_gp, rf_gm, rf_B, rf_dN;
  std::vector<Kin> pot_kin;                          // potential_energy()
  std::vector<Wrench> pot_wrench;
  VecX viol_c, viol_cv;                              // constraint_violation()
};

struct MultibodySystem::Impl {
  std::shared_ptr<const CompiledModel> cm;  // the tables this formulation reads (CompiledModel.h)
  const System& model() const { return cm->system(); }
  std::vector<BodyData> bodies;
  std::vector<JointData> joints;
  std::vector<ForceData> forces;
  std::vector<ContactPairData> contact_pairs;
  // Couplings: the angle coordinates φ (one per coupled revolute joint, after the bodies'
  // coordinates), the row units (angle rows, then one row per coupling) and each coupling's unit.
  std::vector<int> angle_joint;      // joint of angle coordinate k (global index n_angle0 + k)
  std::vector<int> angle_of_joint;   // per joint: its angle coordinate k, -1 if none
  int n_body = 0;                    // coordinates of the bodies
  // The shafts' coordinates [n_body, n_angle0), one each, then the couplings' angles.
  std::vector<ShaftData> shafts;
  std::vector<ShaftForceData> shaft_forces;
  int n_angle0 = 0;
  std::vector<RowUnit> units;
  std::vector<int> coupling_unit;    // per coupling: its unit
  // Controller states: coordinates n_ctrl0 … n − 1 (Multibody.h).
  std::vector<ControllerData> controllers;
  int n_ctrl0 = 0;
  // The penalty contacts' shapes for the broad phase shared with the impulse stepper
  // (ContactGeometry.h): each shape's body, its pose in the body frame and bounding radius; the
  // finite shapes' bounds and bodies as GridBroadPhase takes them; the pair of two shapes.
  struct ContactShape {
    BodyIndex body = kGround;
    PlacedShape g;  // pose in the body frame (from the reference point)
    double bound = 0;
  };
  std::vector<ContactShape> contact_shapes;
  std::vector<int> finite_shapes, plane_shapes;
  std::vector<double> finite_bound;
  std::vector<int> finite_group;
  std::unordered_map<std::uint64_t, int> pair_of_shapes;  // (i << 32) | j, i < j → contact_pairs index
  /// Joint friction whose normal force is its joint's reaction (ForceElement::normal_from_reaction):
  /// its force element (index in `forces`), its joint, and the block of its ∂r/∂λ (the joint's
  /// active rows × the element's coordinates, in C_q's pattern).
  struct ReactionFriction {
    int force = 0, joint = 0;
    BlockMap lam_map;
  };
  std::vector<ReactionFriction> rfric;
  std::vector<FullRow> all_rows;
  std::vector<char> vel_row;  // per active row: velocity-level (nonholonomic)
  std::vector<int> active_to_full;
  int n = 0, m = 0;
  SparseMatrix tangent_pattern, jacobian_pattern;

  // ---- kinematics ----
  void rot_kin(const BodyData& bd, const double* th, const double* thd, Kin& k) const {
    switch (bd.param) {
      case RotationParametrization::EulerParameters: {
        // The rotation is that of the normalised parameters θ/|θ|, so that R stays orthonormal
        // while |θ| drifts (index-2 forms) and every derivative below is exact for any θ ≠ 0:
        // R = R_quad(θ)/|θ|², ω_B = G(θ) θ̇/|θ|², and with Ġθ̇ = 0 for the quadratic forms,
        // d/dt(G/|θ|²) θ̇ = −2 (θ·θ̇)/|θ|² ω_B. On the unit sphere these are the textbook forms.
        const Vec4 e(th[0], th[1], th[2], th[3]);
        const double s = 1.0 / e.squaredNorm();
        k.R = s * math::ep_to_matrix(e);
        k.G = s * math::ep_G_local(e);
        if (thd) {
          const Vec4 ed(thd[0], thd[1], thd[2], thd[3]);
          k.gdB = (-2.0 * s * e.dot(ed)) * (k.G * ed);
        } else {
          k.gdB.setZero();
        }
        break;
      }
      case RotationParametrization::TaitBryan: {
        const Vec3 a(th[0], th[1], th[2]);
        k.R = math::rxyz_to_matrix(a);
        k.G = math::rxyz_G_local(a);
        k.gdB = thd ? math::rxyz_G_local_dot_times(a, Vec3(thd[0], thd[1], thd[2])) : Vec3::Zero();
        break;
      }
      case RotationParametrization::RotationVector: {
        const Vec3 a(th[0], th[1], th[2]);
        k.R = math::so3_exp(a);
        k.G = math::rotvec_G_local(a);
        k.gdB = thd ? math::rotvec_G_local_dot_times(a, Vec3(thd[0], thd[1], thd[2])) : Vec3::Zero();
        break;
      }
    }
  }

  /// Kinematics from a body's coordinate and velocity arrays (v may be null: velocities zero).
  Kin kin(BodyIndex i, const double* q, const double* v) const {
    Kin k;
    if (i == kGround) {
      k.G.resize(3, 0);
      k.RG.resize(3, 0);
      return k;
    }
    const BodyData& bd = bodies[static_cast<size_t>(i)];
    k.p = Vec3(q[0], q[1], q[2]);
    rot_kin(bd, q + 3, v ? v + 3 : nullptr, k);
    k.RG = k.R * k.G;
    if (v) {
      k.v = Vec3(v[0], v[1], v[2]);
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>> thd(v + 3, bd.nr);
      k.wB = k.G * thd;
      k.w = k.R * k.wB;
      k.ah = k.R * k.gdB;
    }
    return k;
  }
  Kin kin_state(BodyIndex i, ConstVecRef q, const double* v) const {
    if (i == kGround) return kin(i, nullptr, nullptr);
    const int off = bodies[static_cast<size_t>(i)].off;
    return kin(i, q.data() + off, v ? v + off : nullptr);
  }
  /// Kinematics of every body at (q, v) (v may be null), evaluated once per call of residual()
  /// or constraints() instead of once per joint. The storage is the workspace's and keeps its
  /// capacity, so only the first call allocates.
  const std::vector<Kin>& all_kin(WorkspaceData& W, ConstVecRef q, const double* v) const {
    std::vector<Kin>& ks = W.all_kin;
    if (ks.size() < bodies.size()) ks.resize(bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i) {
      const int off = bodies[i].off;
      ks[i] = kin(static_cast<BodyIndex>(i), q.data() + off, v ? v + off : nullptr);
    }
    return ks;
  }
  /// Appends the coordinate indices of body i (none for ground) to `coords`; returns their count.
  int append_coords(BodyIndex i, std::vector<int>& coords) const {
    if (i == kGround) return 0;
    const BodyData& bd = bodies[static_cast<size_t>(i)];
    for (int k = 0; k < bd.n; ++k) coords.push_back(bd.off + k);
    return bd.n;
  }
  const Kin& ground_kin() const {
    static const Kin g = kin(kGround, nullptr, nullptr);
    return g;
  }
  const Kin& cached(const std::vector<Kin>& ks, BodyIndex i) const {
    return i == kGround ? ground_kin() : ks[static_cast<size_t>(i)];
  }

  detail::DriveState drive(const JointData& jd, double t) const {
    return detail::drive_state(jd.motion, jd.offsets, t, jd.speed);
  }

  // ---- force elements ----
  /// Wrenches (at the reference points, world) of force element fd on its bodies, from the
  /// bodies' kinematics; adds the element's potential energy to *V if V is given.
  void force_wrenches(WorkspaceData& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                      std::vector<Wrench>& out, double* V, const double* states = nullptr) const {
    std::vector<BodyMotion>& bm = W.user_motion;  // user forces only; grows once
    const size_t ns = fd.coords.size() - static_cast<size_t>(fd.n_body_coords);
    detail::force_wrenches(*fd.src, fd, t, ks, out, V, bm, std::span<const double>(states, states ? ns : 0));
  }
  /// The values of the controller states element fd reads, from the global velocities v (in the
  /// workspace, valid until the next call).
  const double* element_states(WorkspaceData& W, const ForceData& fd, const double* v) const {
    std::vector<double>& x = W.elem_states;  // grows once
    x.clear();
    for (size_t k = static_cast<size_t>(fd.n_body_coords); k < fd.coords.size(); ++k) x.push_back(v[fd.coords[k]]);
    return x.data();
  }

  /// Kinematics of a force element's bodies from a local coordinate vector (body by body).
  void force_kin(const ForceData& fd, const double* qloc, const double* vloc, std::vector<Kin>& ks) const {
    ks.resize(fd.bodies.size());
    int o = 0;
    for (size_t k = 0; k < fd.bodies.size(); ++k) {
      ks[k] = kin(fd.bodies[k], qloc + o, vloc ? vloc + o : nullptr);
      o += fd.sizes[k];
    }
  }
  /// Generalised force of the element on its coordinates (local vector of size coords.size(),
  /// written to out). The work vectors are the workspace's and only grow: no allocation in the
  /// step loop.
  void force_generalized(WorkspaceData& W, const ForceData& fd, double t, const double* qloc,
                         const double* vloc, double* out) const {
    std::vector<Kin>& ks = W.gen_kin;
    force_kin(fd, qloc, vloc, ks);
    force_generalized_kin(W, fd, t, ks, vloc ? vloc + fd.n_body_coords : nullptr, out);
  }
  /// Generalized forces on the element's body coordinates (out: fd.coords.size()) from its
  /// wrenches w (at the points of ks, world): the force on the translation, G_R^T of the torque on
  /// the rotation coordinates.
  static void generalized_from_wrenches(const ForceData& fd, const std::vector<Kin>& ks, const std::vector<Wrench>& w,
                                        double* out) {
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
  /// The same from the bodies' kinematics (ks as force_kin fills it); `states` the values of the
  /// controller states the element reads (its local velocities after the bodies').
  void force_generalized_kin(WorkspaceData& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                             const double* states, double* out) const {
    std::vector<Wrench>& w = W.gen_wrench;
    force_wrenches(W, fd, t, ks, w, nullptr, states);
    generalized_from_wrenches(fd, ks, w, out);
  }
  /// −(c_q ∂f/∂q + c_v ∂f/∂v) of a user force with a given Jacobian: f = Tᵀ W with
  /// T = blockdiag([I 0; 0 R G]) maps the wrenches W to the coordinates, so
  ///   ∂f/∂q = Tᵀ (∂W/∂x T + ∂W/∂ξ ∂ξ/∂q) + ∂(Tᵀ)/∂q W,   ∂f/∂v = Tᵀ ∂W/∂ξ T;
  /// the two kinematic terms (no user call) by central differences.
  void user_force_tangent(WorkspaceData& Ws, const ForceData& fd, double t, VecX& ql, const VecX& vl,
                          double c_q, double c_v, MatX& B) const {
    const ForceElement& f = *fd.src;
    const int nc = static_cast<int>(fd.coords.size()), N = 6 * static_cast<int>(fd.bodies.size());
    std::vector<Kin> ks;
    force_kin(fd, ql.data(), vl.data(), ks);
    std::vector<Wrench> W;
    force_wrenches(Ws, fd, t, ks, W, nullptr);
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
      force_kin(fd, ql.data(), vl.data(), kk);
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

  /// Adds every force element's generalised force times `sign` to the global vector r.
  void add_element_forces(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, double sign, VecRef r) const {
    std::vector<double>&ql = W.elem_q, &vl = W.elem_v, &g = W.elem_g;  // grow once, no allocation in the step loop
    for (const ForceData& fd : forces) {
      if (fd.coords.empty()) continue;
      const int nc = static_cast<int>(fd.coords.size());
      ql.resize(static_cast<size_t>(nc));
      vl.resize(static_cast<size_t>(nc));
      g.resize(static_cast<size_t>(nc));
      for (int k = 0; k < nc; ++k) {
        ql[static_cast<size_t>(k)] = q[fd.coords[static_cast<size_t>(k)]];
        vl[static_cast<size_t>(k)] = v[fd.coords[static_cast<size_t>(k)]];
      }
      force_generalized(W, fd, t, ql.data(), vl.data(), g.data());
      for (int k = 0; k < nc; ++k) r[fd.coords[static_cast<size_t>(k)]] += sign * g[static_cast<size_t>(k)];
    }
  }

  /// add_element_forces() from kinematics already evaluated for every body (all_kin at the same
  /// q and v): no kinematics per element.
  void add_element_forces(WorkspaceData& W, double t, const std::vector<Kin>& ks, const double* v, double sign,
                          VecRef r) const {
    std::vector<Kin>& kk = W.elem_kin;  // grows once
    std::vector<Wrench>& w = W.elem_wrench;
    for (const ForceData& fd : forces) {
      if (fd.coords.empty()) continue;
      kk.resize(fd.bodies.size());
      for (size_t k = 0; k < fd.bodies.size(); ++k) kk[k] = cached(ks, fd.bodies[k]);
      force_wrenches(W, fd, t, kk, w, nullptr, element_states(W, fd, v));
      int o = 0;
      for (size_t k = 0; k < fd.bodies.size(); ++k) {
        const int nb = fd.sizes[k];
        if (nb) {  // a body's coordinates are contiguous (append_coords)
          const int g = fd.coords[static_cast<size_t>(o)];
          r.segment<3>(g) += sign * w[k].force;
          r.segment(g + 3, nb - 3) += sign * (kk[k].RG.transpose() * w[k].torque);
        }
        o += nb;
      }
    }
  }

  // ---- joint friction by reaction ----
  /// N_r of reaction friction rf (joint_friction_reaction_normal: |F_⊥| + (r_a/r) |F_∥|, the preload
  /// not included) from the force F = −Σ_k λ_k W_b,k (translation part) that its joint's active
  /// rows exert on b at the joint's bodies' kinematics ka, kb; with dN (size: the joint's active
  /// rows) ∂N_r/∂λ_k = −(∂N_r/∂F)·W_b,k.
  double reaction_normal(const ReactionFriction& rf, double t, const Kin& ka, const Kin& kb, ConstVecRef lambda,
                         double* dN) const {
    const JointData& jd = joints[static_cast<size_t>(rf.joint)];
    const ForceData& fd = forces[static_cast<size_t>(rf.force)];
    if (jd.active.empty()) return 0.0;
    detail::JointEval e;
    detail::eval_joint(jd, ka, kb, false, drive(jd, t), e);
    Vec3 F = Vec3::Zero();
    for (size_t k = 0; k < jd.active.size(); ++k)
      F -= lambda[jd.active_global[k]] * e.Wb.row(jd.active[k]).head<3>().transpose();
    const Vec3 axis = ka.R * fd.Aa.col(2);
    Vec3 dNdF;
    const double N = joint_friction_reaction_normal(*fd.src, F, axis, dN ? &dNdF : nullptr);
    if (dN)
      for (size_t k = 0; k < jd.active.size(); ++k) dN[k] = -dNdF.dot(e.Wb.row(jd.active[k]).head<3>());
    return N;
  }
  /// The generalised force per newton of normal force of rf's Coulomb–Stribeck part
  /// (joint_friction_wrench(f, 1, false)) on the element's coordinates (out, size coords), from its
  /// bodies' kinematics ks (a, b).
  void reaction_friction_unit(WorkspaceData& W, const ForceData& fd, double t, const std::vector<Kin>& ks,
                              double* out) const {
    std::vector<Wrench>& w = W.rf_wrench;
    detail::pair_wrenches(*fd.src, fd, t, ks, w, {}, [&](const PairMotion& m, Vec3& Fb, Vec3& Tb) {
      joint_friction_wrench(*fd.src, 1.0, false, fd, m, Fb, Tb);
    });
    generalized_from_wrenches(fd, ks, w, out);
  }
  /// −f_r = −N_r(q, λ) g(q, v) of reaction friction rf from its local coordinates and velocities
  /// (out, size coords).
  void reaction_friction_local(WorkspaceData& W, const ReactionFriction& rf, double t, const double* ql,
                               const double* vl, ConstVecRef lambda, double* out) const {
    const ForceData& fd = forces[static_cast<size_t>(rf.force)];
    std::vector<Kin>& ks = W.rf_kin;
    force_kin(fd, ql, vl, ks);
    const double N = reaction_normal(rf, t, ks[0], ks[1], lambda, nullptr);
    reaction_friction_unit(W, fd, t, ks, out);
    Eigen::Map<VecX>(out, static_cast<int>(fd.coords.size())) *= -N;
  }
  /// Adds every reaction friction's generalised force times `sign` to r (kinematics ks of all
  /// bodies at the same q, v).
  void add_reaction_friction(WorkspaceData& W, double t, const std::vector<Kin>& ks, ConstVecRef lambda, double sign,
                             VecRef r) const {
    std::vector<Kin>& kk = W.rf_kin;
    std::vector<double>& g = W.rf_g;
    for (const ReactionFriction& rf : rfric) {
      const ForceData& fd = forces[static_cast<size_t>(rf.force)];
      kk.resize(2);
      kk[0] = cached(ks, fd.bodies[0]);
      kk[1] = cached(ks, fd.bodies[1]);
      const double N = reaction_normal(rf, t, kk[0], kk[1], lambda, nullptr);
      if (N == 0) continue;
      g.resize(fd.coords.size());
      reaction_friction_unit(W, fd, t, kk, g.data());
      for (size_t k = 0; k < fd.coords.size(); ++k) r[fd.coords[k]] += sign * N * g[k];
    }
  }

  // ---- controller states ----
  /// ż of controller cd from its local coordinates (bodies' q and v, then the states' v).
  double controller_derivative(WorkspaceData& W, const ControllerData& cd, double t, const double* qloc,
                               const double* vloc) const {
    std::vector<BodyMotion>& bm = W.ctrl_motion;  // grows once
    bm.resize(cd.bodies.size());
    int o = 0;
    for (size_t k = 0; k < cd.bodies.size(); ++k) {
      const Kin kk = kin(cd.bodies[k], qloc + o, vloc + o);
      bm[k] = {kk.p, kk.R, kk.v, kk.w};
      o += cd.sizes[k];
    }
    const size_t ns = cd.coords.size() - static_cast<size_t>(cd.n_body_coords);
    return cd.src->derivative(t, bm, std::span<const double>(vloc + cd.n_body_coords, ns));
  }
  /// ż of every controller state into r[c] times `sign` (added).
  void add_controller_derivatives(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, double sign,
                                  VecRef r) const {
    std::vector<double>&ql = W.ctrl_q, &vl = W.ctrl_v;  // grow once
    for (const ControllerData& cd : controllers) {
      ql.resize(cd.coords.size());
      vl.resize(cd.coords.size());
      for (size_t k = 0; k < cd.coords.size(); ++k) {
        ql[k] = q[cd.coords[k]];
        vl[k] = v[cd.coords[k]];
      }
      r[cd.c] += sign * controller_derivative(W, cd, t, ql.data(), vl.data());
    }
  }

  // ---- penalty contacts ----
  /// Wrenches (at the reference points, world) of contact pair cp on its two bodies from their
  /// kinematics; adds the elastic energy of the penetrations to *V if V is given. The points
  /// come from the same narrow phase as the impulse stepper's (ContactGeometry.h). No allocation.
  void contact_wrenches(const ContactPairData& cp, const Kin& k1, const Kin& k2, Wrench& w1,
                        Wrench& w2, double* V) const {
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

  /// Generalised force of contact pair cp on its coordinates [q_a, q_b] (local vectors).
  void contact_generalized(const ContactPairData& cp, const double* qloc, const double* vloc,
                           VecN& out) const {
    const Kin k1 = kin(cp.a, qloc, vloc);
    const Kin k2 = kin(cp.b, qloc + cp.na, vloc + cp.na);
    Wrench w1, w2;
    contact_wrenches(cp, k1, k2, w1, w2, nullptr);
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

  /// The contact pairs whose shapes may touch at q, by the broad phase shared with the impulse
  /// stepper (ContactGeometry.h: the grid for finite shapes, the bounding-sphere test for planes).
  /// The pairs far apart give no force and no tangent, so only these are evaluated. The storage
  /// is the workspace's (as all_kin()); the reference is valid until the next call with it.
  const std::vector<int>& active_pairs(WorkspaceData& W, ConstVecRef q) const {
    std::vector<int>& out = W.pairs;
    GridBroadPhase& grid = W.grid;
    std::vector<Vec3>&centre = W.centre, &finite_centre = W.finite_centre;
    std::vector<std::pair<int, int>>& cand = W.cand;
    std::vector<Mat3>& rot = W.rot;
    out.clear();
    if (contact_pairs.empty()) return out;
    // At most one entry per pair: reserved (a no-op once the capacity is there), so that no
    // evaluation allocates after the first with a workspace.
    out.reserve(contact_pairs.size());
    cand.reserve(contact_pairs.size());
    grid.reserve(finite_shapes.size());
    centre.resize(contact_shapes.size());
    rot.resize(contact_shapes.size());
    for (size_t k = 0; k < contact_shapes.size(); ++k) {
      const ContactShape& cs = contact_shapes[k];
      if (cs.body == kGround) {
        centre[k] = cs.g.c_W;
        rot[k] = cs.g.R_WS;
      } else {
        const Kin kk = kin_state(cs.body, q, nullptr);
        centre[k] = kk.p + kk.R * cs.g.c_W;
        rot[k] = kk.R * cs.g.R_WS;
      }
    }
    constexpr double margin = 1e-6;  // m: a pair just apart still gets its tangent by differences
    auto add = [&](int i, int j) {
      const auto it = pair_of_shapes.find((static_cast<std::uint64_t>(std::min(i, j)) << 32) |
                                          static_cast<std::uint64_t>(std::max(i, j)));
      if (it != pair_of_shapes.end()) out.push_back(it->second);
    };
    for (int pi : plane_shapes) {
      PlacedShape pl = contact_shapes[static_cast<size_t>(pi)].g;
      pl.c_W = centre[static_cast<size_t>(pi)];
      pl.R_WS = rot[static_cast<size_t>(pi)];
      for (int si : finite_shapes)
        if (plane_may_touch(pl, centre[static_cast<size_t>(si)], contact_shapes[static_cast<size_t>(si)].bound, margin))
          add(pi, si);
    }
    finite_centre.resize(finite_shapes.size());
    for (size_t e = 0; e < finite_shapes.size(); ++e) finite_centre[e] = centre[static_cast<size_t>(finite_shapes[e])];
    grid.find_pairs(finite_centre, finite_bound, finite_group, margin, cand);
    for (const auto& [i, j] : cand) add(finite_shapes[static_cast<size_t>(i)], finite_shapes[static_cast<size_t>(j)]);
    return out;
  }

  /// Adds the generalised force of every contact pair that may touch (active_pairs()) times
  /// `sign` to the global vector r.
  void add_contact_forces(WorkspaceData& W, ConstVecRef q, ConstVecRef v, double sign, VecRef r) const {
    VecN ql, vl, g;
    for (int pi : active_pairs(W, q)) {
      const ContactPairData& cp = contact_pairs[static_cast<size_t>(pi)];
      const int nc = cp.na + cp.nb;
      ql.resize(nc);
      vl.resize(nc);
      for (int k = 0; k < nc; ++k) {
        ql[k] = q[cp.coords[static_cast<size_t>(k)]];
        vl[k] = v[cp.coords[static_cast<size_t>(k)]];
      }
      contact_generalized(cp, ql.data(), vl.data(), g);
      for (int k = 0; k < nc; ++k) r[cp.coords[static_cast<size_t>(k)]] += sign * g[k];
    }
  }

  // ---- body equations ----
  /// Applied force F (world) and torque τ about the reference point (world) on body i.
  void applied(BodyIndex i, double t, const Kin& k, Vec3& F, Vec3& tau) const {
    const BodyData& bd = bodies[static_cast<size_t>(i)];
    const Vec3 Fg = bd.m * model().gravity;
    F = Fg;
    tau = (k.R * bd.b).cross(Fg);
    for (int li : bd.loads) {
      const Load& l = model().loads()[static_cast<size_t>(li)];
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

  /// r_i = M_i a_i − f_i (inertia and applied forces of body i; no constraint forces).
  template <class Out>
  void body_residual(BodyIndex i, double t, const double* q, const double* v, const double* a,
                     Out&& r) const {
    body_residual_kin(i, t, kin(i, q, v), a, std::forward<Out>(r));
  }
  /// The same from the body's kinematics k = kin(i, q, v), already evaluated.
  template <class Out>
  void body_residual_kin(BodyIndex i, double t, const Kin& k, const double* a, Out&& r) const {
    const BodyData& bd = bodies[static_cast<size_t>(i)];
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>> thdd(a + 3, bd.nr);
    const Vec3 ap(a[0], a[1], a[2]);
    const Vec3 alB = k.G * thdd + k.gdB;
    Vec3 F, tau;
    applied(i, t, k, F, tau);
    const Vec3& b = bd.b;
    const Vec3 wB = k.wB;
    r.template head<3>() = bd.m * (ap + k.R * (alB.cross(b) + wB.cross(wB.cross(b)))) - F;
    const Vec3 mom = bd.m * b.cross(k.R.transpose() * ap) + bd.J * alB + wB.cross(bd.J * wB) -
                     k.R.transpose() * tau;
    r.segment(3, bd.nr) = k.G.transpose() * mom;
  }

  /// Mass matrix block of body i (Eq. 52).
  BlockN body_mass(BodyIndex i, const double* q) const {
    const BodyData& bd = bodies[static_cast<size_t>(i)];
    const Kin k = kin(i, q, nullptr);
    BlockN M = BlockN::Zero(bd.n, bd.n);
    const Mat3 bt = math::skew(bd.b);
    M.topLeftCorner<3, 3>() = bd.m * Mat3::Identity();
    M.block(0, 3, 3, bd.nr) = -bd.m * k.R * bt * k.G;
    M.block(3, 0, bd.nr, 3) = bd.m * k.G.transpose() * bt * k.R.transpose();
    M.block(3, 3, bd.nr, bd.nr) = k.G.transpose() * bd.J * k.G;
    return M;
  }

  // ---- shafts ----
  /// Effort of shaft force sf at (q, v) (global vectors) on its ends: +u on a, −u on b for a
  /// spring-damper (u = k (Δ − Δ0) + d Δ̇, Δ = q_b − q_a), u on the shaft for a load; adds the
  /// spring's potential to *V if given. ua, ub: the efforts on ca and cb.
  void shaft_effort(const ShaftForceData& sf, double t, ConstVecRef q, const double* v, double& ua, double& ub,
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
  /// Adds the shafts' efforts times `sign` to the global vector r.
  void add_shaft_forces(double t, ConstVecRef q, ConstVecRef v, double sign, VecRef r) const {
    for (const ShaftForceData& sf : shaft_forces) {
      double ua = 0, ub = 0;
      shaft_effort(sf, t, q, v.data(), ua, ub, nullptr);
      if (sf.ca >= 0) r[sf.ca] += sign * ua;
      if (sf.cb >= 0) r[sf.cb] += sign * ub;
    }
  }

  // ---- couplings ----
  /// Value, rate (if v is given) and γ (if with_gamma) of row unit u at its local coordinates
  /// q, v (size coords.size()); its gradient ∂C/∂q into grad (same size) if given.
  void eval_unit(const RowUnit& u, const double* q, const double* v, bool with_gamma, UnitEval& o,
                 double* grad) const {
    o = UnitEval{};
    if (grad) std::fill(grad, grad + u.coords.size(), 0.0);
    detail::JointEval e;
    for (const RowTerm& tm : u.terms) {
      if (!tm.marker) {
        o.c += tm.c * (q[tm.phi] - tm.q0);
        if (v) o.cv += tm.c * v[tm.phi];
        if (grad) grad[tm.phi] += tm.c;
        continue;
      }
      const Kin ka = kin(tm.a, q + tm.la, v ? v + tm.la : nullptr);
      const Kin kb = kin(tm.b, q + tm.lb, v ? v + tm.lb : nullptr);
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
      if (!grad) continue;
      if (tm.a != kGround) {
        const int na = bodies[static_cast<size_t>(tm.a)].nr;
        for (int k = 0; k < 3; ++k) grad[tm.la + k] += tm.c * e.Wa(0, k);
        const VecN ga = ka.RG.transpose() * e.Wa.row(0).tail<3>().transpose();
        for (int k = 0; k < na; ++k) grad[tm.la + 3 + k] += tm.c * ga[k];
      }
      if (tm.b != kGround) {
        const int nb = bodies[static_cast<size_t>(tm.b)].nr;
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
  }
  /// The local coordinates of unit u gathered from a global vector into the first entries of
  /// `out`, which only grows (workspace vectors: no allocation once they have grown).
  static void gather_unit(const RowUnit& u, ConstVecRef x, VecX& out) {
    grow(out, static_cast<int>(u.coords.size()));
    for (size_t k = 0; k < u.coords.size(); ++k) out[static_cast<int>(k)] = x[u.coords[k]];
  }
  /// ql, vl ← the values of q and v at `coords` (resized to its length; a workspace's buffers
  /// grow once).
  static void gather_local(const std::vector<int>& coords, ConstVecRef q, ConstVecRef v, std::vector<double>& ql,
                           std::vector<double>& vl) {
    ql.resize(coords.size());
    vl.resize(coords.size());
    for (size_t k = 0; k < coords.size(); ++k) {
      ql[k] = q[coords[k]];
      vl[k] = v[coords[k]];
    }
  }
  /// Makes x at least n long (never shrinks it).
  static void grow(VecX& x, int n) {
    if (x.size() < n) x.resize(n);
  }

  // ---- joints ----
  /// C_q block of the joint's active rows, columns [coords of a, coords of b].
  BlockN joint_jacobian(const JointData& jd, const Kin& ka, const Kin& kb, const detail::JointEval& e) const {
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

  /// Kinematics of both joint bodies from a local coordinate vector [q_a, q_b] (and velocities).
  void joint_kin(const JointData& jd, const double* qloc, const double* vloc, Kin& ka, Kin& kb) const {
    ka = kin(jd.a, qloc, vloc);
    kb = kin(jd.b, qloc + jd.na, vloc ? vloc + jd.na : nullptr);
  }
  void gather(const JointData& jd, ConstVecRef x, VecN& out) const {
    out.resize(jd.na + jd.nb);
    for (int k = 0; k < jd.na + jd.nb; ++k) out[k] = x[jd.coords[static_cast<size_t>(k)]];
  }
};

// ===================================================================================== setup

MultibodySystem::MultibodySystem(const System& model, MultibodyOptions options)
    : MultibodySystem(compile(model), std::move(options)) {}

MultibodySystem::MultibodySystem(std::shared_ptr<const CompiledModel> compiled, MultibodyOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!compiled) throw std::invalid_argument("MultibodySystem: no compiled model");
  const System& model = compiled->system();
  {
    // Friction whose normal force is the joint's reaction reads the multipliers in the force law:
    // only a caller that forms ∂r/∂λ with assemble_multiplier_tangent() (the time integrators
    // generalized-α, trapezoidal index 2, IDA) may take it; forces() leaves it out.
    std::vector<ModelProblem> p;
    for (size_t i = 0; i < model.forces().size() && !options.reaction_friction; ++i)
      if (model.forces()[i].type == ForceType::JointFriction && model.forces()[i].normal_from_reaction)
        p.push_back({"force '" + model.forces()[i].name +
                         "': joint friction with the joint's reaction as the normal force (normal: reaction) is "
                         "taken by the time integrators (generalized_alpha, trapezoidal_index2, ida, impulse), not "
                         "by this use of the implicit formulation (MultibodySystem without "
                         "MultibodyOptions::reaction_friction: the analyses, forces() without multipliers)",
                     ItemRef::force(static_cast<int>(i))});
    if (!p.empty()) throw ModelError(std::move(p));
  }
  Impl& I = *impl_;
  I.cm = std::move(compiled);
  const CompiledModel& cm = *I.cm;

  // Bodies and their coordinates.
  int off = 0;
  for (const CompiledModel::Body& cb : cm.bodies()) {
    BodyData bd;
    bd.name = cb.name;
    bd.param = cb.rotation;
    bd.nr = cb.rotation == RotationParametrization::EulerParameters ? 4 : 3;
    bd.n = 3 + bd.nr;
    bd.off = off;
    off += bd.n;
    bd.m = cb.mass;
    bd.J = cb.inertia_ref;
    bd.b = cb.com;
    bd.loads = cb.loads;
    I.bodies.push_back(bd);
  }
  I.n = off;

  // Full row list: Euler-parameter norms, then joints.
  for (size_t i = 0; i < I.bodies.size(); ++i)
    if (I.bodies[i].param == RotationParametrization::EulerParameters)
      I.all_rows.push_back({static_cast<int>(i), -1, 0});

  for (size_t ji = 0; ji < cm.joints().size(); ++ji) {
    const CompiledModel::Joint& cj = cm.joints()[ji];
    JointData jd;
    jd.name = cj.name;
    jd.type = cj.type;
    jd.a = cj.a;
    jd.b = cj.b;
    static_cast<detail::JointGeometry&>(jd) = cj.at_reference;
    jd.motion = cj.motion;
    jd.speed = cj.speed;
    jd.offsets = cj.offsets;

    for (size_t r = 0; r < jd.rows.size(); ++r)
      I.all_rows.push_back({-1, static_cast<int>(ji), static_cast<int>(r)});
    jd.na = I.append_coords(jd.a, jd.coords);
    jd.nb = I.append_coords(jd.b, jd.coords);
    I.joints.push_back(std::move(jd));
  }

  // Shafts: one coordinate each after the bodies', and their efforts.
  I.n_body = I.n;
  for (const Shaft& sh : I.model().shafts()) {
    I.shafts.push_back({I.n, sh.inertia});
    ++I.n;
  }
  I.n_angle0 = I.n;
  for (const ShaftForce& f : I.model().shaft_forces()) {
    ShaftForceData sf;
    sf.src = &f;
    auto coord = [&](const std::string& name) {
      const int si = I.model().shaft_index(name);  // System::problems() refused unknown shafts
      return si < 0 ? -1 : I.shafts[static_cast<size_t>(si)].coord;
    };
    auto q0 = [&](const std::string& name) {
      const int si = I.model().shaft_index(name);
      return si < 0 ? 0.0 : I.model().shafts()[static_cast<size_t>(si)].position;
    };
    sf.ca = coord(f.shafts[0]);
    if (f.kind == ShaftForce::Kind::SpringDamper) {
      sf.cb = coord(f.shafts[1]);
      sf.free = f.free_value ? *f.free_value : q0(f.shafts[1]) - q0(f.shafts[0]);
    }
    I.shaft_forces.push_back(sf);
  }

  // Couplings: an angle coordinate φ and its row w_a(φ)·x_b = 0 for each coupled revolute joint
  // (the angle counts turns), then one row Σ c_i q_i = 0 per coupling.
  I.angle_of_joint.assign(I.joints.size(), -1);
  if (!I.model().couplings().empty()) {
    auto geometry = [&](int ji, EquationKind kind) {
      detail::JointGeometry g = cm.joints()[static_cast<size_t>(ji)].at_reference;
      g.rows = {{kind, 0, 0, ""}};
      g.driven = kind == EquationKind::RotDriven;
      return g;
    };
    // Local index of global coordinate c in unit u (added if new); a body's coordinates are
    // added together, so they stay contiguous.
    auto local = [](RowUnit& u, int c) {
      for (size_t k = 0; k < u.coords.size(); ++k)
        if (u.coords[k] == c) return static_cast<int>(k);
      u.coords.push_back(c);
      return static_cast<int>(u.coords.size()) - 1;
    };
    auto body_local = [&](RowUnit& u, BodyIndex b) {
      if (b == kGround) return 0;
      const BodyData& bd = I.bodies[static_cast<size_t>(b)];
      const int first = local(u, bd.off);
      for (int k = 1; k < bd.n; ++k) local(u, bd.off + k);
      return first;
    };
    auto marker_term = [&](RowUnit& u, int ji, EquationKind kind, double c) {
      const JointData& jd = I.joints[static_cast<size_t>(ji)];
      RowTerm tm;
      tm.c = c;
      tm.marker = true;
      tm.geo = geometry(ji, kind);
      tm.a = jd.a;
      tm.b = jd.b;
      tm.la = body_local(u, jd.a);
      tm.lb = body_local(u, jd.b);
      return tm;
    };
    for (const Coupling& cp : I.model().couplings())
      for (const std::string& jn : cp.joints) {
        const int ji = cm.joint_index(jn);
        if (ji < 0) continue;  // a shaft (System::problems() refused unknown names)
        if (I.joints[static_cast<size_t>(ji)].type != JointType::Revolute || I.angle_of_joint[static_cast<size_t>(ji)] >= 0)
          continue;
        I.angle_of_joint[static_cast<size_t>(ji)] = static_cast<int>(I.angle_joint.size());
        I.angle_joint.push_back(ji);
      }
    I.n = I.n_angle0 + static_cast<int>(I.angle_joint.size());
    for (size_t k = 0; k < I.angle_joint.size(); ++k) {
      const int ji = I.angle_joint[k];
      RowUnit u;
      u.label = "joint '" + I.joints[static_cast<size_t>(ji)].name + "' (revolute) angle of its couplings";
      u.item = ItemRef::joint(ji);
      RowTerm tm = marker_term(u, ji, EquationKind::RotDriven, 1.0);
      tm.phi = local(u, I.n_angle0 + static_cast<int>(k));
      u.terms.push_back(std::move(tm));
      I.units.push_back(std::move(u));
    }
    for (size_t ci = 0; ci < I.model().couplings().size(); ++ci) {
      const Coupling& cp = I.model().couplings()[ci];
      RowUnit u;
      u.label = std::string(to_string(cp.kind)) + " coupling '" + cp.name + "'";
      u.item = ItemRef::coupling(static_cast<int>(ci));
      for (size_t k = 0; k < cp.joints.size(); ++k) {
        const double c = cp.coefficients[k];
        const int ji = cm.joint_index(cp.joints[k]);
        if (ji < 0) {  // a shaft: c (q − q0)
          const int si = I.model().shaft_index(cp.joints[k]);
          RowTerm tm;
          tm.c = c;
          tm.phi = local(u, I.shafts[static_cast<size_t>(si)].coord);
          tm.q0 = I.model().shafts()[static_cast<size_t>(si)].position;
          u.terms.push_back(std::move(tm));
          continue;
        }
        if (I.joints[static_cast<size_t>(ji)].type == JointType::Revolute) {
          RowTerm tm;
          tm.c = c;
          tm.phi = local(u, I.n_angle0 + I.angle_of_joint[static_cast<size_t>(ji)]);
          u.terms.push_back(std::move(tm));
        } else {
          u.terms.push_back(marker_term(u, ji, EquationKind::TransDriven, c));
        }
      }
      I.coupling_unit.push_back(static_cast<int>(I.units.size()));
      I.units.push_back(std::move(u));
    }
    for (size_t u = 0; u < I.units.size(); ++u) I.all_rows.push_back({-1, -1, 0, static_cast<int>(u)});
  }

  // Controller states: one coordinate each after the couplings' (validate() refused unknown names).
  I.n_ctrl0 = I.n;
  for (const CompiledModel::Controller& cc : cm.controllers()) {
    ControllerData cd;
    cd.src = cc.src;
    cd.c = I.n++;
    for (const BodyIndex bi : cc.bodies) {
      cd.bodies.push_back(bi);
      cd.sizes.push_back(I.append_coords(bi, cd.coords));
    }
    cd.n_body_coords = static_cast<int>(cd.coords.size());
    I.controllers.push_back(std::move(cd));
  }
  for (size_t k = 0; k < I.controllers.size(); ++k)
    for (const int st : cm.controllers()[k].states) I.controllers[k].coords.push_back(I.n_ctrl0 + st);

  // Force elements (each keeps its own copy of the markers: a motor's turn count is this
  // formulation's, ForceGeometry::last_angle).
  for (const CompiledModel::Force& cf : cm.forces()) {
    ForceData fd;
    fd.src = cf.src;
    for (const BodyIndex bi : cf.bodies) {
      fd.bodies.push_back(bi);
      const int nb = bi == kGround ? 0 : I.bodies[static_cast<size_t>(bi)].n;
      fd.sizes.push_back(nb);
      for (int k = 0; k < nb; ++k) fd.coords.push_back(I.bodies[static_cast<size_t>(bi)].off + k);
    }
    fd.n_body_coords = static_cast<int>(fd.coords.size());
    for (const int st : cf.states) fd.coords.push_back(I.n_ctrl0 + st);
    static_cast<detail::ForceGeometry&>(fd) = cf.geometry;
    I.forces.push_back(std::move(fd));
  }
  for (size_t i = 0; i < I.forces.size(); ++i) {
    const ForceElement& f = *I.forces[i].src;
    if (f.type != ForceType::JointFriction || !f.normal_from_reaction) continue;
    Impl::ReactionFriction rf;
    rf.force = static_cast<int>(i);
    rf.joint = cm.joint_index(f.joint);
    if (rf.joint < 0) throw std::logic_error("joint_friction '" + f.name + "': no joint '" + f.joint + "'");
    const BodyIndex ja = cm.joints()[static_cast<size_t>(rf.joint)].a;
    const BodyIndex jb = cm.joints()[static_cast<size_t>(rf.joint)].b;
    if (I.forces[i].bodies.size() != 2 || I.forces[i].bodies[0] != ja || I.forces[i].bodies[1] != jb)
      throw std::logic_error("joint_friction '" + f.name + "': its bodies are not its joint's");
    I.rfric.push_back(std::move(rf));
  }

  // Contacts: every pair of shapes on different bodies that the narrow phase handles becomes a
  // penalty force element (its coupling of the two bodies is in the pattern from the start).
  {
    const auto& cs = I.model().contacts();
    std::vector<ModelProblem> problems;
    std::vector<BodyIndex> cb(cs.size(), kGround);
    bool bodies_known = true;
    for (size_t k = 0; k < cs.size(); ++k) {
      const ItemRef item = ItemRef::contact(static_cast<int>(k));
      for (auto& p : contact_problems(cs[k])) problems.push_back({std::move(p), item});
      if (const std::optional<BodyIndex> b = cm.shapes()[k].body) {
        cb[k] = *b;
      } else {
        problems.push_back({"contact '" + cs[k].name + "': unknown body '" + cs[k].body + "'", item});
        bodies_known = false;
      }
    }
    if (!bodies_known) throw ModelError(std::move(problems));  // the pairs need the bodies
    if (I.model().contact_penalty)
      for (auto& p : penalty_problems(*I.model().contact_penalty, "contact_penalty: "))
        problems.push_back({std::move(p), {}});
    for (size_t k = 0; k < cs.size(); ++k) {
      Impl::ContactShape sh;
      sh.body = cb[k];
      sh.g = cm.shapes()[k].pose;
      sh.bound = cm.shapes()[k].bound;
      I.contact_shapes.push_back(sh);
      if (cs[k].shape == ShapeType::Plane) {
        I.plane_shapes.push_back(static_cast<int>(k));
      } else {
        I.finite_shapes.push_back(static_cast<int>(k));
        I.finite_bound.push_back(sh.bound);
        I.finite_group.push_back(static_cast<int>(cb[k]));
      }
    }
    for (ModelProblem& p : contact_pair_problems(I.model(), ContactPath::Penalty)) problems.push_back(std::move(p));
    for (size_t i = 0; i < cs.size(); ++i)
      for (size_t j = i + 1; j < cs.size(); ++j) {
        // Pairs the penalty path does not take are refused just above.
        bool swapped;
        if (cb[i] == cb[j] || !contact_pair_kind(cs[i].shape, cs[j].shape, swapped).on(ContactPath::Penalty)) continue;
        const Contact& ci = cs[i];
        const Contact& cj = cs[j];
        const ItemRef item = ItemRef::contact(static_cast<int>(j));  // a pair's problems: at its second shape
        ContactPairData cp;
        cp.name = "contacts '" + ci.name + "' and '" + cj.name + "'";
        cp.a = cb[i];
        cp.b = cb[j];
        // Body-frame poses relative to the reference point (ground: world).
        cp.g1 = cm.shapes()[i].pose;
        cp.g2 = cm.shapes()[j].pose;
        // Parameters: those of the pair's shape b (the sphere, else the capsule, else the box),
        // else of its shape a, else the model's.
        const Contact& sb = shape_order(ci.shape) <= shape_order(cj.shape) ? cj : ci;
        const Contact& sa = &sb == &cj ? ci : cj;
        const std::optional<PenaltyParameters>& pen =
            sb.penalty ? sb.penalty : sa.penalty ? sa.penalty : I.model().contact_penalty;
        if (!pen) {
          problems.push_back({cp.name + ": no penalty parameters (give a penalty block on a contact or a "
                                        "model-wide contact_penalty) for the implicit formulation",
                              item});
          continue;
        }
        cp.pen = *pen;
        const ContactMaterial mat = cm.material(static_cast<int>(i), static_cast<int>(j));
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
        cp.na = I.append_coords(cp.a, cp.coords);
        cp.nb = I.append_coords(cp.b, cp.coords);
        I.pair_of_shapes.emplace((static_cast<std::uint64_t>(i) << 32) | static_cast<std::uint64_t>(j),
                                 static_cast<int>(I.contact_pairs.size()));
        I.contact_pairs.push_back(std::move(cp));
      }
    if (!problems.empty()) throw ModelError(std::move(problems));
  }

  // Active rows.
  std::vector<bool> disabled(I.all_rows.size(), false);
  for (int r : options.disabled_rows) {
    if (r < 0 || r >= static_cast<int>(I.all_rows.size()))
      throw std::out_of_range("MultibodyOptions::disabled_rows: row " + std::to_string(r) +
                              " does not exist");
    disabled[static_cast<size_t>(r)] = true;
  }
  for (size_t r = 0; r < I.all_rows.size(); ++r) {
    if (disabled[r]) continue;
    const int act = static_cast<int>(I.active_to_full.size());
    I.active_to_full.push_back(static_cast<int>(r));
    const FullRow& fr = I.all_rows[r];
    I.vel_row.push_back(
        fr.joint >= 0 && detail::is_velocity_level(
                             I.joints[static_cast<size_t>(fr.joint)].rows[static_cast<size_t>(fr.local)].kind));
    if (fr.body >= 0) I.bodies[static_cast<size_t>(fr.body)].ep_row = act;
    else if (fr.unit >= 0) I.units[static_cast<size_t>(fr.unit)].active = act;
    else {
      JointData& jd = I.joints[static_cast<size_t>(fr.joint)];
      jd.active.push_back(fr.local);
      jd.active_global.push_back(act);
    }
  }
  I.m = static_cast<int>(I.active_to_full.size());

  // Patterns, computed once.
  PatternBuilder tp(I.n, I.n), jp(I.m, I.n);
  for (const BodyData& bd : I.bodies) {
    tp.add_block(bd.off, bd.n, bd.off, bd.n);
    if (bd.ep_row >= 0) jp.add_block(bd.ep_row, 1, bd.off + 3, 4);
  }
  for (const JointData& jd : I.joints) {
    tp.add_block(jd.coords, jd.coords);
    jp.add_block(jd.active_global, jd.coords);
  }
  for (const ForceData& fd : I.forces) tp.add_block(fd.coords, fd.coords);
  for (const Impl::ReactionFriction& rf : I.rfric)  // already in C_q's joint block (same bodies)
    jp.add_block(I.joints[static_cast<size_t>(rf.joint)].active_global, I.forces[static_cast<size_t>(rf.force)].coords);
  for (const ControllerData& cd : I.controllers) {
    tp.add_block({cd.c}, {cd.c});
    tp.add_block({cd.c}, cd.coords);
  }
  for (const ContactPairData& cp : I.contact_pairs) tp.add_block(cp.coords, cp.coords);
  for (const ShaftData& sd : I.shafts) tp.add_block(sd.coord, 1, sd.coord, 1);
  for (ShaftForceData& sf : I.shaft_forces) {
    if (sf.src->kind != ShaftForce::Kind::SpringDamper) continue;
    if (sf.ca >= 0) sf.coords.push_back(sf.ca);
    if (sf.cb >= 0) sf.coords.push_back(sf.cb);
    tp.add_block(sf.coords, sf.coords);
  }
  for (const RowUnit& u : I.units) {
    tp.add_block(u.coords, u.coords);
    if (u.active >= 0) jp.add_block({u.active}, u.coords);
  }
  I.tangent_pattern = tp.build();
  I.jacobian_pattern = jp.build();
  for (BodyData& bd : I.bodies) {
    std::vector<int> c;
    for (int k = 0; k < bd.n; ++k) c.push_back(bd.off + k);
    bd.tangent_map = BlockMap::make(I.tangent_pattern, c, c);
    if (bd.ep_row >= 0)
      bd.ep_jac_map = BlockMap::make(I.jacobian_pattern, {bd.ep_row},
                                     {bd.off + 3, bd.off + 4, bd.off + 5, bd.off + 6});
  }
  for (JointData& jd : I.joints) {
    jd.jac_map = BlockMap::make(I.jacobian_pattern, jd.active_global, jd.coords);
    jd.tangent_map = BlockMap::make(I.tangent_pattern, jd.coords, jd.coords);
  }
  for (ForceData& fd : I.forces) fd.tangent_map = BlockMap::make(I.tangent_pattern, fd.coords, fd.coords);
  for (Impl::ReactionFriction& rf : I.rfric)
    rf.lam_map = BlockMap::make(I.jacobian_pattern, I.joints[static_cast<size_t>(rf.joint)].active_global,
                                I.forces[static_cast<size_t>(rf.force)].coords);
  for (ControllerData& cd : I.controllers) cd.tangent_map = BlockMap::make(I.tangent_pattern, {cd.c}, cd.coords);
  for (ContactPairData& cp : I.contact_pairs)
    cp.tangent_map = BlockMap::make(I.tangent_pattern, cp.coords, cp.coords);
  for (ShaftData& sd : I.shafts) sd.diag = value_index(I.tangent_pattern, sd.coord, sd.coord);
  for (ShaftForceData& sf : I.shaft_forces) sf.tangent_map = BlockMap::make(I.tangent_pattern, sf.coords, sf.coords);
  for (RowUnit& u : I.units) {
    u.tangent_map = BlockMap::make(I.tangent_pattern, u.coords, u.coords);
    if (u.active >= 0) u.jac_map = BlockMap::make(I.jacobian_pattern, {u.active}, u.coords);
  }
}

MultibodySystem::~MultibodySystem() = default;

int MultibodySystem::num_coordinates() const { return impl_->n; }
int MultibodySystem::num_contact_pairs() const { return static_cast<int>(impl_->contact_pairs.size()); }
int MultibodySystem::num_contact_pairs_near(Workspace& ws, ConstVecRef q) const {
  return static_cast<int>(impl_->active_pairs(workspace_data<WorkspaceData>(ws), q).size());
}
MultibodySystem::Workspace MultibodySystem::make_workspace() const {
  return Workspace(*this, std::make_unique<WorkspaceData>());
}
int MultibodySystem::num_constraints() const { return impl_->m; }
const System& MultibodySystem::model() const { return impl_->model(); }
const std::shared_ptr<const CompiledModel>& MultibodySystem::compiled() const { return impl_->cm; }
int MultibodySystem::body_offset(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).off; }
int MultibodySystem::body_size(BodyIndex i) const { return impl_->bodies.at(static_cast<size_t>(i)).n; }
int MultibodySystem::num_all_rows() const { return static_cast<int>(impl_->all_rows.size()); }
const SparseMatrix& MultibodySystem::tangent_pattern() const { return impl_->tangent_pattern; }
const SparseMatrix& MultibodySystem::jacobian_pattern() const { return impl_->jacobian_pattern; }

void MultibodySystem::initial_state(VecRef q0, VecRef v0) const {
  const Impl& I = *impl_;
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    const RigidBody& rb = I.model().bodies()[i];
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
  for (size_t k = 0; k < I.shafts.size(); ++k) {
    q0[I.shafts[k].coord] = I.model().shafts()[k].position;
    v0[I.shafts[k].coord] = I.model().shafts()[k].rate;
  }
  // Angle coordinates of the couplings: 0 at t0, rate (ω_b − ω_a)·axis.
  for (size_t k = 0; k < I.angle_joint.size(); ++k) {
    const Joint& j = I.model().joints()[static_cast<size_t>(I.angle_joint[k])];
    const JointData& jd = I.joints[static_cast<size_t>(I.angle_joint[k])];
    auto omega = [&](BodyIndex b) {
      return b == kGround ? Vec3::Zero().eval() : I.model().bodies()[static_cast<size_t>(b)].angular_velocity;
    };
    const int c = I.n_angle0 + static_cast<int>(k);
    q0[c] = 0.0;
    v0[c] = (omega(jd.b) - omega(jd.a)).dot(j.axis.normalized());
  }
  // Controller states: q = ∫z dt from t0, v = z.
  for (const ControllerData& cd : I.controllers) {
    q0[cd.c] = 0.0;
    v0[cd.c] = cd.src->initial;
  }
}

// ===================================================================================== residuals

void MultibodySystem::residual(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                               ConstVecRef lambda, VecRef r) const {
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  // Kinematics with velocities: the joints below use only their position parts (R, G, RG, p),
  // which are the same as without velocities (eval_joint reads velocities only for γ).
  const std::vector<Kin>& ks = I.all_kin(W, q, v.data());
  r.tail(I.n - I.n_angle0).setZero();  // the couplings' angle coordinates: constraint forces only
  for (const ShaftData& sd : I.shafts) r[sd.coord] = sd.J * a[sd.coord];
  for (const ControllerData& cd : I.controllers) r[cd.c] = a[cd.c];  // ż − g, g added below
  I.add_shaft_forces(t, q, v, -1.0, r);
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    I.body_residual_kin(static_cast<BodyIndex>(i), t, ks[i], a.data() + bd.off, r.segment(bd.off, bd.n));
    if (bd.ep_row >= 0) r.segment<4>(bd.off + 3) += 2.0 * lambda[bd.ep_row] * q.segment<4>(bd.off + 3);
  }
  I.add_element_forces(W, t, ks, v.data(), -1.0, r);
  I.add_reaction_friction(W, t, ks, lambda, -1.0, r);
  I.add_contact_forces(W, q, v, -1.0, r);
  I.add_controller_derivatives(W, t, q, v, -1.0, r);
  detail::JointEval e;
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    const Kin& ka = I.cached(ks, jd.a);
    const Kin& kb = I.cached(ks, jd.b);
    detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
    Row6 fa = Row6::Zero(), fb = Row6::Zero();
    for (size_t k = 0; k < jd.active.size(); ++k) {
      const double l = lambda[jd.active_global[k]];
      fa += l * e.Wa.row(jd.active[k]);
      fb += l * e.Wb.row(jd.active[k]);
    }
    if (jd.na) {
      const int o = I.bodies[static_cast<size_t>(jd.a)].off;
      r.segment<3>(o) += fa.head<3>().transpose();
      r.segment(o + 3, jd.na - 3) += ka.RG.transpose() * fa.tail<3>().transpose();
    }
    if (jd.nb) {
      const int o = I.bodies[static_cast<size_t>(jd.b)].off;
      r.segment<3>(o) += fb.head<3>().transpose();
      r.segment(o + 3, jd.nb - 3) += kb.RG.transpose() * fb.tail<3>().transpose();
    }
  }
  if (!I.units.empty()) {
    VecX &ql = W.res_q, &grad = W.res_grad;  // grow once
    UnitEval ue;
    for (const RowUnit& u : I.units) {
      if (u.active < 0) continue;
      Impl::gather_unit(u, q, ql);
      Impl::grow(grad, static_cast<int>(u.coords.size()));
      I.eval_unit(u, ql.data(), nullptr, false, ue, grad.data());
      const double l = lambda[u.active];
      for (size_t k = 0; k < u.coords.size(); ++k) r[u.coords[k]] += l * grad[static_cast<int>(k)];
    }
  }
}

void MultibodySystem::forces(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef f) const {
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    const double zero[7] = {0, 0, 0, 0, 0, 0, 0};
    // f = −(M·0 − f)
    I.body_residual(static_cast<BodyIndex>(i), t, q.data() + bd.off, v.data() + bd.off, zero,
                    f.segment(bd.off, bd.n));
    f.segment(bd.off, bd.n) *= -1.0;
  }
  f.tail(I.n - I.n_body).setZero();  // the shafts' efforts below; the couplings' angles: no mass, no force
  I.add_shaft_forces(t, q, v, 1.0, f);
  I.add_element_forces(W, t, q, v, 1.0, f);
  I.add_contact_forces(W, q, v, 1.0, f);
  I.add_controller_derivatives(W, t, q, v, 1.0, f);
}

void MultibodySystem::constraints(Workspace& ws, double t, ConstVecRef q, VecRef c) const {
  (void)t;
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  for (const BodyData& bd : I.bodies)
    if (bd.ep_row >= 0) c[bd.ep_row] = q.segment<4>(bd.off + 3).squaredNorm() - 1.0;
  detail::JointEval e;
  const std::vector<Kin>& ks = I.all_kin(W, q, nullptr);
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    detail::eval_joint(jd, I.cached(ks, jd.a), I.cached(ks, jd.b), false, I.drive(jd, t), e);
    for (size_t k = 0; k < jd.active.size(); ++k)
      c[jd.active_global[k]] = e.c[static_cast<size_t>(jd.active[k])];
  }
  VecX& ql = W.con_q;
  UnitEval ue;
  for (const RowUnit& u : I.units) {
    if (u.active < 0) continue;
    Impl::gather_unit(u, q, ql);
    I.eval_unit(u, ql.data(), nullptr, false, ue, nullptr);
    c[u.active] = ue.c;
  }
}

void MultibodySystem::constraint_velocity(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef cv) const {
  (void)t;
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  for (const BodyData& bd : I.bodies)
    if (bd.ep_row >= 0) cv[bd.ep_row] = 2.0 * q.segment<4>(bd.off + 3).dot(v.segment<4>(bd.off + 3));
  detail::JointEval e;
  const std::vector<Kin>& ks = I.all_kin(W, q, v.data());
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    const Kin& ka = I.cached(ks, jd.a);
    const Kin& kb = I.cached(ks, jd.b);
    detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
    Vec6 ta, tb;
    ta << ka.v, ka.w;
    tb << kb.v, kb.w;
    for (size_t k = 0; k < jd.active.size(); ++k) {
      const int lr = jd.active[k];
      cv[jd.active_global[k]] = e.Wa.row(lr).dot(ta) + e.Wb.row(lr).dot(tb) + e.ct[static_cast<size_t>(lr)];
    }
  }
  VecX &ql = W.cv_q, &vl = W.cv_v;
  UnitEval ue;
  for (const RowUnit& u : I.units) {
    if (u.active < 0) continue;
    Impl::gather_unit(u, q, ql);
    Impl::gather_unit(u, v, vl);
    I.eval_unit(u, ql.data(), vl.data(), false, ue, nullptr);
    cv[u.active] = ue.cv;
  }
}

void MultibodySystem::gamma(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef g) const {
  (void)t;
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  for (const BodyData& bd : I.bodies)
    if (bd.ep_row >= 0) g[bd.ep_row] = -2.0 * v.segment<4>(bd.off + 3).squaredNorm();
  detail::JointEval e;
  const std::vector<Kin>& ks = I.all_kin(W, q, v.data());
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    detail::eval_joint(jd, I.cached(ks, jd.a), I.cached(ks, jd.b), true, I.drive(jd, t), e);
    for (size_t k = 0; k < jd.active.size(); ++k)
      g[jd.active_global[k]] = e.gamma[static_cast<size_t>(jd.active[k])];
  }
  VecX &ql = W.gam_q, &vl = W.gam_v;
  UnitEval ue;
  for (const RowUnit& u : I.units) {
    if (u.active < 0) continue;
    Impl::gather_unit(u, q, ql);
    Impl::gather_unit(u, v, vl);
    I.eval_unit(u, ql.data(), vl.data(), true, ue, nullptr);
    g[u.active] = ue.g;
  }
}

// ===================================================================================== matrices

void MultibodySystem::assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                       ConstVecRef lambda, double c_q, double c_v, double c_a,
                                       SparseMatrix& A) const {
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  zero_values(A);
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    const BodyIndex bi = static_cast<BodyIndex>(i);
    const int n = bd.n;
    double ql[7], vl[7], al[7];
    for (int k = 0; k < n; ++k) {
      ql[k] = q[bd.off + k];
      vl[k] = v[bd.off + k];
      al[k] = a[bd.off + k];
    }
    BlockN B = BlockN::Zero(n, n);
    VecN rp(n), rm(n);
    auto residual = [&](int, VecN& r) { I.body_residual(bi, t, ql, vl, al, r); };
    if (c_q != 0) {
      detail::central_differences(ql, 0, n, rp, rm, residual, [&](int k, const VecN& fp, const VecN& fm, double h2) {
        B.col(k) += c_q * (fp - fm) / h2;
      });
      if (bd.ep_row >= 0) B.block<4, 4>(3, 3).diagonal().array() += c_q * 2.0 * lambda[bd.ep_row];
    }
    if (c_v != 0) {
      detail::central_differences(vl, 0, n, rp, rm, residual, [&](int k, const VecN& fp, const VecN& fm, double h2) {
        B.col(k) += c_v * (fp - fm) / h2;
      });
    }
    if (c_a != 0) B += c_a * I.body_mass(bi, ql);
    bd.tangent_map.scatter_add(A, B);
  }
  // Force elements: −∂f/∂q, −∂f/∂v by central differences local to the element's bodies.
  if (c_q != 0 || c_v != 0) {
    // Workspace arrays that only grow: no allocation in the step loop (the user-Jacobian
    // branch excepted: it calls user code with Eigen matrices of its own).
    std::vector<double>&qbuf = W.tan_q, &vbuf = W.tan_v, &gpbuf = W.tan_gp, &gmbuf = W.tan_gm, &Bbuf = W.tan_B;
    std::vector<Kin>&ks0 = W.tan_kin0, &ks = W.tan_kin;
    for (const ForceData& fd : I.forces) {
      const int nc = static_cast<int>(fd.coords.size());
      if (!nc) continue;
      const size_t snc = static_cast<size_t>(nc);
      if (!force_type_info(fd.src->type).pairwise && fd.src->user_jacobian && !fd.src->user_of_states) {
        VecX ql(nc), vl(nc);
        for (int k = 0; k < nc; ++k) {
          ql[k] = q[fd.coords[static_cast<size_t>(k)]];
          vl[k] = v[fd.coords[static_cast<size_t>(k)]];
        }
        MatX B = MatX::Zero(nc, nc);
        I.user_force_tangent(W, fd, t, ql, vl, c_q, c_v, B);
        fd.tangent_map.scatter_add(A, B);
        continue;
      }
      Impl::gather_local(fd.coords, q, v, qbuf, vbuf);
      gpbuf.resize(snc);
      gmbuf.resize(snc);
      Bbuf.resize(snc * snc);
      Eigen::Map<MatX> B(Bbuf.data(), nc, nc);
      Eigen::Map<const VecX> gp(gpbuf.data(), nc), gm(gmbuf.data(), nc);
      B.setZero();
      // A coordinate moves one body: only that body's kinematics are recomputed.
      I.force_kin(fd, qbuf.data(), vbuf.data(), ks0);
      ks = ks0;
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
                ks[j] = I.kin(fd.bodies[j], qbuf.data() + o, vbuf.data() + o);
                I.force_generalized_kin(W, fd, t, ks, vbuf.data() + fd.n_body_coords, out.data());
              },
              [&](int k, const std::vector<double>&, const std::vector<double>&, double h2) {
                B.col(k) -= c * (gp - gm) / h2;
              });
          ks[j] = ks0[j];
          o += nb;
        }
        // The controller states it reads: v only (their q, ∫z, is read by nothing).
        if (pass == 1)
          detail::central_differences(
              x, fd.n_body_coords, nc, gpbuf, gmbuf,
              [&](int, std::vector<double>& out) {
                I.force_generalized_kin(W, fd, t, ks, vbuf.data() + fd.n_body_coords, out.data());
              },
              [&](int k, const std::vector<double>&, const std::vector<double>&, double h2) {
                B.col(k) -= c * (gp - gm) / h2;
              });
      }
      fd.tangent_map.scatter_add(A, B);
    }
  }
  // Friction by reaction: −∂f_r/∂q, −∂f_r/∂v (f_r = N_r(q, λ) g(q, v)) at fixed λ, by central
  // differences local to the joint's two bodies; its ∂/∂λ is assemble_multiplier_tangent()'s.
  if ((c_q != 0 || c_v != 0) && !I.rfric.empty()) {
    std::vector<double>&qbuf = W.rf_q, &vbuf = W.rf_v, &gp = W.rf_gp, &gm = W.rf_gm, &Bbuf = W.rf_B;
    for (const Impl::ReactionFriction& rf : I.rfric) {
      const ForceData& fd = I.forces[static_cast<size_t>(rf.force)];
      const int nc = static_cast<int>(fd.coords.size());
      if (!nc) continue;
      const size_t snc = static_cast<size_t>(nc);
      Impl::gather_local(fd.coords, q, v, qbuf, vbuf);
      gp.resize(snc);
      gm.resize(snc);
      Bbuf.resize(snc * snc);
      Eigen::Map<MatX> B(Bbuf.data(), nc, nc);
      B.setZero();
      for (int pass = 0; pass < 2; ++pass) {
        const double c = pass == 0 ? c_q : c_v;
        if (c == 0) continue;
        detail::central_differences(
            pass == 0 ? qbuf.data() : vbuf.data(), 0, nc, gp, gm,
            [&](int, std::vector<double>& out) {
              I.reaction_friction_local(W, rf, t, qbuf.data(), vbuf.data(), lambda, out.data());
            },
            [&](int k, const std::vector<double>& fp, const std::vector<double>& fm, double h2) {
              // out holds −f_r, the residual's term: ∂r/∂x = (out(x + h) − out(x − h)) / 2h.
              B.col(k) += c * (Eigen::Map<const VecX>(fp.data(), nc) - Eigen::Map<const VecX>(fm.data(), nc)) / h2;
            });
      }
      fd.tangent_map.scatter_add(A, B);
    }
  }
  // Penalty contacts: −∂f/∂q, −∂f/∂v by central differences local to the pair's two bodies.
  if (c_q != 0 || c_v != 0) {
    VecN ql, vl, gp, gm;
    BlockN B;
    for (int pi : I.active_pairs(W, q)) {
      const ContactPairData& cp = I.contact_pairs[static_cast<size_t>(pi)];
      const int nc = cp.na + cp.nb;
      ql.resize(nc);
      vl.resize(nc);
      for (int k = 0; k < nc; ++k) {
        ql[k] = q[cp.coords[static_cast<size_t>(k)]];
        vl[k] = v[cp.coords[static_cast<size_t>(k)]];
      }
      B.setZero(nc, nc);
      for (int pass = 0; pass < 2; ++pass) {
        const double c = pass == 0 ? c_q : c_v;
        if (c == 0) continue;
        VecN& x = pass == 0 ? ql : vl;
        detail::central_differences(
            x, 0, nc, gp, gm, [&](int, VecN& out) { I.contact_generalized(cp, ql.data(), vl.data(), out); },
            [&](int k, const VecN& fp, const VecN& fm, double h2) { B.col(k) -= c * (fp - fm) / h2; });
      }
      cp.tangent_map.scatter_add(A, B);
    }
  }
  // Controller states: r_c = a_c − g(t, q, v): c_a on the diagonal, −∂g/∂q and −∂g/∂v by central
  // differences over the coordinates g reads.
  for (const ControllerData& cd : I.controllers) {
    const int nc = static_cast<int>(cd.coords.size());
    std::vector<double>&ql = W.ctan_q, &vl = W.ctan_v;  // grow once
    MatX& B = W.ctan_B;
    ql.resize(static_cast<size_t>(nc));
    vl.resize(static_cast<size_t>(nc));
    for (int k = 0; k < nc; ++k) {
      ql[static_cast<size_t>(k)] = q[cd.coords[static_cast<size_t>(k)]];
      vl[static_cast<size_t>(k)] = v[cd.coords[static_cast<size_t>(k)]];
    }
    if (B.cols() < nc) B.resize(1, nc);  // only grows; the map reads its first nc entries
    B.setZero();
    double gp = 0, gm = 0;
    for (int pass = 0; pass < 2; ++pass) {
      const double c = pass == 0 ? c_q : c_v;
      if (c == 0) continue;
      std::vector<double>& x = pass == 0 ? ql : vl;
      detail::central_differences(
          x, 0, pass == 0 ? cd.n_body_coords : nc, gp, gm,
          [&](int, double& out) { out = I.controller_derivative(W, cd, t, ql.data(), vl.data()); },
          [&](int k, double p, double m, double h2) { B(0, k) -= c * (p - m) / h2; });
    }
    cd.tangent_map.scatter_add(A, B);
    if (c_a != 0) A.coeffRef(cd.c, cd.c) += c_a;
  }
  // Shafts: J on the diagonal; a spring-damper's −∂f/∂q, −∂f/∂v = (c_q k + c_v d) [1 −1; −1 1]
  // over its ends that are shafts (a load of t has none).
  for (const ShaftData& sd : I.shafts) A.valuePtr()[sd.diag] += c_a * sd.J;
  for (const ShaftForceData& sf : I.shaft_forces) {
    if (sf.coords.empty()) continue;
    const double kk = c_q * sf.src->stiffness + c_v * sf.src->damping;
    Eigen::Matrix2d K;
    K << 1, -1, -1, 1;
    sf.tangent_map.scatter_add(A, K.topLeftCorner(static_cast<int>(sf.coords.size()), static_cast<int>(sf.coords.size())),
                               kk);
  }
  if (c_q == 0) return;
  // ∂(C_qᵀ λ)/∂q, local to each joint.
  detail::JointEval e;
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    bool any = false;
    for (int g : jd.active_global) any = any || lambda[g] != 0;
    if (!any) continue;
    const int nc = jd.na + jd.nb;
    VecN ql, lam(static_cast<int>(jd.active.size()));
    I.gather(jd, q, ql);
    for (size_t k = 0; k < jd.active.size(); ++k) lam[static_cast<int>(k)] = lambda[jd.active_global[k]];
    // Coordinate k moves body a (k < na) or body b: only that body's kinematics are recomputed.
    Kin ka0, kb0;
    I.joint_kin(jd, ql.data(), nullptr, ka0, kb0);
    auto gen_force = [&](int k, VecN& out) {
      const bool on_a = k < jd.na;
      const Kin ka = on_a ? I.kin(jd.a, ql.data(), nullptr) : ka0;
      const Kin kb = on_a ? kb0 : I.kin(jd.b, ql.data() + jd.na, nullptr);
      detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
      out = I.joint_jacobian(jd, ka, kb, e).transpose() * lam;
    };
    BlockN B(nc, nc);
    VecN fp, fm;
    detail::central_differences(ql, 0, nc, fp, fm, gen_force, [&](int k, const VecN& p, const VecN& m, double h2) {
      B.col(k) = (p - m) / h2;
    });
    jd.tangent_map.scatter_add(A, B, c_q);
  }
  // ∂(λ ∇C)/∂q of the couplings' rows, local to each row.
  for (const RowUnit& u : I.units) {
    if (u.active < 0 || lambda[u.active] == 0) continue;
    const int nc = static_cast<int>(u.coords.size());
    VecX &ql = W.tan_uq, &fp = W.tan_fp, &fm = W.tan_fm;
    MatX& B = W.tan_uB;
    Impl::gather_unit(u, q, ql);
    if (B.rows() < nc) B.resize(nc, nc);  // only grows; the map reads its top-left nc × nc
    Impl::grow(fp, nc);
    Impl::grow(fm, nc);
    UnitEval ue;
    detail::central_differences(
        ql, 0, nc, fp, fm, [&](int, VecX& out) { I.eval_unit(u, ql.data(), nullptr, false, ue, out.data()); },
        [&](int k, const VecX& p, const VecX& m, double h2) { B.col(k).head(nc) = (p.head(nc) - m.head(nc)) / h2; });
    u.tangent_map.scatter_add(A, B, c_q * lambda[u.active]);
  }
}

void MultibodySystem::assemble_mass(Workspace& ws, ConstVecRef q, SparseMatrix& M) const {
  (void)workspace_data<WorkspaceData>(ws);  // no scratch; checks that ws is this system's
  const Impl& I = *impl_;
  zero_values(M);
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    bd.tangent_map.scatter_add(M, I.body_mass(static_cast<BodyIndex>(i), q.data() + bd.off));
  }
  for (const ControllerData& cd : I.controllers) M.coeffRef(cd.c, cd.c) = 1.0;  // ż = g: "mass" 1
  for (const ShaftData& sd : I.shafts) M.valuePtr()[sd.diag] += sd.J;
}

void MultibodySystem::assemble_jacobian(Workspace& ws, double t, ConstVecRef q, SparseMatrix& Cq) const {
  (void)t;
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  zero_values(Cq);
  for (const BodyData& bd : I.bodies)
    if (bd.ep_row >= 0) bd.ep_jac_map.scatter_add(Cq, 2.0 * q.segment<4>(bd.off + 3).transpose());
  detail::JointEval e;
  const std::vector<Kin>& ks = I.all_kin(W, q, nullptr);  // each body once, not once per joint
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    const Kin& ka = I.cached(ks, jd.a);
    const Kin& kb = I.cached(ks, jd.b);
    detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
    jd.jac_map.scatter_add(Cq, I.joint_jacobian(jd, ka, kb, e));
  }
  VecX &ql = W.jac_q, &grad = W.jac_grad;
  UnitEval ue;
  for (const RowUnit& u : I.units) {
    if (u.active < 0) continue;
    Impl::gather_unit(u, q, ql);
    Impl::grow(grad, static_cast<int>(u.coords.size()));
    I.eval_unit(u, ql.data(), nullptr, false, ue, grad.data());
    u.jac_map.scatter_add(Cq, grad.transpose());
  }
}

bool MultibodySystem::forces_read_multipliers() const { return !impl_->rfric.empty(); }

void MultibodySystem::assemble_multiplier_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                                  ConstVecRef lambda, SparseMatrix& D) const {
  const Impl& I = *impl_;
  assemble_jacobian(ws, t, q, D);
  if (I.rfric.empty()) return;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  std::vector<double>&ql = W.rf_q, &vl = W.rf_v, &g = W.rf_g, &dN = W.rf_dN;
  std::vector<Kin>& ks = W.rf_kin;
  for (const Impl::ReactionFriction& rf : I.rfric) {
    const ForceData& fd = I.forces[static_cast<size_t>(rf.force)];
    const JointData& jd = I.joints[static_cast<size_t>(rf.joint)];
    if (jd.active.empty()) continue;
    const size_t nc = fd.coords.size();
    Impl::gather_local(fd.coords, q, v, ql, vl);
    g.resize(nc);
    dN.resize(jd.active.size());
    I.force_kin(fd, ql.data(), vl.data(), ks);
    I.reaction_normal(rf, t, ks[0], ks[1], lambda, dN.data());
    I.reaction_friction_unit(W, fd, t, ks, g.data());
    // r = … − N_r(λ) g: (∂r/∂λ)ᵀ gains −(∂N_r/∂λ) gᵀ on the joint's rows × the element's coordinates.
    const Eigen::Map<const VecX> dNv(dN.data(), static_cast<Eigen::Index>(dN.size())),
        gv(g.data(), static_cast<Eigen::Index>(nc));
    rf.lam_map.scatter_add(D, dNv * gv.transpose(), -1.0);
  }
}

void MultibodySystem::assemble_velocity_jacobian(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                                 SparseMatrix& G) const {
  (void)t;
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  zero_values(G);
  for (const BodyData& bd : I.bodies)
    if (bd.ep_row >= 0) bd.ep_jac_map.scatter_add(G, 2.0 * v.segment<4>(bd.off + 3).transpose());
  detail::JointEval e;
  for (const JointData& jd : I.joints) {
    if (jd.active.empty()) continue;
    const int nc = jd.na + jd.nb, nact = static_cast<int>(jd.active.size());
    VecN ql, vl;
    I.gather(jd, q, ql);
    I.gather(jd, v, vl);
    // Coordinate k moves body a (k < na) or body b: only that body's kinematics are recomputed.
    Kin ka0, kb0;
    I.joint_kin(jd, ql.data(), vl.data(), ka0, kb0);
    auto cdot = [&](int k, VecN& out) {
      const bool on_a = k < jd.na;
      const Kin ka = on_a ? I.kin(jd.a, ql.data(), vl.data()) : ka0;
      const Kin kb = on_a ? kb0 : I.kin(jd.b, ql.data() + jd.na, vl.data() + jd.na);
      detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
      Vec6 ta, tb;
      ta << ka.v, ka.w;
      tb << kb.v, kb.w;
      out.resize(nact);
      for (int k = 0; k < nact; ++k) {
        const int lr = jd.active[static_cast<size_t>(k)];
        out[k] = e.Wa.row(lr).dot(ta) + e.Wb.row(lr).dot(tb) + e.ct[static_cast<size_t>(lr)];
      }
    };
    BlockN B(nact, nc);
    VecN fp, fm;
    detail::central_differences(ql, 0, nc, fp, fm, cdot, [&](int k, const VecN& p, const VecN& m, double h2) {
      B.col(k) = (p - m) / h2;
    });
    jd.jac_map.scatter_add(G, B);
  }
  for (const RowUnit& u : I.units) {
    if (u.active < 0) continue;
    const int nc = static_cast<int>(u.coords.size());
    VecX &ql = W.vj_q, &vl = W.vj_v;
    MatX& B = W.vj_B;
    Impl::gather_unit(u, q, ql);
    Impl::gather_unit(u, v, vl);
    if (B.cols() < nc) B.resize(1, nc);  // only grows; the map reads its first nc entries
    double cp = 0, cm = 0;
    UnitEval ue;
    detail::central_differences(
        ql, 0, nc, cp, cm,
        [&](int, double& out) {
          I.eval_unit(u, ql.data(), vl.data(), false, ue, nullptr);
          out = ue.cv;
        },
        [&](int k, double p, double m, double h2) { B(0, k) = (p - m) / h2; });
    u.jac_map.scatter_add(G, B);
  }
}

// ===================================================================================== outputs

std::string MultibodySystem::coordinate_label(int i) const {
  static const char* ep[7] = {"x", "y", "z", "θ0", "θ1", "θ2", "θ3"};
  static const char* r3[6] = {"x", "y", "z", "ψ0", "ψ1", "ψ2"};
  for (const BodyData& bd : impl_->bodies)
    if (i >= bd.off && i < bd.off + bd.n)
      return "body '" + bd.name + "' " +
             (bd.nr == 4 ? ep[i - bd.off] : r3[i - bd.off]);
  const int s = i - impl_->n_body;
  if (s >= 0 && s < static_cast<int>(impl_->shafts.size())) {
    const Shaft& sh = impl_->model().shafts()[static_cast<size_t>(s)];
    return "shaft '" + sh.name + "' " + (sh.kind == Shaft::Kind::Rotor ? "angle" : "position");
  }
  const int k = i - impl_->n_angle0;
  if (k >= 0 && k < static_cast<int>(impl_->angle_joint.size()))
    return "joint '" + impl_->joints[static_cast<size_t>(impl_->angle_joint[static_cast<size_t>(k)])].name +
           "' angle (coupling coordinate)";
  const int z = i - impl_->n_ctrl0;
  if (z >= 0 && z < static_cast<int>(impl_->controllers.size()))
    return "controller state '" + impl_->controllers[static_cast<size_t>(z)].src->name + "' (its time integral; its rate is the state)";
  return "coordinate " + std::to_string(i);
}

std::string MultibodySystem::all_row_label(int full_row) const {
  const Impl& I = *impl_;
  const FullRow& fr = I.all_rows.at(static_cast<size_t>(full_row));
  if (fr.body >= 0) return "body '" + I.bodies[static_cast<size_t>(fr.body)].name + "' Euler-parameter norm";
  if (fr.unit >= 0) return I.units[static_cast<size_t>(fr.unit)].label;
  const JointData& jd = I.joints[static_cast<size_t>(fr.joint)];
  return "joint '" + jd.name + "' (" + to_string(jd.type) + ") equation " +
         std::to_string(fr.local + 1) + " (" + jd.rows[static_cast<size_t>(fr.local)].what + ")";
}

ItemRef MultibodySystem::all_row_item(int full_row) const {
  const FullRow& fr = impl_->all_rows.at(static_cast<size_t>(full_row));
  if (fr.unit >= 0) return impl_->units[static_cast<size_t>(fr.unit)].item;
  return fr.body >= 0 ? ItemRef::body(fr.body) : ItemRef::joint(fr.joint);
}

ItemRef MultibodySystem::constraint_item(int row) const {
  return all_row_item(impl_->active_to_full.at(static_cast<size_t>(row)));
}

std::string MultibodySystem::constraint_label(int row) const {
  return all_row_label(impl_->active_to_full.at(static_cast<size_t>(row)));
}

// The guard of the rotation coordinates (Multibody.h): `rxyz` at |cos β| < kRxyzSingularLimit;
// with a fixed step also at 1/|cos β| > kRxyzMaxAmplification or h |ω| (1/|cos β|³ − 1)^(1/3) >
// kSingularStepAngle -- the angles' rates are up to |ω|/|cos β| and their local errors grow with
// its cube; only what the parametrization adds to the Euler parameters' local error (h |ω|)³
// counts, so a large turn a step far from the singularity (which the Euler parameters would take
// as well) is not refused. `rotation_vector` likewise with
// sinc(|θ|/2) in place of |cos β|. The text names the body, the angle (β in degrees and radians;
// |θ|) and the limit it passed.
std::string MultibodySystem::coordinate_problem(ConstVecRef q, ConstVecRef v, double h) const {
  for (const BodyData& bd : impl_->bodies) {
    if (bd.param != RotationParametrization::TaitBryan && bd.param != RotationParametrization::RotationVector)
      continue;
    const Vec3 a(q[bd.off + 3], q[bd.off + 4], q[bd.off + 5]), ad(v[bd.off + 3], v[bd.off + 4], v[bd.off + 5]);
    if (bd.param == RotationParametrization::TaitBryan) {
      const double c = std::abs(std::cos(a[1]));
      const double w = (math::rxyz_G_local(a) * ad).norm();  // |ω|, rad/s
      // What the parametrization adds to a step's local error: the angles move up to h |ω| / |cos β|
      // a step and their local error grows with its cube, (h |ω|)³ / |cos β|³ against the Euler
      // parameters' (h |ω|)³; the excess, as an angle a step, is h |ω| (1/|cos β|³ − 1)^(1/3)
      // (nothing at β = 0, where a large turn a step is a matter of the step, not of the angles).
      const double excess = h * w * std::cbrt(1 / std::max(c * c * c, 1e-300) - 1);
      const bool hard = c < kRxyzSingularLimit;
      const bool amplified = h > 0 && c * kRxyzMaxAmplification < 1;
      const bool step_excess = h > 0 && excess > kSingularStepAngle;
      if (hard || amplified || step_excess) {
        const double beta_deg = a[1] * 180 / 3.14159265358979323846;
        std::ostringstream s;
        s << "body '" << bd.name << "': its rxyz angles are near their singularity at beta = +-90 deg: beta (the "
          << "second angle) = " << beta_deg << " deg (" << a[1] << " rad), |cos beta| = " << c
          << "; ";
        if (hard)
          s << "below " << kRxyzSingularLimit << " no solver follows the rotation accurately";
        else if (amplified)
          s << "a fixed-step run needs |cos beta| >= " << 1 / kRxyzMaxAmplification
            << " (the angles' rates are amplified 1/|cos beta| = " << 1 / c << " times)";
        else
          s << "with |omega| = " << w << " rad/s and h = " << h
            << " s the angles' local error exceeds the Euler parameters' as a step of h |omega| (1/|cos beta|^3 - 1)^(1/3) = "
            << excess << " rad would; a fixed-step run needs at most " << kSingularStepAngle;
        s << "; use rotation: euler_parameters";
        return s.str();
      }
    } else {
      const double n = a.norm();
      const double sinc = n < 1e-8 ? 1.0 : std::abs(std::sin(0.5 * n) / (0.5 * n));
      const double w = (math::rotvec_G_local(a) * ad).norm();
      const double excess = h * w * std::cbrt(1 / std::max(sinc * sinc * sinc, 1e-300) - 1);  // as for rxyz
      const bool hard = n > kRotationVectorLimit;
      const bool amplified = h > 0 && sinc * kMaxAmplification < 1;
      const bool step_excess = h > 0 && excess > kSingularStepAngle;
      if (hard || amplified || step_excess) {
        std::ostringstream s;
        s << "body '" << bd.name << "': its rotation vector is near its singularity at |theta| = 2 pi: |theta| = " << n
          << " rad (" << n * 180 / 3.14159265358979323846 << " deg), sinc(|theta|/2) = " << sinc << "; ";
        if (hard)
          s << "above " << kRotationVectorLimit << " rad no solver follows the rotation accurately";
        else if (amplified)
          s << "a fixed-step run needs sinc(|theta|/2) >= " << 1 / kMaxAmplification
            << " (its rates are amplified 1/sinc = " << 1 / sinc << " times)";
        else
          s << "with |omega| = " << w << " rad/s and h = " << h
            << " s its local error exceeds the Euler parameters' as a step of h |omega| (1/sinc^3 - 1)^(1/3) = " << excess
            << " rad would; a fixed-step run needs at most " << kSingularStepAngle;
        s << "; use rotation: euler_parameters";
        return s.str();
      }
    }
  }
  return {};
}

double MultibodySystem::energy(Workspace& ws, double t, ConstVecRef q, ConstVecRef v) const {
  return kinetic_energy(q, v) + potential_energy(ws, t, q);
}

double MultibodySystem::kinetic_energy(ConstVecRef q, ConstVecRef v) const {
  const Impl& I = *impl_;
  double E = 0;
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    const Kin k = I.kin(static_cast<BodyIndex>(i), q.data() + bd.off, v.data() + bd.off);
    const Vec3 vB = k.R.transpose() * k.v;
    E += 0.5 * bd.m * k.v.squaredNorm() + bd.m * vB.dot(k.wB.cross(bd.b)) +
         0.5 * k.wB.dot(bd.J * k.wB);
  }
  for (const ShaftData& sd : I.shafts) E += 0.5 * sd.J * v[sd.coord] * v[sd.coord];
  return E;
}

double MultibodySystem::potential_energy(Workspace& ws, double t, ConstVecRef q) const {
  const Impl& I = *impl_;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  double V = 0;
  for (size_t i = 0; i < I.bodies.size(); ++i) {
    const BodyData& bd = I.bodies[i];
    const Kin k = I.kin(static_cast<BodyIndex>(i), q.data() + bd.off, nullptr);
    V -= bd.m * I.model().gravity.dot(k.p + k.R * bd.b);
  }
  std::vector<Kin>& ks = W.pot_kin;  // grows once
  std::vector<Wrench>& w = W.pot_wrench;
  for (const ForceData& fd : I.forces) {
    if (!force_type_info(fd.src->type).pairwise || fd.n_body_coords < static_cast<int>(fd.coords.size())) continue;
    ks.resize(fd.bodies.size());
    for (size_t k = 0; k < fd.bodies.size(); ++k) ks[k] = I.kin_state(fd.bodies[k], q, nullptr);
    I.force_wrenches(W, fd, t, ks, w, &V);
  }
  for (int pi : I.active_pairs(W, q)) {
    const ContactPairData& cp = I.contact_pairs[static_cast<size_t>(pi)];
    Wrench w1, w2;
    I.contact_wrenches(cp, I.kin_state(cp.a, q, nullptr), I.kin_state(cp.b, q, nullptr), w1, w2, &V);
  }
  for (const ShaftForceData& sf : I.shaft_forces) {
    double ua, ub;
    I.shaft_effort(sf, t, q, nullptr, ua, ub, &V);
  }
  return V;
}

bool MultibodySystem::is_velocity_level(int row) const {
  return impl_->vel_row.at(static_cast<size_t>(row)) != 0;
}

ConstraintViolation MultibodySystem::constraint_violation(Workspace& ws, double t, ConstVecRef q,
                                                          ConstVecRef v) const {
  const int m = impl_->m;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  VecX &c = W.viol_c, &cv = W.viol_cv;
  c.resize(m);  // no-op once sized
  cv.resize(m);
  constraints(ws, t, q, c);
  constraint_velocity(ws, t, q, v, cv);
  ConstraintViolation out;
  for (int r = 0; r < m; ++r) {
    if (!impl_->vel_row[static_cast<size_t>(r)]) out.position = std::max(out.position, std::abs(c[r]));
    out.velocity = std::max(out.velocity, std::abs(cv[r]));
  }
  return out;
}

JointCoordinate MultibodySystem::joint_coordinate(int joint, double t, ConstVecRef q, ConstVecRef v,
                                                  ConstVecRef a) const {
  const Impl& I = *impl_;
  const JointData& jd = I.joints.at(static_cast<size_t>(joint));
  const JointCoordinateKind ck = joint_type_info(jd.type).coordinate;
  if (ck == JointCoordinateKind::None) {
    std::string with;
    for (const JointTypeInfo& t : joint_types())
      if (t.coordinate != JointCoordinateKind::None) with += std::string(with.empty() ? "" : ", ") + t.name;
    throw std::invalid_argument("joint_coordinate: joint '" + jd.name + "' is " + to_string(jd.type) +
                                "; only these joint types have one: " + with);
  }
  const Kin ka = I.kin_state(jd.a, q, v.data()), kb = I.kin_state(jd.b, q, v.data());
  const bool acc = a.size() == q.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto alpha = [&](BodyIndex i, const Kin& k) -> Vec3 {
    if (i == kGround || !acc) return Vec3::Zero();
    const BodyData& bd = I.bodies[static_cast<size_t>(i)];
    return k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
  };
  auto accel = [&](BodyIndex i, const Kin& k, const Vec3& r) -> Vec3 {
    if (i == kGround || !acc) return Vec3::Zero();
    const BodyData& bd = I.bodies[static_cast<size_t>(i)];
    return a.segment<3>(bd.off) + alpha(i, k).cross(r) + k.w.cross(k.w.cross(r));
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
  } else {
    // Translation along the axis: x_a·d (prismatic: frame x; cylindrical: frame z).
    const Vec3 e = ck == JointCoordinateKind::DisplacementAlongX ? Vec3(FA.col(0)) : Vec3(FA.col(2));
    const Vec3 ra = ka.R * jd.xa, rb = kb.R * jd.xb;
    const Vec3 d = kb.p + rb - ka.p - ra;
    const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
    const Vec3 ed = ka.w.cross(e);
    out.value = e.dot(d);
    out.rate = ed.dot(d) + e.dot(dd);
    if (acc) {
      const Vec3 ddd = accel(jd.b, kb, rb) - accel(jd.a, ka, ra);
      const Vec3 edd = alpha(jd.a, ka).cross(e) + ka.w.cross(ed);
      out.acceleration = edd.dot(d) + 2 * ed.dot(dd) + e.dot(ddd);
    } else {
      out.acceleration = nan;
    }
  }
  return out;
}

double MultibodySystem::joint_drive_force(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  const Impl& I = *impl_;
  const JointData& jd = I.joints.at(static_cast<size_t>(joint));
  if (!jd.driven)
    throw std::invalid_argument("joint_drive_force: joint '" + jd.name + "' is not driven");
  const Kin ka = I.kin_state(jd.a, q, nullptr), kb = I.kin_state(jd.b, q, nullptr);
  detail::JointEval e;
  detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
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

Mat3 MultibodySystem::rotation(BodyIndex i, ConstVecRef q) const {
  return impl_->kin_state(i, q, nullptr).R;
}
Vec3 MultibodySystem::position(BodyIndex i, ConstVecRef q, const Vec3& p_B) const {
  const Kin k = impl_->kin_state(i, q, nullptr);
  return k.p + k.R * p_B;
}
Vec3 MultibodySystem::velocity(BodyIndex i, ConstVecRef q, ConstVecRef v, const Vec3& p_B) const {
  const Kin k = impl_->kin_state(i, q, v.data());
  return k.v + k.w.cross(k.R * p_B);
}
Vec3 MultibodySystem::angular_velocity(BodyIndex i, ConstVecRef q, ConstVecRef v) const {
  return impl_->kin_state(i, q, v.data()).w;
}
Vec3 MultibodySystem::angular_acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v,
                                           ConstVecRef a) const {
  if (i == kGround) return Vec3::Zero();
  const Kin k = impl_->kin_state(i, q, v.data());
  const BodyData& bd = impl_->bodies[static_cast<size_t>(i)];
  return k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
}
Vec3 MultibodySystem::acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                   const Vec3& p_B) const {
  if (i == kGround) return Vec3::Zero();
  const Kin k = impl_->kin_state(i, q, v.data());
  const BodyData& bd = impl_->bodies[static_cast<size_t>(i)];
  const Vec3 al = k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
  const Vec3 r = k.R * p_B;
  return a.segment<3>(bd.off) + al.cross(r) + k.w.cross(k.w.cross(r));
}
Vec4 MultibodySystem::euler_parameters(BodyIndex i, ConstVecRef q) const {
  if (i != kGround && impl_->bodies[static_cast<size_t>(i)].nr == 4)
    return q.segment<4>(impl_->bodies[static_cast<size_t>(i)].off + 3).normalized();
  return math::matrix_to_ep(rotation(i, q));
}

int MultibodySystem::coupling_angle_coordinate(int joint) const {
  const int k = impl_->angle_of_joint.at(static_cast<size_t>(joint));
  return k < 0 ? -1 : impl_->n_angle0 + k;
}

int MultibodySystem::shaft_coordinate(int shaft) const { return impl_->shafts.at(static_cast<size_t>(shaft)).coord; }

JointCoordinate MultibodySystem::shaft_motion(int shaft, ConstVecRef q, ConstVecRef v, ConstVecRef a) const {
  const int c = shaft_coordinate(shaft);
  JointCoordinate out;
  out.value = q[c];
  out.rate = v[c];
  out.acceleration = a.size() == q.size() ? a[c] : std::numeric_limits<double>::quiet_NaN();
  return out;
}

double MultibodySystem::shaft_force_effort(int force, double t, ConstVecRef q, ConstVecRef v) const {
  const ShaftForceData& sf = impl_->shaft_forces.at(static_cast<size_t>(force));
  double ua = 0, ub = 0;
  impl_->shaft_effort(sf, t, q, v.data(), ua, ub, nullptr);
  return ua;
}

double MultibodySystem::coupling_multiplier(int coupling, ConstVecRef lambda) const {
  const RowUnit& u = impl_->units[static_cast<size_t>(impl_->coupling_unit.at(static_cast<size_t>(coupling)))];
  return u.active < 0 ? 0.0 : lambda[u.active];
}

int MultibodySystem::controller_coordinate(int k) const {
  return impl_->controllers.at(static_cast<size_t>(k)).c;
}

int MultibodySystem::coupling_row(int coupling) const {
  return impl_->units[static_cast<size_t>(impl_->coupling_unit.at(static_cast<size_t>(coupling)))].active;
}

std::vector<int> MultibodySystem::joint_rows(int joint) const {
  return impl_->joints.at(static_cast<size_t>(joint)).active_global;
}

JointReaction MultibodySystem::reaction(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  (void)t;
  const Impl& I = *impl_;
  const JointData& jd = I.joints.at(static_cast<size_t>(joint));
  JointReaction out;
  if (jd.active.empty()) return out;
  const Kin ka = I.kin_state(jd.a, q, nullptr), kb = I.kin_state(jd.b, q, nullptr);
  detail::JointEval e;
  detail::eval_joint(jd, ka, kb, false, I.drive(jd, t), e);
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

}  // namespace mbdae
