// The viewer's page; see ViewerPage.h.

#include "ViewerPage.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/PoseFile.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/Scene.h>

#include "viewer_assets.h"

namespace mbdae::viewer {

namespace {

namespace fs = std::filesystem;

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
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
                               " values, the header has " + std::to_string(names.size()) + " columns");
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
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": column " + std::to_string(c + 1) + " ('" +
                                 names[c] + "'): not a number: '" + std::string(cells[c]) + "'");
      d.append(cells[c]);
    }
  }
  if (names.empty() || names[0] != "time")
    throw std::runtime_error(path + ": not a results CSV of mbdae run (its first column must be 'time')");
  std::string o = "{\"columns\":[";
  for (size_t c = 0; c < names.size(); ++c) o += (c ? "," : "") + io::json_quoted(names[c]);
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

std::string three_js_path(const std::string& given) {
  const char* env = std::getenv("MBDAE_THREE_JS");
  return !given.empty() ? given : (env && *env) ? env : kDefaultThreeJs;
}

std::string read_three_js(const std::string& path) {
  const auto three = slurp(path);
  if (!three)
    throw std::runtime_error("cannot read three.js at " + path +
                             " (Debian's package libjs-three installs it: apt-get install libjs-three; or give another "
                             "copy with --three FILE or MBDAE_THREE_JS)");
  return *three;
}

std::string viewer_page(const std::string& csv_path, const std::vector<std::string>& extra_poses,
                        const std::string& three_js, const std::string& title, PageSummary* summary) {
  const std::string poses_path = io::pose_path_for(csv_path), scene_path = io::scene_path_for(csv_path);
  const std::string meta_path = fs::path(csv_path).replace_extension(".meta.json").string();
  std::string page(reinterpret_cast<const char*>(kViewerHtml), sizeof kViewerHtml);
  const auto csv = slurp(csv_path);
  const auto scene = slurp(scene_path);
  if (!csv || !scene) throw std::runtime_error("cannot read " + (csv ? scene_path : csv_path));
  const std::string meta = slurp(meta_path).value_or("null");

  // Every pose file is checked here, so that a bad one is reported now and not in the browser.
  std::vector<std::string> pose_files{poses_path};
  pose_files.insert(pose_files.end(), extra_poses.begin(), extra_poses.end());
  std::string sets = "[";
  PageSummary sum;
  for (size_t i = 0; i < pose_files.size(); ++i) {
    const io::PoseData d = io::read_pose_file(pose_files[i]);
    if (i == 0) {
      sum.bodies = d.bodies;
      sum.frames = static_cast<long>(d.times.size());
    } else if (d.bodies != sum.bodies) {
      throw std::runtime_error("'" + pose_files[i] + "': " + std::to_string(d.bodies) + " bodies, but " + poses_path +
                               " has " + std::to_string(sum.bodies));
    }
    const auto bytes = slurp(pose_files[i]);
    if (!bytes) throw std::runtime_error("cannot read " + pose_files[i]);
    sets += (i ? ",\n\"" : "\"") + base64(*bytes) + "\"";
  }
  sets += "]";

  fill(page, "/*MBDAE:CSS*/", std::string(reinterpret_cast<const char*>(kViewerCss), sizeof kViewerCss));
  fill(page, "/*MBDAE:THREE*/", script_safe(three_js));
  fill(page, "/*MBDAE:VIEWER*/", script_safe(std::string(reinterpret_cast<const char*>(kViewerJs), sizeof kViewerJs)));
  fill(page, "/*MBDAE:DATA*/",
       script_safe("{\"scene\":" + *scene + ",\n\"meta\":" + meta + ",\n\"csv\":" + csv_json(csv_path, *csv) +
                   ",\n\"poses\":" + sets + "}"));
  std::string escaped;
  for (char c : title) escaped += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  fill(page, "MBDAE:TITLE", escaped);
  if (summary) *summary = sum;
  return page;
}

void write_page(const std::string& path, const std::string& page) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !out.write(page.data(), static_cast<std::streamsize>(page.size())) || !out.flush())
    throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace mbdae::viewer
