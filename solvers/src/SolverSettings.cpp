/// @file SolverSettings.cpp
/// The one translation of SimulationSettings into the options of the chosen solver (every family).

#include <mbdae/solvers/SolverSettings.h>
#include <mbdae/solvers/Sensitivity.h>
#include <mbdae/solvers/StepBudget.h>

#include <algorithm>
#include <cmath>
#include <string>

#if MBDAE_WITH_IDA
#include <mbdae/solvers/Ida.h>
#endif

namespace mbdae {

long step_budget(const RunSettings& s) {
  constexpr double floor = 1e8, ceiling = 1e18;
  double need = 0;
  if (s.step > 0 && std::isfinite(s.t_end)) need += std::abs(s.t_end) / s.step;
  if (s.output_every > 0 && std::isfinite(s.t_end)) need += std::abs(s.t_end) / s.output_every + 1;
  return static_cast<long>(std::min(ceiling, std::max(floor, 2 * std::ceil(need))));
}

namespace {

/// Refuses a solver of another family than the caller takes, by name.
void require_family(const SimulationSettings& s, SolverPath path, const char* what) {
  if (solver_info(s.solver).path != path)
    throw SolverSettingsError(std::string("solver '") + to_string(s.solver) + "' is not " + what);
}

NewmarkOptions newmark_options(const SimulationSettings& s) {
  NewmarkOptions o;
  o.run_settings() = s;
  o.max_steps = step_budget(s);
  o.rho_inf = s.rho_inf;
  o.formulation = s.formulation;
  o.newton_rtol = s.newton_tol;
  o.newton_atol = s.newton_tol;
  o.modified_newton = s.modified_newton;
  o.adaptive = s.adaptive;
  o.rtol = s.rtol;
  o.atol = s.atol;
  return o;
}

#if MBDAE_WITH_IDA
IdaOptions ida_options(const SimulationSettings& s) {
  IdaOptions o;
  o.run_settings() = s;  // IDA does not use the step
  o.rtol = s.rtol;
  o.atol = s.atol;
  o.linear_solver = s.sparse ? IdaOptions::LinearSolver::Sparse : IdaOptions::LinearSolver::Dense;
  return o;
}
#endif

}  // namespace

std::unique_ptr<SensitivityIntegrator> make_sensitivity_integrator(const ConstrainedSystem& sys, double t0,
                                                                   const VecX& q0, const VecX& v0,
                                                                   const SimulationSettings& s,
                                                                   std::vector<ParameterSystems> params,
                                                                   const MatX& dq0, const MatX& dv0) {
  switch (s.solver) {
    case SolverType::GeneralizedAlpha:
    case SolverType::TrapezoidalIndex2:
      return make_newmark_sensitivity(sys, t0, q0, v0, newmark_options(s), s.solver == SolverType::TrapezoidalIndex2,
                                      std::move(params), dq0, dv0);
    default:
      throw SolverSettingsError(std::string("solver '") + to_string(s.solver) +
                                "' has no sensitivities yet: use solver.type: generalized_alpha (index 3) or "
                                "trapezoidal_index2");
  }
}

ExplicitOptions explicit_options(const SimulationSettings& s, bool has_joints) {
  require_family(s, SolverPath::NewtonEuler, "an explicit Newton-Euler solver (rk4, dopri5)");
  ExplicitOptions o;
  o.method = s.solver == SolverType::Dopri5 ? ExplicitMethod::Dopri5 : ExplicitMethod::RK4;
  o.run_settings() = s;
  o.max_steps = step_budget(s);
  o.rtol = s.rtol;
  o.atol = s.atol;
  const bool project = s.projection && has_joints;
  o.project_positions = project;
  o.project_velocities = project;
  return o;
}

LieGroupOptions lie_group_options(const SimulationSettings& s) {
  require_family(s, SolverPath::LieGroup, "a Lie-group solver (lie_rk4)");
  LieGroupOptions o;
  o.method = LieGroupMethod::RK4;
  o.run_settings() = s;
  o.max_steps = step_budget(s);
  return o;
}

ImpulseOptions impulse_options(const SimulationSettings& s) {
  require_family(s, SolverPath::Impulse, "the impulse stepper");
  ImpulseOptions o;
  o.run_settings() = s;
  o.max_steps = step_budget(s);
  o.pgs_max_iterations = s.pgs_iterations;
  o.pgs_tolerance = s.pgs_tolerance;
  o.friction = s.friction_cone ? FrictionModel::Cone : FrictionModel::Pyramid;
  o.record_per_step = false;
  return o;
}

std::unique_ptr<Integrator> make_integrator(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s) {
  require_family(s, SolverPath::Implicit, "an implicit solver (generalized_alpha, ida, trapezoidal_index2)");
  switch (s.solver) {
    case SolverType::GeneralizedAlpha: return make_generalized_alpha(sys, t0, q0, v0, newmark_options(s));
    case SolverType::TrapezoidalIndex2: return make_trapezoidal_index2(sys, t0, q0, v0, newmark_options(s));
    case SolverType::Ida:
#if MBDAE_WITH_IDA
      return make_ida(sys, t0, q0, v0, ida_options(s));
#else
      break;  // refused by require_family (solver_info)
#endif
    default: break;
  }
  throw SolverSettingsError(std::string("solver '") + to_string(s.solver) + "' is not an implicit solver");
}

std::unique_ptr<Integrator> make_integrator(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s) {
  return make_explicit(sys, t0, q0, v0, explicit_options(s, sys.num_joint_rows() > 0));
}

}  // namespace mbdae
