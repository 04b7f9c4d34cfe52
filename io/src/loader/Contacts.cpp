/// @file Contacts.cpp
/// The `contacts` section (shapes on bodies, their material and penalty parameters) and the
/// model-wide `contact_penalty`.

#include "Loader.h"

#include <mbdae/io/FilePolicy.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "MeshFile.h"

#include <mbdae/model/Contact.h>

namespace mbdae::io::loader {

void Loader::contacts(const YAML::Node& n) {
  if (!section_list(n, "contacts")) return;
  const std::vector<std::string> types = {"sphere", "box", "capsule", "cylinder", "plane", "sphere_plane",
                                          "convex_mesh"};
  std::set<std::string> names;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("contacts", i);
    Map c(*this, n[i], path,
          {"name", "type", "body", "radius", "size", "length", "position", "orientation", "normal", "point",
           "offset", "plane", "file", "scale", "convex_hull", "friction", "restitution", "rolling_resistance",
           "torsional_friction", "penalty"});
    if (!c.valid()) continue;
    contacts_.push_back({n[i].Mark(), path});
    bool ok = true;
    Contact k;
    k.name = path;
    if (const Entry* e = c.find("name")) {
      if (auto s = name(e->value, c.path("name"))) {
        if (!names.insert(*s).second) error(e->value, c.path("name"), "duplicate contact name '" + *s + "'");
        k.name = *s;
      }
    }
    std::optional<std::string> type;
    if (const Entry* e = c.require("type", "sphere, box, capsule, cylinder, plane, sphere_plane or convex_mesh"))
      type = choice(e->value, c.path("type"), types, {"mesh"}, "contact type");
    if (!type) continue;
    const std::string& t = *type;
    std::vector<std::string> applies = {"name",        "type",     "friction", "restitution", "rolling_resistance",
                                        "torsional_friction", "penalty"};
    if (t == "sphere") applies.insert(applies.end(), {"body", "radius", "position"});
    if (t == "box") applies.insert(applies.end(), {"body", "size", "position", "orientation"});
    if (t == "capsule" || t == "cylinder")
      applies.insert(applies.end(), {"body", "radius", "length", "position", "orientation"});
    if (t == "plane") applies.insert(applies.end(), {"body", "normal", "point", "offset"});
    if (t == "sphere_plane") applies.insert(applies.end(), {"body", "radius", "position", "plane"});
    if (t == "convex_mesh")
      applies.insert(applies.end(), {"body", "file", "scale", "convex_hull", "position", "orientation"});
    for (const char* key : {"body", "radius", "size", "length", "position", "orientation", "normal", "point", "offset",
                            "plane", "file", "scale", "convex_hull"})
      if (const Entry* e = c.find(key); e && std::find(applies.begin(), applies.end(), key) == applies.end()) {
        error(e->key_node, c.path(key), "key '" + std::string(key) + "' does not apply to a " + t + " contact");
        ok = false;
      }
    // Body (a plane is on ground unless it names a body).
    if (t == "plane" && !c.has("body")) {
      k.body = "ground";
    } else if (const Entry* e = c.require("body")) {
      if (auto s = string(e->value, c.path("body"))) {
        if (*s != "ground" && !body_names_.count(*s)) {
          error(e->value, c.path("body"), unknown_name("body", *s, body_list()));
          ok = false;
        }
        k.body = *s;
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    // Material.
    if (const Entry* e = c.find("friction")) {
      if (auto x = number(e->value, c.path("friction"), non_negative())) k.friction = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("restitution")) {
      if (auto x = number(e->value, c.path("restitution"), {0, 1, false, false, "in [0, 1]"})) k.restitution = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("rolling_resistance")) {
      if (auto x = number(e->value, c.path("rolling_resistance"), non_negative())) k.rolling_resistance = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("torsional_friction")) {
      if (auto x = number(e->value, c.path("torsional_friction"), non_negative())) k.torsional_friction = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("penalty")) {
      if (auto pp = penalty(e->value, c.path("penalty"))) k.penalty = *pp;
      else ok = false;
    }
    // Geometry.
    auto req_number = [&](const char* key, double& out, const Range& r, const char* what) {
      if (const Entry* e = c.require(key, what)) {
        if (auto x = number(e->value, c.path(key), r)) out = *x;
        else ok = false;
      } else {
        ok = false;
      }
    };
    if (const Entry* e = c.find("position")) {
      if (auto v = vec3(e->value, c.path("position"), coordinate())) k.position = *v;
      else ok = false;
    }
    if (const Entry* e = c.find("orientation")) {
      if (auto R = orientation(e->value, c.path("orientation"))) k.orientation = *R;
      else ok = false;
    }
    // A plane from normal and point (or offset), world.
    auto plane = [&](Map& pm, Contact& pl) {
      if (const Entry* e = pm.require("normal", "outward, world")) {
        if (auto v = nonzero_vec3(e->value, pm.path("normal"))) pl.normal = v->normalized();
        else ok = false;
      } else {
        ok = false;
      }
      if (pm.has("point") && pm.has("offset")) {
        error(pm.find("offset")->key_node, pm.path("offset"), "give point or offset, not both");
        ok = false;
      } else if (const Entry* e = pm.find("point")) {
        if (auto v = vec3(e->value, pm.path("point"), coordinate())) pl.offset = pl.normal.dot(*v);
        else ok = false;
      } else if (const Entry* e = pm.find("offset")) {
        if (auto x = number(e->value, pm.path("offset"), coordinate())) pl.offset = *x;
        else ok = false;
      }
    };
    std::optional<Contact> extra_plane;
    if (t == "sphere" || t == "sphere_plane") {
      k.shape = ShapeType::Sphere;
      req_number("radius", k.radius, positive(), "m");
    } else if (t == "box") {
      k.shape = ShapeType::Box;
      if (const Entry* e = c.require("size", "[lx, ly, lz], full lengths, m")) {
        if (auto v = vec3(e->value, c.path("size"), positive())) k.half_extents = *v / 2;
        else ok = false;
      } else {
        ok = false;
      }
    } else if (t == "capsule") {
      k.shape = ShapeType::Capsule;
      req_number("radius", k.radius, positive(), "m");
      double len = 0;
      req_number("length", len, non_negative(), "m, between the two cap centres, along the shape's z axis");
      k.half_length = len / 2;
    } else if (t == "cylinder") {
      k.shape = ShapeType::Cylinder;
      req_number("radius", k.radius, positive(), "m");
      double len = 0;
      req_number("length", len, positive(), "m, along the shape's z axis");
      k.half_length = len / 2;
    } else if (t == "plane") {
      k.shape = ShapeType::Plane;
      plane(c, k);
    } else if (t == "convex_mesh") {
      k.shape = ShapeType::ConvexMesh;
      k.hull = convex_mesh(c);
      if (k.hull) k.mesh_file = c.find("file")->value.as<std::string>();
      else ok = false;
    }
    if (t == "sphere_plane") {
      Contact pl;
      pl.name = k.name + ".plane";
      pl.shape = ShapeType::Plane;
      pl.body = "ground";
      pl.friction = k.friction;
      pl.restitution = k.restitution;
      pl.rolling_resistance = k.rolling_resistance;
      pl.torsional_friction = k.torsional_friction;
      if (const Entry* e = c.require("plane", "{point: [x, y, z], normal: [x, y, z]}, world")) {
        Map pm(*this, e->value, c.path("plane"), {"point", "normal", "offset"});
        if (pm.valid()) plane(pm, pl);
        else ok = false;
      } else {
        ok = false;
      }
      extra_plane = pl;
    }
    if (!ok) continue;
    for (const std::string& p : contact_problems(k)) error(n[i], path, p);
    const SourceLocation where = location(n[i], path, k.name);
    add_item(ItemRef::Kind::Contact, where, false);
    m_.system.add_contact(k);
    contact_items_.push_back({n[i].Mark(), path});
    if (extra_plane) {
      // One plane for every sphere_plane item on the same plane with the same material.
      // The material of a pair combines both shapes, so a shared plane must have the same one.
      const Contact* same = nullptr;
      for (const Contact& o : m_.system.contacts())
        if (o.shape == ShapeType::Plane && (o.normal - extra_plane->normal).norm() < 1e-12 &&
            std::abs(o.offset - extra_plane->offset) < 1e-12)
          same = &o;
      if (!same) {
        add_item(ItemRef::Kind::Contact, where, false);
        m_.system.add_contact(*extra_plane);
        contact_items_.push_back({n[i].Mark(), path});
      } else if (same->friction != extra_plane->friction || same->restitution != extra_plane->restitution ||
               same->rolling_resistance != extra_plane->rolling_resistance ||
               same->torsional_friction != extra_plane->torsional_friction)
        error(n[i], path, "the plane is also contact '" + same->name + "' with another friction, restitution, "
                          "rolling_resistance or torsional_friction; a pair's material combines both shapes, so give one material per "
                          "plane (or use type: sphere and type: plane items)");
    }
  }
}

std::shared_ptr<const ConvexHull> Loader::convex_mesh(Map& m) {
  const Entry* fe = m.require("file", "an OBJ or STL file, relative to the model file");
  if (!fe) return nullptr;
  const auto name = string(fe->value, m.path("file"));
  if (!name) return nullptr;
  Vec3 scale = Vec3::Ones();
  if (const Entry* e = m.find("scale")) {
    if (e->value.IsScalar()) {
      const auto x = number(e->value, m.path("scale"), positive());
      if (!x) return nullptr;
      scale = Vec3::Constant(*x);
    } else {
      const auto v = vec3(e->value, m.path("scale"), positive());
      if (!v) return nullptr;
      scale = *v;
    }
  }
  bool take_hull = false;
  if (const Entry* e = m.find("convex_hull")) {
    const auto f = flag(e->value, m.path("convex_hull"));
    if (!f) return nullptr;
    take_hull = *f;
  }
  namespace fs = std::filesystem;
  fs::path p(*name);
  if (p.is_relative()) p = fs::path(file()).parent_path() / p;
  char key[512];
  std::snprintf(key, sizeof key, " %.17g %.17g %.17g %d", scale.x(), scale.y(), scale.z(), take_hull ? 1 : 0);
  const std::string cache_key = p.lexically_normal().string() + key;
  if (auto it = meshes_.find(cache_key); it != meshes_.end()) return it->second;
  if (std::string why = input_refusal(p.string(), fs::path(file()).parent_path().empty() ? "." : fs::path(file()).parent_path().string(), *name);
      !why.empty()) {
    error(fe->value, m.path("file"), "mesh file " + why);
    return nullptr;
  }
  MeshData mesh;
  try {
    note_file_read(p.string());
    mesh = read_mesh_file(p.string());
  } catch (const std::exception& ex) {
    error(fe->value, m.path("file"), ex.what());
    return nullptr;
  }
  for (Vec3& v : mesh.vertices) v = v.cwiseProduct(scale);
  ConvexHull hull;
  try {
    hull = convex_hull(mesh.vertices);
  } catch (const std::invalid_argument& ex) {
    error(fe->value, m.path("file"), "mesh '" + *name + "': " + ex.what());
    return nullptr;
  }
  // Convex if every vertex is on the hull and the closed mesh has the hull's volume (a fold
  // between vertices that are all on the hull shows in the volume).
  double size = 0;
  for (const Vec3& v : hull.vertices)
    for (const Vec3& w : hull.vertices) size = std::max(size, (v - w).norm());
  double inside = 0;
  int deepest = -1;
  for (size_t i = 0; i < mesh.vertices.size(); ++i) {
    double s = -1e300;
    for (int f = 0; f < hull.num_faces(); ++f)
      s = std::max(s, hull.face_normals[static_cast<size_t>(f)].dot(mesh.vertices[i]) - hull.face_offsets[static_cast<size_t>(f)]);
    if (-s > inside) inside = -s, deepest = static_cast<int>(i);
  }
  const double v_hull = mass_properties(hull).volume;
  const double v_mesh = mesh.triangles.empty() ? v_hull : std::abs(mesh_volume(mesh.vertices, mesh.triangles));
  const bool convex = inside <= 1e-6 * size && std::abs(v_mesh - v_hull) <= 1e-6 * v_hull;
  if (!convex && !take_hull) {
    char text[512];
    if (inside > 1e-6 * size)
      std::snprintf(text, sizeof text, "vertex %d lies %.3g m inside its convex hull", deepest + 1, inside);
    else
      std::snprintf(text, sizeof text, "its triangles enclose %.4g m^3, its convex hull %.4g m^3", v_mesh, v_hull);
    error(fe->value, m.path("file"),
          "mesh '" + *name + "' is not convex (" + text +
              "); give convex_hull: true to use its convex hull, or split it into convex parts");
    return nullptr;
  }
  auto shared = std::make_shared<const ConvexHull>(std::move(hull));
  meshes_.emplace(cache_key, shared);
  return shared;
}

void Loader::contact_material(const YAML::Node& n) {
  Map m(*this, n, "contact_material", {"friction", "restitution"});
  if (!m.valid()) return;
  const std::vector<std::string> rules = {"geometric_mean", "mean", "min", "max"};
  auto rule = [&](const char* key, CombineRule& out) {
    if (const Entry* e = m.find(key)) {
      if (auto r = choice(e->value, m.path(key), rules, {}, "combination rule")) {
        if (*r == "geometric_mean") out = CombineRule::GeometricMean;
        else if (*r == "mean") out = CombineRule::Mean;
        else if (*r == "min") out = CombineRule::Min;
        else out = CombineRule::Max;
      }
    }
  };
  rule("friction", m_.system.contact_friction_rule);
  rule("restitution", m_.system.contact_restitution_rule);
}

std::optional<PenaltyParameters> Loader::penalty(const YAML::Node& n, const std::string& path) {
  Map pm(*this, n, path,
         {"law", "stiffness", "damping", "tensile", "exponent", "damping_factor", "impact_velocity",
          "friction_velocity", "friction_angular_velocity"});
  if (!pm.valid()) return std::nullopt;
  bool ok = true;
  PenaltyParameters p;
  if (const Entry* e = pm.find("law")) {
    if (auto l = choice(e->value, pm.path("law"), {"linear", "hunt_crossley"}, {}, "penalty law"))
      p.law = *l == "linear" ? PenaltyLaw::Linear : PenaltyLaw::HuntCrossley;
    else
      return std::nullopt;
  }
  const bool hc = p.law == PenaltyLaw::HuntCrossley;
  for (const char* key : {"damping", "tensile"})
    if (const Entry* e = pm.find(key); e && hc) {
      error(e->key_node, pm.path(key), "key '" + std::string(key) + "' applies to law linear only");
      ok = false;
    }
  for (const char* key : {"exponent", "damping_factor", "impact_velocity"})
    if (const Entry* e = pm.find(key); e && !hc) {
      error(e->key_node, pm.path(key), "key '" + std::string(key) + "' applies to law hunt_crossley only");
      ok = false;
    }
  if (const Entry* e = pm.require("stiffness", hc ? "N/m^exponent" : "N/m")) {
    if (auto x = number(e->value, pm.path("stiffness"), positive())) p.stiffness = *x;
    else ok = false;
  } else {
    ok = false;
  }
  auto opt = [&](const char* key, const Range& r, double& out) {
    if (const Entry* e = pm.find(key)) {
      if (auto x = number(e->value, pm.path(key), r)) out = *x;
      else ok = false;
    }
  };
  opt("damping", non_negative(), p.damping);
  opt("exponent", positive(), p.exponent);
  opt("friction_velocity", positive(), p.friction_velocity);
  opt("friction_angular_velocity", positive(), p.friction_angular_velocity);
  if (const Entry* e = pm.find("tensile")) {
    if (auto b = flag(e->value, pm.path("tensile"))) p.tensile = *b;
    else ok = false;
  }
  if (hc) {
    const Entry* df = pm.find("damping_factor");
    const Entry* iv = pm.find("impact_velocity");
    if (df && iv) {
      error(iv->key_node, pm.path("impact_velocity"), "give damping_factor or impact_velocity, not both");
      ok = false;
    } else if (!df && !iv) {
      error(n, path, "law hunt_crossley needs damping_factor (s/m) or impact_velocity (m/s; the damping then "
                     "follows from the contact's restitution)");
      ok = false;
    }
    if (df) {
      if (auto x = number(df->value, pm.path("damping_factor"), non_negative())) p.damping_factor = *x;
      else ok = false;
    }
    if (iv) {
      if (auto x = number(iv->value, pm.path("impact_velocity"), positive())) p.impact_velocity = *x;
      else ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return p;
}

}  // namespace mbdae::io::loader
