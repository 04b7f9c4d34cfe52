/// @file Import.cpp
/// Which importer reads which file, and the load of an imported model (Import.h).

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <mbdae/import/Import.h>

namespace mbdae::import {
namespace {
std::string lower_extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}
}  // namespace

bool is_importable(const std::string& path) {
  const std::string e = lower_extension(path);
  return e == ".urdf" || e == ".xml" || e == ".mjcf" || e == ".sdf";
}

ImportResult import_file(const std::string& path, const ImportOptions& options) {
  io::Diagnostic d;
  d.file = path;
  if (!is_importable(path)) {
    d.message = "not a file mbdae imports (.urdf; .xml or .mjcf: MJCF; .sdf: SDFormat)";
    throw io::LoadError({d});
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    d.message = "is a directory; expected a URDF file";
    throw io::LoadError({d});
  }
  if (lower_extension(path) == ".sdf") {
#ifdef MBDAE_WITH_SDF
    return import_sdf_file(path, options);
#else
    d.message = "this mbdae was built without SDFormat import (it needs libsdformat-dev: scripts/setup)";
    throw io::LoadError({d});
#endif
  }
  if (lower_extension(path) != ".urdf") {
#ifdef MBDAE_WITH_MJCF
    return import_mjcf_file(path, options);
#else
    d.message = "this mbdae was built without MJCF import (it needs libmujoco-dev: scripts/setup)";
    throw io::LoadError({d});
#endif
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    d.message = "cannot read the file (" + std::string(std::strerror(errno)) + ")";
    throw io::LoadError({d});
  }
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= io::max_model_file_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<size_t>(in.gcount()));
  if (text.size() > io::max_model_file_bytes) {
    d.message = "the file is larger than 64 MB (the largest model file read)";
    throw io::LoadError({d});
  }
  return import_urdf_text(text, path, options);
}

io::LoadedModel load_imported(const std::string& path, const std::vector<io::Override>& overrides,
                              std::vector<io::Diagnostic>& warnings, const ImportOptions& options) {
  ImportResult r = import_file(path, options);
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  io::LoadedModel m = io::load_model_text(r.yaml, r.model_name, overrides);
  // The file read is the robot file, not the in-memory model's name beside it: an output of the
  // run must never replace it (io/FilePolicy.h).
  if (!m.input_files.empty() && m.input_files.front() == r.model_name) m.input_files.front() = path;
  else m.input_files.insert(m.input_files.begin(), path);
  return m;
}

}  // namespace mbdae::import
