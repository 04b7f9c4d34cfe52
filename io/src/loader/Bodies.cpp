/// @file Bodies.cpp
/// The `bodies` section: mass and inertia (given, or from a shape), initial pose and twist, rotation
/// parametrization.

#include "Loader.h"

#include <mbdae/model/ConvexHull.h>
#include <mbdae/model/Inertia.h>

namespace mbdae::io::loader {

void Loader::bodies(const YAML::Node& n) {
  if (!section_list(n, "bodies")) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("bodies", i);
    const size_t errors_before = problem_count();
    Map b(*this, n[i], path,
          {"name", "mass", "density", "inertia", "shape", "com", "position", "orientation",
           "velocity", "angular_velocity", "angular_velocity_local", "rotation"});
    RigidBody body;
    body.name = "#" + std::to_string(i);
    if (!b.valid()) {
      m_.body_locations.push_back(location(n[i], path, body.name));
      add_item(ItemRef::Kind::Body, m_.body_locations.back(), true);
      m_.system.add_body(body);
      continue;
    }
    if (const Entry* e = b.require("name")) {
      if (auto s = name(e->value, b.path("name"))) {
        if (*s == "ground") {
          error(e->value, b.path("name"), "the name 'ground' is reserved for the fixed world body");
        } else if (auto f = body_names_.find(*s); f != body_names_.end()) {
          error(e->value, b.path("name"), "duplicate body name '" + *s + "' (also bodies[" +
                                              std::to_string(f->second) + "], line " +
                                              std::to_string(m_.body_locations[f->second].line) + ")");
        } else {
          body.name = *s;
          body_names_[*s] = i;
        }
      }
    }
    m_.body_locations.push_back(location(n[i], path, body.name));

    std::optional<double> mass, density;
    if (const Entry* e = b.find("mass")) mass = number(e->value, b.path("mass"), positive());
    if (const Entry* e = b.find("density")) density = number(e->value, b.path("density"), positive());
    if (b.has("mass") && b.has("density"))
      error(b.find("density")->key_node, b.path("density"), "give mass or density, not both");
    if (const Entry* e = b.find("com")) {
      if (auto c = vec3(e->value, b.path("com"), coordinate())) body.com = *c;
    }

    const Entry* inertia = b.find("inertia");
    const Entry* shape = b.find("shape");
    if (inertia && shape) {
      error(shape->key_node, b.path("shape"), "give inertia or shape, not both");
    } else if (!inertia && !shape) {
      error(b.node(), path, "missing required key 'inertia' (or 'shape' with mass or density)");
    } else if (inertia) {
      if (b.has("density"))
        error(b.find("density")->key_node, b.path("density"),
              "density needs a shape; with inertia give the mass");
      else if (!b.has("mass"))
        error(b.node(), path, "missing required key 'mass'");
      const std::string ip = b.path("inertia");
      if (list(inertia->value, ip, 6, "6 numbers [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]")) {
        Vec6 j;
        bool ok = true;
        for (size_t k = 0; k < 6; ++k) {
          auto x = number(inertia->value[k], index(ip, k), k < 3 ? non_negative() : any());
          if (x) j[static_cast<Eigen::Index>(k)] = *x;
          else ok = false;
        }
        if (ok) {
          body.inertia = j;
          if (mass) {
            const auto problems =
                RigidBodyInertia::from_inertia6(*mass, j, body.com).problems();
            for (const std::string& p : problems)
              error(inertia->value, ip, p + " (inertia about the COM, from the inertia about the reference point)");
          }
        }
      }
    } else {
      // shape: the inertia about the COM follows from the mass (or density) and the dimensions.
      const std::string sp = b.path("shape");
      if (!mass && !density && !b.has("mass") && !b.has("density"))
        error(b.node(), path, "a shape needs 'mass' or 'density'");
      Map s(*this, shape->value, sp, {"box", "cylinder", "capsule", "sphere", "convex_mesh"});
      if (s.valid()) {
        const int kinds = s.has("box") + s.has("cylinder") + s.has("capsule") + s.has("sphere") + s.has("convex_mesh");
        if (kinds != 1)
          error(shape->value, sp, "expected exactly one of box, cylinder, capsule, sphere, convex_mesh");
        std::optional<RigidBodyInertia> rbi;
        try {
          if (const Entry* e = s.find("box"); e && kinds == 1) {
            if (auto d = vec3(e->value, s.path("box"), non_negative())) {
              if (mass) rbi = RigidBodyInertia::box(*mass, (*d)[0], (*d)[1], (*d)[2]);
              else if (density) rbi = RigidBodyInertia::box(Density{*density}, (*d)[0], (*d)[1], (*d)[2]);
              body.shape = BodyShape{BodyShape::Kind::Box, *d, Vec3::UnitZ()};
            }
          } else if (const Entry* c = s.find("cylinder") ? s.find("cylinder") : s.find("capsule"); c && kinds == 1) {
            // A cylinder or a capsule: radius, length (between the caps' centres) and axis.
            const bool capsule = !s.has("cylinder");
            const std::string cp = s.path(capsule ? "capsule" : "cylinder");
            Map cy(*this, c->value, cp, {"radius", "length", "axis"});
            if (cy.valid()) {
              std::optional<double> r, l;
              std::optional<Vec3> axis;
              if (const Entry* e = cy.require("radius")) r = number(e->value, cy.path("radius"), positive());
              if (const Entry* e = cy.require("length")) l = number(e->value, cy.path("length"), non_negative());
              if (const Entry* e = cy.require("axis")) {
                if (e->value.IsScalar()) {
                  auto a = choice(e->value, cy.path("axis"), {"x", "y", "z"});
                  if (a) axis = *a == "x" ? Vec3::UnitX() : *a == "y" ? Vec3::UnitY() : Vec3::UnitZ();
                } else {
                  axis = nonzero_vec3(e->value, cy.path("axis"));
                }
              }
              if (r && l && axis) {
                if (capsule) {
                  if (mass) rbi = RigidBodyInertia::capsule(*mass, *r, *l, *axis);
                  else if (density) rbi = RigidBodyInertia::capsule(Density{*density}, *r, *l, *axis);
                } else {
                  if (mass) rbi = RigidBodyInertia::cylinder(*mass, *r, *l, *axis);
                  else if (density) rbi = RigidBodyInertia::cylinder(Density{*density}, *r, *l, *axis);
                }
                body.shape = BodyShape{capsule ? BodyShape::Kind::Capsule : BodyShape::Kind::Cylinder, Vec3(*r, *l, 0),
                                       axis->normalized()};
              }
            }
          } else if (const Entry* e = s.find("convex_mesh"); e && kinds == 1) {
            // The solid of the mesh's convex hull: its centroid is the COM (body axes from the
            // reference point, the mesh's coordinates).
            Map mm(*this, e->value, s.path("convex_mesh"), {"file", "scale", "convex_hull"});
            if (mm.valid()) {
              if (const auto hull = convex_mesh(mm)) {
                const PolyhedronMass pm = mass_properties(*hull);
                if (b.has("com"))
                  error(b.find("com")->key_node, b.path("com"),
                        "with a convex_mesh shape the COM is the hull's centroid; leave out com");
                const double m = mass ? *mass : density ? *density * pm.volume : 0;
                if (m > 0) {
                  rbi = RigidBodyInertia(m, pm.inertia * (m / pm.volume));
                  body.com = pm.centroid;
                }
              }
            }
          } else if (const Entry* e = s.find("sphere"); e && kinds == 1) {
            if (auto r = number(e->value, s.path("sphere"), positive())) {
              if (mass) rbi = RigidBodyInertia::sphere(*mass, *r);
              else if (density) rbi = RigidBodyInertia::sphere(Density{*density}, *r);
              body.shape = BodyShape{BodyShape::Kind::Sphere, Vec3(*r, 0, 0), Vec3::UnitZ()};
            }
          }
        } catch (const std::exception& ex) {
          error(shape->value, sp, ex.what());
        }
        if (rbi) {
          const RigidBodyInertia placed(rbi->mass(), rbi->inertia_com(), body.com);
          for (const std::string& p : placed.problems()) error(shape->value, sp, p);
          mass = placed.mass();
          body.inertia = placed.inertia6_about_reference();
        }
      }
    }
    if (mass) body.mass = *mass;

    if (const Entry* e = b.find("position")) {
      if (auto v = vec3(e->value, b.path("position"), coordinate())) body.position = *v;
    }
    if (const Entry* e = b.find("orientation")) {
      if (auto R = orientation(e->value, b.path("orientation"))) body.orientation = *R;
    }
    body_velocity_.resize(i + 1);
    for (const char* k : {"velocity", "angular_velocity", "angular_velocity_local"})
      if (const Entry* e = b.find(k); e && !body_velocity_[i]) body_velocity_[i] = Placed{e->key_node.Mark(), b.path(k)};
    if (const Entry* e = b.find("velocity")) {
      if (auto v = vec3(e->value, b.path("velocity"))) body.velocity = *v;
    }
    if (b.has("angular_velocity") && b.has("angular_velocity_local"))
      error(b.find("angular_velocity_local")->key_node, b.path("angular_velocity_local"),
            "give angular_velocity (world axes) or angular_velocity_local (body axes), not both");
    else if (const Entry* e = b.find("angular_velocity")) {
      if (auto v = vec3(e->value, b.path("angular_velocity"))) body.angular_velocity = *v;
    } else if (const Entry* e2 = b.find("angular_velocity_local")) {
      if (auto v = vec3(e2->value, b.path("angular_velocity_local")))
        body.angular_velocity = body.orientation * *v;
    }
    if (const Entry* e = b.find("rotation")) {
      if (auto r = choice(e->value, b.path("rotation"), {"euler_parameters", "rxyz", "rotation_vector"})) {
        body.rotation = *r == "rxyz"              ? RotationParametrization::TaitBryan
                        : *r == "rotation_vector" ? RotationParametrization::RotationVector
                                                  : RotationParametrization::EulerParameters;
      }
    }
    add_item(ItemRef::Kind::Body, m_.body_locations.back(), problem_count() != errors_before);
    m_.system.add_body(body);
  }
}

}  // namespace mbdae::io::loader
