#pragma once
/// @file BodyKinematics.h
/// What sensors, pose files and analyses read from a state, whatever the formulation behind it:
/// positions, rotations, velocities and accelerations of body points, joint reactions, energy and
/// constraint violation. One interface, three layouts of the state (Multibody.h for the implicit
/// solvers, NewtonEuler.h for the explicit and impulse paths, LieGroupBodies.h for the Lie-group
/// path), so that a sensor is written once and works on every solver whose state has what it needs.
///
/// Use: update(state) once per state, then any number of queries. An object is a workspace of one
/// run: it keeps references to the state passed to update() (valid while that state is) and work
/// vectors, so one object must not be used from two threads at once; the formulation it reads may
/// be shared (const).
///
/// Conventions as everywhere (docs/conventions.md): world axes unless a name says otherwise, body
/// points p_B in body axes relative to the body's reference point, R_WB rotates body → world.

#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/formulations/State.h>

namespace mbdae {

/// Body kinematics of a state, formulation-independent (file comment). Body indices are those of
/// model().bodies() (not ground); they are not checked by the queries.
class BodyKinematics {
 public:
  virtual ~BodyKinematics() = default;
  /// The model the bodies and joints come from.
  virtual const System& model() const = 0;
  /// Reads a state; the queries below refer to it until the next update(). The state's vectors
  /// must stay alive while the queries are made.
  virtual void update(const StateView& s) = 0;
  /// Time of the state, s.
  virtual double time() const = 0;

