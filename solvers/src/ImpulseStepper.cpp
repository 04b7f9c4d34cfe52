// Impulse-based time stepping with projected Gauss–Seidel; the scheme is described in
// ImpulseStepper.h (seed 004 ch. 8–10; Erleben 2005 ch. 6; Catto 2005/2006/2011).

#include <mbdae/solvers/ImpulseStepper.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include <mbdae/formulations/NewtonEulerImpulse.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae {

namespace {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

struct Vel {
  Vec3 v = Vec3::Zero(), w = Vec3::Zero();
};

struct JRow {
  int a = -1, b = -1;
  Vec3 ja_v, ja_w, jb_v, jb_w;
  double k = 0;  // J M⁻¹ Jᵀ
  double c = 0;  // position error
  double lam = 0, lam_p = 0;
};

/// A joint_friction or joint_limit element as impulses on its joint's coordinates
/// (ImpulseSystem::joint_element_rows()).
///  - friction: rows of the slip at the pin surface (r φ̇ and/or ṡ), their impulses bounded by
///    |p| ≤ L = h F(v₀) (the Coulomb–Stribeck level at the slip speed v₀ of the step's start; a
///    disc for the two rows of a cylindrical joint): the Coulomb law as complementarity;
///  - limit: one row per stop, the gap's rate g = ±q̇, with λ ≥ 0 and target g⁺ ≥ bn (Newton
///    restitution −e g⁻ when the stop closes within the step, else the gap closed at the step's end),
///    and bp the split-impulse target for a penetration.
///  - friction with the joint's reaction as normal force (ForceElement::normal_from_reaction):
///    the bound is L = L0 + c (|P_⊥| + k_a |P_∥|) with L0 = h F(v₀) of the preload, c = c(v₀) the
///    Coulomb–Stribeck coefficient and P the impulse of the joint's rows [j0, j0 + nj) on b in the
///    same Gauss–Seidel iteration (⊥, ∥ to the axis e; k_a = r_a / r the axial arm's share), as a
///    contact's friction is bounded by μ times its normal impulse.
struct ERow {
  JRow r[2];
  int nr = 0;
  bool limit = false;
  double L = 0;        // friction: bound of the impulse (N s) (with a reaction: its preload part L0)
  double bn = 0, bp = 0;
  bool reaction = false;  // friction: the bound follows the joint's impulse
  int j0 = 0, nj = 0;     // the joint's rows in jrows
  double c = 0, ka = 0;   // coefficient c(v₀) and axial share r_a / r
  Vec3 e = Vec3::UnitZ(); // the joint axis (world)
};

/// One contact point prepared for PGS. Bodies are slots of the velocity array, the ground being
/// the extra slot nb (zero inverse mass and inertia, so its velocity stays zero and no row needs a
/// branch). Per direction d_k (k = 0: n, 1: t1, 2: t2) the row is
///   J_k u = d_k·((v_b + ω_b × r_b) − (v_a + ω_a × r_a)),
/// and a unit impulse along d_k changes the velocities by Δv_b = m_b⁻¹ d_k, Δω_b = Bb_k,
/// Δv_a = −m_a⁻¹ d_k, Δω_a = −Ba_k with Ba_k = I_a⁻¹ ja_k, Bb_k = I_b⁻¹ jb_k (world
/// inverse inertia), so a row update is a few 3-vector dots and axpys on the compact velocity array.
/// The rarely used data (rolling resistance, torsional friction, split impulse, key) sit at the end.
/// Rolling resistance: the angular impulse P_r in the tangent plane (rows t1, t2 of ω_b − ω_a,
/// effective inertia Kr), |P_r| ≤ μ_r r_eff λ_n; torsional friction: the angular impulse p_s about
/// n (row n·(ω_b − ω_a), effective inertia ks = n·(I_a⁻¹ + I_b⁻¹) n), |p_s| ≤ μ_t λ_n; both
/// bounded by the normal impulse λ_n of the same Gauss–Seidel iteration, as the friction is.
struct CRow {
  int a = -1, b = -1;
  double ima = 0, imb = 0;
  Vec3 d[3], ja[3], jb[3], Ba[3], Bb[3];
  double kn = 0, kn_inv = 0, bn = 0, lam_n = 0, mu = 0;
  Mat2 Kt, Kt_inv;
  Vec2 lam_t = Vec2::Zero();
  double mur = 0, bp = 0, lam_p = 0;
  Mat2 Kr, Kr_inv;
  Vec2 lam_r = Vec2::Zero();
  double mut = 0, ks = 0, lam_s = 0;
  std::uint64_t key = 0;
};

/// J_k u for row k of contact c on the velocity set U.
[[gnu::always_inline]] inline double row_vel(const CRow& c, const Vel* U, int k) {
  const Vel& A = U[c.a];
  const Vel& B = U[c.b];
  return c.d[k].dot(B.v - A.v) + c.jb[k].dot(B.w) - c.ja[k].dot(A.w);
}

/// Applies the impulse x_0 n + x_1 t1 + x_2 t2 (components along the rows) to U.
[[gnu::always_inline]] inline void apply_rows(const CRow& c, Vel* U, double x0, double x1, double x2) {
  Vel& A = U[c.a];
  Vel& B = U[c.b];
  const Vec3 P = c.d[0] * x0 + c.d[1] * x1 + c.d[2] * x2;
  A.v -= c.ima * P;
  B.v += c.imb * P;
  A.w -= c.Ba[0] * x0 + c.Ba[1] * x1 + c.Ba[2] * x2;
  B.w += c.Bb[0] * x0 + c.Bb[1] * x1 + c.Bb[2] * x2;
}

/// Applies an impulse along the normal only.
[[gnu::always_inline]] inline void apply_normal(const CRow& c, Vel* U, double x0) {
  Vel& A = U[c.a];
  Vel& B = U[c.b];
  A.v -= (c.ima * x0) * c.d[0];
  B.v += (c.imb * x0) * c.d[0];
  A.w -= x0 * c.Ba[0];
  B.w += x0 * c.Bb[0];
}

struct Prev {
  std::uint64_t key;
  double lam_n;
  Vec3 P_t, P_r;
  double lam_s;
  bool operator<(const Prev& o) const { return key < o.key; }
};

/// Unit vector orthogonal to n.
Vec3 any_orthogonal(const Vec3& n) {
  const Vec3 t = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (t - n * n.dot(t)).normalized();
}

std::string at_time(double t) {
  std::ostringstream s;
  s.precision(10);
  s << "t = " << t << " s: ";
  return s.str();
}

}  // namespace

