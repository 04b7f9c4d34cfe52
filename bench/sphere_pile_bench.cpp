// Sphere pile benchmark for the impulse stepper (ImpulseStepper.h): K spheres (r = 0.1 m, m = 1 kg,
// μ = 0.5, e = 0) on a lattice of n × n columns (n = ⌈K^(1/3)⌉, spacing 2.2 r, odd layers shifted
// by half a spacing in x and y), dropped into a box with a floor and four frictional walls;
// h = 1e-3 s, 2 s; PGS tolerance 1e-6 m/s, at most 100 sweeps. Prints the time per step, PGS statistics and the state at the end.
// Usage: sphere_pile_bench [K ...]   (default 100 1000 10000)

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <mbdae/solvers/ImpulseStepper.h>

// The model builders, compiled in (the benchmarks link only mbdae::mbdae).
#include "../validation/src/Models.cpp"

using namespace mbdae;


int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {100, 1000, 10000};
  std::printf("%8s %8s %12s %10s %10s %10s %12s %12s %12s\n", "spheres", "steps", "ms/step", "pgs_mean",
              "pgs_max", "at_cap", "max_contacts", "max_pen[m]", "max_speed");
  for (int K : sizes) {
    const System sys = validation::models::SpherePile(K);
    NewtonEulerSystem ne(sys);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ImpulseOptions o;
    o.step = 1e-3;
    o.t_end = 2.0;
    o.record_per_step = false;
    o.pgs_tolerance = 1e-6;  // m/s
    o.pgs_max_iterations = 100;
    double vmax = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      vmax = 0;
      for (int i = 0; i < ne.num_bodies(); ++i) vmax = std::max(vmax, st.v.segment<3>(6 * i).norm());
      return true;
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) std::printf("K = %d failed: %s\n", K, r.result.message.c_str());
    const long steps = r.result.stats.steps;
    std::printf("%8d %8ld %12.3f %10.1f %10d %10ld %12d %12.2e %12.2e\n", K, steps, 1e3 * wall / steps,
                double(r.pgs.total_iterations) / steps, r.pgs.max_iterations, r.pgs.steps_at_cap,
                r.pgs.max_contacts, r.pgs.max_penetration, vmax);
    std::fflush(stdout);
  }
  return 0;
}
