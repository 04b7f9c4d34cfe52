#pragma once
/// @file AssemblyUnit.h
/// One kind of element's share of the implicit formulation (Multibody.h): the coordinates and
/// constraint rows it owns, its blocks of the sparsity patterns and its terms of every evaluation.
/// The shape is Exudyn's CObject (ComputeAlgebraicEquations, ComputeJacobianAE,
/// GetAvailableJacobians). MultibodySystem lays out coordinates and rows in the order of its unit
/// list and evaluates each function as one loop over the units in that order:
///
///     r = Σ_units residual terms        (a unit assigns the entries of the coordinates it owns,
///                                        then adds to those of others: owners come first)
///     c, ċ, γ = each unit's rows        (RowLevel::Position, Velocity, Acceleration)
///     A = Σ_units c_q ∂r/∂q + c_v ∂r/∂v + c_a ∂r/∂a on the unit's blocks
///     C_q, ∂ċ/∂q = each unit's rows × its coordinates
///
/// A unit states which derivatives it forms analytically (available_jacobians()); the others it
/// forms by central differences over its local coordinates (tangent_by_differences() is the
/// helper for a unit with one local residual function).
///
/// Set-up, once, in this order: claim() (coordinates and rows from the UnitLayout), then
/// set_active_rows() (the rows left after MultibodyOptions::disabled_rows), add_pattern(),
/// make_maps(). Evaluations are const and keep their scratch in the unit's UnitScratch of the
/// caller's workspace (make_scratch()), so a unit is shared by threads as its system is.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/formulations/Sparsity.h>
#include <mbdae/model/System.h>

namespace mbdae {

class UnitKinematics;  // every body's kinematics at one state (internal to the formulation)

/// The arguments of one evaluation: global vectors (size n, or m for lambda), of size 0 where the
/// evaluation has none (no a in forces(), no v in constraints()).
struct UnitState {
  double t;           ///< s
  ConstVecRef q;      ///< coordinates (size n)
  ConstVecRef v;      ///< velocities (size n, or 0)
  ConstVecRef a;      ///< accelerations (size n, or 0)
  ConstVecRef lambda; ///< multipliers (size m, or 0)
  /// Every body's kinematics at (q, v), where the evaluation formed them once for all units; null
  /// in the others (a unit then forms the kinematics it needs).
  const UnitKinematics* kin;
  /// v's data, null if the evaluation has no velocities.
  const double* vp() const { return v.size() ? v.data() : nullptr; }
};

/// The level of a unit's constraint rows: C, Ċ = C_q v + C_t, γ (C̈ = C_q a − γ).
enum class RowLevel { Position, Velocity, Acceleration };

/// The derivatives a unit forms analytically; the others are central differences local to it.
struct AvailableJacobians {
  bool tangent_q = false;     ///< ∂r/∂q of its residual terms (incl. ∂(C_qᵀλ)/∂q of its rows)
  bool tangent_v = false;     ///< ∂r/∂v
  bool mass = false;          ///< ∂r/∂a
  bool constraint_q = false;  ///< C_q of its rows
  bool constraint_v = false;  ///< ∂Ċ/∂q of its rows
};

/// A unit's scratch memory in a workspace (only grows; no allocation once it has its sizes).
struct UnitScratch {
  virtual ~UnitScratch() = default;
};

/// Hands out coordinates and constraint rows in the order the units claim them.
class UnitLayout {
 public:
  /// Claims `count` coordinates; returns the first one's index in q.
  int add_coordinates(int count) {
    const int first = n_;
    n_ += count;
    return first;
  }
  /// Claims `count` rows of the full row list; returns the first one's index.
  int add_rows(int count) {
    const int first = rows_;
    rows_ += count;
    return first;
  }
  int num_coordinates() const { return n_; }  ///< coordinates claimed so far
  int num_rows() const { return rows_; }  ///< full rows claimed so far

 private:
  int n_ = 0, rows_ = 0;
};

/// What one kind of element contributes to the implicit formulation (see the top of this file).
class AssemblyUnit {
 public:
  virtual ~AssemblyUnit() = default;
  /// Its kind, for messages and tests ("rigid bodies", "joints", …).
  virtual const char* kind() const = 0;
  /// The derivatives it forms analytically (the others by central differences local to it).
  virtual AvailableJacobians available_jacobians() const = 0;

