#include <mbdae/model/Contact.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace mbdae {

const char* to_string(ShapeType t) {
  switch (t) {
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Box: return "box";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Plane: return "plane";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::ConvexMesh: return "convex_mesh";
  }
  return "?";
}

const char* to_string(CombineRule r) {
  switch (r) {
    case CombineRule::GeometricMean: return "geometric_mean";
    case CombineRule::Mean: return "mean";
    case CombineRule::Min: return "min";
    case CombineRule::Max: return "max";
  }
  return "?";
}

double combine(CombineRule r, double a, double b) {
  switch (r) {
    case CombineRule::GeometricMean: return std::sqrt(a * b);
    case CombineRule::Mean: return 0.5 * (a + b);
    case CombineRule::Min: return std::min(a, b);
    case CombineRule::Max: return std::max(a, b);
  }
  return 0;
}

const char* to_string(PenaltyLaw l) {
  switch (l) {
    case PenaltyLaw::Linear: return "linear";
    case PenaltyLaw::HuntCrossley: return "hunt_crossley";
  }
  return "?";
}

std::vector<std::string> penalty_problems(const PenaltyParameters& p, const std::string& prefix) {
  std::vector<std::string> out;
  auto num = [](double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  };
  if (!(p.stiffness > 0 && std::isfinite(p.stiffness)))
    out.push_back(prefix + "penalty stiffness must be > 0, got " + num(p.stiffness));
  if (!(p.damping >= 0 && std::isfinite(p.damping)))
    out.push_back(prefix + "penalty damping must be >= 0, got " + num(p.damping));
  if (!(p.friction_velocity > 0 && std::isfinite(p.friction_velocity)))
    out.push_back(prefix + "penalty friction_velocity must be > 0, got " + num(p.friction_velocity));
  if (!(p.friction_angular_velocity > 0 && std::isfinite(p.friction_angular_velocity)))
    out.push_back(prefix + "penalty friction_angular_velocity must be > 0, got " + num(p.friction_angular_velocity));
  if (p.law == PenaltyLaw::HuntCrossley) {
    if (!(p.exponent > 0 && std::isfinite(p.exponent)))
      out.push_back(prefix + "penalty exponent must be > 0, got " + num(p.exponent));
    if (p.damping_factor && p.impact_velocity)
      out.push_back(prefix + "give penalty damping_factor or impact_velocity, not both");
    if (!p.damping_factor && !p.impact_velocity)
      out.push_back(prefix + "a hunt_crossley penalty needs damping_factor (s/m) or impact_velocity (m/s, "
                             "with the restitution)");
    if (p.damping_factor && !(*p.damping_factor >= 0 && std::isfinite(*p.damping_factor)))
      out.push_back(prefix + "penalty damping_factor must be >= 0, got " + num(*p.damping_factor));
    if (p.impact_velocity && !(*p.impact_velocity > 0 && std::isfinite(*p.impact_velocity)))
      out.push_back(prefix + "penalty impact_velocity must be > 0, got " + num(*p.impact_velocity));
    if (p.damping != 0) out.push_back(prefix + "penalty damping applies to the linear law only");
    if (p.tensile) out.push_back(prefix + "penalty tensile applies to the linear law only");
  } else {
    if (p.exponent != 1.5) out.push_back(prefix + "penalty exponent applies to the hunt_crossley law only");
    if (p.damping_factor || p.impact_velocity)
      out.push_back(prefix + "penalty damping_factor and impact_velocity apply to the hunt_crossley law only");
  }
  return out;
}

double Contact::bounding_radius() const {
  switch (shape) {
    case ShapeType::Sphere: return radius;
    case ShapeType::Box: return half_extents.norm();
    case ShapeType::Capsule: return radius + half_length;
    case ShapeType::Cylinder: return std::hypot(radius, half_length);
    case ShapeType::Plane: return std::numeric_limits<double>::infinity();
    case ShapeType::ConvexMesh: return hull ? hull->bounding_radius() : 0;
  }
  return 0;
}

