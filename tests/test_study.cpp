// Parameter studies (mbdae::study): random draws, designs, statistics, the result table and the
// byte forms of cases and results. The runs themselves are tested through `mbdae sweep` against
// separate `mbdae run` processes (tests/sweep/test_sweep.py).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

#include <catch2/catch.hpp>

#include <mbdae/study/CaseRun.h>
#include <mbdae/study/ResultTable.h>
#include <mbdae/study/Sampling.h>
#include <mbdae/study/Study.h>

using namespace mbdae::study;
namespace fs = std::filesystem;

namespace {

/// Writes a study file beside the example models and loads it.
Study study_from(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / "mbdae_test_study";
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".yaml");
  std::ofstream(file) << "model: " MBDAE_TEST_SOURCE_DIR "/examples/models/slider_crank.yaml\n"
                      << "outputs:\n  - {sensor: energy, statistic: final}\n"
                      << body;
  return load_study_file(file.string());
}

std::vector<double> numbers(const std::vector<Case>& cases, size_t j) {
  std::vector<double> v;
  for (const Case& c : cases) v.push_back(c.values[j].number);
  return v;
}

}  // namespace

TEST_CASE("Study: normal quantiles against tabulated values and the distribution function") {
  // Φ⁻¹ at 0.975, 0.95, 0.8413447460685429 (Φ(1)), 1e-10 (tables of the normal distribution).
  CHECK(normal_quantile(0.975) == Approx(1.959963984540054).epsilon(1e-15));
  CHECK(normal_quantile(0.95) == Approx(1.6448536269514722).epsilon(1e-15));
  CHECK(normal_quantile(0.5) == 0.0);
  CHECK(normal_quantile(1e-10) == Approx(-6.361340902404056).epsilon(1e-13));
  CHECK(normal_quantile(0.025) == Approx(-normal_quantile(0.975)).epsilon(1e-14));
  for (double p : {1e-300, 1e-15, 1e-6, 0.01, 0.02425, 0.1, 0.3, 0.49, 0.7, 0.99, 1 - 1e-12})
    CHECK(normal_cdf(normal_quantile(p)) == Approx(p).epsilon(1e-13));
  CHECK(std::isinf(normal_quantile(0.0)));
  CHECK(std::isnan(normal_quantile(1.5)));
}

TEST_CASE("Study: random streams are uniform, reproducible and independent") {
  RandomStream a(42, 0), b(42, 0), c(42, 1), d(43, 0);
  double sum = 0, sum2 = 0;
  const int n = 200000;
  bool all_same = true, any_other = false;
  for (int i = 0; i < n; ++i) {
    const double x = a.uniform();
    REQUIRE(x > 0.0);
    REQUIRE(x < 1.0);
    sum += x;
    sum2 += x * x;
    all_same = all_same && x == b.uniform();
    any_other = any_other || x != c.uniform() || x != d.uniform();
  }
  CHECK(all_same);
  CHECK(any_other);
  // Mean 1/2 and variance 1/12 within 5 standard errors.
  CHECK(std::abs(sum / n - 0.5) < 5 * std::sqrt(1.0 / 12 / n));
  CHECK(std::abs(sum2 / n - sum * sum / n / n - 1.0 / 12) < 5 * 0.0745 / std::sqrt(double(n)));
  std::vector<int> hist(7, 0);
  for (int i = 0; i < 70000; ++i) ++hist[static_cast<size_t>(a.below(7))];
  for (int h : hist) CHECK(std::abs(h - 10000) < 5 * 93);  // binomial sd √(70000·1/7·6/7) ≈ 93
}

TEST_CASE("Study: a Latin hypercube has one point in every stratum of every dimension") {
  const long n = 37;
  const auto u = unit_samples(n, 3, 5, true);
  for (size_t j = 0; j < 3; ++j) {
    std::set<long> strata;
    for (long i = 0; i < n; ++i) {
      const double x = u[static_cast<size_t>(i)][j];
      REQUIRE(x > 0.0);
      REQUIRE(x < 1.0);
      strata.insert(static_cast<long>(x * n));
    }
    CHECK(strata.size() == static_cast<size_t>(n));
  }
  CHECK(unit_samples(n, 3, 5, true) == u);
  CHECK(unit_samples(n, 3, 6, true) != u);
}

