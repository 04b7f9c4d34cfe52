// Every solver reads the interrupt flag between its steps (Integrator::set_interrupt_flag): a run
// with output only at its end stops within a step or two of the moment the flag is raised, with
// status Interrupted and its state at the last accepted step. The flag is raised from inside the
// model (a load's time function at t > 0.3 s), so the test does not depend on wall-clock time.

#include <catch2/catch.hpp>

#include <atomic>
#include <string>

#include <mbdae/io/Run.h>

using namespace mbdae;

TEST_CASE("Every solver stops between steps when the interrupt flag is raised", "[run][interrupt]") {
  static std::atomic<bool> flag{false};
  for (const SolverInfo& s : solvers()) {
    INFO("solver " << s.name);
    const std::string sets = std::string("solver.type=") + s.name;
    io::LoadedModel m = io::load_model_text(R"(gravity: [0, 0, -9.81]
bodies:
  - {name: ball, mass: 1.0, shape: {sphere: 0.1}}
solver: {end_time: 10.0, step: 1.0e-3}
output: {every: 10.0}
)",
                                            "interrupt.yaml", {io::parse_override(sets)});
    Load push;
    push.name = "push";
    push.body = "ball";
    push.value_of_t = [](double t) {
      if (t > 0.3) flag = true;
      return Vec3(0, 0, 1.0);
    };
    m.system.add_load(push);
    flag = false;
    io::ModelRun run(m);
    long rows = 0;
    const SolveResult r = run.run([&](const StateView&, std::span<const double>) { return ++rows, true; }, &flag);
    CHECK(r.status == SolveStatus::Interrupted);
    CHECK(rows == 1);  // the start only: the end time was not reached
    CHECK(r.t_reached >= 0.3 - 1e-3);
    if (!s.adaptive) CHECK(r.t_reached <= 0.3 + 2e-3);  // fixed steps of 1 ms
    else CHECK(r.t_reached < 10.0);
    CHECK(run.integrator().time() == r.t_reached);
  }
}
