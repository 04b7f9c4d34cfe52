#include <mbdae/io/Diagnostics.h>

namespace mbdae::io {

std::string Diagnostic::to_string() const {
  std::string s = file.empty() ? std::string("<model>") : file;
  if (line > 0) {
    s.push_back(':');
    s.append(std::to_string(line));
    s.push_back(':');
    s.append(std::to_string(column > 0 ? column : 1));
  }
  s.append(": ");
  if (!key_path.empty()) {
    s.append(key_path);
    s.append(": ");
  }
  s.append(message);
  return s;
}

namespace {
std::string join(const std::vector<Diagnostic>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s.push_back('\n');
    s.append(d[i].to_string());
  }
  return s;
}
}  // namespace

LoadError::LoadError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace mbdae::io
