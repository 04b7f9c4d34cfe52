#pragma once
/// @file Simulation.h
/// From a model to a run: build the formulation, find and remove redundant constraint equations
/// (with a warning that names them), assemble consistent initial positions and velocities, and
/// run any of the implicit solvers with one settings struct.

#include <memory>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// The implicit solvers simulate() can run.
enum class SolverType {
  GeneralizedAlpha,   ///< solve_generalized_alpha() (index 3)
  Ida,                ///< solve_ida() (stabilized index 2, BDF); not in a build without SUNDIALS
                      ///< (MBDAE_WITH_IDA=OFF), where make_integrator() refuses it
  TrapezoidalIndex2,  ///< solve_trapezoidal_index2()
};
/// "generalized_alpha", "ida" or "trapezoidal_index2". No throw.
const char* to_string(SolverType s);
/// "generalized_alpha", "ida", "trapezoidal_index2"; throws SolverSettingsError otherwise.
SolverType solver_type_from_string(const std::string& s);

/// One settings struct for every implicit solver: the run's (RunSettings: t_end, the step of
/// generalized-α and the trapezoidal rule, output_every, by default 1e-2 s here) and the solvers'
/// own; each solver uses the fields that apply.
struct SimulationSettings : RunSettings {
  SimulationSettings() { output_every = 1e-2; }
  SolverType solver = SolverType::GeneralizedAlpha;  ///< which solver
  double rho_inf = 0.8;        ///< generalized-α
  /// generalized-α: index 3 (default) or stabilized index 2 (GGL); see GeneralizedAlpha.h
  AlphaFormulation formulation = AlphaFormulation::Index3;
  /// IDA tolerances, and the local-error tolerances of the `adaptive` Newmark solvers;
  /// Newton tolerances of the fixed-step solvers use newton_tol.
  double rtol = 1e-6;
  double atol = 1e-8;          ///< see rtol (m, rad)
  double newton_tol = 1e-10;   ///< Newmark solvers: NewmarkOptions::newton_rtol and newton_atol
  bool sparse = true;          ///< sparse (KLU) or dense linear algebra (IDA)
  bool modified_newton = true; ///< Newmark solvers: NewmarkOptions::modified_newton
  /// generalized-α / trapezoidal: adapt the step to keep the local error below rtol, atol
  /// (`step` is then the first step).
  bool adaptive = false;
};

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

/// The chosen solver as an Integrator, for stepping from a host program:
///     auto integ = make_integrator(*p.system, 0.0, p.q0, p.v0, settings);
///     while (integ->time() < t_end && integ->advance_to(integ->time() + dt)) { ... }
/// The integrator keeps a reference to `sys`, which must outlive it. q0, v0 consistent, size n.
/// @throws SolverSettingsError for invalid settings (as the chosen solver's make_*), and for
///         SolverType::Ida in a build without SUNDIALS.
std::unique_ptr<Integrator> make_integrator(const ConstrainedSystem& sys, double t0,
                                            const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s);

/// Runs the chosen solver from a consistent state to s.t_end, with output every s.output_every.
/// q0, v0 of size n; the observer gets q, v, a (n) and λ (m). Run-time failures are returned.
/// @throws SolverSettingsError if s.t_end < t0 or for other invalid settings.
SolveResult simulate(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                     const SimulationSettings& s, const Observer& obs);

}  // namespace mbdae
