// The registry of contact pair kinds (ContactPairs.h): one line per unordered pair of shape types.
// The methods are in the pair functions' files (NarrowPhase.cpp and the sources named there).

#include <mbdae/contact/ContactPairs.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "NarrowPhase.h"

namespace mbdae {

namespace {

using S = ShapeType;

const std::vector<ContactPairKind>& table() {
  static const std::vector<ContactPairKind> t{
      {S::Plane, S::Sphere, "plane-sphere", pairs::plane_sphere, 1, true, true,
       "sphere against the half-space", true},
      {S::Plane, S::Capsule, "plane-capsule", pairs::plane_capsule, 2, true, true,
       "the capsule's two cap spheres against the half-space", true},
      {S::Plane, S::Box, "plane-box", pairs::plane_box, 8, true, true, "the corners below the surface"},
      {S::Plane, S::Cylinder, "plane-cylinder", pairs::plane_cylinder, 8, true, true,
       "the lowest rim point of each end disc; four rim points of an end lying flat"},
      {S::Plane, S::Plane, "plane-plane", nullptr, 0, false, false,
       "not handled: two half-spaces overlap in a whole half-space or not at all"},
      {S::Box, S::Box, "box-box", pairs::box_box, 8, true, true,
       "separating axes (15); a face axis: the incident face clipped against the reference face's side planes "
       "(Sutherland–Hodgman), the points below the reference face; an edge axis: the closest points of the two "
       "edges"},
      {S::Box, S::Cylinder, "box-cylinder", pairs::box_cylinder, 8, true, true,
       "separating axes with exact separations from the support functions; a box face as reference: the "
       "cylinder's incident end disc or generator clipped to it; else the corners and edge points inside the "
       "cylinder and the rim points inside the box"},
      {S::Box, S::Capsule, "box-capsule", pairs::box_capsule, 3, true, true,
       "the two cap ends against the box, and the deepest point of the segment (golden-section search on the "
       "box's signed distance, a convex function)"},
      {S::Box, S::Sphere, "box-sphere", pairs::box_sphere, 1, true, true, "closest point (Ericson 2005, §5.1.3)", true},
      {S::Cylinder, S::Cylinder, "cylinder-cylinder", pairs::cylinder_cylinder, 8, true, true,
       "separating axes: the two end axes, the line between the closest points of the axes, the other's surface "
       "normal at each rim's deepest point; an end axis: the other's incident feature clipped to the 16-gon "
       "inscribed in that end disc; else the sides or the deepest rim point"},
      {S::Cylinder, S::Capsule, "cylinder-capsule", pairs::cylinder_capsule, 3, true, true,
       "as box-capsule, on the cylinder's signed distance (also convex)"},
      {S::Cylinder, S::Sphere, "cylinder-sphere", pairs::cylinder_sphere, 1, true, true,
       "closest point of the solid cylinder", true},
      {S::Capsule, S::Capsule, "capsule-capsule", pairs::capsule_capsule, 2, true, true,
       "closest points of the two segments (Ericson §5.1.9); two points, at the ends of the overlap, for "
       "parallel segments"},
      {S::Capsule, S::Sphere, "capsule-sphere", pairs::capsule_sphere, 1, true, true,
       "closest point of the segment, then as sphere-sphere", true},
      {S::Sphere, S::Sphere, "sphere-sphere", pairs::sphere_sphere, 1, true, true, "the line between the centres", true},
      {S::Plane, S::ConvexMesh, "plane-convex_mesh", pairs::plane_convex_mesh, 8, true, true,
       "the hull's vertices below the surface (more than 8: the deepest, then each time the farthest from those "
       "kept)"},
      {S::ConvexMesh, S::Box, "convex_mesh-box", pairs::convex_mesh_box, 8, true, true,
       "as convex_mesh-convex_mesh, the box as a polyhedron"},
      {S::ConvexMesh, S::Cylinder, "convex_mesh-cylinder", pairs::convex_mesh_cylinder, 8, true, true,
       "as box-cylinder with the polyhedron's faces, vertices and edges for the box's: separating axes exact from "
       "the support functions; a face as reference: the cylinder's incident end disc or generator clipped to it; "
       "else the vertices and edge points inside the cylinder and the rim points inside the polyhedron"},
      {S::ConvexMesh, S::Capsule, "convex_mesh-capsule", pairs::convex_mesh_capsule, 3, true, true,
       "as box-capsule, on the polyhedron's signed distance (convex)"},
      {S::ConvexMesh, S::Sphere, "convex_mesh-sphere", pairs::convex_mesh_sphere, 1, true, true,
       "closest point of the polyhedron: inside, the least deep face; outside, the closest point of the faces "
       "facing the centre", true},
      {S::ConvexMesh, S::ConvexMesh, "convex_mesh-convex_mesh", pairs::convex_mesh_convex_mesh, 8, true, true,
       "separating axes: both shapes' face normals and the edge-edge axes whose arcs cross on the Gauss map "
       "(Gregorius 2013), separations exact from the vertices; a face axis: the incident face clipped against the "
       "reference face's side planes (Sutherland–Hodgman); an edge axis: the closest points of the two edges"},
  };
  return t;
}

/// The kind of each ordered pair of shape types, built from table() once.
struct Lookup {
  std::array<std::array<const ContactPairKind*, kShapeTypeCount>, kShapeTypeCount> kind{};
  Lookup() {
    for (const ContactPairKind& k : table()) {
      const auto a = static_cast<size_t>(k.a), b = static_cast<size_t>(k.b);
      if (kind[a][b] || kind[b][a])
        throw std::logic_error(std::string("contact_pair_kinds: two lines for ") + k.name);
      if (k.max_points > kMaxPairPoints || (k.collide == nullptr) != (k.max_points == 0))
        throw std::logic_error(std::string("contact_pair_kinds: bad point count for ") + k.name);
      kind[a][b] = kind[b][a] = &k;
    }
    for (size_t a = 0; a < kShapeTypeCount; ++a)
      for (size_t b = 0; b < kShapeTypeCount; ++b)
        if (!kind[a][b])
          throw std::logic_error(std::string("contact_pair_kinds: no line for ") +
                                 to_string(static_cast<ShapeType>(a)) + "-" + to_string(static_cast<ShapeType>(b)));
  }
};

const Lookup& lookup() {
  static const Lookup l;
  return l;
}

}  // namespace

const char* to_string(ContactPath p) {
  switch (p) {
    case ContactPath::Impulse: return "impulse";
    case ContactPath::Penalty: return "penalty";
  }
  return "?";
}

std::span<const ContactPairKind> contact_pair_kinds() {
  lookup();  // checks the table
  return table();
}

const ContactPairKind& contact_pair_kind(ShapeType x, ShapeType y, bool& swapped) {
  const ContactPairKind& k = *lookup().kind[static_cast<size_t>(x)][static_cast<size_t>(y)];
  swapped = !(k.a == x && k.b == y);
  return k;
}

bool contact_pair_handled(ShapeType x, ShapeType y) {
  bool swapped;
  return contact_pair_kind(x, y, swapped).collide != nullptr;
}

bool narrow_phase_handles(ShapeType x, ShapeType y) { return contact_pair_handled(x, y); }

int shape_order(ShapeType t) {
  // Shape a of a pair comes first in this order (the registry's lines follow it).
  switch (t) {
    case ShapeType::Plane: return 0;
    case ShapeType::Box: return 1;
    case ShapeType::Cylinder: return 2;
    case ShapeType::Capsule: return 3;
    case ShapeType::Sphere: return 4;
    case ShapeType::ConvexMesh: return 5;
  }
  return 6;
}

namespace {

/// A number in a message (6 significant digits).
std::string number(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

/// "contacts 'a' (box on b1) and 'b' (sphere on b2)", the start of a pair's problem.
std::string pair_name(const Contact& a, const Contact& b) {
  return "contacts '" + a.name + "' (" + to_string(a.shape) + " on " + a.body + ") and '" + b.name + "' (" +
         to_string(b.shape) + " on " + b.body + ")";
}

/// Per shape type: the first shape of that type with a known body (first) and the first after it
/// on another body (other), among all shapes or among those with rolling resistance.
struct FirstShapes {
  std::array<long, kShapeTypeCount> first, other;
  FirstShapes() {
    first.fill(-1);
    other.fill(-1);
  }
  /// The smallest i < j of type t on a body other than `bj` (−1 if none).
  long candidate(int t, BodyIndex bj, const std::vector<std::optional<BodyIndex>>& body) const {
    long i = first[static_cast<size_t>(t)];
    if (i >= 0 && *body[static_cast<size_t>(i)] == bj) i = other[static_cast<size_t>(t)];
    return i;
  }
  void add(size_t t, size_t j, const std::vector<std::optional<BodyIndex>>& body) {
    if (first[t] < 0) first[t] = static_cast<long>(j);
    else if (other[t] < 0 && *body[static_cast<size_t>(first[t])] != *body[j]) other[t] = static_cast<long>(j);
  }
};

/// Why `kind` is refused: not handled by the geometry, or not taken by `path`, with the kinds that are.
std::string not_taken(const ContactPairKind& kind, const ContactPath* path) {
  std::string handled;
  for (const ContactPairKind& k : table())
    if (path ? k.on(*path) : k.collide != nullptr) handled += std::string(handled.empty() ? "" : ", ") + k.name;
  return kind.collide ? std::string("the ") + to_string(*path) + " contacts do not take the pair " + kind.name +
                            " (they take " + handled + ")"
                      : std::string("the contact geometry does not handle the pair ") + kind.name + " (handled: " +
                            handled + ")";
}

std::vector<ModelProblem> pair_problems(const System& model, const ContactPath* path) {
  std::vector<ModelProblem> out;
  const auto& cs = model.contacts();
  // Each kind once, at the later of its first two shapes: the first pair (i, j), i < j, in the
  // order j, then i, whose shapes are on different known bodies. Linear in the number of shapes
  // (a pile of thousands of shapes has millions of pairs but at most kShapeTypeCount² kinds): per
  // shape type, the first shape of that type with a known body (first) and the first after it on
  // another body (other); the smallest i < j of type t on a body other than j's is first[t] unless
  // that is on j's body, else other[t].
  const std::unordered_map<std::string, BodyIndex> index = model.body_indices();
  std::vector<std::optional<BodyIndex>> body(cs.size());
  for (size_t k = 0; k < cs.size(); ++k)
    if (const auto it = index.find(cs[k].body); it != index.end()) body[k] = it->second;
  constexpr int T = kShapeTypeCount;
  FirstShapes any, with_rr;
  std::set<const ContactPairKind*> reported, rolling_reported;
  for (size_t j = 0; j < cs.size(); ++j) {
    if (!body[j]) continue;
    const Contact& b = cs[j];
    // the candidates i of each type, in the order of i (the order of the pair loop over i)
    std::array<std::pair<long, int>, T> cand{};
    int nc = 0;
    for (int t = 0; t < T; ++t) {
      const long i = any.candidate(t, *body[j], body);
      if (i >= 0) cand[static_cast<size_t>(nc++)] = {i, t};
    }
    // at most kShapeTypeCount candidates, distinct shapes: an insertion sort by i (std::sort on
    // this small array draws a false -Warray-bounds from GCC 12 in optimized sanitizer builds)
    for (int x = 1; x < nc; ++x)
      for (int y = x; y > 0 && cand[static_cast<size_t>(y)] < cand[static_cast<size_t>(y - 1)]; --y)
        std::swap(cand[static_cast<size_t>(y)], cand[static_cast<size_t>(y - 1)]);
    for (int c = 0; c < nc; ++c) {
      const Contact& a = cs[static_cast<size_t>(cand[static_cast<size_t>(c)].first)];
      bool swapped;
      const ContactPairKind& kind = contact_pair_kind(a.shape, b.shape, swapped);
      if (path ? kind.on(*path) : kind.collide != nullptr) continue;
      if (!reported.insert(&kind).second) continue;
      out.push_back({pair_name(a, b) + ": " + not_taken(kind, path) +
                         "; put the two shapes on the same body or use other shapes",
                     ItemRef::contact(static_cast<int>(j))});
    }
    // Rolling resistance where the pair's points have no rolling radius: refused, not dropped. A
    // pair asks for it if either shape has rolling_resistance > 0 (the pair takes the larger); the
    // candidates are the first shapes of each type (any, or with rolling resistance) on another body.
    for (int t = 0; t < T; ++t) {
      const long i = (b.rolling_resistance > 0 ? any : with_rr).candidate(t, *body[j], body);
      if (i < 0) continue;
      const Contact& a = cs[static_cast<size_t>(i)];
      bool swapped;
      const ContactPairKind& kind = contact_pair_kind(a.shape, b.shape, swapped);
      if (!kind.collide || (path && !kind.on(*path)) || kind.rolling_radius) continue;
      if (!rolling_reported.insert(&kind).second) continue;
      out.push_back({pair_name(a, b) + ": rolling_resistance " +
                         number(std::max(a.rolling_resistance, b.rolling_resistance)) + " is given, but the " +
                         kind.name + " pair's points have no rolling radius (only a sphere's surface, or a capsule's "
                         "caps against a plane, carry one), so it would not act; set rolling_resistance to 0 on these "
                         "shapes",
                     ItemRef::contact(static_cast<int>(j))});
    }
    const size_t t = static_cast<size_t>(b.shape);
    any.add(t, j, body);
    if (b.rolling_resistance > 0) with_rr.add(t, j, body);
  }
  return out;
}

}  // namespace

std::vector<ModelProblem> contact_pair_problems(const System& model) { return pair_problems(model, nullptr); }

std::vector<ModelProblem> contact_pair_problems(const System& model, ContactPath path) {
  return pair_problems(model, &path);
}

}  // namespace mbdae
