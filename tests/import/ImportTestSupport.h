#pragma once
/// @file ImportTestSupport.h
/// Test support shared by the import tests: a diagnostic at its line, and the sensors' values at
/// the end of a run of an imported model.

#include <map>
#include <span>
#include <string>
#include <vector>

#include <mbdae/io/Run.h>

namespace mbdae::testing {

/// True if `d` has a diagnostic at `line` for `element` whose message contains `text`.
inline bool has_diagnostic(const std::vector<io::Diagnostic>& d, int line, const std::string& element,
                           const std::string& text) {
  for (const io::Diagnostic& x : d)
    if (x.line == line && x.key_path == element && x.message.find(text) != std::string::npos) return true;
  return false;
}

/// Runs `m` to its end time; the last output row by column name.
inline std::map<std::string, double> final_row(const io::LoadedModel& m) {
  io::ModelRun run(m);
  std::vector<double> last;
  run.run([&](const StateView&, std::span<const double> row) {
    last.assign(row.begin(), row.end());
    return true;
  });
  std::map<std::string, double> out;
  const std::vector<std::string>& cols = run.sensors().columns();
  for (size_t i = 0; i < cols.size() && i < last.size(); ++i) out[cols[i]] = last[i];
  return out;
}

}  // namespace mbdae::testing
