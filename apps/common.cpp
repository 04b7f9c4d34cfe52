#include <cstdio>
#include <sstream>

#include "commands.h"

namespace mbdae::cli {

std::optional<io::LoadedModel> load_model(const std::string& file, const std::vector<std::string>& sets) {
  try {
    std::vector<io::Override> overrides;
    for (const std::string& s : sets) overrides.push_back(io::parse_override(s));
    return io::load_model_file(file, overrides);
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    std::fprintf(stderr, "mbdae: %zu problem%s in %s\n", e.diagnostics().size(),
                 e.diagnostics().size() == 1 ? "" : "s", file.c_str());
    return std::nullopt;
  }
}

void print_located(const io::LoadedModel& m, const std::string& message, const std::string& prefix) {
  std::istringstream lines(message);
  std::string line;
  while (std::getline(lines, line)) {
    io::Diagnostic d = m.locate(line);
    d.message = prefix + line;
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
  }
}

}  // namespace mbdae::cli
