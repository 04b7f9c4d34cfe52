/// @file ModelLoader.cpp
/// The public entry points of the model loader (ModelLoader.h). The loader itself is in
/// io/src/loader/, one source file per section (loader/Loader.h).

#include <mbdae/io/ModelLoader.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <mbdae/io/Sensors.h>

#include "loader/Loader.h"

namespace mbdae::io {

const char* to_string(SensorOutput o) { return sensor_output_info(o).name; }

std::string LoadedModel::solver_name() const { return to_string(settings.solver); }

const SourceLocation* LoadedModel::find_location(const ItemRef& item) const {
  const std::vector<SourceLocation>* list = nullptr;
  switch (item.kind) {
    case ItemRef::Kind::None: return nullptr;
    case ItemRef::Kind::Body: list = &item_locations.bodies; break;
    case ItemRef::Kind::Joint: list = &item_locations.joints; break;
    case ItemRef::Kind::Load: list = &item_locations.loads; break;
    case ItemRef::Kind::Force: list = &item_locations.forces; break;
    case ItemRef::Kind::Contact: list = &item_locations.contacts; break;
    case ItemRef::Kind::Sensor: list = &item_locations.sensors; break;
    case ItemRef::Kind::Coupling: list = &item_locations.couplings; break;
    case ItemRef::Kind::Shaft: list = &item_locations.shafts; break;
    case ItemRef::Kind::ShaftForce: list = &item_locations.shaft_forces; break;
    case ItemRef::Kind::State: list = &item_locations.states; break;
  }
  if (!list || item.index < 0 || static_cast<size_t>(item.index) >= list->size()) return nullptr;
  return &(*list)[static_cast<size_t>(item.index)];
}

Diagnostic LoadedModel::locate(const ModelProblem& problem) const {
  Diagnostic d;
  d.file = file;
  d.message = problem.message;
  if (const SourceLocation* l = find_location(problem.item)) {
    d.file = l->file;
    d.line = l->line;
    d.column = l->column;
    d.key_path = l->key_path;
  }
  return d;
}

Override parse_override(const std::string& argument) {
  const size_t eq = argument.find('=');
  if (eq == std::string::npos || eq == 0) {
    Diagnostic d;
    d.file = "--set " + argument;
    d.line = 1;
    d.column = 1;
    d.message = "expected key=value (e.g. solver.type=ida)";
    throw LoadError({d});
  }
  return {argument.substr(0, eq), argument.substr(eq + 1)};
}

LoadedModel load_model_text(const std::string& text, const std::string& file_name,
                            const std::vector<Override>& overrides) {
  loader::Loader L(file_name, text);
  try {
    return L.load(overrides);
  } catch (const YAML::Exception& e) {
    // Not expected (the loader asks before it reads), but never let yaml-cpp end the program.
    Diagnostic d;
    d.file = file_name;
    d.line = e.mark.is_null() ? 0 : e.mark.line + 1;
    d.column = e.mark.is_null() ? 0 : e.mark.column + 1;
    d.message = std::string("cannot read the model: ") + e.what();
    throw LoadError({d});
  }
}

LoadedModel load_model_file(const std::string& path, const std::vector<Override>& overrides) {
  Diagnostic d;
  d.file = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    d.message = "is a directory; expected a model file (YAML or JSON)";
    throw LoadError({d});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    d.message = "cannot read the file (" + std::string(std::strerror(errno)) + ")";
    throw LoadError({d});
  }
  // Read at most the cap and one byte more: a device or a pipe without end (/dev/zero) is refused
  // after 64 MB, not read until memory runs out.
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= max_model_file_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<size_t>(in.gcount()));
  if (in.bad()) {
    d.message = "cannot read the file";
    throw LoadError({d});
  }
  if (text.size() > max_model_file_bytes) {
    d.message = "the file is larger than 64 MB (the largest model file read)";
    throw LoadError({d});
  }
  return load_model_text(text, path, overrides);
}

}  // namespace mbdae::io
