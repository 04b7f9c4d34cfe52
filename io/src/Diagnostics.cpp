#include <mbdae/io/Diagnostics.h>

namespace mbdae::io {

std::string Diagnostic::to_string() const {
  std::string s = file.empty() ? "<model>" : file;
  s += ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  if (!key_path.empty()) s += key_path + ": ";
  return s + message;
}

namespace {
std::string join(const std::vector<Diagnostic>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "\n" : "") + d[i].to_string();
  return s;
}
}  // namespace

LoadError::LoadError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace mbdae::io
