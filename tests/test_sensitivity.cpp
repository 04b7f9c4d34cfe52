// Forward sensitivities (io::SensitivityRun, the direct differentiation of generalized-α and the
// trapezoidal rule) against two independent computations:
// - central differences of whole runs, each run at p ± h with Newton iterations to 1e-13 on a
//   fresh matrix every iteration, h shrunk until the difference quotient settles (the check takes
//   the better of h = 1e-4 |p| and 1e-5 |p|, whose truncation and noise errors fall on either side);
//   slider-crank, four-bar with a spring, heavy top, PI-controlled flywheel;
// - the closed form of a mass on a spring, x = 1 + A cos ωt + (v0/ω) sin ωt: dx/dk and dx/dv0.
// And the refusals: solvers without sensitivities, non-smooth elements, a key that is no number.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Run.h>
#include <mbdae/io/Sensitivity.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

const std::string kModels = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/";
const std::string kTestModels = std::string(MBDAE_TEST_SOURCE_DIR) + "/tests/sensitivity_models/";

/// Rows of a run: rows[i][j] (time in column 0).
using Rows = std::vector<std::vector<double>>;

struct SensitivityRows {
  Rows rows;                          // sensor rows
  std::vector<Rows> d;                // d[k][i][j]: d row[i][j] / d p_k (time column 0 = 0)
  std::vector<SensitivityParameter> params;
  SolveResult result;
};

SensitivityRows sensitivity_rows(const std::string& file, const std::vector<Override>& sets,
                                 const std::vector<std::string>& keys) {
  SensitivityRun run(file, sets, keys);
  SensitivityRows out;
  out.params = run.parameters();
  out.d.resize(keys.size());
  out.result = run.run([&](const StateView& s, std::span<const double> row, std::span<const double> d) {
    std::vector<double> r{s.t};
    r.insert(r.end(), row.begin(), row.end());
    out.rows.push_back(r);
    for (size_t k = 0; k < keys.size(); ++k) {
      std::vector<double> dk{0.0};
      dk.insert(dk.end(), d.begin() + static_cast<long>(k * row.size()), d.begin() + static_cast<long>((k + 1) * row.size()));
      out.d[k].push_back(dk);
    }
    return true;
  });
  return out;
}

/// A whole run with the Newton iterations converged to 1e-13 on a fresh matrix.
Rows full_run(const std::string& file, std::vector<Override> sets, long* steps = nullptr) {
  LoadedModel m = load_model_file(file, sets);
  m.settings.newton_tol = 1e-13;
  m.settings.modified_newton = false;
  ModelRun run(m);
  Rows rows;
  const SolveResult r = run.run([&](const StateView& s, std::span<const double> row) {
    std::vector<double> x{s.t};
    x.insert(x.end(), row.begin(), row.end());
    rows.push_back(x);
    return true;
  });
  REQUIRE(r.status == SolveStatus::Success);
  if (steps) *steps = r.stats.steps;
  return rows;
}

