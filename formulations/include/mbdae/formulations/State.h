#pragma once
/// @file State.h
/// A state as every solver hands it out, and what a run measures on it, independent of the
/// formulation that defines the layout of q and v.

#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// A state handed to an observer. a and lambda may be empty (size 0) for solvers that do not
/// compute them. The layout of q and v is the formulation's (Multibody.h, NewtonEuler.h,
/// LieGroupBodies.h). The references are valid only during the observer call (or until the next
/// Integrator::advance_to()).
struct StateView {
  double t;             ///< time, s
  const VecX& q;        ///< coordinates (layout of the formulation)
  const VecX& v;        ///< velocities (layout of the formulation)
  const VecX& a;        ///< accelerations v̇, same size as v, or empty
  const VecX& lambda;   ///< Lagrange multipliers (one per constraint row), or empty
};

/// Largest constraint violations at a state.
struct ConstraintViolation {
  double position = 0;  ///< ‖C‖∞ over the position-level rows
  double velocity = 0;  ///< ‖C_q v + C_t‖∞ over all rows (A v + b for velocity-level rows)
};

/// The power of a model's force elements at a state (StateMonitor::force_powers()), one entry per
/// element in the order of StateMonitor::force_names().
struct ForcePowers {
  /// W: Σ F·v + τ·ω of the element's wrenches on its bodies (what it puts into them).
  std::vector<double> total;
  /// W: the same of its elastic part (its law with the relative velocity zero) for the elements
  /// with a potential (spring-dampers, end stops, joint limits; −dV/dt), else 0. total − elastic
  /// is the power of its non-conservative part (damping, drive, load).
  std::vector<double> elastic;
  /// J: the element's potential energy (0 without one).
  std::vector<double> potential;
};

/// What a run measures at its output times, whatever the formulation: the energy and the
/// constraint violation of a state (run_to_end() in SolverCommon.h). A monitor belongs to one
/// run and may keep work vectors (its measuring functions are not const), so that measuring
/// allocates nothing; use one monitor per thread.
class StateMonitor {
 public:
  virtual ~StateMonitor() = default;
  /// True if energy() is defined (kinetic + potential of the conservative forces).
  virtual bool has_energy() const = 0;
  /// Total mechanical energy at the state, J (0 if !has_energy()).
  virtual double energy(const StateView& s) = 0;
  /// Largest constraint violations at the state (zeros without constraints).
  virtual ConstraintViolation constraint_violation(const StateView& s) = 0;
  /// The force elements force_powers() measures, by name (empty: none; the default).
  virtual const std::vector<std::string>& force_names() const {
    static const std::vector<std::string> none;
    return none;
  }
  /// The power of each force element at the state (ForcePowers), sized as force_names().
  virtual void force_powers(const StateView& /*s*/, ForcePowers& p) { p = {}; }
};

}  // namespace mbdae