TEST_CASE("Study: full factorial, one at a time and list designs") {
  const Study f = study_from("factorial", R"(
parameters:
  - {name: a, key: "bodies[1].mass", values: [1, 2]}
  - {name: b, key: "bodies[2].mass", range: {from: 1, to: 100, count: 3, scale: log}}
)");
  const auto cases = f.cases();
  REQUIRE(cases.size() == 6);
  CHECK(numbers(cases, 0) == std::vector<double>{1, 1, 1, 2, 2, 2});  // the first parameter slowest
  CHECK(numbers(cases, 1) == std::vector<double>{1, 10, 100, 1, 10, 100});
  for (size_t k = 0; k < cases.size(); ++k) CHECK(cases[k].id == static_cast<long>(k));
  const auto ov = f.overrides(cases[4]);
  REQUIRE(ov.size() == 2);
  CHECK(ov[0].key == "bodies[1].mass");
  CHECK(ov[0].value == "2");
  CHECK(ov[1].value == "10");

  const Study o = study_from("oat", R"(
design: one_at_a_time
parameters:
  - {name: a, key: "bodies[1].mass", values: [1, 2, 3]}
  - {name: b, key: "bodies[2].mass", values: [5, 6], nominal: 5.5}
solver: {end_time: 1}
)");
  const auto oc = o.cases();
  // Nominal (2, 5.5), then a = 1, 3 with b nominal, then b = 5, 6 with a nominal.
  REQUIRE(oc.size() == 5);
  CHECK(numbers(oc, 0) == std::vector<double>{2, 1, 3, 2, 2});
  CHECK(numbers(oc, 1) == std::vector<double>{5.5, 5.5, 5.5, 5, 6});
  CHECK(o.case_count() == 5);
  CHECK(o.overrides(oc[0]).front().key == "solver.end_time");

  const Study l = study_from("list", R"(
design: list
parameters:
  - {name: a, key: "bodies[1].mass", values: [1, 2, 3]}
  - {name: s, key: solver.type, values: [ida, generalized_alpha, trapezoidal_index2]}
  - {name: m, key: ["bodies[0].mass", "bodies[2].mass"], values: [4, 5, 6]}
)");
  const auto lc = l.cases();
  REQUIRE(lc.size() == 3);
  CHECK(lc[2].values[1].text == "trapezoidal_index2");
  CHECK(std::isnan(lc[2].values[1].number));
  CHECK(lc[2].values[0].number == 3);
  // A parameter with two keys gives both the same value.
  const auto lo = l.overrides(lc[1]);
  REQUIRE(lo.size() == 4);
  CHECK((lo[2].key == "bodies[0].mass" && lo[2].value == "5" && lo[3].key == "bodies[2].mass" && lo[3].value == "5"));
}

TEST_CASE("Study: random and Latin hypercube draws follow their distributions") {
  const Study r = study_from("random", R"(
design: random
samples: 4000
seed: 11
parameters:
  - {name: u, key: "bodies[1].mass", uniform: [2, 4]}
  - {name: n, key: "bodies[2].mass", normal: {mean: 3, std: 0.5, min: 2.5}}
  - {name: g, key: "bodies[0].mass", log_uniform: [0.1, 10]}
)");
  const auto cases = r.cases();
  REQUIRE(cases.size() == 4000);
  const auto u = numbers(cases, 0), n = numbers(cases, 1), g = numbers(cases, 2);
  auto mean = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); };
  CHECK(*std::min_element(u.begin(), u.end()) >= 2);
  CHECK(*std::max_element(u.begin(), u.end()) <= 4);
  CHECK(std::abs(mean(u) - 3) < 5 * (2 / std::sqrt(12.0)) / std::sqrt(4000.0));
  // Normal truncated below at mean − σ: mean μ + σ φ(−1) / (1 − Φ(−1)) = 3 + 0.5 · 0.2876.
  CHECK(*std::min_element(n.begin(), n.end()) >= 2.5);
  CHECK(std::abs(mean(n) - (3 + 0.5 * 0.28759997093917857)) < 0.02);
  // log g uniform in [log 0.1, log 10]: its mean is 0, and half the draws lie below 1.
  std::vector<double> lg;
  for (double x : g) lg.push_back(std::log(x));
  CHECK(std::abs(mean(lg)) < 5 * (std::log(100.0) / std::sqrt(12.0)) / std::sqrt(4000.0));
  // The same study gives the same draws; the text of a drawn number reads back exactly.
  CHECK(numbers(r.cases(), 1) == n);
  for (const Case& c : cases) CHECK(std::stod(c.values[1].text) == c.values[1].number);

  const Study h = study_from("lhs", R"(
design: latin_hypercube
samples: 10
parameters:
  - {name: u, key: "bodies[1].mass", uniform: [1, 2]}
  - {name: k, key: solver.type, values: [ida, generalized_alpha]}
)");
  const auto hc = h.cases();
  std::set<int> strata;
  int ida = 0;
  for (const Case& c : hc) {
    strata.insert(static_cast<int>((c.values[0].number - 1) * 10));
    ida += c.values[1].text == "ida";
  }
  CHECK(strata.size() == 10);
  CHECK(ida == 5);  // a discrete parameter's levels share the strata equally
}