namespace {

/// The impulse stepper (ImpulseStepper.h) as an Integrator: the solver's state and work arrays
/// are members, so a run can be advanced from output time to output time.
class ImpulseIntegratorImpl final : public ImpulseIntegrator {
 public:
  /// `owned`: the view `sys` when the integrator owns it (else null).
  ImpulseIntegratorImpl(ImpulseSystem& sys, std::unique_ptr<ImpulseSystem> owned, double t0, const VecX& q0,
                        const VecX& v0, const ImpulseOptions& opt)
      : owned_(std::move(owned)), sys_(sys), opt_(opt), nb(sys.num_bodies()), nj(static_cast<int>(sys.model().joints().size())),
        h(opt.step), omega(opt.relaxation), fapp(6 * nb), t(t0), q(q0), v(v0) {
    const OutputGrid grid(t0, opt.t_end, opt.output_every);
    if (opt.record_per_step)
      ps.per_step.reserve(static_cast<size_t>(std::ceil((opt.t_end - t0) / h)) + static_cast<size_t>(grid.size()) + 2);
    // Body arrays have one more slot, nb, for the ground (zero inverse mass and inertia).
    const size_t nslots = static_cast<size_t>(nb) + 1;
    u.resize(nslots);
    up.resize(nslots);
    u0.resize(nslots);
    im.assign(nslots, 0.0);
    Iw.assign(nslots, Mat3::Zero());
    Rb.assign(nslots, Mat3::Identity());
    xc.resize(static_cast<size_t>(nb));
    for (int i = 0; i < nb; ++i) im[static_cast<size_t>(i)] = 1.0 / sys.mass(i);
    jrows.resize(static_cast<size_t>(sys.num_joint_rows()));
    jstart.assign(static_cast<size_t>(nj) + 1, 0);
    // The joint of each joint_friction (its rows bound a friction by reaction).
    const auto& joints = sys.model().joints();
    for (const ForceElement& f : sys.model().forces()) {
      int ji = -1;
      if (f.type == ForceType::JointFriction)
        for (size_t j = 0; j < joints.size(); ++j)
          if (joints[j].name == f.joint) ji = static_cast<int>(j);
      force_joint.push_back(ji);
    }
    // Friction polygon: facet normals at angles 2πj/k; vertices between facets j−1 and j at
    // (L / cos(π/k)) (cos(2πj/k − π/k), sin(…)).
    ksides = opt.pyramid_sides;
    vert.resize(static_cast<size_t>(std::max(ksides, 3)));
    facet.resize(static_cast<size_t>(std::max(ksides, 3)));
    for (int j = 0; j < ksides; ++j) {
      const double ang = 2 * M_PI * j / ksides - M_PI / ksides;
      vert[static_cast<size_t>(j)] = Vec2(std::cos(ang), std::sin(ang)) / std::cos(M_PI / ksides);
      facet[static_cast<size_t>(j)] = Vec2(std::cos(2 * M_PI * j / ksides), std::sin(2 * M_PI * j / ksides));
    }
    // k = 4: the facets are t1 = ±L, t2 = ±L, a square, whose nearest point is the clamped one.
    box_pyramid = opt.friction == FrictionModel::Pyramid && ksides == 4;
  }

  bool advance_to(double t_out) override {
    if (status_ != SolveStatus::Success) return false;
    const WallTimer timer(st);
    // Landing on t_out: the time accumulates t + h step by step, whose round-off over an output
    // interval (n steps) is about n ε t; 1e-6 h covers it for up to ~1e9 steps an interval, so a
    // step that lands on t_out is not followed by an extra step of h (a time shift of h).
    while (t < t_out - kLandTol * h) {
      if (interrupted()) return fail(SolveStatus::Interrupted, at_time(t) + "interrupted");
      if (!step(t_out)) return false;
    }
    t = t_out;
    return true;
  }

  double time() const override { return t; }
  StateView state() const override { return StateView{t, q, v, empty, empty}; }
  const ImpulseStats& pgs_stats() const override { return ps; }

