// `mbdae view` and `mbdae run --animate`: one self-contained HTML page that animates a run in 3D.
//
// The page is the viewer template (apps/viewer/: HTML, CSS, JavaScript, compiled into this
// program) with, inlined: three.js read at run time from Debian's libjs-three (its path
// configurable), the scene (results.scene.json), the poses (results.poses, base64), the CSV
// columns and their units (results.meta.json). Nothing is loaded from the network.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/PoseRecorder.h>

#include "commands.h"
#include "viewer/ViewerPage.h"

namespace mbdae::cli {

namespace fs = std::filesystem;

int view_command(const ViewOptions& o) {
  const std::string who = "mbdae view";
  std::error_code ec;
  const std::string& csv_path = o.results;
  if (!fs::exists(csv_path, ec)) {
    std::fprintf(stderr, "%s: %s: no such file\n", who.c_str(), csv_path.c_str());
    return kBadInput;
  }
  const std::string poses_path = io::pose_path_for(csv_path), scene_path = io::scene_path_for(csv_path);
  std::string meta_path = fs::path(csv_path).replace_extension(".meta.json").string();
  for (const std::string& p : {poses_path, scene_path})
    if (!fs::exists(p, ec)) {
      std::fprintf(stderr,
                   "%s: %s: no such file (mbdae run writes it beside %s unless --no-poses is given; run the model "
                   "again)\n",
                   who.c_str(), p.c_str(), csv_path.c_str());
      return kBadInput;
    }

  const std::string three_path = viewer::three_js_path(o.three_js);
  std::string three;
  try {
    three = viewer::read_three_js(three_path);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kBadInput;
  }

  const std::string out_path = o.output.empty() ? fs::path(csv_path).replace_extension(".html").string() : o.output;
  {
    std::vector<std::string> inputs{csv_path, poses_path, scene_path, meta_path, three_path};
    inputs.insert(inputs.end(), o.extra_poses.begin(), o.extra_poses.end());
    try {
      io::require_outputs({out_path}, inputs);
    } catch (const io::OutputRefused& e) {
      std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
      return kBadInput;
    }
  }

  std::string page;
  viewer::PageSummary sum;
  try {
    page = viewer::viewer_page(csv_path, o.extra_poses, three, fs::path(csv_path).filename().string() + " — mbdae", &sum);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kBadInput;
  }
  try {
    viewer::write_page(out_path, page);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kOtherError;
  }
  if (!o.quiet)
    fmt::print("view         {} ({} frames of {} bod{}, {:.3g} MB; open it in a browser)\n", out_path, sum.frames,
               sum.bodies, sum.bodies == 1 ? "y" : "ies", static_cast<double>(page.size()) / 1e6);
  return kSuccess;
}

}  // namespace mbdae::cli
