// Sphere pile benchmark for the impulse stepper (ImpulseStepper.h): K spheres (r = 0.1 m, m = 1 kg,
// μ = 0.5, e = 0) on a lattice of n × n columns (n = ⌈K^(1/3)⌉, spacing 2.2 r, odd layers shifted
// by half a spacing in x and y), dropped into a box with a floor and four frictional walls;
// h = 1e-3 s. Prints the time per step, PGS statistics, and the max speed and the deepest
// penetration (at the start of the step) at 2 s and at the end.
// Usage: sphere_pile_bench [--t-end S] [--tolerance V] [--max-sweeps N] [--position-sweeps N] [--rolling MU_R]
//                          [--per-step CSV] [K ...]   (default 100 1000 10000; 2 s; the stepper's defaults)

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <mbdae/solvers/ImpulseStepper.h>

// The model builders, compiled in (the benchmarks link only mbdae::mbdae).
#include "../validation/src/Models.cpp"

using namespace mbdae;

int main(int argc, char** argv) {
  std::vector<int> sizes;
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 2.0;
  double rolling = 0;
  const char* per_step_file = nullptr;
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "--t-end") && more) o.t_end = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--tolerance") && more) o.pgs_tolerance = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-sweeps") && more) o.pgs_max_iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--position-sweeps") && more) o.position_iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--rolling") && more) rolling = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--per-step") && more) per_step_file = argv[++i];
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: %s [--t-end S] [--tolerance V] [--max-sweeps N] [--position-sweeps N] [--rolling MU_R] [--per-step CSV] [K ...]\n",
                   argv[0]);
      return 2;
    } else sizes.push_back(std::atoi(argv[i]));
  }
  if (sizes.empty()) sizes = {100, 1000, 10000};
  o.output_every = o.t_end > 2.0 ? 1.0 : 0.0;
  std::printf("h = %g s, %g s, PGS tolerance %g m/s, at most %d sweeps (%d split-impulse sweeps), rolling resistance %g\n",
              o.step, o.t_end, o.pgs_tolerance, o.pgs_max_iterations, o.position_iterations, rolling);
  std::printf("%8s %8s %10s %9s %8s %8s %8s %9s %11s %11s %11s %11s\n", "spheres", "steps", "ms/step", "pgs_mean",
              "pgs_max", "at_cap", "pos_mean", "contacts", "vmax(2s)", "pen(2s)[m]", "vmax(end)", "pen(end)[m]");
  for (int K : sizes) {
    const System sys = validation::models::SpherePile(K, rolling);
    NewtonEulerSystem ne(sys);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    double vmax2 = NAN, vmax_end = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      vmax_end = 0;
      for (int i = 0; i < ne.num_bodies(); ++i) vmax_end = std::max(vmax_end, st.v.segment<3>(6 * i).norm());
      if (std::abs(st.t - 2.0) < 1e-9) vmax2 = vmax_end;
      return true;
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) std::printf("K = %d failed: %s\n", K, r.result.message.c_str());
    const long steps = r.result.stats.steps;
    auto pen_at = [&](double t) {
      for (const PgsStepStats& p : r.pgs.per_step)
        if (std::abs(p.t - t) < 1e-9) return p.max_penetration;
      return double(NAN);
    };
    if (per_step_file) {
      if (FILE* f = std::fopen(per_step_file, "w")) {
        std::fprintf(f, "t,sweeps,residual,position_sweeps,contacts,max_penetration\n");
        for (const PgsStepStats& p : r.pgs.per_step)
          std::fprintf(f, "%.4f,%d,%.3e,%d,%d,%.3e\n", p.t, p.iterations, p.residual, p.position_iterations, p.contacts,
                       p.max_penetration);
        std::fclose(f);
      }
    }
    double pos = 0;
    for (const PgsStepStats& p : r.pgs.per_step) pos += p.position_iterations;
    std::printf("%8d %8ld %10.3f %9.1f %8d %8ld %8.1f %9d %11.2e %11.2e %11.2e %11.2e\n", K, steps, 1e3 * wall / steps,
                double(r.pgs.total_iterations) / steps, r.pgs.max_iterations, r.pgs.steps_at_cap,
                pos / std::max<size_t>(1, r.pgs.per_step.size()),
                r.pgs.max_contacts, vmax2, pen_at(2.0), vmax_end, pen_at(o.t_end));
    std::fflush(stdout);
  }
  return 0;
}
