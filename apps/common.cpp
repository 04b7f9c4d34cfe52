#include <cctype>
#include <cstdio>
#include <filesystem>
#include <new>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "commands.h"

#include <mbdae/io/FilePolicy.h>
#include <mbdae/model/math/Rotation.h>

#ifdef MBDAE_WITH_IMPORT
#include <mbdae/import/Import.h>
#endif

namespace mbdae::cli {

/// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o.push_back('\\');
      o.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      o += fmt::format("\\u{:04x}", c);
    } else {
      o.push_back(static_cast<char>(c));
    }
  }
  return o + "\"";
}

bool outputs_allowed(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  try {
    io::require_outputs(outputs, inputs);
  } catch (const io::OutputRefused& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return false;
  }
  return true;
}

bool is_robot_file(const std::string& file) {
  std::string e;
  const size_t dot = file.find_last_of('.');
  if (dot != std::string::npos && file.find('/', dot) == std::string::npos) e = file.substr(dot);
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e == ".urdf" || e == ".xml" || e == ".mjcf" || e == ".sdf";
}

std::optional<io::LoadedModel> load_model(const std::string& file, const std::vector<std::string>& sets) {
  try {
    std::vector<io::Override> overrides;
    for (const std::string& s : sets) overrides.push_back(io::parse_override(s));
    if (is_robot_file(file)) {
#ifdef MBDAE_WITH_IMPORT
      std::vector<io::Diagnostic> warnings;
      io::LoadedModel m = import::load_imported(file, overrides, warnings);
      for (const io::Diagnostic& d : warnings) std::fprintf(stderr, "warning: %s\n", d.to_string().c_str());
      if (!warnings.empty())
        std::fprintf(stderr, "mbdae: %zu element%s of %s not mapped (listed above; docs/import.md)\n", warnings.size(),
                     warnings.size() == 1 ? "" : "s", file.c_str());
      return m;
#else
      io::Diagnostic d;
      d.file = file;
      d.message = "this mbdae was built without import of robot descriptions (it needs liburdfdom-dev, libtinyxml2-dev and "
                  "libmujoco-dev; libsdformat-dev for SDFormat: scripts/setup)";
      throw io::LoadError({d});
#endif
    }
    return io::load_model_file(file, overrides);
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    std::fprintf(stderr, "mbdae: %zu problem%s in %s\n", e.diagnostics().size(),
                 e.diagnostics().size() == 1 ? "" : "s", file.c_str());
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    throw OutOfMemory("loading the model " + file +
                      (ec ? std::string() : " (" + std::to_string(size) + " bytes)"));
  }
}

std::string model_size(const io::LoadedModel& m) {
  const System& s = m.system;
  return std::to_string(s.bodies().size()) + " bodies, " + std::to_string(s.joints().size()) + " joints, " +
         std::to_string(s.forces().size()) + " force elements, " + std::to_string(s.contacts().size()) + " contacts";
}

void print_problem(const io::LoadedModel& m, const ModelProblem& p, const std::string& prefix) {
  io::Diagnostic d = m.locate(p);
  std::istringstream lines(p.message);
  std::string line;
  while (std::getline(lines, line)) {
    d.message = prefix + line;
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
  }
}

void print_setup_error(const io::LoadedModel& m, const std::exception& e) {
  if (const auto* me = dynamic_cast<const ModelError*>(&e)) {
    for (const ModelProblem& p : me->details()) print_problem(m, p);
  } else if (const auto* ie = dynamic_cast<const ItemError*>(&e)) {
    print_problem(m, {ie->what(), ie->item()});
  } else {
    print_problem(m, {e.what(), {}});
  }
}

void print_placement(const io::LoadedModel& m, bool bodies) {
  const std::vector<std::string> lines = describe(m.placement);
  for (size_t k = 0; k < lines.size(); ++k) fmt::print("{:<13}{}\n", k == 0 ? "placement" : "", lines[k]);
  if (!bodies) return;
  for (const PlacedBody& pb : m.placement.bodies) {
    const RigidBody& b = m.system.bodies()[static_cast<size_t>(pb.body)];
    const Vec3 r = math::so3_log(b.orientation);
    fmt::print("{:<13}{}: position [{:.9g}, {:.9g}, {:.9g}] m, rotation vector [{:.9g}, {:.9g}, {:.9g}] rad, "
               "velocity [{:.6g}, {:.6g}, {:.6g}] m/s, angular velocity [{:.6g}, {:.6g}, {:.6g}] rad/s\n",
               "", b.name, b.position.x(), b.position.y(), b.position.z(), r.x(), r.y(), r.z(), b.velocity.x(),
               b.velocity.y(), b.velocity.z(), b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z());
  }
}

}  // namespace mbdae::cli
