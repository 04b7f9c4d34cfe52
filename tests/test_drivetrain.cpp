// The drivetrain of examples/models/drivetrain.yaml (two slider-cranks, 1-D rotors, a gear stage,
// flexible shafts): its energy balance E(T) − E(0) = W_gas − D, with the work of the gas forces
// W_gas = ∫ F_i(t) ẋ_i dt and the dampers' dissipation D = ∫ Σ d Δω² dt computed here from the
// states (the forces' values of t and the dampers' coefficients as the model gives them, the
// velocities from the state) by the composite Simpson rule on a fine output grid, independently
// of the formulation's force assembly. IDA at 1e-12 closes it to 1e-9 of W_gas; generalized-α
// (second order) converges as h².

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

#ifndef MBDAE_TEST_SOURCE_DIR
#error "MBDAE_TEST_SOURCE_DIR must be defined"
#endif

using namespace mbdae;
using namespace mbdae::io;

namespace {

struct Balance {
  double e0 = 0, e1 = 0, work = 0, dissipated = 0;
  double relative() const { return std::abs(e1 - e0 - work + dissipated) / std::abs(work); }
};

/// Runs the drivetrain with `sets` (plus end time and output grid) and integrates the powers.
Balance balance(const std::vector<Override>& sets, double every) {
  std::vector<Override> all = sets;
  all.push_back({"solver.end_time", "1.0"});
  all.push_back({"output.every", every == 5e-5 ? "5.0e-5" : every == 1e-4 ? "1.0e-4" : "2.0e-4"});
  const LoadedModel lm = load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/drivetrain.yaml", all);
  const System& sys = lm.system;
  ModelRun r(lm);
  std::vector<double> t, gas, damp, energy;
  const MultibodySystem* mb = nullptr;
  std::optional<ConstrainedSystem::Workspace> ws;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double>) {
    if (!mb) {
      mb = r.multibody();
      ws.emplace(mb->make_workspace());
    }
    double pg = 0;  // power of the loads (forces at the reference points)
    for (const Load& l : sys.loads()) {
      const Vec3 F = l.value_of_t ? l.value_of_t(s.t) : l.value;
      pg += F.dot(mb->velocity(*sys.find_body(l.body), s.q, s.v, l.point));
    }
    double pd = 0;  // power dissipated by the shafts' dampers
    for (const ShaftForce& f : sys.shaft_forces()) {
      auto rate = [&](const std::string& n) {
        const int si = sys.shaft_index(n);
        return si < 0 ? 0.0 : mb->shaft_motion(si, s.q, s.v).rate;
      };
      const double d = rate(f.shafts[1]) - rate(f.shafts[0]);
      pd += f.damping * d * d;
    }
    t.push_back(s.t);
    gas.push_back(pg);
    damp.push_back(pd);
    energy.push_back(mb->energy(*ws, s.t, s.q, s.v));
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  const size_t n = t.size();
  REQUIRE(n % 2 == 1);  // an even number of intervals
  auto simpson = [&](const std::vector<double>& f) {
    double sum = f[0] + f[n - 1];
    for (size_t i = 1; i + 1 < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f[i];
    return sum * (t[n - 1] - t[0]) / (3.0 * static_cast<double>(n - 1));
  };
  Balance b;
  b.e0 = energy.front();
  b.e1 = energy.back();
  b.work = simpson(gas);
  b.dissipated = simpson(damp);
  return b;
}

}  // namespace

TEST_CASE("drivetrain: the energy balance closes to 1e-9 with IDA at 1e-12", "[shaft][drivetrain]") {
  if (!find_solver("ida")) return;  // built without IDA
  const Balance b = balance({{"solver.type", "ida"}, {"solver.tolerance", "{relative: 1.0e-12, absolute: 1.0e-14}"}},
                            1e-4);
  INFO("ida 1e-12: E0 " << b.e0 << " J, E1 " << b.e1 << " J, W_gas " << b.work << " J, dissipated " << b.dissipated
                        << " J, relative error " << b.relative());
  CHECK(b.work > 100);  // the engine works and the dampers take it
  CHECK(b.dissipated > 50);
  CHECK(b.relative() <= 1e-9);
}

TEST_CASE("drivetrain: the energy balance at two IDA tolerances and two generalized-alpha steps",
          "[shaft][drivetrain][long]") {
  if (find_solver("ida")) {
    double errs[3];
    int k = 0;
    for (const char* tol : {"{relative: 1.0e-10, absolute: 1.0e-12}", "{relative: 1.0e-12, absolute: 1.0e-14}"}) {
      const Balance b = balance({{"solver.type", "ida"}, {"solver.tolerance", tol}}, 5e-5);
      errs[k++] = b.relative();
      INFO("ida " << tol << ": E0 " << b.e0 << " J, E1 " << b.e1 << " J, W_gas " << b.work << " J, dissipated "
                  << b.dissipated << " J, relative error " << b.relative());
      CHECK(b.relative() <= (k == 1 ? 1e-7 : 1e-9));
    }
    // The quadrature is not what limits it: half the output points give the same balance.
    const Balance coarse = balance({{"solver.type", "ida"}, {"solver.tolerance", "{relative: 1.0e-12, absolute: 1.0e-14}"}},
                                   1e-4);
    errs[2] = coarse.relative();
    INFO("ida 1e-12, outputs every 5e-5 s: " << errs[1] << "; every 1e-4 s: " << errs[2]);
    CHECK(std::abs(errs[2] - errs[1]) <= 1e-9);
  }
  // generalized-α: second order, the balance error falls as h².
  double errs[2];
  for (int k = 0; k < 2; ++k) {
    const double h = k == 0 ? 2e-4 : 1e-4;
    const Balance b = balance({{"solver.step", k == 0 ? "2.0e-4" : "1.0e-4"}}, h);
    errs[k] = b.relative();
    INFO("generalized_alpha h = " << h << ": relative error " << errs[k]);
    CHECK(errs[k] <= 1e-4);
  }
  INFO("generalized_alpha: relative errors " << errs[0] << " (h = 2e-4), " << errs[1] << " (h = 1e-4), ratio "
                                             << errs[0] / errs[1]);
  CHECK(errs[0] / errs[1] > 3.5);
}