 private:
  void project_friction(Vec2& x, double L) const {
    if (L <= 0) {
      x.setZero();
      return;
    }
    if (opt_.friction == FrictionModel::Cone) {
      const double nx = x.norm();
      if (nx > L) x *= L / nx;
      return;
    }
    if (box_pyramid) {
      x.x() = std::clamp(x.x(), -L, L);
      x.y() = std::clamp(x.y(), -L, L);
      return;
    }
    bool inside = true;
    for (int j = 0; j < ksides && inside; ++j)
      if (facet[static_cast<size_t>(j)].dot(x) > L) inside = false;
    if (inside) return;
    Vec2 best = Vec2::Zero();
    double bd = 1e300;
    for (int j = 0; j < ksides; ++j) {
      const Vec2 p0 = L * vert[static_cast<size_t>(j)], p1 = L * vert[static_cast<size_t>((j + 1) % ksides)];
      const Vec2 e = p1 - p0;
      const double s = std::clamp((x - p0).dot(e) / e.squaredNorm(), 0.0, 1.0);
      const Vec2 c = p0 + s * e;
      const double d = (x - c).squaredNorm();
      if (d < bd) {
        bd = d;
        best = c;
      }
    }
    x = best;
  }
  /// The block update of a contact's friction on the Coulomb disc |x| ≤ L: x is the unconstrained
  /// minimiser x* of the block's kinetic energy ½ (x − x*)ᵀ K (x − x*) (K = Kt, the tangential
  /// effective mass); the result is its minimiser on the disc, the projection in the metric of K.
  /// Its optimality condition K (x − x*) = −ν x (ν ≥ 0) says that the tangential velocity after
  /// the update, K (x − x*), is opposite to the friction impulse x: maximal dissipation. The
  /// Euclidean (radial) projection of x* instead leaves x along −K⁻¹ v_t, which is not opposite to
  /// the slip v_t when K is not a multiple of the identity (off-centre contact points, whose
  /// rotational terms couple t1 and t2): the friction then removes less than μ λ_n of the sliding
  /// momentum (a box with four corner contacts slid about 11 % too far).
  /// Solved in K's eigenbasis (x_i(ν) = k_i x*_i / (k_i + ν)) by Newton on the secular equation
  /// 1/|x(ν)| − 1/L = 0 (Moré & Sorensen, SIAM J. Sci. Stat. Comput. 4, 1983: monotone from ν = 0).
  static void project_disc_kt(Vec2& x, double L, const Mat2& K) {
    if (L <= 0) {
      x.setZero();
      return;
    }
    if (x.norm() <= L) return;
    const Eigen::SelfAdjointEigenSolver<Mat2> es(K);
    const Vec2 k = es.eigenvalues();
    const Mat2& V = es.eigenvectors();
    if (!(k.minCoeff() > 0)) {  // degenerate block: fall back to the radial projection
      x *= L / x.norm();
      return;
    }
    const Vec2 y = V.transpose() * x;  // x* in the eigenbasis
    double nu = 0;
    for (int it = 0; it < 50; ++it) {
      const Vec2 z(k[0] * y[0] / (k[0] + nu), k[1] * y[1] / (k[1] + nu));
      const double r = z.norm();
      if (std::abs(r - L) <= 1e-13 * L) break;
      // d|z|/dν = −Σ z_i² / (k_i + ν) / |z|; Newton on φ(ν) = 1/|z| − 1/L, φ' = −(d|z|/dν)/|z|².
      const double dr = -(z[0] * z[0] / (k[0] + nu) + z[1] * z[1] / (k[1] + nu)) / r;
      const double phi = 1 / r - 1 / L, dphi = -dr / (r * r);
      nu = std::max(0.0, nu - phi / dphi);
    }
    const Vec2 z(k[0] * y[0] / (k[0] + nu), k[1] * y[1] / (k[1] + nu));
    x = V * z;
    const double r = x.norm();
    if (r > L) x *= L / r;  // rounding: stay inside the disc
  }
  /// The same block update on the pyramid's polygon L·P: the minimiser of ½ (x − x*)ᵀ K (x − x*)
  /// over the polygon. If x* is outside, the minimiser is on the boundary: the best of the
  /// minimisers on each edge (a clamped one-dimensional quadratic). Its optimality condition puts
  /// the tangential velocity after the update in −(the normal cone of the polygon at x): a contact
  /// sliding across a face of the pyramid has its friction on that face and no side slip. (The
  /// Euclidean projection of x*, the clamp of each component for k = 4, does not: its fixed point
  /// leaves a tangential velocity K e₂-ward of the face normal, which pushed a block sliding on a
  /// box sideways.)
  void project_polygon_kt(Vec2& x, double L, const Mat2& K) const {
    if (L <= 0) {
      x.setZero();
      return;
    }
    bool inside = true;
    for (int j = 0; j < ksides && inside; ++j)
      if (facet[static_cast<size_t>(j)].dot(x) > L) inside = false;
    if (inside) return;
    const Vec2 xs = x;
    double best = 1e300;
    for (int j = 0; j < ksides; ++j) {
      const Vec2 p0 = L * vert[static_cast<size_t>(j)], p1 = L * vert[static_cast<size_t>((j + 1) % ksides)];
      const Vec2 e = p1 - p0, Ke = K * e;
      const double s = std::clamp((xs - p0).dot(Ke) / e.dot(Ke), 0.0, 1.0);
      const Vec2 c = p0 + s * e, dc = c - xs;
      const double f = dc.dot(K * dc);
      if (f < best) {
        best = f;
        x = c;
      }
    }
  }
  int slot(int body) const { return body < 0 ? nb : body; }
  static Vec3 point_vel(const std::vector<Vel>& U, int sl, const Vec3& r) {
    const Vel& b = U[static_cast<size_t>(sl)];
    return b.v + b.w.cross(r);
  }
  void apply_torque(std::vector<Vel>& U, const CRow& c, const Vec3& T) const {
    U[static_cast<size_t>(c.b)].w += Iw[static_cast<size_t>(c.b)] * T;
    U[static_cast<size_t>(c.a)].w -= Iw[static_cast<size_t>(c.a)] * T;
  }
  void apply_joint(std::vector<Vel>& U, const JRow& r, double dl) const {
    if (r.a >= 0) {
      Vel& a = U[static_cast<size_t>(r.a)];
      a.v += im[static_cast<size_t>(r.a)] * dl * r.ja_v;
      a.w += Iw[static_cast<size_t>(r.a)] * (dl * r.ja_w);
    }
    if (r.b >= 0) {
      Vel& b = U[static_cast<size_t>(r.b)];
      b.v += im[static_cast<size_t>(r.b)] * dl * r.jb_v;
      b.w += Iw[static_cast<size_t>(r.b)] * (dl * r.jb_w);
    }
  }
  static double joint_vel(const std::vector<Vel>& U, const JRow& r) {
    double s = 0;
    if (r.a >= 0) s += r.ja_v.dot(U[static_cast<size_t>(r.a)].v) + r.ja_w.dot(U[static_cast<size_t>(r.a)].w);
    if (r.b >= 0) s += r.jb_v.dot(U[static_cast<size_t>(r.b)].v) + r.jb_w.dot(U[static_cast<size_t>(r.b)].w);
    return s;
  }

