// N-link chain benchmark of the implicit solvers:
//   "N uniform bars (1 kg, 1 × 0.1 × 0.1 m, COM at mid-bar) along +x at rest, bar i from x = i to
//    i+1, spherical joints at the shared ends and from bar 0 to ground at the origin, gravity
//    (0, 0, −9.81), 1 s", also with revolute joints (axis y).
// The model is mbdae::validation::models::Chain (validation/include/mbdae/validation/Models.h).
//
// Solvers: generalized-α (index 3, h = 1e-3, ρ∞ = 0.8, the SimulationSettings default),
// trapezoidal index 2 (h = 1e-3), IDA (stabilized index 2, rtol 1e-6, atol 1e-8, KLU).
// For each (joint, N, solver) the run is repeated (default 3) and the median wall time of the
// solve is reported (std::chrono::steady_clock around simulate(); prepare() is not timed), with
// the solver's statistics of that run: steps, Newton iterations per step, factorizations,
// Jacobian evaluations, rejected steps, max constraint violation.
//
// Usage: chain_bench [--csv FILE] [--repeats R] [--large] [--sizes 4,16,...]
//                    [--solvers generalized_alpha,trapezoidal_index2,ida] [--joints spherical,revolute]
//   --large adds N = 4096; --solvers and --joints pick a subset (default: all).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <mbdae/solvers/Simulation.h>

// bench/CMakeLists.txt links mbdae::mbdae only; the model builders are compiled in here.
#include "../validation/src/Models.cpp"

using namespace mbdae;
namespace models = mbdae::validation::models;

namespace {

struct Row {
  std::string joint, solver;
  int n = 0;
  long steps = 0;
  double median_wall = 0, per_step_us = 0, newton_per_step = 0;
  long factorizations = 0, jacobians = 0, rejected = 0, newton = 0;
  double violation = 0;
  bool ok = true;
  std::string message;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

Row Measure(models::ChainJoint joint, int n, SolverType solver, int repeats) {
  const System model = models::Chain(n, joint);
  PreparedSystem p = prepare(model);
  SimulationSettings s;
  s.solver = solver;
  s.t_end = 1.0;
  s.step = 1e-3;
  s.rho_inf = 0.8;
  s.output_every = 0;  // only t0 and t_end: no observer work inside the run
  s.rtol = 1e-6;
  s.atol = 1e-8;
  Row r;
  r.joint = models::to_string(joint);
  r.solver = to_string(solver);
  r.n = n;
  std::vector<double> walls;
  SolveResult last;
  for (int k = 0; k < repeats; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    last = simulate(*p.system, 0, p.q0, p.v0, s, Observer());
    walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!last.ok()) break;
  }
  r.ok = last.ok();
  r.message = last.message;
  r.steps = last.stats.steps;
  r.median_wall = Median(walls);
  r.per_step_us = r.steps ? 1e6 * r.median_wall / static_cast<double>(r.steps) : 0;
  r.newton = last.stats.newton_iterations;
  r.newton_per_step = r.steps ? static_cast<double>(r.newton) / static_cast<double>(r.steps) : 0;
  r.factorizations = last.stats.factorizations;
  r.jacobians = last.stats.jacobian_evaluations;
  r.rejected = last.stats.rejected_steps;
  r.violation = last.stats.max_position_violation;
  return r;
}

std::vector<int> ParseSizes(const std::string& s) {
  std::vector<int> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stoi(item));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string csv;
  int repeats = 3;
  std::vector<int> sizes = {4, 16, 64, 256, 1024};
  bool large = false;
  std::string solvers = "generalized_alpha,trapezoidal_index2,ida", joints = "spherical,revolute";
  auto listed = [](const std::string& list, const std::string& name) {
    return ("," + list + ",").find("," + name + ",") != std::string::npos;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--repeats" && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (a == "--sizes" && i + 1 < argc) sizes = ParseSizes(argv[++i]);
    else if (a == "--large") large = true;
    else if (a == "--solvers" && i + 1 < argc) solvers = argv[++i];
    else if (a == "--joints" && i + 1 < argc) joints = argv[++i];
    else {
      std::cerr << "usage: chain_bench [--csv FILE] [--repeats R] [--large] [--sizes 4,16,...]\n"
                   "                   [--solvers generalized_alpha,trapezoidal_index2,ida] [--joints spherical,revolute]\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  if (large) sizes.push_back(4096);

  std::printf("N-link chain, 1 s; generalized-alpha h = 1e-3 rho_inf = 0.8; trapezoidal index 2 h = 1e-3; "
              "IDA rtol 1e-6 atol 1e-8 (KLU); median of %d runs\n", repeats);
  std::printf("%-9s %6s %-18s %7s %10s %12s %9s %8s %8s %5s %9s\n", "joint", "N", "solver", "steps",
              "wall [s]", "us/step", "Newton/st", "factor.", "Jac.ev", "rej", "max|C|");
  std::vector<Row> rows;
  for (const auto joint : {models::ChainJoint::Spherical, models::ChainJoint::Revolute})
    for (const int n : sizes)
      for (const auto solver : {SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2, SolverType::Ida}) {
        if (!listed(joints, models::to_string(joint)) || !listed(solvers, to_string(solver))) continue;
        const Row r = Measure(joint, n, solver, repeats);
        std::printf("%-9s %6d %-18s %7ld %10.4f %12.2f %9.2f %8ld %8ld %5ld %9.2e%s%s\n", r.joint.c_str(), r.n,
                    r.solver.c_str(), r.steps, r.median_wall, r.per_step_us, r.newton_per_step,
                    r.factorizations, r.jacobians, r.rejected, r.violation, r.ok ? "" : "  FAILED: ",
                    r.ok ? "" : r.message.c_str());
        std::fflush(stdout);
        rows.push_back(r);
      }
  if (!csv.empty()) {
    std::ofstream f(csv);
    if (!f) {
      std::cerr << "cannot write " << csv << "\n";
      return 1;
    }
    f << "joint,n,solver,ok,steps,median_wall_s,us_per_step,newton_iterations,newton_per_step,"
         "factorizations,jacobian_evaluations,rejected_steps,max_position_violation,repeats\n";
    f.precision(10);
    for (const Row& r : rows)
      f << r.joint << ',' << r.n << ',' << r.solver << ',' << (r.ok ? 1 : 0) << ',' << r.steps << ','
        << r.median_wall << ',' << r.per_step_us << ',' << r.newton << ',' << r.newton_per_step << ','
        << r.factorizations << ',' << r.jacobians << ',' << r.rejected << ',' << r.violation << ','
        << repeats << '\n';
  }
  bool all_ok = true;
  for (const Row& r : rows) all_ok = all_ok && r.ok;
  return all_ok ? 0 : 1;
}
