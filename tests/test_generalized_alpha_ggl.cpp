// Generalized-α on the stabilized index-2 (GGL) form (GeneralizedAlpha.h, after Arnold, Cardona &
// Brüls): both constraint levels hold at round-off, the method is stable at ρ∞ = 1, it converges
// with order 2 to the closed form, and over the IFToMM A01 benchmark's full 2,000 s it keeps the
// energy and the phase.
//
// Reference: the A01 pendulum (1 kg, 1 m, g = 9.81, released horizontal) has the closed form
// φ(t) = 2 asin(k sn(K − ω0 t | k²)), k = sin(π/4), ω0 = √9.81 (Lawden, Elliptic Functions and
// Applications, §5.2). The mass position at t = 2000 s below was computed independently of mbdae
// with mpmath 1.3 at 40 digits (mp.ellipk, mp.ellipfun('sn')); it reproduces the benchmark's
// tabulated positions at t = 1, 2, 10 s to 1e-12. The test also checks it against the library's
// closed form (validation/Analytic.h, Boost.Math).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>
#include <sstream>
#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Analytic.h>
#include <mbdae/validation/Models.h>
#include <mbdae/validation/References.h>

using namespace mbdae;
namespace a01 = mbdae::validation::refs::iftomm::a01;
namespace models = mbdae::validation::models;

namespace {

// mpmath, 40 digits: (sin φ, −cos φ) at t = 2000 s.
constexpr double kX2000 = -0.8146030685890322;
constexpr double kY2000 = -0.5800188278369355;

SimulationSettings ggl(double h, double t_end, double rho = 1.0) {
  SimulationSettings s;
  s.solver = SolverType::GeneralizedAlpha;
  s.formulation = AlphaFormulation::StabilizedIndex2;
  s.rho_inf = rho;
  s.step = h;
  s.t_end = t_end;
  s.output_every = 0.5;
  return s;
}

struct A01Run {
  SolveResult res;
  Vec3 x_end = Vec3::Zero();
  double max_c = 0, max_cv = 0;         // |C|∞, |Ċ|∞ at the outputs
  double max_de_first = 0, max_de_second = 0;  // |E − E0| in the first and second half, J
};

A01Run run_a01(const SimulationSettings& s, models::A01Link link = models::A01Link::Revolute,
               RotationParametrization rot = RotationParametrization::EulerParameters) {
  PreparedSystem p = prepare(models::IftommA01(link, 1e-9, rot));
  const MultibodySystem& sys = *p.system;
  A01Run r;
  auto ws = sys.make_workspace();
  const double E0 = sys.energy(ws, 0, p.q0, p.v0);
  VecX c(sys.num_constraints()), cv(sys.num_constraints());
  r.res = simulate(sys, 0, p.q0, p.v0, s, [&](const StateView& st) {
    sys.constraints(ws, st.t, st.q, c);
    sys.constraint_velocity(ws, st.t, st.q, st.v, cv);
    r.max_c = std::max(r.max_c, c.cwiseAbs().maxCoeff());
    r.max_cv = std::max(r.max_cv, cv.cwiseAbs().maxCoeff());
    const double de = std::abs(sys.energy(ws, st.t, st.q, st.v) - E0);
    (st.t <= 0.5 * s.t_end ? r.max_de_first : r.max_de_second) = std::max(
        st.t <= 0.5 * s.t_end ? r.max_de_first : r.max_de_second, de);
    r.x_end = sys.position(0, st.q);
    return true;
  });
  return r;
}

}  // namespace

TEST_CASE("A01 closed form at t = 2000 s: mpmath value against the library's Boost.Math form", "[ggl]") {
  const auto exact = validation::Pendulum::Libration(std::sqrt(a01::kGravity / a01::kLength), std::numbers::pi / 2);
  const double phi = exact.CalcState(2000.0).phi;
  CHECK(std::abs(std::sin(phi) - kX2000) < 1e-9);
  CHECK(std::abs(-std::cos(phi) - kY2000) < 1e-9);
}

