// Restart files; the format is in StateFile.h and docs/results-format.md.

#include <mbdae/io/StateFile.h>
#include <mbdae/io/FilePolicy.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mbdae::io {

namespace {

std::string hex(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%a", x);
  return b;
}

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o.push_back('\\');
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o.push_back(c);
  }
  return o + "\"";
}

void put_array(std::ostream& out, const std::string& name, const double* x, std::size_t n) {
  out << "array " << name << ' ' << n;
  for (std::size_t i = 0; i < n; ++i) out << ' ' << hex(x[i]);
  out << '\n';
}

}  // namespace

void write_state_file(const std::string& path, const RunState& s) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write the state file " + path);
  out << "mbdae-state " << kStateFileVersion << "\n"
      << "# The state of a run, for mbdae run --restart (numbers in hexadecimal floating point, exact).\n"
      << "model " << quoted(s.model) << "\n"
      << "solver " << s.solver << "\n"
      << "coordinates " << s.coordinates << " constraints " << s.constraints << " bodies " << s.bodies << "\n"
      << "time " << hex(s.t) << "  # " << s.t << " s\n";
  put_array(out, "state.q", s.q.data(), static_cast<std::size_t>(s.q.size()));
  put_array(out, "state.v", s.v.data(), static_cast<std::size_t>(s.v.size()));
  put_array(out, "state.a", s.a.data(), static_cast<std::size_t>(s.a.size()));
  put_array(out, "state.lambda", s.lambda.data(), static_cast<std::size_t>(s.lambda.size()));
  for (const auto& [name, x] : s.history.arrays) put_array(out, name, x.data(), x.size());
  put_array(out, "sensors.memory", s.sensor_memory.data(), s.sensor_memory.size());
  out << "end\n";
  out.flush();
  if (!out) throw std::runtime_error("cannot write the state file " + path);
}

RunState read_state_file(const std::string& path) {
  // Bounded: a FIFO or device (/dev/zero) is refused, a file larger than the bound is not read.
  std::istringstream in(read_bounded(path, kMaxStateFileBytes, "the state file " + path));
  RunState s;
  std::string line;
  int lineno = 0;
  bool header = false, ended = false;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(lineno) + ": " + why);
  };
  auto number = [&](const std::string& tok) {
    char* end = nullptr;
    const double x = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end) fail("a value that is not a number");
    return x;
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (const auto h = line.find('#'); h != std::string::npos && line.rfind("model ", 0) != 0) line.resize(h);
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key)) continue;
    if (!header) {
      int version = 0;
      if (key != "mbdae-state" || !(ls >> version)) fail("not an mbdae state file (expected 'mbdae-state 1')");
      if (version != kStateFileVersion)
        fail("state file version " + std::to_string(version) + ", this mbdae reads version " +
             std::to_string(kStateFileVersion));
      header = true;
      continue;
    }
    if (key == "model") {
      std::string rest;
      std::getline(ls, rest);
      const auto a = rest.find('"'), b = rest.rfind('"');
      if (a == std::string::npos || b == a) fail("model: expected a quoted name");
      for (std::size_t i = a + 1; i < b; ++i) {
        if (rest[i] == '\\' && i + 1 < b) {
          ++i;
          s.model.push_back(rest[i] == 'n' ? '\n' : rest[i]);
        } else {
          s.model.push_back(rest[i]);
        }
      }
    } else if (key == "solver") {
      ls >> s.solver;
    } else if (key == "coordinates") {
      std::string k2, k3;
      if (!(ls >> s.coordinates >> k2 >> s.constraints >> k3 >> s.bodies) || k2 != "constraints" || k3 != "bodies")
        fail("expected 'coordinates N constraints M bodies B'");
    } else if (key == "time") {
      std::string tok;
      ls >> tok;
      s.t = number(tok);
    } else if (key == "array") {
      std::string name;
      long count = -1;
      if (!(ls >> name >> count) || count < 0) fail("expected 'array NAME COUNT VALUES…'");
      // Each value takes at least two characters of its line: a larger count is wrong, not reserved.
      if (static_cast<unsigned long>(count) > line.size() / 2)
        fail("array " + name + ": a count of " + std::to_string(count) + " values on a line of " +
             std::to_string(line.size()) + " characters");
      std::vector<double> x;
      x.reserve(static_cast<std::size_t>(count));
      std::string tok;
      while (ls >> tok) x.push_back(number(tok));
      if (static_cast<long>(x.size()) != count)
        fail("array " + name + ": " + std::to_string(x.size()) + " values, expected " + std::to_string(count));
      auto as_vec = [&](VecX& v) { v = Eigen::Map<const VecX>(x.data(), static_cast<Eigen::Index>(x.size())); };
      if (name == "state.q") as_vec(s.q);
      else if (name == "state.v") as_vec(s.v);
      else if (name == "state.a") as_vec(s.a);
      else if (name == "state.lambda") as_vec(s.lambda);
      else if (name == "sensors.memory") s.sensor_memory = x;
      else s.history.arrays.emplace_back(name, std::move(x));
    } else if (key == "end") {
      ended = true;
      break;
    } else {
      fail("unknown item (expected model, solver, coordinates, time, array or end)");
    }
  }
  if (!header) throw std::runtime_error(path + ": empty, not an mbdae state file");
  if (!ended) throw std::runtime_error(path + ": the file ends before 'end' (cut off while it was written?)");
  if (s.q.size() != s.coordinates)
    throw std::runtime_error(path + ": state.q must have " + std::to_string(s.coordinates) + " values");
  return s;
}

}  // namespace mbdae::io
