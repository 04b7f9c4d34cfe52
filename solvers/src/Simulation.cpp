#include <mbdae/solvers/Simulation.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/SolverRegistry.h>
#if MBDAE_WITH_IDA
#include <mbdae/solvers/Ida.h>
#endif

namespace mbdae {

const char* to_string(SolverType s) {
  switch (s) {
    case SolverType::GeneralizedAlpha: return "generalized_alpha";
    case SolverType::Ida: return "ida";
    case SolverType::TrapezoidalIndex2: return "trapezoidal_index2";
  }
  return "?";
}

SolverType solver_type_from_string(const std::string& s) {
  if (s == "generalized_alpha") return SolverType::GeneralizedAlpha;
  if (s == "ida") return SolverType::Ida;
  if (s == "trapezoidal_index2") return SolverType::TrapezoidalIndex2;
  throw SolverSettingsError("unknown implicit solver '" + s +
                            "' (expected generalized_alpha, ida or trapezoidal_index2)");
}

PreparedSystem prepare(const System& model, double t0, const AssemblyOptions& opt) {
  PreparedSystem p;
  p.system = std::make_unique<MultibodySystem>(model);
  const int n = p.system->num_coordinates();
  p.q0.resize(n);
  p.v0.resize(n);
  p.system->initial_state(p.q0, p.v0);
  // Redundancy is judged at the initial configuration as given (before assembly: a model whose
  // loop does not close still shows its structural redundancy).
  p.redundancy = find_redundant_constraints(*p.system, t0, p.q0);
  if (!p.redundancy.dependent_rows.empty()) {
    std::ostringstream w;
    w << "redundant constraints: the constraint Jacobian has rank " << p.redundancy.rank << " of "
      << p.redundancy.rows << " rows; removed ";
    for (size_t k = 0; k < p.redundancy.dependent_rows.size(); ++k)
      w << (k ? ", " : "") << p.system->all_row_label(p.redundancy.dependent_rows[k]);
    p.warnings.push_back(w.str());
    p.warning_items.push_back(p.system->all_row_item(p.redundancy.dependent_rows.front()));
    MultibodyOptions mo;
    mo.disabled_rows = p.redundancy.dependent_rows;
    p.system = std::make_unique<MultibodySystem>(model, mo);
  }
  p.assembly = assemble_initial_state(*p.system, t0, p.q0, p.v0, opt);
  if (!p.assembly.converged)
    throw ItemError("initial assembly failed: " + p.assembly.message,
                    p.assembly.worst_row >= 0 ? p.system->constraint_item(p.assembly.worst_row) : ItemRef{});
  if (p.assembly.position_change > 1e-9 || p.assembly.velocity_change > 1e-9) {
    std::ostringstream w;
    w << "initial state adjusted to satisfy the constraints: |Δq| = " << p.assembly.position_change
      << ", |Δv| = " << p.assembly.velocity_change;
    p.warnings.push_back(w.str());
    p.warning_items.emplace_back();
  }
  return p;
}

namespace {
NewmarkOptions newmark_options(const SimulationSettings& s) {
  NewmarkOptions o;
  o.t_end = s.t_end;
  o.step = s.step;
  o.output_every = s.output_every;
  o.rho_inf = s.rho_inf;
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
  o.t_end = s.t_end;
  o.output_every = s.output_every;
  o.rtol = s.rtol;
  o.atol = s.atol;
  o.linear_solver = s.sparse ? IdaOptions::LinearSolver::Sparse : IdaOptions::LinearSolver::Dense;
  return o;
}
#endif
}  // namespace

std::unique_ptr<Integrator> make_integrator(const ConstrainedSystem& sys, double t0,
                                            const VecX& q0, const VecX& v0,
                                            const SimulationSettings& s) {
  switch (s.solver) {
    case SolverType::GeneralizedAlpha: return make_generalized_alpha(sys, t0, q0, v0, newmark_options(s));
    case SolverType::TrapezoidalIndex2: return make_trapezoidal_index2(sys, t0, q0, v0, newmark_options(s));
    case SolverType::Ida:
#if MBDAE_WITH_IDA
      return make_ida(sys, t0, q0, v0, ida_options(s));
#else
      throw SolverSettingsError(std::string("solver 'ida' ") + kIdaUnavailable);
#endif
  }
  throw SolverSettingsError("unknown solver");
}

SolveResult simulate(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                     const SimulationSettings& s, const Observer& obs) {
  if (!(s.t_end >= t0)) throw SolverSettingsError("end time must not be before the start time");
  auto integ = make_integrator(sys, t0, q0, v0, s);
  return run_to_end(sys, *integ, s.t_end, s.output_every, obs);
}

}  // namespace mbdae