  /// One step t → t + h (or to t_out when it is within 1e-9 h); false on failure (status_, message_).
  bool step(double t_out) {
    const ImpulseOptions& opt = opt_;
    ImpulseSystem& sys = sys_;
    if (st.steps >= opt.max_steps)
      return fail(SolveStatus::TooMuchWork, at_time(t) + "step limit reached");
    // ---- 1. kinematics and contacts at q_n ----
    for (int i = 0; i < nb; ++i) {
      const size_t s = static_cast<size_t>(i);
      Rb[s] = sys.rotation(i, q);
      Iw[s] = Rb[s] * sys.inertia_com_inv(i) * Rb[s].transpose();
      xc[s] = sys.com_position(i, q);
      u0[s].v = v.segment<3>(6 * i);
      u0[s].w = Rb[s] * v.segment<3>(6 * i + 3);
    }
    sys.detect_contacts(q, opt.contact_margin, cps);
    // ---- 2. free velocities (applied forces at the start of the step, explicitly) ----
    sys.applied_forces(t, q, v, fapp);
    for (int i = 0; i < nb; ++i) {
      const size_t s = static_cast<size_t>(i);
      const Vec3 F = fapp.segment<3>(6 * i), tau = fapp.segment<3>(6 * i + 3);
      const Vec3 wB = v.segment<3>(6 * i + 3);
      const Mat3& J = sys.inertia_com(i);
      const Vec3 wB1 = wB + h * (sys.inertia_com_inv(i) * (tau - wB.cross(J * wB)));
      u[s].v = u0[s].v + h * im[s] * F;
      u[s].w = Rb[s] * wB1;
      up[s] = Vel{};
    }
    // ---- 3a. joint rows ----
    int row = 0;
    for (int j = 0; j < nj; ++j) {
      jstart[static_cast<size_t>(j)] = row;
      sys.joint_rows_world(j, q, v, jw);
      for (int r = 0; r < jw.nr; ++r, ++row) {
        JRow& jr = jrows[static_cast<size_t>(row)];
        const double lam_old = jr.lam;
        jr.a = jw.a;
        jr.b = jw.b;
        jr.ja_v = jw.Wa.block<1, 3>(r, 0).transpose();
        jr.ja_w = jw.Wa.block<1, 3>(r, 3).transpose();
        jr.jb_v = jw.Wb.block<1, 3>(r, 0).transpose();
        jr.jb_w = jw.Wb.block<1, 3>(r, 3).transpose();
        jr.k = 0;
        if (jr.a >= 0) jr.k += im[static_cast<size_t>(jr.a)] * jr.ja_v.squaredNorm() + jr.ja_w.dot(Iw[static_cast<size_t>(jr.a)] * jr.ja_w);
        if (jr.b >= 0) jr.k += im[static_cast<size_t>(jr.b)] * jr.jb_v.squaredNorm() + jr.jb_w.dot(Iw[static_cast<size_t>(jr.b)] * jr.jb_w);
        jr.c = jw.c[r];
        jr.lam = opt.warm_start ? lam_old : 0.0;
        jr.lam_p = 0;
      }
    }
    jstart[static_cast<size_t>(nj)] = row;
    // ---- 3a'. joint friction and joint limits (NewtonEulerOptions::joint_elements_by_impulses) ----
    sys.joint_element_rows(q, v, jel);
    erows.clear();
    for (const JointElementRows& je : jel) {
      const ForceElement& f = sys.model().forces()[static_cast<size_t>(je.force)];
      auto make_row = [&](JRow& jr, int k, double scale) {
        jr.a = je.a;
        jr.b = je.b;
        jr.ja_v = scale * je.Wa.block<1, 3>(k, 0).transpose();
        jr.ja_w = scale * je.Wa.block<1, 3>(k, 3).transpose();
        jr.jb_v = scale * je.Wb.block<1, 3>(k, 0).transpose();
        jr.jb_w = scale * je.Wb.block<1, 3>(k, 3).transpose();
        jr.k = 0;
        if (jr.a >= 0) jr.k += im[static_cast<size_t>(jr.a)] * jr.ja_v.squaredNorm() + jr.ja_w.dot(Iw[static_cast<size_t>(jr.a)] * jr.ja_w);
        if (jr.b >= 0) jr.k += im[static_cast<size_t>(jr.b)] * jr.jb_v.squaredNorm() + jr.jb_w.dot(Iw[static_cast<size_t>(jr.b)] * jr.jb_w);
        jr.lam = jr.lam_p = 0;
      };
      if (f.type == ForceType::JointFriction) {
        const bool turns = joint_turns(f.joint_type), slides = joint_slides(f.joint_type);
        const double vr = turns ? f.radius * je.rate : 0.0, vs = slides ? je.speed : 0.0;
        ERow er;
        const double v0 = std::hypot(vr, vs);
        er.L = h * joint_friction_level(f, v0);
        if (f.normal_from_reaction) {
          const int ji = force_joint[static_cast<size_t>(je.force)];
          if (ji < 0) throw std::logic_error("joint_friction '" + f.name + "': its joint is not in the model");
          er.c = joint_friction_coefficient(f, v0);
          er.reaction = er.c > 0;
          er.j0 = jstart[static_cast<size_t>(ji)];
          er.nj = jstart[static_cast<size_t>(ji) + 1] - er.j0;
          er.ka = f.joint_type == JointType::Revolute && f.radius > 0 ? f.axial_radius / f.radius : 0.0;
          er.e = je.axis;
        }
        if (!(er.L > 0) && !er.reaction) continue;  // viscous only: in the applied forces
        if (turns) make_row(er.r[er.nr++], 0, f.radius);
        if (slides) make_row(er.r[er.nr++], 1, 1.0);
        erows.push_back(er);
      } else {
        const bool turns = f.joint_type == JointType::Revolute;
        const double x = turns ? je.angle : je.displacement;
        for (int side = 0; side < 2; ++side) {
          const std::optional<double>& stop = side == 0 ? f.upper : f.lower;
          if (!stop) continue;
          const double sign = side == 0 ? -1.0 : 1.0;  // the gap's rate is sign · q̇
          const double gap = sign * (x - *stop);
          ERow er;
          er.limit = true;
          er.nr = 1;
          make_row(er.r[0], turns ? 0 : 1, sign);
          const double g0 = joint_vel(u0, er.r[0]);  // the gap's rate at the step's start
          if (gap + h * g0 <= 0 && g0 < -opt.restitution_threshold && f.restitution > 0) er.bn = -f.restitution * g0;
          else er.bn = gap > 0 ? -gap / h : 0.0;
          er.bp = opt.split_impulse ? opt.position_beta * std::max(-gap - opt.slop, 0.0) / h : 0.0;
          er.r[0].c = gap;
          erows.push_back(er);
        }
      }
    }
    // ---- 3b. contact rows ----
    crows.resize(cps.size());
    double max_pen = 0;
    for (size_t ci = 0; ci < cps.size(); ++ci) {
      const ContactPoint& cp = cps[ci];
      CRow& c = crows[ci];
      c.a = slot(cp.a);
      c.b = slot(cp.b);
      const size_t sa = static_cast<size_t>(c.a), sb = static_cast<size_t>(c.b);
      const Vec3 n = cp.n;
      const Vec3 ra = cp.a >= 0 ? Vec3(cp.p - xc[sa]) : Vec3::Zero();
      const Vec3 rb = cp.b >= 0 ? Vec3(cp.p - xc[sb]) : Vec3::Zero();

      c.ima = im[sa];
      c.imb = im[sb];
      c.key = cp.key();
      c.mu = cp.friction;
      c.mur = cp.rolling_resistance * cp.r_eff;
      c.mut = cp.torsional_friction;
      max_pen = std::max(max_pen, -cp.depth);
      // Tangent basis: t1 along the slip after the free update, else along the carried friction.
      const Vec3 rv = point_vel(u, c.b, rb) - point_vel(u, c.a, ra);
      const Vec3 vt = rv - n * n.dot(rv);
      const Prev* pv = nullptr;
      if (opt.warm_start && !prev.empty()) {
        auto it = std::lower_bound(prev.begin(), prev.end(), Prev{c.key, 0, Vec3::Zero(), Vec3::Zero(), 0.0});
        if (it != prev.end() && it->key == c.key) pv = &*it;
      }
      Vec3 t1;
      if (vt.norm() > 1e-9) t1 = vt.normalized();
      else if (pv && (pv->P_t - n * n.dot(pv->P_t)).norm() > 0) t1 = -(pv->P_t - n * n.dot(pv->P_t)).normalized();
      else t1 = any_orthogonal(n);
      c.d[0] = n;
      c.d[1] = t1;
      c.d[2] = n.cross(t1);
      Vec3* ja = c.ja;
      Vec3* jb = c.jb;
      for (int k = 0; k < 3; ++k) {
        ja[k] = ra.cross(c.d[k]);
        jb[k] = rb.cross(c.d[k]);
        c.Ba[k] = Iw[sa] * ja[k];
        c.Bb[k] = Iw[sb] * jb[k];
      }
      // Effective masses J_i M⁻¹ J_jᵀ (d_i·d_j = δ_ij).
      auto kij = [&](int i, int j) {
        return (i == j ? c.ima + c.imb : 0.0) + ja[i].dot(c.Ba[j]) + jb[i].dot(c.Bb[j]);
      };
      c.kn = kij(0, 0);
      c.kn_inv = 1.0 / c.kn;
      c.Kt << kij(1, 1), kij(1, 2), kij(2, 1), kij(2, 2);
      c.Kt_inv = c.Kt.inverse();
      if (c.mur > 0) {
        const Mat3 Isum = Iw[sa] + Iw[sb];
        c.Kr << c.d[1].dot(Isum * c.d[1]), c.d[1].dot(Isum * c.d[2]), c.d[2].dot(Isum * c.d[1]),
            c.d[2].dot(Isum * c.d[2]);
        c.Kr_inv = c.Kr.inverse();
      }
      if (c.mut > 0) c.ks = n.dot((Iw[sa] + Iw[sb]) * n);
      // Normal target: Newton restitution from the pre-step approach speed, or closing a gap.
      const double vn_pre = n.dot(point_vel(u0, c.b, rb) - point_vel(u0, c.a, ra));
      if (vn_pre < -opt.restitution_threshold && cp.restitution > 0) c.bn = -cp.restitution * vn_pre;
      else c.bn = cp.depth > 0 ? -cp.depth / h : 0.0;
      c.bp = opt.split_impulse ? opt.position_beta * std::max(-cp.depth - opt.slop, 0.0) / h : 0.0;
      c.lam_n = pv ? pv->lam_n : 0.0;
      c.lam_t = pv ? Vec2(c.d[1].dot(pv->P_t), c.d[2].dot(pv->P_t)) : Vec2::Zero();
      c.lam_r = (pv && c.mur > 0) ? Vec2(c.d[1].dot(pv->P_r), c.d[2].dot(pv->P_r)) : Vec2::Zero();
      c.lam_s = (pv && c.mut > 0) ? pv->lam_s : 0.0;
      c.lam_p = 0;
    }
    Vel* const U = u.data();
    Vel* const UP = up.data();
    // ---- warm start ----
    if (opt.warm_start) {
      for (const JRow& jr : jrows) apply_joint(u, jr, jr.lam);
      for (CRow& c : crows) {
        project_friction(c.lam_t, c.mu * c.lam_n);
        apply_rows(c, U, c.lam_n, c.lam_t.x(), c.lam_t.y());
        if (c.mur > 0) {
          const double L = c.mur * c.lam_n;
          if (c.lam_r.norm() > L) c.lam_r *= L / c.lam_r.norm();
          apply_torque(u, c, c.d[1] * c.lam_r.x() + c.d[2] * c.lam_r.y());
        }
        if (c.mut > 0) {
          c.lam_s = std::clamp(c.lam_s, -c.mut * c.lam_n, c.mut * c.lam_n);
          apply_torque(u, c, c.d[0] * c.lam_s);
        }
      }
    }
    // One projected Gauss–Seidel update of a unilateral joint row (a joint limit) on the
    // velocities `vel`: λ ← max(0, λ − ω (v − bias)/k), its change applied; returns |Δλ| k.
    const auto unilateral = [&](auto& vel, const JRow& jr, double& lam, double bias) {
      const double l = std::max(0.0, lam - omega * (joint_vel(vel, jr) - bias) / jr.k);
      const double d = l - lam;
      lam = l;
      apply_joint(vel, jr, d);
      return std::abs(d) * jr.k;
    };
    // ---- 3c. projected Gauss–Seidel on velocities ----
    int it = 0;
    double res = 0;
    for (it = 1; it <= opt.pgs_max_iterations; ++it) {
      res = 0;
      for (JRow& jr : jrows) {
        const double dl = -omega * joint_vel(u, jr) / jr.k;
        jr.lam += dl;
        apply_joint(u, jr, dl);
        res = std::max(res, std::abs(dl) * jr.k);
      }
      for (ERow& er : erows) {
        if (er.limit) {
          res = std::max(res, unilateral(u, er.r[0], er.r[0].lam, er.bn));
          continue;
        }
        // Friction: the unconstrained update of each row, then the radial projection on |p| ≤ L.
        double cand[2] = {0, 0}, norm2 = 0;
        for (int k = 0; k < er.nr; ++k) {
          cand[k] = er.r[k].lam - omega * joint_vel(u, er.r[k]) / er.r[k].k;
          norm2 += cand[k] * cand[k];
        }
        double L = er.L;
        if (er.reaction) {
          // The joint's impulse on b in this iteration (its rows were updated above).
          Vec3 P = Vec3::Zero();
          for (int k = er.j0; k < er.j0 + er.nj; ++k)
            P += jrows[static_cast<size_t>(k)].lam * jrows[static_cast<size_t>(k)].jb_v;
          const double Pa = er.e.dot(P);
          L += er.c * ((P - Pa * er.e).norm() + er.ka * std::abs(Pa));
        }
        const double scale = norm2 > L * L ? L / std::sqrt(norm2) : 1.0;
        for (int k = 0; k < er.nr; ++k) {
          const double dl = scale * cand[k] - er.r[k].lam;
          er.r[k].lam += dl;
          apply_joint(u, er.r[k], dl);
          res = std::max(res, std::abs(dl) * er.r[k].k);
        }
      }
      for (CRow& c : crows) {
        const double vn = row_vel(c, U, 0);
        const double ln = std::max(0.0, c.lam_n - omega * (vn - c.bn) * c.kn_inv);
        const double dn = ln - c.lam_n;
        c.lam_n = ln;
        apply_normal(c, U, dn);
        res = std::max(res, std::abs(dn) * c.kn);
        // Without normal impulse the friction set is {0}: nothing to do if λ_t is already 0.
        if (c.mu > 0 && (c.lam_n > 0 || c.lam_t.x() != 0 || c.lam_t.y() != 0)) {
          const Vec2 vt(row_vel(c, U, 1), row_vel(c, U, 2));
          Vec2 cand = c.lam_t - omega * (c.Kt_inv * vt);
          if (opt.friction == FrictionModel::Cone) project_disc_kt(cand, c.mu * c.lam_n, c.Kt);
          else project_polygon_kt(cand, c.mu * c.lam_n, c.Kt);
          const Vec2 dt = cand - c.lam_t;
          c.lam_t = cand;
          apply_rows(c, U, 0.0, dt.x(), dt.y());
          res = std::max(res, (c.Kt * dt).cwiseAbs().maxCoeff());
        }
        if (c.mur > 0) {
          const Vec3 wr = U[c.b].w - U[c.a].w;
          const Vec2 vr(c.d[1].dot(wr), c.d[2].dot(wr));
          Vec2 cand = c.lam_r - omega * (c.Kr_inv * vr);
          const double L = c.mur * c.lam_n;
          if (cand.norm() > L) cand *= (L > 0 ? L / cand.norm() : 0.0);
          const Vec2 dr = cand - c.lam_r;
          c.lam_r = cand;
          apply_torque(u, c, c.d[1] * dr.x() + c.d[2] * dr.y());
          res = std::max(res, (c.Kr * dr).cwiseAbs().maxCoeff());
        }
        if (c.mut > 0 && c.ks > 0) {
          const double ws = c.d[0].dot(U[c.b].w - U[c.a].w);
          const double L = c.mut * c.lam_n;
          const double ls = std::clamp(c.lam_s - omega * ws / c.ks, -L, L);
          const double ds = ls - c.lam_s;
          c.lam_s = ls;
          apply_torque(u, c, c.d[0] * ds);
          res = std::max(res, std::abs(ds) * c.ks);
        }
      }
      if (res <= opt.pgs_tolerance) break;
    }
    if (it > opt.pgs_max_iterations) {
      it = opt.pgs_max_iterations;
      ++ps.steps_at_cap;
    }
    // ---- 4. split impulse: pseudo-velocities for the position error ----
    int pit = 0;
    if (opt.split_impulse && (nj > 0 || !crows.empty() || !erows.empty())) {
      for (pit = 1; pit <= opt.position_iterations; ++pit) {
        double pres = 0;
        for (JRow& jr : jrows) {
          const double target = -opt.position_beta * jr.c / h;
          const double dl = -omega * (joint_vel(up, jr) - target) / jr.k;
          jr.lam_p += dl;
          apply_joint(up, jr, dl);
          pres = std::max(pres, std::abs(dl) * jr.k);
        }
        for (ERow& er : erows) {
          if (!er.limit) continue;
          pres = std::max(pres, unilateral(up, er.r[0], er.r[0].lam_p, er.bp));
        }
        for (CRow& c : crows) {
          const double vn = row_vel(c, UP, 0);
          const double lp = std::max(0.0, c.lam_p - omega * (vn - c.bp) * c.kn_inv);
          const double dp = lp - c.lam_p;
          c.lam_p = lp;
          apply_normal(c, UP, dp);
          pres = std::max(pres, std::abs(dp) * c.kn);
        }
        if (pres <= opt.pgs_tolerance) break;
      }
      pit = std::min(pit, opt.position_iterations);
    }
    // ---- 5. positions (symplectic Euler with a Lie-group rotation update) ----
    for (int i = 0; i < nb; ++i) {
      const size_t s = static_cast<size_t>(i);
      q.segment<3>(7 * i) += h * (u[s].v + up[s].v);
      const Vec4 Q = q.segment<4>(7 * i + 3);
      Vec4 Qn = math::ep_multiply(math::ep_from_rotvec(h * (u[s].w + up[s].w)), Q);
      Qn /= Qn.norm();
      q.segment<4>(7 * i + 3) = Qn;
      v.segment<3>(6 * i) = u[s].v;
      v.segment<3>(6 * i + 3) = math::ep_to_matrix(Qn).transpose() * u[s].w;
    }
    // Keep the impulses for the next step's warm start.
    prev_next.clear();
    for (const CRow& c : crows)
      prev_next.push_back(Prev{c.key, c.lam_n, c.d[1] * c.lam_t.x() + c.d[2] * c.lam_t.y(),
                               c.d[1] * c.lam_r.x() + c.d[2] * c.lam_r.y(), c.lam_s});
    std::sort(prev_next.begin(), prev_next.end());
    prev.swap(prev_next);

    t = (t_out - t < 1.5 * h) && (std::abs(t + h - t_out) < kLandTol * h) ? t_out : t + h;
    ++st.steps;
    st.last_step = h;
    ps.total_iterations += it;
    ps.max_iterations = std::max(ps.max_iterations, it);
    ps.max_residual = std::max(ps.max_residual, res);
    ps.max_contacts = std::max(ps.max_contacts, static_cast<int>(crows.size()));
    ps.max_penetration = std::max(ps.max_penetration, max_pen);
    ps.total_pairs += sys_.last_pair_count();
    ps.max_pairs = std::max(ps.max_pairs, sys_.last_pair_count());
    if (opt.record_per_step)
      ps.per_step.push_back(
          PgsStepStats{t, it, res, pit, static_cast<int>(crows.size()), max_pen, sys_.last_pair_count()});
    if (!q.allFinite() || !v.allFinite())
      return fail(SolveStatus::ResidualFailure, at_time(t) + "the state became non-finite");

    return true;
  }

