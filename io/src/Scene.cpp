#include <mbdae/io/Scene.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include <mbdae/model/Inertia.h>
#include <mbdae/model/JointTypes.h>

namespace mbdae::io {

namespace {

/// A rotation whose third column is the unit vector `z` (any perpendicular x, y).
Mat3 frame_with_z(const Vec3& z_in) {
  const Vec3 z = z_in.normalized();
  const Vec3 helper = std::abs(z.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 x = (helper - helper.dot(z) * z).normalized();
  Mat3 R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

/// The box with the body's mass and principal moments (about the COM, along the principal axes):
/// for a box of sides a, b, c, I_1 = m (b² + c²)/12, so a² = 6 (I_2 + I_3 − I_1)/m. A side that
/// comes out zero (a thin plate, a rod) is drawn 2 % as long as the longest side.
SceneShape inertia_box(const RigidBody& b) {
  const RigidBodyInertia rbi = RigidBodyInertia::from_inertia6(b.mass, b.inertia, b.com);
  const PrincipalAxes pa = rbi.principal_axes();
  const Vec3& I = pa.moments;
  Vec3 side;
  for (int i = 0; i < 3; ++i)
    side[i] = std::sqrt(std::max(0.0, 6.0 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) / b.mass));
  const double longest = side.maxCoeff();
  for (int i = 0; i < 3; ++i) side[i] = std::max(side[i], 0.02 * longest);
  SceneShape s;
  s.kind = SceneShape::Kind::Box;
  s.source = SceneShape::Source::Inertia;
  s.size = side;
  s.position = b.com;
  s.rotation = pa.R;
  return s;
}

SceneShape body_shape(const RigidBody& b) {
  const BodyShape& bs = *b.shape;
  SceneShape s;
  s.source = SceneShape::Source::Shape;
  s.position = b.com;
  switch (bs.kind) {
    case BodyShape::Kind::Box:
      s.kind = SceneShape::Kind::Box;
      s.size = bs.size;
      break;
    case BodyShape::Kind::Cylinder:
      s.kind = SceneShape::Kind::Cylinder;
      s.size = Vec3(bs.size[0], bs.size[1], 0);
      s.rotation = frame_with_z(bs.axis);
      break;
    case BodyShape::Kind::Sphere:
      s.kind = SceneShape::Kind::Sphere;
      s.size = Vec3(bs.size[0], 0, 0);
      break;
    case BodyShape::Kind::Capsule:
      s.kind = SceneShape::Kind::Capsule;
      s.size = Vec3(bs.size[0], bs.size[1], 0);
      s.rotation = frame_with_z(bs.axis);
      break;
  }
  return s;
}

SceneShape contact_shape(const Contact& c) {
  SceneShape s;
  s.source = SceneShape::Source::Contact;
  s.name = c.name;
  s.position = c.position;
  s.rotation = c.orientation;
  switch (c.shape) {
    case ShapeType::Sphere:
      s.kind = SceneShape::Kind::Sphere;
      s.size = Vec3(c.radius, 0, 0);
      break;
    case ShapeType::Box:
      s.kind = SceneShape::Kind::Box;
      s.size = 2 * c.half_extents;
      break;
    case ShapeType::Capsule:
      s.kind = SceneShape::Kind::Capsule;
      s.size = Vec3(c.radius, 2 * c.half_length, 0);
      break;
    case ShapeType::Cylinder:
      s.kind = SceneShape::Kind::Cylinder;
      s.size = Vec3(c.radius, 2 * c.half_length, 0);
      break;
    case ShapeType::Plane:
      // A plane on a body: a thin square slab (1 m wide) on its surface, as the viewer draws it.
      {
        const Vec3 n = c.normal.norm() > 0 ? Vec3(c.normal.normalized()) : Vec3(Vec3::UnitZ());
        const Vec3 t = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
        const Vec3 e1 = (t - n * n.dot(t)).normalized(), e2 = n.cross(e1);
        s.kind = SceneShape::Kind::Box;
        s.size = Vec3(1.0, 1.0, 0.002);
        s.rotation << e1, e2, n;
        s.position = n * (c.offset - 0.001);
      }
      break;
    case ShapeType::ConvexMesh:
      // The viewer draws boxes, cylinders, spheres and capsules: a mesh as its bounding box.
      s.kind = SceneShape::Kind::Box;
      if (c.hull && !c.hull->vertices.empty()) {
        Vec3 lo = c.hull->vertices[0], hi = lo;
        for (const Vec3& v : c.hull->vertices) {
          lo = lo.cwiseMin(v);
          hi = hi.cwiseMax(v);
        }
        s.size = hi - lo;
        s.position = c.position + c.orientation * (0.5 * (lo + hi));
      }
      break;
  }
  return s;
}

const char* to_string(SceneShape::Kind k) {
  switch (k) {
    case SceneShape::Kind::Box: return "box";
    case SceneShape::Kind::Cylinder: return "cylinder";
    case SceneShape::Kind::Sphere: return "sphere";
    case SceneShape::Kind::Capsule: return "capsule";
  }
  return "";
}
const char* to_string(SceneShape::Source s) {
  switch (s) {
    case SceneShape::Source::Shape: return "shape";
    case SceneShape::Source::Contact: return "contact";
    case SceneShape::Source::Inertia: return "inertia";
  }
  return "";
}

// ---- JSON -------------------------------------------------------------------------------------
void put_string(std::string& o, const std::string& s) {
  o.push_back('"');
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o.push_back('\\');
      o.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      o += "\\u00";
      o.push_back(hex[c >> 4]);
      o.push_back(hex[c & 15]);
    } else if (c == '<') {
      o += "\\u003c";  // the JSON is inlined in a <script> of the viewer page
    } else {
      o.push_back(static_cast<char>(c));
    }
  }
  o.push_back('"');
}
void put_number(std::string& o, double x) {
  if (!std::isfinite(x)) {
    o += "null";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x == 0 ? 0.0 : x);
  o.append(buf, r.ptr);
}
void put_vec(std::string& o, const Vec3& v) {
  o.push_back('[');
  for (int i = 0; i < 3; ++i) {
    if (i) o.push_back(',');
    put_number(o, v[i]);
  }
  o.push_back(']');
}
void put_mat(std::string& o, const Mat3& R) {  // row by row
  o.push_back('[');
  for (int i = 0; i < 9; ++i) {
    if (i) o.push_back(',');
    put_number(o, R(i / 3, i % 3));
  }
  o.push_back(']');
}
void put_shape(std::string& o, const SceneShape& s) {
  o += "{\"kind\":\"";
  o += to_string(s.kind);
  o += "\",\"source\":\"";
  o += to_string(s.source);
  o += "\",\"name\":";
  put_string(o, s.name);
  o += ",\"size\":";
  put_vec(o, s.size);
  o += ",\"position\":";
  put_vec(o, s.position);
  o += ",\"rotation\":";
  put_mat(o, s.rotation);
  o += "}";
}
void put_link(std::string& o, const SceneLink& l) {
  o += "{\"name\":";
  put_string(o, l.name);
  o += ",\"type\":";
  put_string(o, l.type);
  o += ",\"bodies\":[" + std::to_string(l.bodies[0]) + "," + std::to_string(l.bodies[1]) + "],\"points\":[";
  put_vec(o, l.points[0]);
  o += ",";
  put_vec(o, l.points[1]);
  o += "],\"axes\":[";
  put_vec(o, l.axes[0]);
  o += ",";
  put_vec(o, l.axes[1]);
  o += "]}";
}
template <class T, class F>
void put_list(std::string& o, const char* key, const std::vector<T>& items, F put) {
  o += ",\n\"";
  o += key;
  o += "\":[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) o += ",\n ";
    put(o, items[i]);
  }
  o += "]";
}

}  // namespace

