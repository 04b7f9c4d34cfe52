// Rotation coordinates near their singularity: `rxyz` angles (cos β = 0) and a rotation vector
// (|θ| = 2π) are not re-parametrized, so a run that takes them there stops with a message naming
// the body and the cause (MultibodySystem::coordinate_problem) -- never a result that looks
// right and is not. Up to the stop the results agree with the Euler-parameter body's.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <mbdae/io/Run.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

struct Rows {
  std::vector<std::vector<double>> rows;  // time first, then the sensor columns
  SolveResult res;
};

Rows run(const std::string& path_or_text, bool is_text, const std::vector<Override>& sets) {
  const LoadedModel m = is_text ? load_model_text(path_or_text, "spin.yaml", sets) : load_model_file(path_or_text, sets);
  ModelRun r(m);
  Rows out;
  out.res = r.run([&](const StateView& s, std::span<const double> row) {
    std::vector<double> x{s.t};
    x.insert(x.end(), row.begin(), row.end());
    out.rows.push_back(std::move(x));
    return true;
  });
  return out;
}

/// max |a − b| over the rows both have and the columns [first, last].
double max_diff(const Rows& a, const Rows& b, size_t first, size_t last) {
  double d = 0;
  for (size_t k = 0; k < std::min(a.rows.size(), b.rows.size()); ++k)
    for (size_t c = first; c <= last; ++c) d = std::max(d, std::abs(a.rows[k][c] - b.rows[k][c]));
  return d;
}

}  // namespace

TEST_CASE("Heavy top with rxyz angles at h = 1e-4: stops at the singularity naming the body; agrees with "
          "Euler parameters up to there",
          "[rotation][singular]") {
  const std::string file = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/heavy_top.yaml";
  // The example: generalized-α, h = 1e-4, spin 150 rad/s about body y (the middle rxyz angle,
  // which passes π/2 within about 11 ms).
  const Rows ep = run(file, false, {{"solver.end_time", "0.05"}, {"output.every", "1.0e-3"}});
  REQUIRE(ep.res.ok());
  const Rows tb = run(file, false,
                      {{"solver.end_time", "0.05"}, {"output.every", "1.0e-3"}, {"bodies[0].rotation", "rxyz"}});
  REQUIRE(!tb.res.ok());
  CHECK(tb.res.status == SolveStatus::OtherFailure);
  INFO(tb.res.message);
  CHECK(tb.res.message.find("body 'top'") != std::string::npos);
  CHECK(tb.res.message.find("rxyz angles are near their singularity") != std::string::npos);
  CHECK(tb.res.t_reached < 0.02);
  // Up to the stop: COM displacement (columns 1-3) and body spin (4-6) as with Euler parameters.
  REQUIRE(tb.rows.size() >= 2);
  const double du = max_diff(tb, ep, 1, 3), dw = max_diff(tb, ep, 4, 6);
  INFO("until t = " << tb.rows.back()[0] << " s: max |u_rxyz - u_ep| " << du << " m, max |w_rxyz - w_ep| " << dw
                    << " rad/s");
  CHECK(du < 1e-5);
  CHECK(dw < 1e-2);  // of 150 rad/s
}

TEST_CASE("Rotation vector spun towards 2 pi: stops naming the body; energy kept and Euler-parameter result "
          "matched up to there",
          "[rotation][singular]") {
  // A free asymmetric body tumbling without gravity (|ω| ≈ 3 rad/s): the rotation vector grows
  // past π (the formulation keeps it continuous there) towards its singularity at 2π.
  const std::string text = R"(gravity: [0, 0, 0]
bodies:
  - {name: brick, mass: 2.0, inertia: [0.5, 0.3, 0.2, 0, 0, 0], position: [0, 0, 0],
     angular_velocity: [0.1, 0.2, 3.0], rotation: rotation_vector}
sensors:
  - {name: w, body: brick, output: angular_velocity}
  - {name: E, output: energy}
solver: {type: generalized_alpha, end_time: 4.0, step: 1.0e-3, rho_inf: 1.0}
output: {every: 1.0e-2}
)";
  const Rows rv = run(text, true, {});
  REQUIRE(!rv.res.ok());
  INFO(rv.res.message);
  CHECK(rv.res.status == SolveStatus::OtherFailure);
  CHECK(rv.res.message.find("body 'brick'") != std::string::npos);
  CHECK(rv.res.message.find("rotation vector is near its singularity") != std::string::npos);
  CHECK(rv.res.t_reached > 1.1);  // |θ| passed π (at about 1.05 s) before the stop
  const Rows ep = run(text, true, {{"bodies[0].rotation", "euler_parameters"}});
  REQUIRE(ep.res.ok());
  // Energy up to the stop, against the Euler-parameter body's over the same time (the method's own
  // error at h = 1e-3, ρ∞ = 1). The rotation vector's local error grows as 1/sinc³(|θ|/2), up to
  // 16 times at the stop (sinc ≥ 0.4).
  double dE = 0, dE_ep = 0;
  for (const auto& row : rv.rows) dE = std::max(dE, std::abs(row[4] - rv.rows.front()[4]));
  for (size_t k = 0; k < rv.rows.size() && k < ep.rows.size(); ++k)
    dE_ep = std::max(dE_ep, std::abs(ep.rows[k][4] - ep.rows.front()[4]));
  const double dw = max_diff(rv, ep, 1, 3);
  INFO("until t = " << rv.rows.back()[0] << " s: max |E - E0| " << dE << " J (Euler parameters " << dE_ep
                    << " J), max |w_rv - w_ep| " << dw << " rad/s");
  CHECK(dE < 1e-5 * rv.rows.front()[4]);
  CHECK(dE < 16 * dE_ep);
  CHECK(dw < 1e-4);
}