std::vector<std::string> contact_problems(const Contact& c) {
  std::vector<std::string> p;
  const std::string pre = "contact '" + c.name + "': ";
  auto num = [](double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  };
  if ((c.shape == ShapeType::Sphere || c.shape == ShapeType::Capsule || c.shape == ShapeType::Cylinder) &&
      !(c.radius > 0))
    p.push_back(pre + "radius must be > 0, got " + num(c.radius));
  if (c.shape == ShapeType::Capsule && !(c.half_length >= 0))
    p.push_back(pre + "half_length must be >= 0, got " + num(c.half_length));
  if (c.shape == ShapeType::Cylinder && !(c.half_length > 0))
    p.push_back(pre + "cylinder length must be > 0, got " + num(2 * c.half_length));
  if (c.shape == ShapeType::Box && !(c.half_extents.minCoeff() > 0))
    p.push_back(pre + "box half extents must be > 0, got (" + num(c.half_extents.x()) + ", " +
                num(c.half_extents.y()) + ", " + num(c.half_extents.z()) + ")");
  if (c.shape == ShapeType::ConvexMesh && !c.hull) p.push_back(pre + "a convex_mesh needs its hull (none given)");
  if (c.shape == ShapeType::ConvexMesh && c.hull)
    for (int f = 0; f < c.hull->num_faces(); ++f)
      if (const int nv = c.hull->face_start[static_cast<size_t>(f) + 1] - c.hull->face_start[static_cast<size_t>(f)];
          nv > kMaxHullFaceVertices) {
        p.push_back(pre + "a face of the convex hull has " + std::to_string(nv) + " vertices; at most " +
                    std::to_string(kMaxHullFaceVertices) + " are taken (use fewer vertices on a flat face)");
        break;
      }
  if (c.shape == ShapeType::Plane) {
    if (!(c.normal.norm() > 0)) p.push_back(pre + "plane normal has zero length");
  }
  if (!(c.friction >= 0)) p.push_back(pre + "friction must be >= 0, got " + num(c.friction));
  if (!(c.restitution >= 0 && c.restitution <= 1))
    p.push_back(pre + "restitution must be in [0, 1], got " + num(c.restitution));
  if (!(c.rolling_resistance >= 0))
    p.push_back(pre + "rolling_resistance must be >= 0, got " + num(c.rolling_resistance));
  if (!(c.torsional_friction >= 0 && std::isfinite(c.torsional_friction)))
    p.push_back(pre + "torsional_friction must be >= 0 and finite, got " + num(c.torsional_friction));
  if (c.penalty)
    for (auto& s : penalty_problems(*c.penalty, pre)) p.push_back(std::move(s));
  return p;
}

Contact make_sphere(const std::string& name, const std::string& body, double radius, double friction,
                    double restitution) {
  Contact c;
  c.name = name;
  c.body = body;
  c.shape = ShapeType::Sphere;
  c.radius = radius;
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

Contact make_box(const std::string& name, const std::string& body, const Vec3& half_extents,
                 double friction, double restitution) {
  Contact c;
  c.name = name;
  c.body = body;
  c.shape = ShapeType::Box;
  c.half_extents = half_extents;
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

Contact make_capsule(const std::string& name, const std::string& body, double radius,
                     double half_length, double friction, double restitution) {
  Contact c;
  c.name = name;
  c.body = body;
  c.shape = ShapeType::Capsule;
  c.radius = radius;
  c.half_length = half_length;
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

Contact make_cylinder(const std::string& name, const std::string& body, double radius, double length,
                      double friction, double restitution) {
  Contact c;
  c.name = name;
  c.body = body;
  c.shape = ShapeType::Cylinder;
  c.radius = radius;
  c.half_length = length / 2;
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

Contact make_convex_mesh(const std::string& name, const std::string& body, std::shared_ptr<const ConvexHull> hull,
                         double friction, double restitution) {
  Contact c;
  c.name = name;
  c.body = body;
  c.shape = ShapeType::ConvexMesh;
  c.hull = std::move(hull);
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

Contact make_plane(const std::string& name, const Vec3& normal, double offset, double friction,
                   double restitution) {
  Contact c;
  c.name = name;
  c.body = "ground";
  c.shape = ShapeType::Plane;
  c.normal = normal.normalized();
  c.offset = offset;
  c.friction = friction;
  c.restitution = restitution;
  return c;
}

}  // namespace mbdae