Scene describe_scene(const System& system, const std::vector<SensorSpec>& sensors, const std::string& model_name) {
  Scene sc;
  sc.model = model_name;
  sc.gravity = system.gravity;
  const auto& bodies = system.bodies();
  auto index_of = [&](const std::string& name) {
    const auto b = system.find_body(name);
    return b ? *b : -1;
  };
  // A world point or axis in the frame of body i (at t = 0), or unchanged for ground.
  auto local_point = [&](int i, const Vec3& p_W) {
    if (i < 0) return p_W;
    const RigidBody& b = bodies[static_cast<size_t>(i)];
    return Vec3(b.orientation.transpose() * (p_W - b.position));
  };
  auto local_axis = [&](int i, const Vec3& a_W) {
    if (a_W.norm() == 0) return Vec3(Vec3::Zero());
    const Vec3 a = a_W.normalized();
    return i < 0 ? a : Vec3(bodies[static_cast<size_t>(i)].orientation.transpose() * a);
  };

  for (const RigidBody& b : bodies) {
    SceneBody s;
    s.name = b.name;
    s.mass = b.mass;
    s.com = b.com;
    if (b.shape) s.shapes.push_back(body_shape(b));
    sc.bodies.push_back(std::move(s));
  }
  for (const Contact& c : system.contacts()) {
    if (c.shape == ShapeType::Plane && c.body == "ground") {
      sc.planes.push_back({c.name, c.normal.norm() > 0 ? Vec3(c.normal.normalized()) : Vec3(Vec3::UnitZ()), c.offset});
      continue;
    }
    const int i = index_of(c.body);
    if (i < 0) sc.ground.push_back(contact_shape(c));
    else sc.bodies[static_cast<size_t>(i)].shapes.push_back(contact_shape(c));
  }
  for (size_t i = 0; i < bodies.size(); ++i)
    if (sc.bodies[i].shapes.empty() && bodies[i].mass > 0) sc.bodies[i].shapes.push_back(inertia_box(bodies[i]));

  for (const Joint& j : system.joints()) {
    SceneLink l;
    l.name = j.name;
    l.type = to_string(j.type);
    l.bodies = {index_of(j.bodies[0]), index_of(j.bodies[1])};
    Vec3 pb = j.point;
    Vec3 axis_a = Vec3::Zero(), axis_b = Vec3::Zero();
    // What is drawn follows the type's keys (the registry): its axis on a (`axis`), its axis on b
    // (`axis_b`, else the same axis) and b's point (`point_b`, else the joint point).
    const JointTypeInfo& info = joint_type_info(j.type);
    const auto has_key = [&info](std::string_view key) {
      return std::any_of(info.keys.begin(), info.keys.end(), [key](const JointKey& k) { return key == k.key; });
    };
    if (has_key("axis")) axis_a = axis_b = j.axis;
    if (has_key("axis_b")) axis_b = j.axis_b;
    if (has_key("point_b")) pb = j.point_b;
    l.points = {local_point(l.bodies[0], j.point), local_point(l.bodies[1], pb)};
    l.axes = {local_axis(l.bodies[0], axis_a), local_axis(l.bodies[1], axis_b)};
    sc.joints.push_back(std::move(l));
  }
  for (const ForceElement& f : system.forces()) {
    if (f.bodies.size() != 2) continue;  // user forces on any number of bodies: nothing to draw
    SceneLink l;
    l.name = f.name;
    l.type = to_string(f.type);
    l.bodies = {index_of(f.bodies[0]), index_of(f.bodies[1])};
    const Vec3 pb = f.type == ForceType::SpringDamper ? f.point_b : f.point;
    l.points = {local_point(l.bodies[0], f.point), local_point(l.bodies[1], pb)};
    if (f.type == ForceType::TorsionalSpringDamper)
      l.axes = {local_axis(l.bodies[0], f.axis), local_axis(l.bodies[1], f.axis)};
    sc.forces.push_back(std::move(l));
  }
  for (const SensorSpec& s : sensors) {
    SceneSensor o;
    o.name = s.name;
    o.output = to_string(s.output);
    if (!s.body.empty()) o.body = index_of(s.body);
    if (!s.joint.empty())
      for (size_t j = 0; j < system.joints().size(); ++j)
        if (system.joints()[j].name == s.joint) o.joint = static_cast<int>(j);
    o.point = s.point;
    sc.sensors.push_back(std::move(o));
  }
  return sc;
}