TEST_CASE("Study: statistics of a sensor column over the output rows") {
  std::vector<Output> outs;
  for (auto [s, at] : std::vector<std::pair<Statistic, double>>{{Statistic::Final, 0}, {Statistic::Max, 0},
                                                                {Statistic::Min, 0}, {Statistic::Mean, 0},
                                                                {Statistic::Rms, 0}, {Statistic::TimeOfMax, 0},
                                                                {Statistic::TimeOfMin, 0}, {Statistic::ValueAt, 0.25},
                                                                {Statistic::ValueAt, 2.0}}) {
    Output o;
    o.column = "x";
    o.statistic = s;
    o.time = at;
    outs.push_back(o);
  }
  OutputStatistics st(outs, {"y", "x"});
  // x = 3 − 2t on t = 0, 0.5, 1 (linear: the trapezoidal mean is exact, 2), then x = 1 at t = 1.5.
  const double t[] = {0, 0.5, 1, 1.5}, x[] = {3, 2, 1, 1};
  for (int k = 0; k < 4; ++k) st.add(t[k], std::vector<double>{0, x[k]});
  const auto v = st.values();
  CHECK(v[0] == 1);
  CHECK(v[1] == 3);
  CHECK(v[2] == 1);
  CHECK(v[3] == Approx((2.0 * 1 + 0.5 * 1) / 1.5));  // ∫ = 2 (t in [0, 1]) + 0.5
  // rms: trapezoids of x² = (9+4)/4 + (4+1)/4 + (1+1)/4 = 5, over 1.5 s.
  CHECK(v[4] == Approx(std::sqrt(5 / 1.5)));
  CHECK(v[5] == 0);
  CHECK(v[6] == 1);  // the first time of the minimum
  CHECK(v[7] == 2.5);
  CHECK(std::isnan(v[8]));  // after the last row
  CHECK_THROWS_WITH(OutputStatistics(outs, {"y"}), Catch::Contains("no sensor column 'x'"));
  OutputStatistics nan_rows(outs, {"x"});
  nan_rows.add(0, std::vector<double>{1});
  nan_rows.add(1, std::vector<double>{std::nan("")});
  for (double value : nan_rows.values()) CHECK(std::isnan(value));
}

TEST_CASE("Study: cases and results survive their byte forms") {
  Case c{17, {number_value(0.1), Value{"\"t < 0.5 ? 3 : 0\"", std::nan("")}}};
  const Case c2 = decode_case(encode(c));
  CHECK(c2.id == 17);
  CHECK(c2.values[0].number == 0.1);
  CHECK(c2.values[1].text == c.values[1].text);
  CaseResult r;
  r.id = 5;
  r.status = CaseStatus::Timeout;
  r.message = "time limit";
  r.outputs = {1.5, std::nan("")};
  r.t_reached = 0.25;
  const CaseResult r2 = decode_result(encode(r));
  CHECK(r2.status == CaseStatus::Timeout);
  CHECK(r2.outputs[0] == 1.5);
  CHECK(std::isnan(r2.outputs[1]));
  CHECK(r2.message == "time limit");
  std::string bad = encode(r);
  bad.pop_back();
  CHECK_THROWS_WITH(decode_result(bad), Catch::Contains("malformed"));
}

TEST_CASE("Study: the result table reads back, refuses another study, drops a row cut short") {
  const Study s = study_from("table", R"(
parameters:
  - {name: a, key: "bodies[1].mass", values: [1, 2, 3]}
)");
  const auto cases = s.cases();
  const fs::path path = fs::temp_directory_path() / "mbdae_test_study" / "table.csv";
  CaseResult r;
  r.outputs = {0.5};
  r.t_reached = 2;
  r.id = 2;
  r.status = CaseStatus::Failed;
  r.message = "Newton failure, at t = 1\nsecond line";
  std::ofstream(path) << table_header(s) << table_row(cases[2], r) << "0,1,0.";
  const TableContents t = read_table(path.string(), s, cases);
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0].id == 2);
  CHECK(t.rows[0].status == CaseStatus::Failed);
  CHECK(t.dropped == 1);
  const auto f = split_csv_line(t.rows[0].line.substr(0, t.rows[0].line.size() - 1));
  CHECK(f.back() == "Newton failure, at t = 1; second line");

  std::ofstream(path) << table_header(s) << "1,5,0.5,ok,2,0.1,\n";
  CHECK_THROWS_WITH(read_table(path.string(), s, cases),
                    Catch::Contains("table.csv:2: case 1: a is 5 in the table but 2 in the study"));
  std::ofstream(path) << "case,b,energy:final,status,t_reached,wall_time,message\n";
  CHECK_THROWS_WITH(read_table(path.string(), s, cases), Catch::Contains("header is not that of this study"));
}
