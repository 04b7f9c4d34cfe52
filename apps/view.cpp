// `mbdae view` and `mbdae run --animate`: one self-contained HTML page that animates a run in 3D.
//
// The page is the viewer template (apps/viewer/: HTML, CSS, JavaScript, compiled into this
// program) with, inlined: three.js read at run time from Debian's libjs-three (its path
// configurable), the scene (results.scene.json), the poses (results.poses, base64), the CSV
// columns and their units (results.meta.json). Nothing is loaded from the network.

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <mbdae/io/PoseFile.h>
#include <mbdae/io/PoseRecorder.h>

#include "commands.h"
#include <mbdae/io/FilePolicy.h>

#include "viewer_assets.h"

namespace mbdae::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultThree = "/usr/share/javascript/three/three.min.js";

/// The whole file (a regular file of at most 1 GB), or nullopt if it cannot be read.
std::optional<std::string> slurp(const std::string& path) {
  try {
    return io::read_bounded(path, std::size_t{1} << 30, path);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

std::string base64(std::string_view bytes) {
  static constexpr char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned n = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    o += {k[n >> 18], k[(n >> 12) & 63], k[(n >> 6) & 63], k[n & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    o += {k[n >> 18], k[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned n = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8;
    o += {k[n >> 18], k[(n >> 12) & 63], k[(n >> 6) & 63], '='};
  }
  return o;
}

/// Text to put inside a <script> element: "</" cannot end it early. In JSON "</" occurs only in
/// strings, where "<\/" means the same; in JavaScript likewise in strings, regular expressions and
/// comments.
std::string script_safe(std::string s) {
  for (size_t p = s.find("</"); p != std::string::npos; p = s.find("</", p + 3)) s.insert(p + 1, "\\");
  return s;
}

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') o += {'\\', static_cast<char>(c)};
    else if (c < 0x20) o += fmt::format("\\u{:04x}", c);
    else o.push_back(static_cast<char>(c));
  }
  return o + "\"";
}

/// The CSV of mbdae run as JSON {"columns": [...], "data": [[column 0], [column 1], ...]}; "nan"
/// becomes null. Throws std::runtime_error naming the file, line and column of a bad cell.
std::string csv_json(const std::string& path, const std::string& text) {
  std::vector<std::string> names;
  std::vector<std::string> data;  // per column, the JSON text of its values
  size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::vector<std::string_view> cells;
    size_t a = 0;
    while (true) {
      const size_t b = line.find(',', a);
      cells.push_back(line.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
      if (b == std::string_view::npos) break;
      a = b + 1;
    }
    if (line_no == 1) {
      for (auto c : cells) {
        std::string n(c);
        if (n.size() >= 2 && n.front() == '"' && n.back() == '"') n = n.substr(1, n.size() - 2);
        names.push_back(n);
      }
      data.resize(names.size());
      continue;
    }
    if (cells.size() != names.size())
      throw std::runtime_error(fmt::format("{}:{}: {} values, the header has {} columns", path, line_no, cells.size(),
                                           names.size()));
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string& d = data[c];
      if (!d.empty()) d.push_back(',');
      if (cells[c] == "nan") {
        d += "null";
        continue;
      }
      double x = 0;
      const auto r = std::from_chars(cells[c].data(), cells[c].data() + cells[c].size(), x);
      if (r.ec != std::errc() || r.ptr != cells[c].data() + cells[c].size())
        throw std::runtime_error(fmt::format("{}:{}: column {} ('{}'): not a number: '{}'", path, line_no, c + 1,
                                             names[c], std::string(cells[c])));
      d.append(cells[c]);
    }
  }
  if (names.empty() || names[0] != "time")
    throw std::runtime_error(path + ": not a results CSV of mbdae run (its first column must be 'time')");
  std::string o = "{\"columns\":[";
  for (size_t c = 0; c < names.size(); ++c) o += (c ? "," : "") + json_string(names[c]);
  o += "],\"data\":[";
  for (size_t c = 0; c < data.size(); ++c) o += (c ? ",\n[" : "[") + data[c] + "]";
  return o + "]}";
}

/// Replaces the one occurrence of `marker` in `page`. Throws if it is missing (a broken template).
void fill(std::string& page, std::string_view marker, const std::string& text) {
  const size_t p = page.find(marker);
  if (p == std::string::npos) throw std::logic_error("viewer template: no " + std::string(marker));
  page.replace(p, marker.size(), text);
}

}  // namespace

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

  const char* env = std::getenv("MBDAE_THREE_JS");
  const std::string three_path = !o.three_js.empty() ? o.three_js : (env && *env) ? env : kDefaultThree;
  const auto three = slurp(three_path);
  if (!three) {
    std::fprintf(stderr,
                 "%s: cannot read three.js at %s (Debian's package libjs-three installs it: apt-get install "
                 "libjs-three; or give another copy with --three FILE or MBDAE_THREE_JS)\n",
                 who.c_str(), three_path.c_str());
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

  std::string page(reinterpret_cast<const char*>(kViewerHtml), sizeof kViewerHtml);
  try {
    const auto csv = slurp(csv_path);
    const auto scene = slurp(scene_path);
    if (!csv || !scene) throw std::runtime_error("cannot read " + (csv ? scene_path : csv_path));
    const std::string meta = slurp(meta_path).value_or("null");

    // Every pose file is checked here, so that a bad one is reported now and not in the browser.
    std::vector<std::string> pose_files{poses_path};
    pose_files.insert(pose_files.end(), o.extra_poses.begin(), o.extra_poses.end());
    std::string sets = "[";
    long frames = 0;
    std::uint32_t bodies = 0;
    for (size_t i = 0; i < pose_files.size(); ++i) {
      const io::PoseData d = io::read_pose_file(pose_files[i]);
      if (i == 0) {
        bodies = d.bodies;
        frames = static_cast<long>(d.times.size());
      } else if (d.bodies != bodies) {
        throw std::runtime_error(fmt::format("'{}': {} bodies, but {} has {}", pose_files[i], d.bodies, poses_path,
                                             bodies));
      }
      const auto bytes = slurp(pose_files[i]);
      if (!bytes) throw std::runtime_error("cannot read " + pose_files[i]);
      sets += (i ? ",\n\"" : "\"") + base64(*bytes) + "\"";
    }
    sets += "]";

    fill(page, "/*MBDAE:CSS*/", std::string(reinterpret_cast<const char*>(kViewerCss), sizeof kViewerCss));
    fill(page, "/*MBDAE:THREE*/", script_safe(*three));
    fill(page, "/*MBDAE:VIEWER*/", script_safe(std::string(reinterpret_cast<const char*>(kViewerJs), sizeof kViewerJs)));
    fill(page, "/*MBDAE:DATA*/",
         script_safe("{\"scene\":" + *scene + ",\n\"meta\":" + meta + ",\n\"csv\":" + csv_json(csv_path, *csv) +
                     ",\n\"poses\":" + sets + "}"));
    std::string title;
    for (char c : fs::path(csv_path).filename().string() + " — mbdae")
      title += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    fill(page, "MBDAE:TITLE", title);

    std::ofstream out(out_path, std::ios::binary);
    if (!out || !out.write(page.data(), static_cast<std::streamsize>(page.size())) || !out.flush()) {
      std::fprintf(stderr, "%s: cannot write '%s'\n", who.c_str(), out_path.c_str());
      return kOtherError;
    }
    if (!o.quiet)
      fmt::print("view         {} ({} frames of {} bod{}, {:.3g} MB; open it in a browser)\n", out_path, frames, bodies,
                 bodies == 1 ? "y" : "ies", static_cast<double>(page.size()) / 1e6);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kBadInput;
  }
  return kSuccess;
}

}  // namespace mbdae::cli