  // ---- set-up (once, in the order of the declarations)
  /// Claims its coordinates and rows (the full row list, before disabled rows are removed).
  virtual void claim(UnitLayout& layout) = 0;
  /// Its rows' active indices (per full row it claimed, -1 where disabled).
  void set_active_rows(std::vector<int> active) {
    active_ = std::move(active);
    on_layout();
  }
  /// Adds its blocks to the tangent pattern (n × n) and the row Jacobian's (m × n).
  virtual void add_pattern(PatternBuilder& tangent, PatternBuilder& jacobian) const = 0;
  /// Forms its block maps (BlockMap) into the two built patterns.
  virtual void make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) = 0;
  /// Its scratch for one workspace (null: it needs none).
  virtual std::unique_ptr<UnitScratch> make_scratch() const { return nullptr; }

  // ---- evaluations (s.q, s.v, s.a, s.lambda global; out vectors global)
  /// Writes the initial values of its own coordinates and velocities.
  virtual void initial_state(VecRef /*q0*/, VecRef /*v0*/) const {}
  /// Its terms of r = M a − f + C_qᵀ λ: assigns the entries of its own coordinates, adds to others.
  virtual void residual(UnitScratch* w, const UnitState& s, VecRef r) const = 0;
  /// Its terms of the applied forces f (no multipliers): assigns its own coordinates' entries.
  virtual void forces(UnitScratch* w, const UnitState& s, VecRef f) const = 0;
  /// Its rows of C, Ċ or γ (entries of its active rows).
  virtual void rows(UnitScratch* /*w*/, const UnitState& /*s*/, RowLevel /*level*/, VecRef /*out*/) const {}
  /// Adds c_q ∂r/∂q + c_v ∂r/∂v + c_a ∂r/∂a of its terms to A (tangent_pattern()).
  virtual void add_tangent(UnitScratch* w, const UnitState& s, double c_q, double c_v, double c_a,
                           SparseMatrix& A) const = 0;
  /// Adds ∂r/∂a of its terms to M.
  virtual void add_mass(UnitScratch* /*w*/, const UnitState& /*s*/, SparseMatrix& /*M*/) const {}
  /// Adds C_q (level Position) or ∂Ċ/∂q (level Velocity) of its rows to J (jacobian_pattern()).
  virtual void add_jacobian(UnitScratch* /*w*/, const UnitState& /*s*/, RowLevel /*level*/, SparseMatrix& /*J*/) const {
  }
  /// Adds its kinetic and its potential energy (J) to E and V (one running sum over the units).
  virtual void add_kinetic_energy(const UnitState& /*s*/, double& /*E*/) const {}
  /// See add_kinetic_energy().
  virtual void add_potential_energy(UnitScratch* /*w*/, const UnitState& /*s*/, double& /*V*/) const {}

  // ---- labels
  /// The label of coordinate i if it is one of its own, else empty.
  virtual std::string coordinate_label(int /*i*/) const { return {}; }
  /// Its full rows' labels, items and levels (local index in [0, number claimed)).
  virtual std::string row_label(int /*local*/) const { return {}; }
  /// The item (joint, body, coupling) its full row `local` belongs to.
  virtual ItemRef row_item(int /*local*/) const { return {}; }
  /// True for a velocity-level (nonholonomic) row: no position equation.
  virtual bool row_velocity_level(int /*local*/) const { return false; }

  /// Active row of its local row k, -1 if disabled.
  int active_row(int k) const { return active_[static_cast<size_t>(k)]; }
  /// Number of full rows it claimed.
  int num_full_rows() const { return static_cast<int>(active_.size()); }

 protected:
  /// Called when the layout is complete: every unit's coordinates and the active rows are known
  /// (a unit forms its lists of global coordinates and active rows here).
  virtual void on_layout() {}
  /// Adds c_q ∂f/∂q_l + c_v ∂f/∂v_l + c_a ∂f/∂a_l of a local residual function f over the local
  /// coordinates `coords` (f(ql, vl, al, out), each of size coords.size()) to A by central
  /// differences (FiniteDifference.h's step), through `map` (coords × coords of A's pattern).
  static void tangent_by_differences(
      const std::vector<int>& coords, const UnitState& s, double c_q, double c_v, double c_a, const BlockMap& map,
      const std::function<void(const double*, const double*, const double*, double*)>& f, SparseMatrix& A);

  std::vector<int> active_;  ///< per full row it claimed: its active row, -1 where disabled
};

/// Makes an extra unit for a system (MultibodyOptions::extra_units), given the system's model.
using UnitFactory = std::function<std::unique_ptr<AssemblyUnit>(const System&)>;

}  // namespace mbdae
