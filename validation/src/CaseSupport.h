#pragma once
/// @file CaseSupport.h
/// Helpers shared by the validation-suite cases (validation/src/cases_*.cpp); not installed.

#include <chrono>
#include <cmath>
#include <string>

#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Suite.h>

namespace mbdae::validation::suite {

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

/// "generalized_alpha h=0.001 rho=0.95", "trapezoidal_index2 h=0.001", "ida rtol=1e-10".
inline std::string Label(const SimulationSettings& s) {
  switch (s.solver) {
    case SolverType::Ida: return "ida rtol=" + Num(s.rtol, 3);
    case SolverType::GeneralizedAlpha:
      return "generalized_alpha h=" + Num(s.step, 3) + " rho=" + Num(s.rho_inf, 3);
    case SolverType::TrapezoidalIndex2: return "trapezoidal_index2 h=" + Num(s.step, 3);
    default: return std::string(to_string(s.solver)) + " h=" + Num(s.step, 3);  // no implicit run
  }
}

/// Settings of one implicit run.
inline SimulationSettings Settings(SolverType type, double t_end, double step_or_rtol,
                                   double output_every, double rho_inf = 0.8) {
  SimulationSettings s;
  s.solver = type;
  s.t_end = t_end;
  s.output_every = output_every;
  s.rho_inf = rho_inf;
  if (type == SolverType::Ida) {
    s.rtol = step_or_rtol;
    s.atol = step_or_rtol * 1e-2;
  } else {
    s.step = step_or_rtol;
  }
  return s;
}

/// Slope of log(error) against log(step) between two runs.
inline double Order(double e_coarse, double e_fine, double h_coarse, double h_fine) {
  return std::log(e_coarse / e_fine) / std::log(h_coarse / h_fine);
}

inline double MaxAbs(double a, double b) { return std::max(std::abs(a), std::abs(b)); }

}  // namespace mbdae::validation::suite
