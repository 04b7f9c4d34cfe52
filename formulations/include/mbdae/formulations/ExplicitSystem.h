#pragma once
/// @file ExplicitSystem.h
/// What an explicit integrator sees of a formulation (as Chrono's ChTimestepper sees a
/// ChIntegrable): an ODE q̇ = f_q(t, q, v), v̇ = f_v(t, q, v) with optional constraints C(t, q) = 0
/// held at acceleration level, a manifold for q that a step may leave (unit quaternions), and
/// projections back onto the constraints. rk4 and dopri5 (Explicit.h) step any implementation;
/// NewtonEulerExplicit (NewtonEulerExplicit.h) is the Newton–Euler formulation's.
///
/// An ExplicitSystem is a view for one integrator or monitor: it holds the scratch memory of its
/// evaluations (its functions are not const), so each integrator and each monitor has its own,
/// while the formulation behind it stays read-only and may be shared (docs/architecture.md,
/// "Threads and workspaces"). Its projections may reuse what its last derivative() computed.

#include <string>
#include <vector>

#include <mbdae/formulations/State.h>
#include <mbdae/model/Types.h>

namespace mbdae {
/// What rk4 and dopri5 step: an ODE with constraints, one view per integrator (file comment).
class ExplicitSystem {
 public:
  virtual ~ExplicitSystem() = default;

  /// Size of q.
  virtual int num_q() const = 0;
  /// Size of v (and of v̇).
  virtual int num_v() const = 0;
  /// Number of constraint rows (0: an unconstrained ODE; the projections are not called).
  virtual int num_constraints() const = 0;

  /// q̇ and v̇ at (t, q, v), sizes num_q() and num_v().
  /// @throws std::runtime_error (or a derived class) if the accelerations cannot be found (a
  ///         singular constraint system), naming the cause.
  virtual void derivative(double t, const VecX& q, const VecX& v, VecX& qdot, VecX& vdot) = 0;
  /// Puts q back onto its manifold (e.g. rescales quaternions to unit length); returns the
  /// largest change. The default has no manifold.
  virtual double normalize(VecX& /*q*/) { return 0; }
  /// Projects q onto C(t, q) = 0 (Gauss–Newton, at most max_iter iterations, until ‖C‖∞ ≤ tol);
  /// returns ‖C‖∞ after.
  virtual double project_positions(double t, VecX& q, double tol, int max_iter) = 0;
  /// Projects v onto Ċ(t, q, v) = 0; returns ‖Ċ‖∞ after.
  virtual double project_velocities(double t, const VecX& q, VecX& v) = 0;

  /// Total mechanical energy at (q, v), J.
  virtual double energy(const VecX& q, const VecX& v) = 0;
  /// The force elements force_powers() measures, by name (none by default).
  virtual const std::vector<std::string>& force_names() const {
    static const std::vector<std::string> none;
    return none;
  }
  /// The power of each force element at (t, q, v) (ForcePowers in State.h), sized as force_names().
  virtual void force_powers(double /*t*/, const VecX& /*q*/, const VecX& /*v*/, ForcePowers& p) { p = {}; }
  /// C(t, q), size num_constraints().
  virtual void constraints(double t, const VecX& q, VecX& c) = 0;
  /// Ċ(t, q, v), size num_constraints().
  virtual void constraint_velocity(double t, const VecX& q, const VecX& v, VecX& cd) = 0;
};

}  // namespace mbdae
