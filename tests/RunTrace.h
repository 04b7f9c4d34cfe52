#pragma once
/// For tests: run a loaded model (a model file's text) to its end time with its own solver and
/// sensors, keeping every output row; the run must succeed (REQUIRE, with its message).

#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Run.h>

namespace mbdae::test {

struct RunTrace {
  std::vector<std::string> columns;       ///< the sensors' columns (no time column)
  std::vector<double> t;                  ///< output times, s
  std::vector<std::vector<double>> rows;  ///< rows[i][k]: column k at t[i]
  /// Index of the column `name` (the test fails if there is none).
  int col(const std::string& name) const {
    for (size_t k = 0; k < columns.size(); ++k)
      if (columns[k] == name) return static_cast<int>(k);
    FAIL("no column " << name);
    return -1;
  }
  /// Column k at row i.
  double col(size_t i, size_t k) const { return rows[i][k]; }
};

inline RunTrace run_loaded(const io::LoadedModel& lm) {
  io::ModelRun r(lm);
  RunTrace tr;
  tr.columns = r.sensors().columns();
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    tr.t.push_back(s.t);
    tr.rows.emplace_back(row.begin(), row.end());
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return tr;
}

/// The model text `text` (named `file` in messages) with the overrides `sets`.
inline RunTrace run_text(const std::string& text, const std::string& file,
                         const std::vector<io::Override>& sets = {}) {
  return run_loaded(io::load_model_text(text, file, sets));
}

}  // namespace mbdae::test
