#pragma once
/// @file ImpulseSystem.h
/// What the impulse stepper (solvers/ImpulseStepper.h) sees of a formulation, as rk4 and dopri5 see
/// an ExplicitSystem: rigid bodies in the Newton–Euler layout (q = [x_C; Q] per body, v = [v_C;
/// w_B]), their masses and inertias about their centres of mass, the applied forces at a state,
/// each joint's rows and each joint element taken as impulses in world twist coordinates, and the
/// contact points at a state (the contact geometry, mbdae/contact/ContactGeometry.h).
/// NewtonEulerImpulse (NewtonEulerImpulse.h) is the Newton–Euler formulation's.
///
/// An ImpulseSystem is a view for one integrator: it holds the scratch memory of its evaluations
/// and the run state they carry (functions that are not const), while the formulation behind it
/// stays read-only and may be shared.

#include <vector>

#include <mbdae/contact/ContactGeometry.h>
#include <mbdae/model/System.h>

namespace mbdae {

/// A joint_friction or joint_limit element at a state, for the impulse stepper
/// (NewtonEulerOptions::joint_elements_by_impulses), in the coordinates u = (v_C world, ω WORLD)
/// of its two bodies: row 0 gives the rate φ̇ = (ω_b − ω_a)·e, row 1 the slide speed
/// ṡ = e·ḋ + (ω_a × e)·d at b's marker point (e the joint axis turning with a, world).
struct JointElementRows {
  int force = 0;           ///< index in model().forces()
  BodyIndex a = kGround;   ///< body a (kGround for ground)
  BodyIndex b = kGround;   ///< body b
  Eigen::Matrix<double, 2, 6> Wa;  ///< rows × (v_C, ω_W) of body a
  Eigen::Matrix<double, 2, 6> Wb;  ///< the same for body b
  double angle = 0;         ///< φ, rad, turns counted from the previous call (joint_limit on a revolute joint)
  double displacement = 0;  ///< s, m
  double rate = 0;          ///< φ̇, rad/s
  double speed = 0;         ///< ṡ, m/s
  Vec3 axis = Vec3::UnitZ();  ///< e, the joint axis turning with a (world, unit)
};

/// One joint's equations evaluated at a state, in the coordinates u = (v_C world, ω WORLD) of its
/// two bodies (body index −1 = ground), for the impulse stepper. c: position error, gamma: the
/// acceleration term of JointKernels; rows 0 … nr−1 of Wa/Wb are valid.
struct JointRowsWorld {
  BodyIndex a = kGround;  ///< body a of the joint (kGround for ground)
  BodyIndex b = kGround;  ///< body b of the joint
  int nr = 0;             ///< number of valid rows, ≤ 6
  Eigen::Matrix<double, 6, 1> c;      ///< position error per row (m or rad; first nr valid)
  Eigen::Matrix<double, 6, 1> gamma;  ///< γ per row (m/s² or rad/s²; first nr valid)
  Eigen::Matrix<double, 6, 6> Wa;     ///< rows × (v_C, ω_W) of body a (first nr rows valid)
  Eigen::Matrix<double, 6, 6> Wb;     ///< the same for body b
};

/// What the impulse stepper steps, one view per integrator (file comment). Body indices i are
/// those of model().bodies(); kGround is not a valid index.
class ImpulseSystem {
 public:
  virtual ~ImpulseSystem() = default;

  /// The model: its joints (names, time dependence) and force elements (types, parameters).
  virtual const System& model() const = 0;
  /// Number of bodies n.
  virtual int num_bodies() const = 0;
  /// Size of q (7 n, and the controller states).
  virtual int num_q() const = 0;
  /// Size of v (6 n, and the controller states).
  virtual int num_v() const = 0;
  /// Rows of all joints (joint_rows_world() of every joint).
  virtual int num_joint_rows() const = 0;

  /// Mass of body i, kg.
  virtual double mass(BodyIndex i) const = 0;
  /// J_C of body i, body axes, kg m².
  virtual const Mat3& inertia_com(BodyIndex i) const = 0;
  /// J_C⁻¹ of body i, 1/(kg m²).
  virtual const Mat3& inertia_com_inv(BodyIndex i) const = 0;
  /// x_C of body i at q, m.
  virtual Vec3 com_position(BodyIndex i, const VecX& q) const = 0;
  /// R_WB of body i at q.
  virtual Mat3 rotation(BodyIndex i, const VecX& q) const = 0;

  /// Applied forces of every body, 6 per body: force (world, N) and torque about the COM (BODY
  /// axes, N m); no gyroscopic term, no joint forces, none of the joint elements taken as
  /// impulses. f is resized to 6 n.
  virtual void applied_forces(double t, const VecX& q, const VecX& v, VecX& f) = 0;
  /// Joint `joint` (index in model().joints()) at (q, v) in world twist coordinates.
  virtual void joint_rows_world(int joint, const VecX& q, const VecX& v, JointRowsWorld& out) const = 0;
  /// The joint elements taken as impulses at (q, v), in the order of model().forces() (empty if
  /// none); an angle's turn count is this view's run state.
  virtual void joint_element_rows(const VecX& q, const VecX& v, std::vector<JointElementRows>& out) = 0;
  /// All contact points with depth < margin (m) at q; `out` is cleared and refilled.
  virtual void detect_contacts(const VecX& q, double margin, std::vector<ContactPoint>& out) = 0;
  /// Candidate shape pairs of the last detect_contacts() (for statistics).
  virtual long last_pair_count() const = 0;
};

}  // namespace mbdae
