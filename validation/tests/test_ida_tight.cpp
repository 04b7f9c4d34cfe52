// IDA at tight tolerances (rtol 1e-12): the N = 64 chains of the peer benchmark (spherical,
// revolute, revolute with stiff damped springs) and Andrews' squeezer below rtol 1e-10 run to
// their end, and a tighter tolerance gives a more accurate answer.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/solvers/Ida.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Andrews.h>
#include <mbdae/validation/GenericDae.h>
#include <mbdae/validation/Models.h>

using namespace mbdae;
using namespace mbdae::validation;

namespace {

System chain(int n, bool revolute, double k, double d) {
  System s = models::Chain(n, revolute ? models::ChainJoint::Revolute : models::ChainJoint::Spherical);
  if (k > 0)
    for (int i = 0; i < n; ++i)
      s.add_torsional_spring_damper("spring" + std::to_string(i), i == 0 ? "ground" : "bar" + std::to_string(i - 1),
                                    "bar" + std::to_string(i), Vec3(i, 0, 0), Vec3::UnitY(), k, d);
  return s;
}

struct ChainRun {
  SolveResult res;
  Vec3 tip;
};

ChainRun run_chain(const PreparedSystem& p, int n, double rtol, double t_end) {
  IdaOptions o;
  o.t_end = t_end;
  o.rtol = rtol;
  o.atol = 1e-2 * rtol;
  ChainRun out;
  out.res = solve_ida(*p.system, 0.0, p.q0, p.v0, o, [&](const StateView& s) {
    const BodyIndex last = static_cast<BodyIndex>(n - 1);
    out.tip = p.system->position(last, s.q) + p.system->rotation(last, s.q) * Vec3(0.5, 0, 0);
    return true;
  });
  return out;
}

}  // namespace

TEST_CASE("IDA at rtol 1e-12 on the 64-link chains", "[validation][ida][long]") {
  struct Case {
    const char* name;
    bool revolute;
    double k, d;
  };
  for (const Case& c : {Case{"spherical", false, 0, 0}, Case{"revolute", true, 0, 0},
                        Case{"damped_revolute", true, 1e5, 1e4}}) {
    const int n = 64;
    const double t_end = 0.3;
    const PreparedSystem p = prepare(chain(n, c.revolute, c.k, c.d));
    const auto t0 = std::chrono::steady_clock::now();
    const ChainRun a = run_chain(p, n, 1e-12, t_end);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(c.name << " rtol 1e-12: " << a.res.message << " (" << a.res.stats.steps << " steps, "
                << a.res.stats.rejected_steps << " rejected, " << a.res.stats.newton_iterations << " Newton, " << wall
                << " s)");
    CHECK(a.res.ok());
    const ChainRun b = run_chain(p, n, 1e-10, t_end);
    const ChainRun c8 = run_chain(p, n, 1e-8, t_end);
    REQUIRE(b.res.ok());
    REQUIRE(c8.res.ok());
    const double e10 = (b.tip - a.tip).norm(), e8 = (c8.tip - a.tip).norm();
    INFO("tip |rtol 1e-10 - rtol 1e-12| = " << e10 << " m, |rtol 1e-8 - rtol 1e-12| = " << e8 << " m");
    std::printf("ida tight | %s N = %d | rtol 1e-12: %s, %ld steps, %.2f s | |1e-10 - 1e-12| = %.2e m, |1e-8 - 1e-12| = %.2e m\n",
                c.name, n, a.res.ok() ? "ok" : a.res.message.c_str(), a.res.stats.steps, wall, e10, e8);
    CHECK(e10 < e8);
  }
}

TEST_CASE("IDA on Andrews' squeezer at rtol 1e-11 and 1e-12", "[validation][ida][andrews]") {
  const GenericDae sys = andrews::make_system();
  const VecX q0 = andrews::to_vec(andrews::q0), v0 = andrews::to_vec(andrews::qd0);
  double previous = 0;
  for (const double tol : {1e-10, 1e-11, 1e-12}) {
    IdaOptions opt;
    opt.t_end = andrews::t_end;
    opt.rtol = tol;
    opt.atol = tol;
    VecX q;
    const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, [&](const StateView& s) {
      q = s.q;
      return true;
    });
    INFO("rtol = atol = " << tol << ": " << res.message << " (" << res.stats.steps << " steps)");
    REQUIRE(res.ok());
    const double scd = andrews::mixed_error_digits(q, andrews::to_vec(andrews::q_ref));
    INFO("scd(q) = " << scd);
    std::printf("ida tight | andrews rtol %.0e: scd(q) = %.2f, %ld steps\n", tol, scd, res.stats.steps);
    CHECK(scd >= previous - 0.3);
    previous = scd;
  }
}
