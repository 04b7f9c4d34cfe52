// The run's energy check with the work of the loads, motors and dampers integrated along the run
// (run_to_end(), RunChecks::energy_minus_work): the work it integrates against closed forms, and
// an element that makes energy stopped by its name.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>

using namespace mbdae;

namespace {

SolveResult run_text(const std::string& text, const std::string& solver) {
  const io::LoadedModel m = io::load_model_text(text, "m.yaml", {io::parse_override("solver.type=" + solver)});
  io::ModelRun r(m);
  return r.run([](const StateView&, std::span<const double>) { return true; });
}

}  // namespace

TEST_CASE("energy check: the work of a damper is the integral of c v^2", "[run][checks][energy]") {
  // m = 1 kg on a rail, a spring-damper k = 100 N/m, c = 2 N s/m, stretched 0.1 m at rest at the
  // start. Closed form (underdamped): zeta = c / (2 sqrt(k m)) = 0.1, wn = 10 rad/s,
  // wd = wn sqrt(1 - zeta^2); x = e^(-zeta wn t) (A cos wd t + B sin wd t), A = 0.1,
  // B = zeta wn A / wd. The damper's work is -∫ c x'^2 dt, computed here by Simpson's rule on the
  // closed form (20,000 intervals).
  const std::string text = R"(gravity: [0, 0, 0]
bodies:
  - {name: mass, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1.1, 0, 0]}
joints:
  - {name: rail, type: prismatic, bodies: [ground, mass], point: [1.1, 0, 0], axis: [1, 0, 0]}
forces:
  - {name: spring, type: spring_damper, bodies: [ground, mass], points: [[0, 0, 0], [1.1, 0, 0]], stiffness: 100, damping: 2, length: 1.0}
solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3}
output: {every: 0.1}
)";
  const double k = 100, c = 2, m = 1, zeta = c / (2 * std::sqrt(k * m)), wn = std::sqrt(k / m);
  const double wd = wn * std::sqrt(1 - zeta * zeta), A = 0.1, B = zeta * wn * A / wd;
  auto xdot = [&](double t) {
    const double e = std::exp(-zeta * wn * t);
    return e * (-zeta * wn * (A * std::cos(wd * t) + B * std::sin(wd * t)) + (-A * wd * std::sin(wd * t) + B * wd * std::cos(wd * t)));
  };
  const int N = 20000;
  double I = 0;
  for (int i = 0; i <= N; ++i) {
    const double t = static_cast<double>(i) / N, w = (i == 0 || i == N) ? 1 : (i % 2 ? 4 : 2);
    I += w * c * xdot(t) * xdot(t);
  }
  I /= 3.0 * N;  // ∫0^1 c x'^2 dt, J (about 0.43 J of the 0.5 J stored)
  for (const char* solver : {"generalized_alpha", "rk4", "ida"}) {
    if (!find_solver(solver)) continue;
    INFO(solver);
    const SolveResult r = run_text(text, solver);
    REQUIRE(r.status == SolveStatus::Success);
    // The damper's work on the step grid (the output grid for IDA, every 0.1 s: its trapezoidal
    // error is larger there, about 1 %).
    CHECK(-r.stats.force_work == Approx(I).epsilon(std::string(solver) == "ida" ? 2e-2 : 1e-3));
    // The energy less the work stays at its start.
    CHECK(std::abs(r.stats.energy_final - r.stats.force_work - r.stats.energy_initial) < (std::string(solver) == "ida" ? 1e-2 : 1e-3));
  }
}

TEST_CASE("energy check: a motor's work on a flywheel is the integral of tau omega", "[run][checks][energy]") {
  // A flywheel J = 0.5 kg m^2 from rest, a constant motor torque tau = 2 N m: omega = tau t / J,
  // work = ∫ tau omega dt = tau^2 T^2 / (2 J) = 4 J at T = 1 s, all of it kinetic energy.
  const std::string text = R"(gravity: [0, 0, -9.81]
bodies:
  - {name: wheel, mass: 10.0, inertia: [0.25, 0.25, 0.5, 0, 0, 0]}
joints:
  - {name: shaft, type: revolute, bodies: [ground, wheel], point: [0, 0, 0], axis: [0, 0, 1]}
forces:
  - {name: motor, type: joint_motor, joint: shaft, value: 2}
solver: {type: generalized_alpha, end_time: 1.0, step: 1.0e-3}
output: {every: 0.1}
)";
  CHECK(io::run_checks(io::load_model_text(text, "m.yaml")).energy_minus_work);
  for (const char* solver : {"generalized_alpha", "trapezoidal_index2", "rk4", "dopri5"}) {
    INFO(solver);
    const SolveResult r = run_text(text, solver);
    REQUIRE(r.status == SolveStatus::Success);
    CHECK(r.stats.force_work == Approx(4.0).epsilon(1e-6));
    CHECK(r.stats.energy_final - r.stats.energy_initial == Approx(4.0).epsilon(1e-6));
  }
  // The same torque as a load on the body (forces: type torque): the same work.
  std::string load = text;
  const std::string motor = "{name: motor, type: joint_motor, joint: shaft, value: 2}";
  load.replace(load.find(motor), motor.size(), "{name: drive, type: torque, body: wheel, value: [0, 0, 2]}");
  const SolveResult r = run_text(load, "generalized_alpha");
  REQUIRE(r.status == SolveStatus::Success);
  CHECK(r.stats.force_work == Approx(4.0).epsilon(1e-6));
}

TEST_CASE("energy check: a load that does more work than the motion takes stops the run", "[run][checks][energy]") {
  // A runaway under rk4 with a load (the old check was off with any load): a slider pushed by a
  // constant force while a stiff spring (period 2 ms) on a 1 ms step makes rk4 unstable. It must
  // stop on the energy less the work of the load, before its end time. (The stiff end stop of
  // tests/wrong_runs is the case where the element is named.)
  const std::string text = R"(gravity: [0, 0, 0]
bodies:
  - {name: mass, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1.0, 0, 0]}
joints:
  - {name: rail, type: prismatic, bodies: [ground, mass], point: [1, 0, 0], axis: [1, 0, 0]}
forces:
  - {name: push, type: force, body: mass, value: [0.1, 0, 0]}
  - {name: stiff_spring, type: spring_damper, bodies: [ground, mass], points: [[0, 0, 0], [1, 0, 0]], stiffness: 1.0e7, length: 0.999}
solver: {type: rk4, end_time: 1.0, step: 1.0e-3}
output: {every: 1.0e-2}
)";
  const SolveResult r = run_text(text, "rk4");
  CHECK(r.status == SolveStatus::CheckFailed);
  CHECK_THAT(r.message, Catch::Contains("the energy less the work of the force elements grew"));
  CHECK(r.t_reached < 1.0);
}
