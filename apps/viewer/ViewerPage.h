#pragma once
/// @file ViewerPage.h
/// The 3D viewer's page: one self-contained HTML file that animates a run. It is the viewer
/// template (apps/viewer/: HTML, CSS, JavaScript, compiled in) with, inlined: three.js (Debian's
/// libjs-three, read at run time), the scene (results.scene.json), the poses (results.poses,
/// base64), the CSV columns and their units (results.meta.json). Nothing is loaded from the
/// network. Used by `mbdae view`, `mbdae run --animate` and the Python Result.animate().

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mbdae::viewer {

/// Debian's three.js (package libjs-three).
inline constexpr const char* kDefaultThreeJs = "/usr/share/javascript/three/three.min.js";

/// The three.js file to inline: `given` if not empty, else $MBDAE_THREE_JS if set, else Debian's.
std::string three_js_path(const std::string& given);

/// The text of three.js at `path`. @throws std::runtime_error saying how to get it if it cannot
/// be read.
std::string read_three_js(const std::string& path);

/// What a page shows.
struct PageSummary {
  long frames = 0;          ///< frames of the run's pose file
  std::uint32_t bodies = 0; ///< bodies in each frame
};

/// The page of the results `csv_path` (its .poses, .scene.json and optional .meta.json beside
/// it) and of `extra_poses` (pose files of the same bodies, e.g. mode shapes), titled `title`.
/// @throws std::runtime_error naming the file (and line, column) of what cannot be read or used.
std::string viewer_page(const std::string& csv_path, const std::vector<std::string>& extra_poses,
                        const std::string& three_js, const std::string& title, PageSummary* summary = nullptr);

/// Writes `page` to `path`. @throws std::runtime_error naming the file if it cannot be written.
void write_page(const std::string& path, const std::string& page);

}  // namespace mbdae::viewer