std::string json_quoted(const std::string& s) {
  std::string o;
  put_string(o, s);
  return o;
}

std::string scene_json(const Scene& sc) {
  std::string o = "{\"format\":\"mbdae-scene\",\"version\":1,\n\"model\":";
  put_string(o, sc.model);
  o += ",\n\"gravity\":";
  put_vec(o, sc.gravity);
  put_list(o, "bodies", sc.bodies, [](std::string& s, const SceneBody& b) {
    s += "{\"name\":";
    put_string(s, b.name);
    s += ",\"mass\":";
    put_number(s, b.mass);
    s += ",\"com\":";
    put_vec(s, b.com);
    s += ",\"shapes\":[";
    for (size_t i = 0; i < b.shapes.size(); ++i) {
      if (i) s += ",";
      put_shape(s, b.shapes[i]);
    }
    s += "]}";
  });
  put_list(o, "ground", sc.ground, put_shape);
  put_list(o, "planes", sc.planes, [](std::string& s, const ScenePlane& p) {
    s += "{\"name\":";
    put_string(s, p.name);
    s += ",\"normal\":";
    put_vec(s, p.normal);
    s += ",\"offset\":";
    put_number(s, p.offset);
    s += "}";
  });
  put_list(o, "joints", sc.joints, put_link);
  put_list(o, "forces", sc.forces, put_link);
  put_list(o, "sensors", sc.sensors, [](std::string& s, const SceneSensor& x) {
    s += "{\"name\":";
    put_string(s, x.name);
    s += ",\"output\":";
    put_string(s, x.output);
    s += ",\"body\":" + std::to_string(x.body) + ",\"joint\":" + std::to_string(x.joint) + ",\"point\":";
    put_vec(s, x.point);
    s += "}";
  });
  o += "\n}\n";
  return o;
}

void write_scene(const std::string& path, const Scene& scene) {
  std::ofstream out(path, std::ios::binary);
  const std::string text = scene_json(scene);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush())
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace mbdae::io
