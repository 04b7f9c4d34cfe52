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

using namespace mbdae;

namespace {

System sphere_pile(int K, double rolling = 0.0) {
  const double r = 0.1, m = 1.0, mu = 0.5, s = 2.2 * r;
  const int n = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(K)) - 1e-9));
  // Interior half width: n columns plus the half-spacing shift of odd layers, 1 cm clear each side.
  const double W = 0.5 * ((n - 0.5) * s + 2 * r + 0.02);
  System sys;
  sys.gravity = Vec3(0, 0, -9.81);
  int count = 0;
  for (int layer = 0; count < K; ++layer)
    for (int i = 0; i < n && count < K; ++i)
      for (int j = 0; j < n && count < K; ++j) {
        const double shift = (layer % 2) ? 0.5 * s : 0.0;
        RigidBody b;
        b.name = "s" + std::to_string(count);
        b.mass = m;
        const double I = 0.4 * m * r * r;
        b.inertia << I, I, I, 0, 0, 0;
        b.position = Vec3(-W + r + 0.01 + i * s + shift, -W + r + 0.01 + j * s + shift, r + 0.05 + layer * s);
        sys.add_body(b);
        Contact c = make_sphere(b.name, b.name, r, mu, 0.0);
        c.rolling_resistance = rolling;
        sys.add_contact(c);
        ++count;
      }
  sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
  sys.add_contact(make_plane("wall_x-", Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_x+", -Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_y-", Vec3::UnitY(), -W, mu));
  sys.add_contact(make_plane("wall_y+", -Vec3::UnitY(), -W, mu));
  return sys;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {100, 1000, 10000};
  std::printf("%8s %8s %12s %10s %10s %10s %12s %12s %12s\n", "spheres", "steps", "ms/step", "pgs_mean",
              "pgs_max", "at_cap", "max_contacts", "max_pen[m]", "max_speed");
  for (int K : sizes) {
    const System sys = sphere_pile(K);
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
