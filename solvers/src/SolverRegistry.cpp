#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae {

const std::vector<SolverInfo>& solvers() {
  //                        joints driven forces contacts penalty rolling torsional accel lambda couplings states reaction_friction
  static const SolverSupport implicit{true, true, true, true, true, true, true, true, true, true, true, true};
  static const std::vector<SolverInfo> table{
      {"generalized_alpha", SolverPath::Implicit, false, implicit,
       "generalized-alpha (Chung-Hulbert, Arnold-Bruls), index 3, fixed step or adaptive"},
#if MBDAE_WITH_IDA
      {"ida", SolverPath::Implicit, true, implicit,
       "SUNDIALS IDA (variable-order BDF) on the stabilized index-2 form"},
#endif
      {"trapezoidal_index2", SolverPath::Implicit, false, implicit,
       "implicit trapezoidal rule on the index-2 form, fixed step or adaptive"},
      {"rk4", SolverPath::NewtonEuler, false, {true, true, true, false, false, false, false, true, true, false, true, false},
       "classical Runge-Kutta on Newton-Euler bodies, joints at acceleration level with projection"},
      {"dopri5", SolverPath::NewtonEuler, true, {true, true, true, false, false, false, false, true, true, false, true, false},
       "Dormand-Prince 5(4) with step-size control on Newton-Euler bodies"},
      {"lie_rk4", SolverPath::LieGroup, false, {false, false, false, false, false, false, false, true, true, false, false, false},
       "Runge-Kutta-Munthe-Kaas 4 on SE(3) for free bodies"},
      {"impulse", SolverPath::Impulse, false, {true, false, true, true, false, true, true, false, false, false, false, true},
       "velocity-level impulse stepper, contacts and friction by projected Gauss-Seidel"},
  };
  return table;
}

const char* unavailable_solver(std::string_view name) {
#if !MBDAE_WITH_IDA
  if (name == "ida") return kIdaUnavailable;
#endif
  (void)name;
  return nullptr;
}

const SolverInfo* find_solver(std::string_view name) {
  for (const SolverInfo& s : solvers())
    if (name == s.name) return &s;
  return nullptr;
}

std::string solver_names() {
  return solver_names_where([](const SolverInfo&) { return true; });
}

std::string solver_names_where(bool (*accepts)(const SolverInfo&)) {
  std::string out;
  for (const SolverInfo& s : solvers())
    if (accepts(s)) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

}  // namespace mbdae
