// mbdae sensitivity: a run's sensor columns and their derivatives with respect to parameters
// (docs/sensitivities.md).

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/Sensitivity.h>

#include "commands.h"

namespace mbdae::cli {

int sensitivity_command(const SensitivityOptions& o) {
  namespace fs = std::filesystem;
  const auto wall_start = std::chrono::steady_clock::now();
  if (is_robot_file(o.model)) {
    std::fprintf(stderr, "mbdae: sensitivity: parameters are keys of a model file; write %s as one first "
                 "(mbdae import) and name its keys\n", o.model.c_str());
    return kBadInput;
  }
  // The model as the run reads it, for its messages and its files.
  std::optional<io::LoadedModel> model = load_model(o.model, o.sets);
  if (!model) return kBadInput;
  std::unique_ptr<io::SensitivityRun> run;
  try {
    std::vector<io::Override> overrides;
    for (const std::string& s : o.sets) overrides.push_back(io::parse_override(s));
    run = std::make_unique<io::SensitivityRun>(o.model, overrides, o.params);
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    return kBadInput;
  } catch (const SolverSettingsError& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    print_setup_error(*model, e);
    return kBadInput;
  }
  const io::LoadedModel& m = run->model();
  const std::string csv_path =
      o.output.empty() ? fs::path(m.file).stem().string() + ".sensitivity.csv" : o.output;
  if (!outputs_allowed({csv_path}, m.input_files)) return kBadInput;

  const std::vector<std::string>& columns = run->sensors().columns();
  const std::vector<io::SensitivityParameter>& params = run->parameters();
  std::vector<std::string> header{"time"};
  header.insert(header.end(), columns.begin(), columns.end());
  for (const io::SensitivityParameter& p : params)
    for (const std::string& c : columns) header.push_back("d(" + c + ")/d(" + p.key + ")");
  std::unique_ptr<io::CsvWriter> csv;
  try {
    const fs::path parent = fs::path(csv_path).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
    csv = std::make_unique<io::CsvWriter>(csv_path, header);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }
  std::vector<double> row(header.size());
  std::string write_error;
  const io::SensitivityObserver observer = [&](const StateView& s, std::span<const double> values,
                                               std::span<const double> d) {
    row[0] = s.t;
    std::copy(values.begin(), values.end(), row.begin() + 1);
    std::copy(d.begin(), d.end(), row.begin() + 1 + static_cast<long>(values.size()));
    try {
      csv->write_row(row);
    } catch (const std::exception& e) {
      write_error = e.what();
      return false;
    }
    return true;
  };
  const SolveResult res = run->run(observer);
  const long rows = csv->rows();
  csv.reset();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const SolverStats& st = res.stats;
  fmt::print("model        {} ({})\n", m.system.name.empty() ? "(no name)" : m.system.name, m.file);
  fmt::print("solver       {}\n", run->method_summary());
  for (const io::SensitivityParameter& p : params)
    fmt::print("parameter    {} = {:.10g} (difference step {:.3g})\n", p.key, p.value, p.delta);
  fmt::print("status       {} at t = {:g} s of {:g} s\n", to_string(res.status), res.t_reached, m.settings.t_end);
  fmt::print("steps        {} accepted, {} rejected; {} Newton iterations, {} Jacobians, {} factorizations\n",
             st.steps, st.rejected_steps, st.newton_iterations, st.jacobian_evaluations, st.factorizations);
  fmt::print("results      {} ({} rows, {} sensor columns, {} derivative columns)\n", csv_path, rows, columns.size(),
             columns.size() * params.size());
  fmt::print("wall time    {:.3f} s\n", wall);
  if (!write_error.empty()) {
    std::fprintf(stderr, "mbdae: %s\n", write_error.c_str());
    return kOtherError;
  }
  if (res.status == SolveStatus::Success) return kSuccess;
  std::fprintf(stderr, "mbdae: solver failure: %s\n", res.message.c_str());
  return kSolverFailure;
}

}  // namespace mbdae::cli
