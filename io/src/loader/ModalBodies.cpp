/// @file ModalBodies.cpp
/// The `modal_bodies` section: modally reduced flexible bodies (model/ModalBody.h) from a
/// finite-element model's mass and stiffness matrices (Matrix Market files) and nodal
/// coordinates (a CSV file), with their reference frame's pose and twist; each becomes a body of
/// the System (its reference frame, which joints, loads and sensors take by name) and a ModalBody.

#include <cmath>
#include <filesystem>
#include <sstream>

#include "Loader.h"

#include <mbdae/io/FilePolicy.h>
#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae::io::loader {

namespace {

/// Splits the text into lines (without the line ends).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

}  // namespace

/// A Matrix Market file (coordinate format, real, general or symmetric; NIST's Matrix Market
/// exchange format) as a dense matrix. @throws std::runtime_error naming the file and the line.
MatX read_matrix_market(const std::string& path, const std::string& what) {
  const std::vector<std::string> L = lines_of(read_bounded(path, max_model_file_bytes, what));
  auto fail = [&](size_t line, const std::string& msg) {
    throw std::runtime_error(what + ", line " + std::to_string(line + 1) + ": " + msg);
  };
  if (L.empty()) throw std::runtime_error(what + " is empty");
  std::istringstream h(L[0]);
  std::string banner, object, format, field, symmetry;
  h >> banner >> object >> format >> field >> symmetry;
  for (std::string* s : {&object, &format, &field, &symmetry})
    for (char& c : *s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (banner != "%%MatrixMarket" || object != "matrix")
    fail(0, "expected the header '%%MatrixMarket matrix coordinate real symmetric' (or general)");
  if (format != "coordinate") fail(0, "only the coordinate format is read, got '" + format + "'");
  if (field != "real" && field != "double" && field != "integer") fail(0, "only real entries are read, got '" + field + "'");
  if (symmetry != "general" && symmetry != "symmetric")
    fail(0, "only general or symmetric matrices are read, got '" + symmetry + "'");
  size_t k = 1;
  while (k < L.size() && (blank(L[k]) || L[k][0] == '%')) ++k;
  if (k == L.size()) fail(k - 1, "missing the size line 'rows columns entries'");
  long rows = 0, cols = 0, nnz = 0;
  {
    std::istringstream s(L[k]);
    std::string extra;
    if (!(s >> rows >> cols >> nnz) || (s >> extra) || rows <= 0 || cols <= 0 || nnz < 0)
      fail(k, "expected 'rows columns entries' (positive whole numbers)");
    if (rows > 3000 || cols > 3000) fail(k, "at most 3000 rows and columns (the modes are computed densely)");
  }
  MatX A = MatX::Zero(rows, cols);
  long seen = 0;
  for (++k; k < L.size(); ++k) {
    if (blank(L[k]) || L[k][0] == '%') continue;
    std::istringstream s(L[k]);
    long i = 0, j = 0;
    double v = 0;
    std::string extra;
    if (!(s >> i >> j >> v) || (s >> extra)) fail(k, "expected 'row column value'");
    if (i < 1 || i > rows || j < 1 || j > cols)
      fail(k, "entry (" + std::to_string(i) + ", " + std::to_string(j) + ") outside the " + std::to_string(rows) +
                  " x " + std::to_string(cols) + " matrix");
    if (!std::isfinite(v)) fail(k, "the value is not finite");
    if (symmetry == "symmetric" && j > i) fail(k, "a symmetric file holds the lower triangle (row >= column)");
    if (++seen > nnz) fail(k, "more entries than the " + std::to_string(nnz) + " of the size line");
    A(i - 1, j - 1) += v;
    if (symmetry == "symmetric" && i != j) A(j - 1, i - 1) += v;
  }
  if (seen != nnz)
    throw std::runtime_error(what + ": " + std::to_string(seen) + " entries, the size line says " + std::to_string(nnz));
  return A;
}

/// Nodal coordinates: one node a line, "x, y, z" (commas or blanks), '#' starts a comment line.
std::vector<Vec3> read_node_file(const std::string& path, const std::string& what) {
  const std::vector<std::string> L = lines_of(read_bounded(path, max_model_file_bytes, what));
  std::vector<Vec3> nodes;
  for (size_t k = 0; k < L.size(); ++k) {
    if (blank(L[k]) || L[k].find_first_not_of(" \t") == L[k].find('#')) continue;
    std::string t = L[k];
    for (char& c : t)
      if (c == ',') c = ' ';
    std::istringstream s(t);
    Vec3 x;
    std::string extra;
    if (!(s >> x[0] >> x[1] >> x[2]) || (s >> extra) || !x.allFinite())
      throw std::runtime_error(what + ", line " + std::to_string(k + 1) + ": expected three numbers x, y, z (m)");
    nodes.push_back(x);
  }
  if (nodes.empty()) throw std::runtime_error(what + " has no nodes");
  return nodes;
}

void Loader::modal_bodies(const YAML::Node& n) {
  if (!section_list(n, "modal_bodies")) return;
  namespace fs = std::filesystem;
  const std::string folder = fs::path(file()).parent_path().empty() ? "." : fs::path(file()).parent_path().string();
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("modal_bodies", i);
    const size_t errors_before = problem_count();
    Map b(*this, n[i], path,
          {"name", "mass_matrix", "stiffness_matrix", "nodes", "dofs_per_node", "modes", "interface_node",
           "damping_ratio", "position", "orientation", "velocity", "angular_velocity", "modal_coordinates",
           "modal_velocities"});
    RigidBody body;
    body.name = "#modal" + std::to_string(i);
    const size_t bi = m_.system.bodies().size();
    bool ok = b.valid();
    if (ok) {
      if (const Entry* e = b.require("name")) {
        if (auto s = name(e->value, b.path("name"))) {
          if (*s == "ground") error(e->value, b.path("name"), "the name 'ground' is reserved for the fixed world body");
          else if (body_names_.count(*s)) error(e->value, b.path("name"), "duplicate body name '" + *s + "'");
          else body.name = *s;
        }
      }
    }
    m_.body_locations.push_back(location(n[i], path, body.name));
    if (body.name[0] != '#') body_names_[body.name] = bi;
    FeModel fe;
    ModalChoice choice;
    auto read_file = [&](const char* key, auto reader) {
      const Entry* e = b.require(key);
      if (!e) return false;
      const auto fname = string(e->value, b.path(key));
      if (!fname) return false;
      fs::path p(*fname);
      if (p.is_relative()) p = fs::path(file()).parent_path() / p;
      if (std::string why = input_refusal(p.string(), folder, *fname); !why.empty()) {
        error(e->value, b.path(key), std::string(key) + " file " + why);
        return false;
      }
      try {
        note_file_read(p.string());
        reader(p.string(), std::string(key) + " file '" + *fname + "'");
      } catch (const std::exception& ex) {
        error(e->value, b.path(key), ex.what());
        return false;
      }
      return true;
    };
    if (ok) {
      ok &= read_file("mass_matrix", [&](const std::string& p, const std::string& w) { fe.mass = read_matrix_market(p, w); });
      ok &= read_file("stiffness_matrix",
                      [&](const std::string& p, const std::string& w) { fe.stiffness = read_matrix_market(p, w); });
      ok &= read_file("nodes", [&](const std::string& p, const std::string& w) { fe.nodes = read_node_file(p, w); });
      if (const Entry* e = b.find("dofs_per_node")) {
        if (auto x = number(e->value, b.path("dofs_per_node"), any())) {
          if (*x != 3 && *x != 6) {
            error(e->value, b.path("dofs_per_node"), "expected 3 (translations) or 6 (translations, then rotations)");
            ok = false;
          } else {
            fe.dofs_per_node = static_cast<int>(*x);
          }
        } else {
          ok = false;
        }
      }
      if (const Entry* e = b.require("modes", "the number of elastic modes kept")) {
        auto x = number(e->value, b.path("modes"), {0, 500, false, false, "a whole number in [0, 500]"});
        if (x && *x == std::floor(*x)) choice.modes = static_cast<int>(*x);
        else {
          if (x) error(e->value, b.path("modes"), "expected a whole number, got " + fmt_num(*x));
          ok = false;
        }
      } else {
        ok = false;
      }
      if (const Entry* e = b.find("interface_node")) {
        auto x = number(e->value, b.path("interface_node"), non_negative());
        if (x && *x == std::floor(*x)) choice.interface_node = static_cast<int>(*x);
        else {
          if (x) error(e->value, b.path("interface_node"), "expected a node index (0-based), got " + fmt_num(*x));
          ok = false;
        }
      }
      if (const Entry* e = b.find("damping_ratio")) {
        if (e->value.IsSequence()) {
          for (size_t k = 0; k < e->value.size(); ++k) {
            if (auto x = number(e->value[k], index(b.path("damping_ratio"), k), non_negative())) choice.damping_ratio.push_back(*x);
            else ok = false;
          }
        } else if (auto x = number(e->value, b.path("damping_ratio"), non_negative())) {
          choice.damping_ratio.push_back(*x);
        } else {
          ok = false;
        }
      }
    }
    std::shared_ptr<ModalReduction> red;
    if (ok) {
      try {
        red = std::make_shared<ModalReduction>(reduce_modal(fe, choice));
      } catch (const std::exception& ex) {
        error(n[i], path, "modal body '" + body.name + "': " + ex.what());
      }
    }
    ModalBody mb;
    mb.name = body.name;
    mb.body = static_cast<int>(bi);
    if (red) {
      body.mass = red->mass;
      body.com = red->com;
      const Mat3& J = red->inertia;
      body.inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
      mb.q0 = VecX::Zero(red->n);
      mb.v0 = VecX::Zero(red->n);
      for (const char* key : {"modal_coordinates", "modal_velocities"}) {
        const Entry* e = b.find(key);
        if (!e) continue;
        VecX& x = std::string(key) == "modal_coordinates" ? mb.q0 : mb.v0;
        if (list(e->value, b.path(key), static_cast<size_t>(red->n), "one number per mode")) {
          for (size_t k = 0; k < static_cast<size_t>(red->n); ++k)
            if (auto v = number(e->value[k], index(b.path(key), k), any())) x[static_cast<Eigen::Index>(k)] = *v;
        }
      }
      mb.modes = red;
    }
    if (b.valid()) {
      if (const Entry* e = b.find("position")) {
        if (auto v = vec3(e->value, b.path("position"), coordinate())) body.position = *v;
      }
      if (const Entry* e = b.find("orientation")) {
        if (auto R = orientation(e->value, b.path("orientation"))) body.orientation = *R;
      }
      body_velocity_.resize(bi + 1);
      for (const char* k : {"velocity", "angular_velocity"})
        if (const Entry* e = b.find(k); e && !body_velocity_[bi]) body_velocity_[bi] = Placed{e->key_node.Mark(), b.path(k)};
      if (const Entry* e = b.find("velocity")) {
        if (auto v = vec3(e->value, b.path("velocity"))) body.velocity = *v;
      }
      if (const Entry* e = b.find("angular_velocity")) {
        if (auto v = vec3(e->value, b.path("angular_velocity"))) body.angular_velocity = *v;
      }
    }
    body_velocity_.resize(bi + 1);
    if (!red) {  // a placeholder body keeps the indices; the problems above stop the load
      body.mass = 1;
      body.inertia << 1, 1, 1, 0, 0, 0;
    }
    add_item(ItemRef::Kind::Body, m_.body_locations.back(), problem_count() != errors_before);
    m_.system.add_body(body);
    if (red) {
      m_.system.add_modal_body(std::move(mb));
      modal_marks_.emplace_back(n[i].Mark(), path);
    }
  }
}