std::string number(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

/// Largest difference of d from the central differences of whole runs over every row and sensor
/// column, relative to the column's largest |derivative| (columns whose derivative stays below
/// 1e-3 of the largest of all, e.g. a conserved energy's, are compared on 1e-3 of that largest:
/// their whole-run differences are the runs' noise); `worst` names its column.
double fd_error(const std::string& file, const std::vector<Override>& sets, const SensitivityParameter& p,
                const Rows& d, double rel_h, size_t& worst, double& worst_scale) {
  const double h = rel_h * std::max(std::abs(p.value), 1e-3);
  std::vector<Override> minus = sets, plus = sets;
  minus.push_back({p.key, number(p.value - h)});
  plus.push_back({p.key, number(p.value + h)});
  long steps_m = 0, steps_p = 0;
  const Rows rm = full_run(file, minus, &steps_m), rp = full_run(file, plus, &steps_p);
  REQUIRE(steps_m == steps_p);  // the same step sequence: no halving in one of them
  REQUIRE(rm.size() == d.size());
  const size_t cols = d[0].size();
  std::vector<double> scale(cols, 0.0);
  std::vector<Rows::value_type> fd(d.size(), std::vector<double>(cols, 0.0));
  double largest = 0;
  for (size_t i = 0; i < d.size(); ++i)
    for (size_t j = 1; j < cols; ++j) {
      fd[i][j] = (rp[i][j] - rm[i][j]) / (2 * h);
      scale[j] = std::max(scale[j], std::abs(fd[i][j]));
      largest = std::max(largest, scale[j]);
    }
  double err = 0;
  for (size_t j = 1; j < cols; ++j) {
    const double s = std::max(scale[j], 1e-3 * largest);
    for (size_t i = 0; i < d.size(); ++i)
      if (std::abs(d[i][j] - fd[i][j]) / s > err) {
        err = std::abs(d[i][j] - fd[i][j]) / s;
        worst = j - 1;
        worst_scale = s;
      }
  }
  return err;
}

/// Checks every parameter's sensitivities against whole-run differences with h = 1e-2 ... 1e-6
/// relative; returns the worst over the parameters of the best over h.
double check_against_runs(const std::string& file, const std::vector<Override>& sets,
                          const std::vector<std::string>& keys, std::string& report) {
  const SensitivityRows s = sensitivity_rows(file, sets, keys);
  REQUIRE(s.result.status == SolveStatus::Success);
  const std::vector<std::string> columns = SensitivityRun(file, sets, {keys[0]}).sensors().columns();
  double worst = 0;
  for (size_t k = 0; k < keys.size(); ++k) {
    double best = 1e300;
    std::string text;
    for (double h : {1e-2, 1e-3, 1e-4, 1e-5, 1e-6}) {
      size_t col = 0;
      double scale = 0;
      const double e = fd_error(file, sets, s.params[k], s.d[k], h, col, scale);
      char b[160];
      std::snprintf(b, sizeof b, " %.2g (h %g |p|, %s of max %.3g)", e, h, columns[col].c_str(), scale);
      text += b;
      best = std::min(best, e);
    }
    report += "d/d " + keys[k] + ": relative difference" + text + "\n";
    worst = std::max(worst, best);
  }
  return worst;
}

}  // namespace

TEST_CASE("sensitivity: a mass on a spring against the closed form", "[sensitivity]") {
  const std::string file = kTestModels + "spring_mass.yaml";
  const SensitivityRows s = sensitivity_rows(file, {}, {"forces[0].stiffness", "bodies[0].velocity[0]"});
  REQUIRE(s.result.status == SolveStatus::Success);
  const double k = 39.47841760435743, m = 1.0, A = 0.1, w = std::sqrt(k / m);
  double err_k = 0, err_v = 0, max_k = 0, max_v = 0;
  for (size_t i = 0; i < s.rows.size(); ++i) {
    const double t = s.rows[i][0];
    const double dk = -A * t * std::sin(w * t) / (2 * std::sqrt(k * m));
    const double dv = std::sin(w * t) / w;
    err_k = std::max(err_k, std::abs(s.d[0][i][1] - dk));
    err_v = std::max(err_v, std::abs(s.d[1][i][1] - dv));
    max_k = std::max(max_k, std::abs(dk));
    max_v = std::max(max_v, std::abs(dv));
    // the slide holds y and z: their derivatives vanish
    REQUIRE(std::abs(s.d[0][i][2]) < 1e-12);
    REQUIRE(std::abs(s.d[1][i][3]) < 1e-12);
  }
  INFO("dx/dk: max error " << err_k << " of max " << max_k << "; dx/dv0: max error " << err_v << " of max " << max_v);
  // Against the closed form the discretization error of the step (h = 1e-4 s, ω h = 6e-4) remains:
  // generalized-α's phase error ~ (ω h)² ω t / 12, a few 1e-7 relative over one period.
  CHECK(err_k <= 2e-6 * max_k);
  CHECK(err_v <= 2e-6 * max_v);
}

TEST_CASE("sensitivity: a mass on a spring against whole-run differences", "[sensitivity]") {
  std::string report;
  const double e = check_against_runs(kTestModels + "spring_mass.yaml", {}, {"forces[0].stiffness", "bodies[0].velocity[0]", "bodies[0].mass"}, report);
  INFO(report);
  CHECK(e <= 1e-6);
}

TEST_CASE("sensitivity: slider-crank against whole-run differences", "[sensitivity]") {
  std::string report;
  const double e = check_against_runs(kModels + "slider_crank.yaml", {{"solver.end_time", "0.8"}},
                                      {"bodies[1].mass", "bodies[2].mass", "joints[1].point[0]"}, report);
  INFO(report);
  // Measured: 3.3e-7 (rod mass), 3.8e-7 (slider mass), 3.9e-6 (crank pin position: the same at
  // whole-run steps 1e-5 and 1e-6 |p|, so the sensitivity's own differences, O(δ²) with δ = 1e-5 |p|).
  CHECK(e <= 1e-5);
}