  static constexpr double kLandTol = 1e-6;  // steps within kLandTol h of an output time land on it
  std::unique_ptr<ImpulseSystem> owned_;
  ImpulseSystem& sys_;  // its scratch and run state this integrator's
  ImpulseOptions opt_;
  const int nb, nj;
  const double h, omega;
  VecX fapp;  // applied forces per body (ImpulseSystem::applied_forces)
  double t;
  VecX q, v;
  const VecX empty;
  SolverStats& st = stats_;  // the step's counters (name kept short in the step's body)
  ImpulseStats ps;
  std::vector<Vel> u, up, u0;
  std::vector<double> im;
  std::vector<Mat3> Iw, Rb;
  std::vector<Vec3> xc;
  std::vector<JRow> jrows;
  std::vector<int> jstart;       // first row of joint j in jrows (jstart[nj]: all rows)
  std::vector<int> force_joint;  // per force element: its joint (joint_friction), else -1
  std::vector<JointElementRows> jel;
  std::vector<ERow> erows;
  std::vector<ContactPoint> cps;
  std::vector<CRow> crows;
  std::vector<Prev> prev, prev_next;
  JointRowsWorld jw;
  int ksides = 4;
  std::vector<Vec2> vert, facet;
  bool box_pyramid = false;
};

/// The settings and the joints against the system (an ImpulseSystem or the NewtonEulerSystem a
/// view is made of, checked before the view's contact detector checks the contacts).
template <class Sys>
void check_options(const Sys& sys, double t0, const VecX& q0, const VecX& v0, const ImpulseOptions& opt) {
  if (!(opt.t_end > t0)) throw SolverSettingsError("solve_impulse: t_end must be > t0");
  if (!(opt.step > 0)) throw SolverSettingsError("solve_impulse: step must be > 0, got " + std::to_string(opt.step));
  if (!(opt.relaxation > 0 && opt.relaxation < 2))
    throw SolverSettingsError("solve_impulse: relaxation must be in (0, 2), got " + std::to_string(opt.relaxation));
  if (opt.pgs_max_iterations < 1) throw SolverSettingsError("solve_impulse: pgs_max_iterations must be >= 1");
  if (opt.friction == FrictionModel::Pyramid && opt.pyramid_sides < 3)
    throw SolverSettingsError("solve_impulse: pyramid_sides must be >= 3, got " + std::to_string(opt.pyramid_sides));
  if (q0.size() != sys.num_q() || v0.size() != sys.num_v())
    throw SolverSettingsError("solve_impulse: state size does not match the system");
  // The impulse stepper applies gravity, loads, damping and the force elements
  // (ImpulseSystem::applied_forces), explicitly at the start of the step; its joints have no
  // drive: say so instead of leaving them out.
  for (const Joint& j : sys.model().joints())
    if (j.time_dependent())
      throw std::invalid_argument(std::string("solve_impulse: ") +
                                  (j.motion || j.speed ? "driven joints" : "joint offsets") +
                                  " are not supported by the impulse stepper: joint '" + j.name +
                                  "'; use an explicit or implicit solver");
}

}  // namespace

std::unique_ptr<ImpulseIntegrator> make_impulse(ImpulseSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                                const ImpulseOptions& opt) {
  check_options(sys, t0, q0, v0, opt);
  return std::make_unique<ImpulseIntegratorImpl>(sys, nullptr, t0, q0, v0, opt);
}

std::unique_ptr<ImpulseIntegrator> make_impulse(const NewtonEulerSystem& sys, double t0, const VecX& q0,
                                                const VecX& v0, const ImpulseOptions& opt) {
  check_options(sys, t0, q0, v0, opt);
  auto view = std::make_unique<NewtonEulerImpulse>(sys);
  ImpulseSystem& s = *view;
  return std::make_unique<ImpulseIntegratorImpl>(s, std::move(view), t0, q0, v0, opt);
}

ImpulseResult solve_impulse(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                            const ImpulseOptions& opt, const Observer& obs) {
  const auto integ = make_impulse(sys, t0, q0, v0, opt);
  NewtonEulerMonitor monitor(sys);
  ImpulseResult out;
  out.result = run_to_end(monitor, *integ, opt, obs);
  out.pgs = integ->pgs_stats();
  return out;
}

}  // namespace mbdae