void Loader::modal_body_checks() {
  if (m_.system.modal_bodies().empty()) return;
  // The momentum and kinetic-energy sensors sum rigid bodies' m v_C and J_C ω: of a modal body they
  // would give the rigid part only (the energy sensor takes the formulation's, modal terms included).
  for (size_t i = 0; i < m_.sensors.size() && i < m_.sensor_locations.size(); ++i) {
    const SensorOutput o = m_.sensors[i].output;
    if (o != SensorOutput::KineticEnergy && o != SensorOutput::PotentialEnergy && o != SensorOutput::LinearMomentum &&
        o != SensorOutput::AngularMomentum)
      continue;
    const SourceLocation& at = m_.sensor_locations[i];
    YAML::Mark mark;
    mark.line = at.line - 1;
    mark.column = at.column - 1;
    error(mark, at.key_path,
          "sensor '" + m_.sensors[i].name + "': this output sums the rigid bodies' inertia and leaves out the modal "
          "coordinates of modal body '" + m_.system.modal_bodies().front().name + "' (use output: energy)");
  }
  const SolverInfo& info = solver_info(m_.settings.solver);
  if (info.path == SolverPath::Implicit) return;
  const ModalBody& mb = m_.system.modal_bodies().front();
  error(modal_marks_.front().first, modal_marks_.front().second, "modal body '" + mb.name + "': solver " + std::string(to_string(m_.settings.solver)) +
                   " does not carry modal coordinates; modal bodies run on the implicit solvers (generalized_alpha, "
                   "ida, trapezoidal_index2)");
}

}  // namespace mbdae::io::loader
