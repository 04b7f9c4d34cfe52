#pragma once
/// @file Diagnostics.h
/// Problems found in a model file, each with its place: file, line, column and the path of the
/// key (`bodies[2].inertia`). A LoadError carries all problems of one file, so that a user sees
/// every mistake at once rather than one per run.

#include <stdexcept>
#include <string>
#include <vector>

namespace mbdae::io {

struct Diagnostic {
  std::string file;      ///< model file name as given (or "--set key=value" for an override)
  int line = 0;          ///< 1-based; 0 when unknown
  int column = 0;        ///< 1-based; 0 when unknown
  std::string key_path;  ///< e.g. "bodies[2].inertia"; empty for the whole file
  std::string message;   ///< what is wrong, with the expected and the actual value

  /// `FILE:LINE:COL: KEY: message` (KEY left out when empty, LINE:COL when unknown).
  std::string to_string() const;
};

/// Thrown by the model loader. what() is every diagnostic, one per line.
class LoadError : public std::runtime_error {
 public:
  explicit LoadError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace mbdae::io
