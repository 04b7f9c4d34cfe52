#include <mbdae/solvers/SolverRegistry.h>

#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

namespace {

/// Every solver of mbdae, ida also in a build without SUNDIALS (its name and identifier are known
/// there; solvers() leaves it out).
const std::vector<SolverInfo>& all_solvers() {
  //                        joints driven forces contacts penalty rolling torsional accel lambda couplings states reaction_friction
  static const SolverSupport implicit{true, true, true, true, true, true, true, true, true, true, true, true};
  static const std::vector<SolverInfo> table{
      {SolverType::GeneralizedAlpha, "generalized_alpha", SolverPath::Implicit, false, implicit,
       "generalized-alpha (Chung-Hulbert, Arnold-Bruls), index 3, fixed step or adaptive"},
      {SolverType::Ida, "ida", SolverPath::Implicit, true, implicit,
       "SUNDIALS IDA (variable-order BDF) on the stabilized index-2 form"},
      {SolverType::TrapezoidalIndex2, "trapezoidal_index2", SolverPath::Implicit, false, implicit,
       "implicit trapezoidal rule on the index-2 form, fixed step or adaptive"},
      {SolverType::RK4, "rk4", SolverPath::NewtonEuler, false,
       {true, true, true, false, false, false, false, true, true, false, true, false},
       "classical Runge-Kutta on Newton-Euler bodies, joints at acceleration level with projection"},
      {SolverType::Dopri5, "dopri5", SolverPath::NewtonEuler, true,
       {true, true, true, false, false, false, false, true, true, false, true, false},
       "Dormand-Prince 5(4) with step-size control on Newton-Euler bodies"},
      {SolverType::LieRK4, "lie_rk4", SolverPath::LieGroup, false,
       {false, false, false, false, false, false, false, true, true, false, false, false},
       "Runge-Kutta-Munthe-Kaas 4 on SE(3) for free bodies"},
      {SolverType::Impulse, "impulse", SolverPath::Impulse, false,
       {true, false, true, true, false, true, true, false, false, false, false, true},
       "velocity-level impulse stepper, contacts and friction by projected Gauss-Seidel"},
  };
  return table;
}

}  // namespace

const std::vector<SolverInfo>& solvers() {
  static const std::vector<SolverInfo> available = [] {
    std::vector<SolverInfo> out;
    for (const SolverInfo& s : all_solvers())
      if (!unavailable_solver(s.name)) out.push_back(s);
    return out;
  }();
  return available;
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

const SolverInfo& solver_info(SolverType type) {
  for (const SolverInfo& s : solvers())
    if (s.type == type) return s;
  const char* name = to_string(type);
  if (const char* why = unavailable_solver(name)) throw SolverSettingsError("solver '" + std::string(name) + "' " + why);
  throw SolverSettingsError("unknown solver");
}

const char* to_string(SolverType type) {
  for (const SolverInfo& s : all_solvers())
    if (s.type == type) return s.name;
  return "?";
}

SolverType solver_type_from_string(std::string_view name) {
  if (const char* why = unavailable_solver(name))
    throw SolverSettingsError("solver '" + std::string(name) + "' " + why);
  if (const SolverInfo* s = find_solver(name)) return s->type;
  throw SolverSettingsError("unknown solver '" + std::string(name) + "' (expected one of " + solver_names() + ")");
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
