// Restart files (io/StateFile.h): a run split at t = 1 s by --save-state / --restart against the
// same run without the split. Generalized-alpha, the trapezoidal rule and RK4 carry everything
// their next steps depend on, so the continued run must give the same numbers bit for bit; IDA
// starts its history anew and must stay within its tolerance.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Run.h>
#include <mbdae/io/StateFile.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

using Rows = std::vector<std::vector<double>>;

Rows run(const LoadedModel& m, const RunState* restart, std::vector<std::string>* columns = nullptr,
         RunState* saved = nullptr) {
  ModelRun r(m, restart);
  if (columns) *columns = r.sensors().columns();
  Rows rows;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    std::vector<double> x{s.t};
    x.insert(x.end(), row.begin(), row.end());
    rows.push_back(x);
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  if (saved) *saved = r.save_state();
  return rows;
}

std::string example(const std::string& name) {
  return std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name;
}

/// Runs 0 … 1 s, saves, reads the file back and continues to `t_end`.
Rows split_run(const std::string& file, const std::vector<Override>& sets, const std::string& state_path) {
  std::vector<Override> first = sets;
  first.push_back({"solver.end_time", "1.0"});
  RunState saved;
  (void)run(load_model_file(file, first), nullptr, nullptr, &saved);
  write_state_file(state_path, saved);
  const RunState back = read_state_file(state_path);
  return run(load_model_file(file, sets), &back);
}

}  // namespace

TEST_CASE("restart: a split run equals the unsplit one bit for bit", "[restart]") {
  const auto [file, solver] = GENERATE(table<std::string, std::string>({
      {"double_pendulum.yaml", "generalized_alpha"},
      {"slider_crank.yaml", "generalized_alpha"},
      {"spatial_slider_crank.yaml", "generalized_alpha"},
      {"four_bar.yaml", "trapezoidal_index2"},
      {"heavy_top.yaml", "rk4"},
  }));
  DYNAMIC_SECTION(file << ", " << solver) {
    const std::vector<Override> sets{{"solver.type", solver}, {"solver.end_time", "2.0"}};
    const Rows full = run(load_model_file(example(file), sets), nullptr);
    const std::string state = (std::filesystem::temp_directory_path() / ("mbdae_restart_" + solver + ".state")).string();
    const Rows cont = split_run(example(file), sets, state);
    std::remove(state.c_str());
    // The continued run starts with the saved time (t = 1 s) and ends with the unsplit run.
    REQUIRE(full.size() % 2 == 1);
    const size_t half = full.size() / 2;  // the row of t = 1 s
    REQUIRE(cont.size() == half + 1);
    int differing = 0;
    for (size_t k = 0; k < cont.size(); ++k)
      for (size_t c = 0; c < cont[k].size(); ++c)
        if (cont[k][c] != full[half + k][c]) ++differing;
    CHECK(cont.front()[0] == 1.0);
    CHECK(differing == 0);
  }
}

TEST_CASE("restart: the joint angle keeps counting turns across a restart", "[restart]") {
  // The driven crank turns at 2π rad/s: θ = 4π at t = 2 s, half of it after the restart.
  const std::string text = R"(gravity: [0, -9.81, 0]
bodies:
  - {name: crank, mass: 0.5, shape: {box: [0.2, 0.03, 0.02]}, position: [0.1, 0, 0],
     angular_velocity: [0, 0, "2*pi"], velocity: [0, "0.1*2*pi", 0]}
joints:
  - {name: drive, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1],
     motion: {value: "2*pi*t", velocity: "2*pi", acceleration: "0"}}
sensors:
  - {name: theta, joint: drive, output: joint_angle}
solver: {end_time: 2.0, step: 1.0e-3}
output: {every: 0.05}
)";
  RunState saved;
  (void)run(load_model_text(text, "crank.yaml", {{"solver.end_time", "1.0"}}), nullptr, nullptr, &saved);
  const Rows cont = run(load_model_text(text, "crank.yaml"), &saved);
  CHECK(std::abs(cont.front()[1] - 2 * M_PI) < 1e-8);
  CHECK(std::abs(cont.back()[1] - 4 * M_PI) < 1e-8);
}

TEST_CASE("restart: IDA's split run stays within its tolerance", "[restart]") {
  // IDA restarts its order and step history: the continued run is another IDA run from the same
  // state, so it must agree with the unsplit one as well as both agree with a tight reference.
  const std::string file = example("slider_crank.yaml");
  const std::vector<Override> sets{{"solver.type", "ida"}, {"solver.end_time", "2.0"},
                                   {"solver.tolerance", "{relative: 1.0e-6, absolute: 1.0e-8}"}};
  std::vector<Override> tight = sets;
  tight.push_back({"solver.tolerance", "{relative: 1.0e-11, absolute: 1.0e-12}"});
  std::vector<std::string> columns;
  const Rows full = run(load_model_file(file, sets), nullptr, &columns);
  const Rows ref = run(load_model_file(file, tight), nullptr);
  const std::string state = (std::filesystem::temp_directory_path() / "mbdae_restart_ida.state").string();
  const Rows cont = split_run(file, sets, state);
  std::remove(state.c_str());
  REQUIRE(cont.size() == 101);
  // Positions and velocities (the differential variables of IDA's error test).
  double e_split = 0, e_full = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string& n = columns[c];
    if (n.find("force") != std::string::npos || n.find("torque") != std::string::npos) continue;
    for (size_t k = 0; k < cont.size(); ++k) {
      e_split = std::max(e_split, std::abs(cont[k][c + 1] - full[100 + k][c + 1]));
      e_full = std::max(e_full, std::abs(full[100 + k][c + 1] - ref[100 + k][c + 1]));
    }
  }
  INFO("split vs unsplit " << e_split << ", unsplit vs reference " << e_full);
  CHECK(e_split > 0);
  CHECK(e_split < e_full);
}

TEST_CASE("restart: a state file of another model or solver is refused", "[restart]") {
  const LoadedModel m = load_model_file(example("slider_crank.yaml"), {{"solver.end_time", "0.1"}});
  RunState saved;
  (void)run(m, nullptr, nullptr, &saved);
  const LoadedModel other = load_model_file(example("double_pendulum.yaml"));
  CHECK_THROWS_WITH(ModelRun(other, &saved), Catch::Contains("bodies"));
  const LoadedModel ida = load_model_file(example("slider_crank.yaml"), {{"solver.type", "ida"}});
  CHECK_THROWS_WITH(ModelRun(ida, &saved), Catch::Contains("written by solver generalized_alpha"));
  const LoadedModel lie = load_model_file(example("torque_free.yaml"), {{"solver.type", "lie_rk4"}});
  CHECK_THROWS_WITH(ModelRun(lie, &saved), Catch::Contains("lie_rk4"));
}
