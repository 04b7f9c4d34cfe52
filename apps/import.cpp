// `mbdae import ROBOT.urdf -o model.yaml`: the model file equivalent to a robot description
// (docs/import.md). Elements that are not mapped are listed as warnings (errors with --strict).

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "commands.h"

#ifdef MBDAE_WITH_IMPORT
#include <mbdae/import/Import.h>
#endif

namespace mbdae::cli {

int import_command(const ImportOptions& o) {
#ifdef MBDAE_WITH_IMPORT
  namespace fs = std::filesystem;
  std::error_code ec;
  // A model file is written through a temporary file and a rename: never onto a device, a FIFO, a
  // symbolic link or the robot file it is made from (io/FilePolicy.h).
  const std::string tmp = o.output + ".tmp";
  if (!outputs_allowed({o.output, tmp}, {o.input})) return kBadInput;
  import::ImportOptions opt;
  opt.strict = o.strict;
  opt.collision = o.collision;
  opt.limit_stiffness = o.limit_stiffness;
  opt.limit_damping = o.limit_damping;
  opt.end_time = o.end_time;
  opt.base_dir = fs::absolute(o.output, ec).parent_path().string();
  import::ImportResult r;
  try {
    r = import::import_file(o.input, opt);
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    std::fprintf(stderr, "mbdae import: %zu problem%s in %s\n", e.diagnostics().size(),
                 e.diagnostics().size() == 1 ? "" : "s", o.input.c_str());
    return kBadInput;
  }
  for (const io::Diagnostic& d : r.warnings) std::fprintf(stderr, "warning: %s\n", d.to_string().c_str());
  // The model written must load: check it before it replaces anything.
  try {
    (void)io::load_model_text(r.yaml, (fs::path(opt.base_dir) / fs::path(o.output).filename()).string());
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    std::fprintf(stderr, "mbdae import: the model written from %s does not load (above)\n", o.input.c_str());
    return kBadInput;
  }
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << r.yaml;
    out.flush();
    if (!out) {
      std::fprintf(stderr, "mbdae import: cannot write '%s': %s\n", tmp.c_str(), std::strerror(errno));
      return kOtherError;
    }
  }
  fs::rename(tmp, o.output, ec);
  if (ec) {
    std::fprintf(stderr, "mbdae import: cannot rename '%s' to '%s': %s\n", tmp.c_str(), o.output.c_str(),
                 ec.message().c_str());
    return kOtherError;
  }
  std::printf("wrote %s (%zu element%s not mapped%s)\n", o.output.c_str(), r.warnings.size(),
              r.warnings.size() == 1 ? "" : "s", r.warnings.empty() ? "" : ", listed above");
  return kSuccess;
#else
  std::fprintf(stderr,
               "mbdae import: this mbdae was built without URDF import (it needs liburdfdom-dev and "
               "libtinyxml2-dev: scripts/setup) — cannot read %s\n",
               o.input.c_str());
  return kBadInput;
#endif
}

}  // namespace mbdae::cli