TEST_CASE("GGL generalized-alpha at rho_inf = 1: A01 for 20 s, constraints at round-off, no failed step",
          "[ggl]") {
  // The index-3 form fails on this run near t = 8 s (its weak instability at ρ∞ = 1).
  const auto link = GENERATE(models::A01Link::Revolute, models::A01Link::Distance);
  const auto rot = GENERATE(RotationParametrization::EulerParameters, RotationParametrization::TaitBryan);
  DYNAMIC_SECTION((link == models::A01Link::Revolute ? "revolute " : "distance ") << to_string(rot)) {
    const A01Run r = run_a01(ggl(1e-3, 20.0), link, rot);
    REQUIRE(r.res.ok());
    CHECK(r.res.stats.rejected_steps == 0);
    CHECK(r.res.stats.regularized_steps == 0);
    CHECK(r.max_c < 1e-13);   // m (and the Euler parameters' norm)
    CHECK(r.max_cv < 1e-12);  // m/s; the velocities reach 4.4 m/s
    // The trapezoidal rule's phase error at h = 1e-3: the period is long by (ω h)²/12 relative,
    // about 1e-6 s per period; after 8.4 periods the mass is about 4.4 m/s · 8e-6 s off.
    const auto exact = validation::Pendulum::Libration(std::sqrt(a01::kGravity), std::numbers::pi / 2);
    const double phi = exact.CalcState(20.0).phi;
    INFO("position error at 20 s: " << (r.x_end - Vec3(std::sin(phi), -std::cos(phi), 0)).cwiseAbs().maxCoeff());
    CHECK((r.x_end - Vec3(std::sin(phi), -std::cos(phi), 0)).cwiseAbs().maxCoeff() < 1e-4);
  }
}

TEST_CASE("GGL generalized-alpha: order 2 on A01 at rho_inf = 0.8 and 1", "[ggl]") {
  const double rho = GENERATE(0.8, 1.0);
  DYNAMIC_SECTION("rho_inf " << rho) {
    const auto exact = validation::Pendulum::Libration(std::sqrt(a01::kGravity), std::numbers::pi / 2);
    const double phi = exact.CalcState(2.0).phi;
    const Vec3 ref(std::sin(phi), -std::cos(phi), 0);
    double e[3];
    for (int i = 0; i < 3; ++i) {
      const A01Run r = run_a01(ggl(4e-3 / (1 << i), 2.0, rho));
      REQUIRE(r.res.ok());
      e[i] = (r.x_end - ref).cwiseAbs().maxCoeff();
    }
    const double p1 = std::log2(e[0] / e[1]), p2 = std::log2(e[1] / e[2]);
    INFO("errors " << e[0] << ", " << e[1] << ", " << e[2] << "; observed orders " << p1 << ", " << p2);
    CHECK(p1 > 1.8);
    CHECK(p2 > 1.8);
  }
}

TEST_CASE("IFToMM A01 with GGL generalized-alpha at rho_inf = 1: the full 2000 s at h = 1e-3",
          "[ggl][long]") {
  const A01Run r = run_a01(ggl(1e-3, 2000.0));
  INFO(r.res.message);
  REQUIRE(r.res.ok());
  CHECK(r.res.stats.steps == 2'000'000);
  CHECK(r.res.stats.rejected_steps == 0);
  CHECK(r.res.stats.regularized_steps == 0);
  CHECK(r.max_c < 1e-13);
  CHECK(r.max_cv < 1e-12);
  // Energy (m g L = 9.81 J), no drift: measured max |E − E0| 8.5e-5 J in the first 1000 s and
  // 1.2e-4 J in the second (an O(h²) oscillation whose envelope grows slowly; at h = 2.5e-4 it is
  // 4.4e-6 J over 2000 s). Bounded here by 2e-5 m g L over the whole run, and the second half
  // may not exceed the first by a factor 3 (a drift would).
  INFO("max |E - E0|: first half " << r.max_de_first << " J, second half " << r.max_de_second << " J");
  CHECK(std::max(r.max_de_first, r.max_de_second) < 2e-5 * 9.81);
  CHECK(r.max_de_second < 3 * r.max_de_first);
}

TEST_CASE("IFToMM A01 with GGL generalized-alpha at rho_inf = 1, h = 2.5e-4: within 1e-3 m of the exact "
          "position at t = 2000 s",
          "[ggl][long]") {
  const A01Run r = run_a01(ggl(2.5e-4, 2000.0));
  INFO(r.res.message);
  REQUIRE(r.res.ok());
  CHECK(r.res.stats.rejected_steps == 0);
  const double err = std::max(std::abs(r.x_end.x() - kX2000), std::abs(r.x_end.y() - kY2000));
  INFO("position error at t = 2000 s: " << err << " m; max |E - E0| " << std::max(r.max_de_first, r.max_de_second)
                                         << " J");
  CHECK(err < 1e-3);  // the benchmark's high-precision limit (measured: 6.6e-4 m)
}

