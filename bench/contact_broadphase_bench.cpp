// Broad-phase benchmark: how many shape pairs reach the narrow phase per step, against all pairs,
// for a pile of K boxes (validation::models::BoxPile: box–box and box–plane contacts) run by the
// impulse stepper (h = 1e-3 s, at most 20 velocity and 20 split-impulse sweeps per step, as the
// pile benchmarks), and for the penalty contacts of the implicit formulation (MultibodySystem)
// at the pile's initial and final positions: the pairs its tangent pattern holds and the pairs
// one evaluation computes. Both use the same uniform-grid broad phase (ContactGeometry.h).
// Usage: contact_broadphase_bench [--t-end S] [--implicit-max K] [K ...]   (default 1000; 0.5 s;
//        the implicit formulation is built only for K ≤ 200: its pattern has a block per pair)

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/solvers/ImpulseStepper.h>

// The model builders, compiled in (the benchmarks link only mbdae::mbdae).
#include "../validation/src/Models.cpp"

using namespace mbdae;

int main(int argc, char** argv) {
  std::vector<int> sizes;
  double t_end = 0.5;
  int implicit_max = 200;
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "--t-end") && more) t_end = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--implicit-max") && more) implicit_max = std::atoi(argv[++i]);
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: %s [--t-end S] [--implicit-max K] [K ...]\n", argv[0]);
      return 2;
    } else sizes.push_back(std::atoi(argv[i]));
  }
  if (sizes.empty()) sizes = {1000};
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = t_end;
  o.pgs_tolerance = 1e-6;
  o.pgs_max_iterations = 20;
  o.position_iterations = 20;
  std::printf("box pile, impulse stepper, h = %g s, %g s; pairs = shape pairs passed to the narrow phase\n", o.step, t_end);
  std::printf("%6s %10s %12s %12s %12s %10s %10s %12s\n", "boxes", "all_pairs", "pairs_mean", "pairs_max",
              "contacts_max", "ms/step", "vmax_end", "pen_max[m]");
  for (const int K : sizes) {
    const System sys = validation::models::BoxPile(K);
    const long shapes = static_cast<long>(sys.contacts().size());
    const long planes = 5;
    // Every pair of shapes on different bodies (the five planes are all on ground).
    const long all_pairs = (shapes - planes) * (shapes - planes - 1) / 2 + planes * (shapes - planes);
    NewtonEulerSystem ne(sys);
    VecX q0, v0, q_end;
    ne.initial_state(q0, v0);
    double vmax = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      vmax = 0;
      for (int i = 0; i < ne.num_bodies(); ++i) vmax = std::max(vmax, st.v.segment<3>(6 * i).norm());
      q_end = st.q;
      return true;
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      std::printf("K = %d: %s\n", K, r.result.message.c_str());
      return 1;
    }
    const long steps = r.result.stats.steps;
    std::printf("%6d %10ld %12.1f %12ld %12d %10.3f %10.3g %12.3g\n", K, all_pairs,
                static_cast<double>(r.pgs.total_pairs) / static_cast<double>(steps), r.pgs.max_pairs,
                r.pgs.max_contacts, 1e3 * wall / static_cast<double>(steps), vmax, r.pgs.max_penetration);
    if (K <= implicit_max) {
      // The implicit formulation's coordinates: with the COM at the reference point and Euler
      // parameters, [x, θ] per body, the same as the Newton–Euler positions.
      System pen = sys;
      pen.contact_penalty = PenaltyParameters{};
      pen.contact_penalty->stiffness = 1e5;
      pen.contact_penalty->damping = 300;
      const MultibodySystem mb(pen);
      auto ws = mb.make_workspace();
      std::printf("       implicit penalty path: %d pairs in the pattern; evaluated at t = 0: %d, at t = %g s: %d\n",
                  mb.num_contact_pairs(), mb.num_contact_pairs_near(ws, q0), t_end, mb.num_contact_pairs_near(ws, q_end));
    }
  }
  return 0;
}
