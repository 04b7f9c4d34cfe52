#pragma once
/// @file SolverSettings.h
/// The one description of a solver run: which solver (SolverType, SolverRegistry.h), the run's
/// settings (RunSettings) and one settings struct per solver family, in SimulationSettings. The
/// model file's `solver` section fills it (io::LoadedModel::settings), and so do the command
/// line's `--set solver.…`, the study runner's `solver:` entries and the Python keywords, all
/// through the model loader. This file's functions are the one place where it becomes the options
/// of the chosen solver (NewmarkOptions, IdaOptions, ExplicitOptions, LieGroupOptions,
/// ImpulseOptions):
///
/// | family (SolverPath) | solvers                                   | settings struct                | integrator             |
/// |---------------------|-------------------------------------------|--------------------------------|------------------------|
/// | implicit            | generalized_alpha, ida, trapezoidal_index2 | ImplicitSettings (+ rtol, atol) | make_integrator(ConstrainedSystem) |
/// | Newton–Euler        | rk4, dopri5                               | ExplicitSettings (+ rtol, atol) | make_integrator(NewtonEulerSystem) |
/// | Lie group           | lie_rk4                                   | (the run settings only)        | make_lie_group(lie_group_options())|
/// | impulse             | impulse                                   | ImpulseSettings                | make_impulse(impulse_options())    |

#include <memory>

#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/SolverCommon.h>
#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae {

/// Settings of the implicit solvers (generalized_alpha, ida, trapezoidal_index2); each uses the
/// fields that apply.
struct ImplicitSettings {
  double rho_inf = 0.8;        ///< generalized-α
  /// generalized-α: index 3 (default) or stabilized index 2 (GGL); see GeneralizedAlpha.h
  AlphaFormulation formulation = AlphaFormulation::Index3;
  double newton_tol = 1e-10;   ///< Newmark solvers: NewmarkOptions::newton_rtol and newton_atol
  bool sparse = true;          ///< sparse (KLU) or dense linear algebra (IDA)
  bool modified_newton = true; ///< Newmark solvers: NewmarkOptions::modified_newton
  /// generalized-α / trapezoidal: adapt the step to keep the local error below rtol, atol
  /// (`step` is then the first step).
  bool adaptive = false;
};

/// Settings of the explicit Newton–Euler solvers (rk4, dopri5).
struct ExplicitSettings {
  /// Project positions and velocities onto the joints after every step (when there are joints).
  bool projection = true;
};

/// Settings of the impulse stepper (impulse).
struct ImpulseSettings {
  int pgs_iterations = 100;     ///< projected Gauss-Seidel sweeps per step at most
  double pgs_tolerance = 1e-9;  ///< m/s
  bool friction_cone = false;   ///< exact cone instead of the 4-sided pyramid
};

/// The one settings struct of a run with any solver: the run's (RunSettings: t_end, the step of
/// the fixed-step solvers and the first step of the adaptive ones, output_every, by default
/// 1e-2 s here), the solver, the tolerances of every solver that adapts its step, and the
/// settings of each solver family (a solver reads those of its own family).
struct SimulationSettings : RunSettings, ImplicitSettings, ExplicitSettings, ImpulseSettings {
  SimulationSettings() { output_every = 1e-2; }
  SolverType solver = SolverType::GeneralizedAlpha;  ///< which solver
  /// Local-error tolerances: IDA's, the `adaptive` Newmark solvers' and Dormand–Prince's; the
  /// Newton tolerances of the fixed-step implicit solvers are newton_tol.
  double rtol = 1e-6;
  double atol = 1e-8;          ///< see rtol (m, rad)
};

/// The options of rk4 and dopri5 (s.solver RK4 or Dopri5): the run settings, the method, rtol,
/// atol, and projection onto the joints after every step when s.projection and `has_joints`.
/// @throws SolverSettingsError if s.solver is not rk4 or dopri5.
ExplicitOptions explicit_options(const SimulationSettings& s, bool has_joints);
/// The options of lie_rk4 (the run settings, RKMK4).
/// @throws SolverSettingsError if s.solver is not lie_rk4.
LieGroupOptions lie_group_options(const SimulationSettings& s);
/// The options of the impulse stepper: the run settings, the PGS sweeps and tolerance, the
/// friction set; no per-step statistics (a run reads the totals).
/// @throws SolverSettingsError if s.solver is not impulse.
ImpulseOptions impulse_options(const SimulationSettings& s);

/// The chosen implicit solver (s.solver generalized_alpha, ida or trapezoidal_index2) as an
/// Integrator, for stepping from a host program:
///     auto integ = make_integrator(*p.system, 0.0, p.q0, p.v0, settings);
///     while (integ->time() < t_end && integ->advance_to(integ->time() + dt)) { ... }
/// The integrator keeps a reference to `sys`, which must outlive it. q0, v0 consistent, size n.
/// @throws SolverSettingsError for invalid settings (as the chosen solver's make_*), for a
///         solver of another family, and for SolverType::Ida in a build without SUNDIALS.
std::unique_ptr<Integrator> make_integrator(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s);
/// The chosen explicit solver (s.solver rk4 or dopri5) on `sys` (make_explicit() with
/// explicit_options()). Keeps a reference to `sys`.
/// @throws SolverSettingsError as make_explicit(), and for a solver of another family.
std::unique_ptr<Integrator> make_integrator(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s);

}  // namespace mbdae