namespace {

/// IFToMM A01 as a model file: a 1 kg point mass (inertia 1e-9) on a massless 1 m link, hinged at
/// the origin about z, released horizontal, gravity −y; `solver` is the model's solver section.
std::string a01_model(const std::string& solver) {
  return "gravity: [0, -9.81, 0]\n"
         "bodies:\n"
         "  - {name: mass, mass: 1.0, inertia: [1.0e-9, 1.0e-9, 1.0e-9, 0, 0, 0], position: [1, 0, 0]}\n"
         "joints:\n"
         "  - {name: hinge, type: revolute, bodies: [ground, mass], point: [0, 0, 0], axis: [0, 0, 1]}\n"
         "sensors:\n"
         "  - {name: p, body: mass, output: position}\n"
         "  - {name: E, output: energy}\n"
         "solver: " + solver + "\n"
         "output: {every: 0.5}\n";
}

}  // namespace

TEST_CASE("rho_inf = 1 without a formulation: the model file gets the stable index2_ggl", "[ggl][io]") {
  const io::LoadedModel d = io::load_model_text(a01_model("{rho_inf: 1.0, end_time: 1.0}"), "a01.yaml");
  CHECK(d.settings.formulation == AlphaFormulation::StabilizedIndex2);
  const io::LoadedModel e = io::load_model_text(a01_model("{rho_inf: 0.8, end_time: 1.0}"), "a01.yaml");
  CHECK(e.settings.formulation == AlphaFormulation::Index3);
  const io::LoadedModel f =
      io::load_model_text(a01_model("{rho_inf: 1.0, formulation: index3, end_time: 1.0}"), "a01.yaml");
  CHECK(f.settings.formulation == AlphaFormulation::Index3);
}

TEST_CASE("IFToMM A01 from a model file with rho_inf = 1 and the default formulation: 2000 s at h = 1e-3",
          "[ggl][io][long]") {
  const io::LoadedModel lm =
      io::load_model_text(a01_model("{rho_inf: 1.0, step: 1.0e-3, end_time: 2000.0}"), "a01.yaml");
  io::ModelRun r(lm);
  double x = 0, y = 0, E0 = 0, dE = 0;
  bool first = true;
  const SolveResult res = r.run([&](const StateView&, std::span<const double> row) {
    x = row[0], y = row[1];
    if (first) E0 = row[3], first = false;
    dE = std::max(dE, std::abs(row[3] - E0));
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  const double err = std::hypot(x - kX2000, y - kY2000);
  INFO("position at 2000 s off the closed form by " << err << " m, max |E - E0| = " << dE << " J");
  CHECK(err < 0.05);  // the phase error of a second-order method over 2000 s at h = 1e-3
  // the bound of the same run from C++ (the test above: 1.2e-4 J measured, 2e-5 m g L allowed)
  CHECK(dE < 2e-5 * 9.81);
}

TEST_CASE("A 100-link chain falling from the horizontal with rho_inf = 1 and the default formulation runs 5 s",
          "[ggl][io][long]") {
  std::ostringstream m;
  m << "gravity: [0, 0, -9.81]\nbodies:\n";
  for (int i = 0; i < 100; ++i)
    m << "  - {name: b" << i << ", mass: 1.0, inertia: [0.001667, 0.08417, 0.08417, 0, 0, 0], position: [" << i + 0.5
      << ", 0, 0]}\n";
  m << "joints:\n";
  for (int i = 0; i < 100; ++i)
    m << "  - {name: j" << i << ", type: spherical, bodies: [" << (i == 0 ? std::string("ground") : "b" + std::to_string(i - 1))
      << ", b" << i << "], point: [" << i << ", 0, 0]}\n";
  m << "sensors:\n  - {name: E, output: energy}\n"
       "solver: {rho_inf: 1.0, step: 1.0e-3, end_time: 5.0}\noutput: {every: 0.1}\n";
  const io::LoadedModel lm = io::load_model_text(m.str(), "chain.yaml");
  io::ModelRun r(lm);
  double E0 = 0, dE = 0;
  bool first = true;
  const SolveResult res = r.run([&](const StateView&, std::span<const double> row) {
    if (first) E0 = row[0], first = false;
    dE = std::max(dE, std::abs(row[0] - E0));
    return true;
  });
  INFO(res.message << "; max |E - E0| = " << dE << " J");
  REQUIRE(res.ok());
  CHECK(dE < 1e-2 * 100 * 9.81 * 50);  // a percent of the potential energy the chain can release
}
