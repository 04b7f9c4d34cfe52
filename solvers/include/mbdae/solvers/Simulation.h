#pragma once
/// @file Simulation.h
/// From a model to a run: build the formulation, find and remove redundant constraint equations
/// (with a warning that names them), assemble consistent initial positions and velocities, and
/// run any of the implicit solvers with the one settings struct (SimulationSettings,
/// SolverSettings.h).

#include <memory>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/SolverCommon.h>
#include <mbdae/solvers/SolverSettings.h>

namespace mbdae {

/// A formulation ready to run: redundant rows removed, initial state consistent.
struct PreparedSystem {
  std::unique_ptr<MultibodySystem> system;  ///< the formulation, redundant rows disabled
  VecX q0;  ///< consistent positions, size n = system->num_coordinates()
  VecX v0;  ///< consistent velocities, size n
  RedundancyReport redundancy;   ///< rows refer to the full row list (MultibodySystem::all_row_label)
  AssemblyReport assembly;       ///< the initial projection (converged)
  std::vector<std::string> warnings;  ///< e.g. the redundant equations that were removed
  /// Beside each of `warnings`: the item it is about (the joint of the first redundant equation),
  /// or Kind::None.
  std::vector<ItemRef> warning_items;
};

/// Builds and prepares a model. Throws ModelError for an invalid model, and ItemError (a
/// std::runtime_error naming the worst equation, item() its joint or body) when the initial
/// assembly cannot satisfy the constraints. t0 in s. `mb`: options of the formulation (its
/// disabled_rows are replaced by the redundant rows found; reaction_friction for a solver that
/// takes joint friction by reaction). @throws ModelError, ItemError as said.
PreparedSystem prepare(const System& model, double t0 = 0.0, const AssemblyOptions& opt = {},
                       const MultibodyOptions& mb = {});
/// The same from a compiled model (CompiledModel.h), which the formulations it builds share.
PreparedSystem prepare(std::shared_ptr<const CompiledModel> model, double t0 = 0.0, const AssemblyOptions& opt = {},
                       const MultibodyOptions& mb = {});

/// Runs the chosen solver from a consistent state to s.t_end, with output every s.output_every.
/// q0, v0 of size n; the observer gets q, v, a (n) and λ (m). Run-time failures are returned.
/// @throws SolverSettingsError if s.t_end < t0 or for other invalid settings.
SolveResult simulate(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                     const SimulationSettings& s, const Observer& obs);

}  // namespace mbdae
