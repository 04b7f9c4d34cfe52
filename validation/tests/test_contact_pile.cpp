// A pile of 1000 spheres dropped into a box (validation::models::SpherePile, the model of
// bench/sphere_pile_bench.cpp: r = 0.1 m,
// m = 1 kg, μ = 0.5, e = 0, lattice with odd layers shifted, floor and four frictional walls,
// h = 1e-3 s) comes to rest without blow-up; penetration and maximum speed at 2 s and 5 s.

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/validation/Models.h>

using namespace mbdae;


TEST_CASE("1000 spheres dropped into a box come to rest", "[validation][contact][impulse][pile][long]") {
  const double r = 0.1;
  const auto rolling = GENERATE(0.0, 0.02);
  DYNAMIC_SECTION("rolling resistance " << rolling) {
    const System sys = validation::models::SpherePile(1000, rolling);
    NewtonEulerSystem ne(sys);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ImpulseOptions o;
    o.step = 1e-3;
    o.t_end = 5.0;
    o.output_every = 1.0;
    o.pgs_tolerance = 1e-6;
    double vmax2 = -1, vmax5 = -1;
    const ImpulseResult res = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      double vm = 0;
      for (int i = 0; i < ne.num_bodies(); ++i) vm = std::max(vm, st.v.segment<3>(6 * i).norm());
      if (std::abs(st.t - 2) < 1e-9) vmax2 = vm;
      if (std::abs(st.t - 5) < 1e-9) vmax5 = vm;
      return true;
    });
    REQUIRE(res.ok());
    // Penetration at the start of the steps ending at 2 s and 5 s.
    auto pen_at = [&](double t) {
      for (const PgsStepStats& p : res.pgs.per_step)
        if (std::abs(p.t - t) < 1e-9) return p;
      return PgsStepStats{};
    };
    const PgsStepStats p2 = pen_at(2.0), p5 = pen_at(5.0);
    INFO("max speed " << vmax2 << " m/s at 2 s, " << vmax5 << " m/s at 5 s; penetration " << p2.max_penetration
                      << " m at 2 s, " << p5.max_penetration << " m at 5 s (max over the run "
                      << res.pgs.max_penetration << "); contacts " << p5.contacts << "; PGS at 5 s: "
                      << p5.iterations << " sweeps, residual " << p5.residual << " m/s; mean sweeps "
                      << double(res.pgs.total_iterations) / res.result.stats.steps << ", at cap "
                      << res.pgs.steps_at_cap << " of " << res.result.stats.steps << " steps");
    CHECK(vmax2 < 0.5);  // no blow-up
    CHECK(vmax5 < 0.1);
    CHECK(p2.max_penetration < 0.01 * r);
    CHECK(p5.max_penetration < 0.01 * r);
  }
}