TEST_CASE("sensitivity: four-bar with a spring against whole-run differences", "[sensitivity]") {
  std::string report;
  const double e = check_against_runs(kTestModels + "four_bar_spring.yaml", {},
                                      {"forces[1].stiffness", "forces[1].damping", "bodies[1].mass"}, report);
  INFO(report);
  // Measured: 2.2e-8 (stiffness), 1.4e-8 (coupler mass), 1.4e-6 (damping, in the reaction column A.x,
  // whose whole-run differences are noise-limited: index-3 multipliers; larger at every smaller h).
  CHECK(e <= 3e-6);
}

TEST_CASE("sensitivity: heavy top against whole-run differences", "[sensitivity]") {
  // (its inertia lies on the triangle inequality's bound: its mass, moments and centre of mass cannot move)
  std::string report;
  const double e = check_against_runs(kModels + "heavy_top.yaml", {{"solver.end_time", "0.2"}},
                                      {"gravity[2]", "bodies[0].angular_velocity_local[1]", "bodies[0].angular_velocity_local[2]"}, report);
  INFO(report);
  // Measured: 4.3e-8 and 2.1e-8 (initial spin components), 1.1e-6 (gravity, in the energy column,
  // whose whole-run differences are noise-limited: a conserved 5e3 J of which 1e-5 moves).
  CHECK(e <= 3e-6);
}

TEST_CASE("sensitivity: PI-controlled flywheel against whole-run differences", "[sensitivity]") {
  // (the wheel made a little thicker, so that its polar moment can move within the triangle inequality)
  std::string report;
  const double e = check_against_runs(kModels + "pi_flywheel.yaml",
                                      {{"solver.end_time", "2"}, {"bodies[0].inertia", "[0.3, 0.3, 0.5, 0, 0, 0]"}},
                                      {"bodies[0].inertia[2]", "forces[1].value[2]", "states[0].initial"}, report);
  INFO(report);
  CHECK(e <= 1e-6);
}

TEST_CASE("sensitivity: the trapezoidal rule against whole-run differences", "[sensitivity]") {
  std::string report;
  const double e = check_against_runs(kTestModels + "four_bar_spring.yaml", {{"solver.type", "trapezoidal_index2"}},
                                      {"forces[1].stiffness", "bodies[1].mass"}, report);
  INFO(report);
  // Measured: 1.4e-6 (stiffness) and 2.3e-6 (coupler mass), both in the reaction column A.x (noise-limited).
  CHECK(e <= 5e-6);
}

TEST_CASE("sensitivity: refusals by name", "[sensitivity]") {
  const std::string sm = kTestModels + "spring_mass.yaml";
  auto message = [&](const std::string& file, const std::vector<Override>& sets, const std::vector<std::string>& keys) {
    try {
      SensitivityRun run(file, sets, keys);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK_THAT(message(sm, {{"solver.type", "ida"}}, {"bodies[0].mass"}), Catch::Contains("ida"));
  CHECK_THAT(message(sm, {{"solver.type", "rk4"}}, {"bodies[0].mass"}), Catch::Contains("rk4"));
  CHECK_THAT(message(sm, {{"solver.formulation", "index2_ggl"}}, {"bodies[0].mass"}), Catch::Contains("index2_ggl"));
  CHECK_THAT(message(kModels + "end_stops.yaml", {}, {"bodies[0].mass"}), Catch::Contains("end_stop"));
  CHECK_THAT(message(kModels + "pin_friction_pendulum.yaml", {}, {"bodies[0].mass"}), Catch::Contains("joint_friction"));
  CHECK_THAT(message(kModels + "bouncing_ball.yaml", {{"solver.type", "generalized_alpha"}}, {"bodies[0].mass"}),
             Catch::Contains("contact"));
  CHECK_THAT(message(sm, {}, {"forces[0].nothing"}), Catch::Contains("forces[0].nothing"));
  CHECK_THAT(message(sm, {}, {"sensors[0].name"}), Catch::Contains("must be a number"));
  CHECK_THAT(message(sm, {}, {}), Catch::Contains("at least one parameter"));
  CHECK_THAT(message(sm, {}, {"solver.step"}), Catch::Contains("no parameter of the model"));
  CHECK_THAT(message(sm, {}, {"bodies[0].mass", "bodies[0].mass"}), Catch::Contains("twice"));
}
