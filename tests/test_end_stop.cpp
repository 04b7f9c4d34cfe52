// The end_stop force element against closed forms and an independent computation: a slider on a
// prismatic guide runs at v0 into a stop of stiffness k. Without damping it touches for half a
// period of the spring, pi sqrt(m/k), goes in by v0 sqrt(m/k) and leaves at −v0; with damping it
// leaves at the speed of the one-sided spring-dashpot m x'' = −max(0, k p + c x'), integrated
// here on its own (a scalar ODE, RK4 at 1e-7 s).

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Run.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

constexpr double m = 2.0, k = 2.0e4, v0 = 1.0, gap = 0.1;

std::string model(double c, bool lower) {
  // The slider starts at x = 0 with v0 towards the stop (+x to `upper`, or −x to `lower`).
  const std::string v = lower ? "-1.0" : "1.0";
  const std::string stop = lower ? "lower: -0.1" : "upper: 0.1";
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: slider, mass: 2.0, shape: {box: [0.1, 0.05, 0.05]}, position: [0, 0, 0], velocity: [" + v +
         ", 0, 0]}\n"
         "joints:\n"
         "  - {name: guide, type: prismatic, bodies: [ground, slider], point: [0, 0, 0], axis: [1, 0, 0]}\n"
         "forces:\n"
         "  - {name: stop, type: end_stop, bodies: [ground, slider], point: [0, 0, 0], axis: [1, 0, 0], " +
         stop + ", stiffness: 2.0e4, damping: " + std::to_string(c) + "}\n"
         "sensors:\n"
         "  - {name: x, body: slider, output: position}\n"
         "  - {name: v, body: slider, output: velocity}\n"
         "solver: {end_time: 0.2, step: 1.0e-5}\n"
         "output: {every: 1.0e-5}\n";
}

struct Trace {
  std::vector<double> t, x, v;
};

Trace run(const std::string& text, const std::vector<Override>& sets) {
  const LoadedModel lm = load_model_text(text, "end_stop.yaml", sets);
  ModelRun r(lm);
  Trace tr;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    tr.t.push_back(s.t);
    tr.x.push_back(row[0]);  // x.x
    tr.v.push_back(row[3]);  // v.x
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return tr;
}

/// Rebound speed of the one-sided spring-dashpot hit at v0 (independent RK4 on the scalar ODE).
double rebound_speed(double c) {
  double p = 0, pd = v0;  // penetration and its rate
  const double h = 1e-7;
  auto acc = [&](double pp, double ppd) { return pp > 0 ? -std::max(0.0, k * pp + c * ppd) / m : 0.0; };
  do {
    const double k1x = pd, k1v = acc(p, pd);
    const double k2x = pd + 0.5 * h * k1v, k2v = acc(p + 0.5 * h * k1x, pd + 0.5 * h * k1v);
    const double k3x = pd + 0.5 * h * k2v, k3v = acc(p + 0.5 * h * k2x, pd + 0.5 * h * k2v);
    const double k4x = pd + h * k3v, k4v = acc(p + h * k3x, pd + h * k3v);
    p += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    pd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  } while (p > 0);
  return -pd;
}

}  // namespace

TEST_CASE("end_stop: an elastic stop returns the slider at -v0 after half a spring period", "[forces][end_stop]") {
  const double T = M_PI * std::sqrt(m / k), depth = v0 * std::sqrt(m / k);
  // Second-order solvers at h = 1e-5 (omega h = 1e-3): errors ~(omega h)^2 of the motion.
  for (const char* solver : {"generalized_alpha", "ida", "rk4", "dopri5", "trapezoidal_index2"}) {
    for (bool lower : {false, true}) {
      INFO("solver " << solver << (lower ? ", lower stop" : ", upper stop"));
      std::vector<Override> sets = {{"solver.type", solver}};
      if (std::string(solver) == "ida" || std::string(solver) == "dopri5")
        sets.push_back({"solver.tolerance", "{relative: 1.0e-10, absolute: 1.0e-12}"});
      const Trace tr = run(model(0.0, lower), sets);
      const double dir = lower ? -1 : 1;
      // Deepest point and its time.
      size_t imax = 0;
      for (size_t i = 0; i < tr.x.size(); ++i)
        if (dir * tr.x[i] > dir * tr.x[imax]) imax = i;
      CHECK(std::abs(dir * tr.x[imax] - (gap + depth)) < 1e-6);
      CHECK(std::abs(tr.t[imax] - (gap / v0 + T / 2)) < 2e-5);  // the output spacing
      // Final state: free flight back at −v0 since it left at t = gap/v0 + T.
      const double tf = tr.t.back();
      CHECK(std::abs(tr.v.back() - (-dir * v0)) < 1e-6);
      CHECK(std::abs(tr.x.back() - dir * (gap - v0 * (tf - gap / v0 - T))) < 1e-6);
    }
  }
}

TEST_CASE("end_stop: a damped stop returns the slider at the one-sided spring-dashpot's speed", "[forces][end_stop]") {
  for (double c : {20.0, 100.0}) {
    const double vr = rebound_speed(c);
    for (const char* solver : {"generalized_alpha", "rk4"}) {
      INFO("solver " << solver << ", c = " << c << ", rebound speed " << vr);
      const Trace tr = run(model(c, false), {{"solver.type", solver}});
      CHECK(vr < v0);
      // The damper's force jumps from 0 to c v0 at the touch, inside a step: a fixed-step method
      // misses up to h c v0 / m of velocity there (first order in h at one event).
      const double h = 1e-5;
      CHECK(std::abs(tr.v.back() - (-vr)) < h * c * v0 / m + 1e-6);
    }
  }
}

TEST_CASE("end_stop: the model file's mistakes are refused at their key", "[forces][end_stop]") {
  auto problems = [](const std::string& keys) {
    const std::string text =
        "bodies:\n  - {name: s, mass: 1, shape: {sphere: 0.1}, position: [0, 0, 0]}\n"
        "forces:\n  - {name: stop, type: end_stop, bodies: [ground, s], point: [0, 0, 0], axis: [1, 0, 0], "
        "stiffness: 1.0e4" + keys + "}\nsolver: {end_time: 1}\n";
    try {
      load_model_text(text, "stop.yaml", {});
    } catch (const LoadError& e) {
      return e.diagnostics();
    }
    return std::vector<Diagnostic>{};
  };
  auto d = problems("");
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "give lower, upper or both");
  CHECK(d[0].key_path == "forces[0]");
  d = problems(", lower: 0.2, upper: 0.1");
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "upper must be > lower");
  CHECK(d[0].key_path == "forces[0].upper");
  d = problems(", upper: 0.1, length: 2");
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "key 'length' does not apply to a end_stop force");
}
