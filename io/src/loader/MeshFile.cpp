// Mesh files for convex_mesh shapes (MeshFile.h).

#include "MeshFile.h"

#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/ModelLoader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace mbdae::io::loader {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

double parse_number(const std::string& tok, const std::string& where) {
  size_t used = 0;
  double x = 0;
  try {
    x = std::stod(tok, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != tok.size() || !std::isfinite(x)) throw std::runtime_error(where + ": a coordinate is not a finite number");
  return x;
}

MeshData read_obj(const std::string& path, std::istream& in) {
  MeshData m;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string where = path + ":" + std::to_string(lineno);
    std::istringstream ls(line);
    std::string tag;
    if (!(ls >> tag) || tag[0] == '#') continue;
    if (tag == "v") {
      std::string a, b, c;
      if (!(ls >> a >> b >> c)) throw std::runtime_error(where + ": a vertex needs 3 coordinates");
      m.vertices.emplace_back(parse_number(a, where), parse_number(b, where), parse_number(c, where));
    } else if (tag == "f") {
      std::vector<int> idx;
      for (std::string tok; ls >> tok;) {
        const std::string first = tok.substr(0, tok.find('/'));
        long k = 0;
        size_t used = 0;
        try {
          k = std::stol(first, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != first.size() || k == 0)
          throw std::runtime_error(where + ": a face names something that is not a vertex index");
        const long n = static_cast<long>(m.vertices.size());
        const long i = k > 0 ? k - 1 : n + k;  // negative: relative to the vertices so far
        if (i < 0 || i >= n)
          throw std::runtime_error(where + ": vertex index " + std::to_string(k) + " is out of range (" +
                                   std::to_string(n) + " vertices so far)");
        idx.push_back(static_cast<int>(i));
      }
      if (idx.size() < 3) throw std::runtime_error(where + ": a face needs at least 3 vertices");
      for (size_t k = 1; k + 1 < idx.size(); ++k) m.triangles.push_back({idx[0], idx[k], idx[k + 1]});
    }
    // Other records (vt, vn, o, g, s, usemtl, mtllib, l, ...) do not change the solid.
  }
  return m;
}

/// Adds a vertex, merging equal ones.
int add_vertex(MeshData& m, std::map<std::tuple<double, double, double>, int>& seen, const Vec3& v) {
  auto [it, fresh] = seen.emplace(std::make_tuple(v.x(), v.y(), v.z()), static_cast<int>(m.vertices.size()));
  if (fresh) m.vertices.push_back(v);
  return it->second;
}

MeshData read_stl(const std::string& path, const std::string& bytes) {
  MeshData m;
  std::map<std::tuple<double, double, double>, int> seen;
  // Binary if the size matches the triangle count (an ASCII file may also start with "solid").
  if (bytes.size() >= 84) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * static_cast<size_t>(count)) {
      for (std::uint32_t t = 0; t < count; ++t) {
        const char* rec = bytes.data() + 84 + 50 * static_cast<size_t>(t) + 12;  // after the normal
        std::array<int, 3> tri{};
        for (int k = 0; k < 3; ++k) {
          float xyz[3];
          std::memcpy(xyz, rec + 12 * k, 12);
          const Vec3 v(xyz[0], xyz[1], xyz[2]);
          if (!v.allFinite())
            throw std::runtime_error(path + ": triangle " + std::to_string(t) + " has a vertex that is not finite");
          tri[static_cast<size_t>(k)] = add_vertex(m, seen, v);
        }
        m.triangles.push_back(tri);
      }
      return m;
    }
  }
  std::istringstream in(bytes);
  std::string tok;
  if (!(in >> tok) || lower(tok) != "solid")
    throw std::runtime_error(path + ": neither a binary STL file (its size does not match its triangle count) "
                                    "nor an ASCII one (it does not start with 'solid')");
  std::array<int, 3> tri{};
  int k = 0;
  while (in >> tok) {
    if (lower(tok) != "vertex") continue;
    std::string a, b, c;
    if (!(in >> a >> b >> c)) throw std::runtime_error(path + ": a vertex needs 3 coordinates");
    const std::string where = path + ": vertex " + std::to_string(3 * m.triangles.size() + static_cast<size_t>(k) + 1);
    tri[static_cast<size_t>(k++)] =
        add_vertex(m, seen, Vec3(parse_number(a, where), parse_number(b, where), parse_number(c, where)));
    if (k == 3) {
      m.triangles.push_back(tri);
      k = 0;
    }
  }
  if (k != 0) throw std::runtime_error(path + ": the last facet has " + std::to_string(k) + " vertices, not 3");
  return m;
}

}  // namespace

MeshData read_mesh_file(const std::string& path) {
  const std::string ext = lower(path);
  const bool obj = ends_with(ext, ".obj"), stl = ends_with(ext, ".stl");
  if (!obj && !stl) throw std::runtime_error("'" + path + "': a mesh file is .obj (Wavefront) or .stl");
  // Bounded as a model file: a FIFO or device is refused, a larger file is not read.
  const std::string text = read_bounded(path, max_model_file_bytes, "the mesh file '" + path + "'");
  if (obj) {
    std::istringstream in(text);
    return read_obj(path, in);
  }
  return read_stl(path, text);
}

}  // namespace mbdae::io::loader