  /// Position of body point p_B (body axes from the reference point, m), world, m.
  virtual Vec3 position(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const = 0;
  /// R_WB of body i.
  virtual Mat3 rotation(BodyIndex i) const = 0;
  /// Velocity of body point p_B, world, m/s.
  virtual Vec3 velocity(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const = 0;
  /// Angular velocity ω, world axes, rad/s.
  virtual Vec3 angular_velocity(BodyIndex i) const = 0;
  /// True if the state carries accelerations (the solver computed them).
  virtual bool has_accelerations() const = 0;
  /// Acceleration of body point p_B, world, m/s² (NaN without accelerations).
  virtual Vec3 acceleration(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const = 0;
  /// Angular acceleration, world axes, rad/s² (NaN without accelerations).
  virtual Vec3 angular_acceleration(BodyIndex i) const = 0;
  /// True if the state carries the multipliers from which reactions follow.
  virtual bool has_reactions() const = 0;
  /// Reaction of joint j (index in model().joints()) on its body b (NaN without multipliers).
  virtual JointReaction reaction(int joint) const = 0;
  /// Kinetic energy plus the potentials of gravity and the conservative force elements, J.
  virtual double energy() = 0;
  /// Largest violations of the constraints at the state.
  virtual ConstraintViolation constraint_violation() = 0;
  /// Value of controller state k (index in model().controller_states()) at the state, its unit.
  virtual double controller_state(int k) const = 0;
  /// Coordinate of 1-D shaft s (index in model().shafts(); rad or m), its rate and its
  /// acceleration (NaN without accelerations). @throws std::out_of_range for a bad index,
  /// std::logic_error on a path without shafts.
  virtual JointCoordinate shaft_motion(int shaft) const = 0;
  /// Multiplier λ of coupling c (index in model().couplings()) at the state: the coupling applies
  /// −c_i λ to the coordinate of its joint i (System.h, Coupling). NaN without multipliers.
  /// @throws std::out_of_range for a bad index, std::logic_error on a path without couplings.
  virtual double coupling_multiplier(int coupling) const = 0;
  /// Cable c (index in model().cables()) at reference arc length s, m from its start (clamped to
  /// its length). @throws std::out_of_range for a bad index, std::logic_error on a path without
  /// cables.
  virtual CablePoint cable_point(int cable, double s) const = 0;
};

/// BodyKinematics of MultibodySystem states (the implicit solvers): q, v of size n, a (q̈) of
/// size n and λ of size m when the solver provides them.
class MultibodyKinematics final : public BodyKinematics {
 public:
  /// Keeps a reference to `sys`.
  explicit MultibodyKinematics(const MultibodySystem& sys);
  const System& model() const override { return sys_.model(); }
  void update(const StateView& s) override;
  double time() const override { return t_; }
  Vec3 position(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Mat3 rotation(BodyIndex i) const override;
  Vec3 velocity(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Vec3 angular_velocity(BodyIndex i) const override;
  bool has_accelerations() const override;
  Vec3 acceleration(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Vec3 angular_acceleration(BodyIndex i) const override;
  bool has_reactions() const override;
  JointReaction reaction(int joint) const override;
  double energy() override;
  ConstraintViolation constraint_violation() override;
  double controller_state(int k) const override { return (*v_)[sys_.controller_coordinate(k)]; }
  JointCoordinate shaft_motion(int shaft) const override;
  double coupling_multiplier(int coupling) const override;
  CablePoint cable_point(int cable, double s) const override;

 private:
  const MultibodySystem& sys_;
  MultibodySystem::Workspace ws_;  // energy() and constraint_violation()
  double t_ = 0;
  const VecX* q_ = nullptr;
  const VecX* v_ = nullptr;
  const VecX* a_ = nullptr;
  const VecX* lambda_ = nullptr;
  VecX c_, cv_;
};

/// BodyKinematics of NewtonEulerSystem states (explicit and impulse paths; q = [x_C, Q],
/// v = [v_C, w_B] per body) or of Lie-group states (q = [x_C, rotation vector], same v), which
/// are converted to the Newton–Euler layout in update(). Their states carry no accelerations or
/// multipliers; with `dynamics` the kinematics computes them at every update() from the smooth
/// equations of motion (NewtonEulerSystem::derivative(): accelerations and the joints' multipliers
/// of M u̇ = f + Jᵀλ), which is right for RK4, Dormand–Prince and the Lie-group methods but not for
/// the impulse stepper (its contact impulses are not in them).
class NewtonEulerKinematics final : public BodyKinematics {
 public:
  /// Layout of the states handed to update().
  enum class Layout {
    NewtonEuler,  ///< NewtonEuler.h
    LieGroup,     ///< LieGroupBodies.h
  };
  /// Keeps a reference to `sys` (masses, COM offsets, joints, energy). `dynamics`: compute
  /// accelerations and joint reactions at every update() (one evaluation of the equations of
  /// motion each).
  NewtonEulerKinematics(const NewtonEulerSystem& sys, Layout layout, bool dynamics = false);
  const System& model() const override { return sys_.model(); }
  void update(const StateView& s) override;
  double time() const override { return t_; }
  Vec3 position(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Mat3 rotation(BodyIndex i) const override;
  Vec3 velocity(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Vec3 angular_velocity(BodyIndex i) const override;
  bool has_accelerations() const override { return dynamics_; }
  Vec3 acceleration(BodyIndex i, const Vec3& p_B = Vec3::Zero()) const override;
  Vec3 angular_acceleration(BodyIndex i) const override;
  bool has_reactions() const override { return dynamics_; }
  JointReaction reaction(int joint) const override;
  double energy() override;
  ConstraintViolation constraint_violation() override;
  double controller_state(int k) const override { return (*v_)[6 * sys_.num_bodies() + k]; }
  JointCoordinate shaft_motion(int shaft) const override;
  double coupling_multiplier(int coupling) const override;
  CablePoint cable_point(int cable, double s) const override;

 private:
  const NewtonEulerSystem& sys_;
  NewtonEulerSystem::Workspace ws_;  // update() with dynamics, energy(), constraint_violation()
  Layout layout_;
  bool dynamics_;
  double t_ = 0;
  const VecX* q_ = nullptr;  // Newton–Euler layout: the state's or qw_
  const VecX* v_ = nullptr;
  VecX qw_, c_, cv_;
  VecX qd_, vd_, lambda_;          // dynamics: q̇, u̇ and λ at the state
  std::vector<int> row_offset_;    // first multiplier of each joint
  std::vector<Vec3> marker_b_;     // joint marker on b: body axes from b's reference point (world for ground)
  std::vector<Mat3> frame_a_;      // joint frame of the marker on a: body axes (world for ground)
};

}  // namespace mbdae
