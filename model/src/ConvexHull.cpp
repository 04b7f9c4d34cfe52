// Convex hull of a point set and the mass properties of a convex polyhedron (ConvexHull.h).

#include <mbdae/model/ConvexHull.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

namespace mbdae {

namespace {

struct Tri {
  std::array<int, 3> v;  // input point indices, counter-clockwise seen from outside
  Vec3 n;                // outward unit normal
  double d;              // n·x = d on the plane
  bool alive = true;
};

Tri make_tri(std::span<const Vec3> p, int a, int b, int c) {
  Tri t;
  t.v = {a, b, c};
  const Vec3 n = (p[static_cast<size_t>(b)] - p[static_cast<size_t>(a)]).cross(p[static_cast<size_t>(c)] - p[static_cast<size_t>(a)]);
  t.n = n.normalized();
  t.d = t.n.dot(p[static_cast<size_t>(a)]);
  return t;
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<size_t>(i)] != i) i = parent[static_cast<size_t>(i)] = parent[static_cast<size_t>(parent[static_cast<size_t>(i)])];
  return i;
}

}  // namespace

ConvexHull convex_hull(std::span<const Vec3> p) {
  const int n = static_cast<int>(p.size());
  if (n < 4) throw std::invalid_argument("a convex hull needs at least 4 points, got " + std::to_string(n));
  for (int i = 0; i < n; ++i)
    if (!p[static_cast<size_t>(i)].allFinite())
      throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
  auto P = [&](int i) -> const Vec3& { return p[static_cast<size_t>(i)]; };
  Vec3 lo = P(0), hi = P(0);
  for (int i = 1; i < n; ++i) {
    lo = lo.cwiseMin(P(i));
    hi = hi.cwiseMax(P(i));
  }
  const double scale = (hi - lo).norm();
  const double tol = 1e-10 * scale;
  // A first tetrahedron of extreme points.
  int i0 = 0;
  for (int i = 1; i < n; ++i)
    if (P(i).x() < P(i0).x()) i0 = i;
  int i1 = i0;
  double best = 0;
  for (int i = 0; i < n; ++i)
    if ((P(i) - P(i0)).norm() > best) best = (P(i) - P(i0)).norm(), i1 = i;
  if (!(best > tol)) throw std::invalid_argument("all points coincide: no volume");
  const Vec3 u = (P(i1) - P(i0)).normalized();
  int i2 = i0;
  best = 0;
  for (int i = 0; i < n; ++i) {
    const Vec3 r = P(i) - P(i0);
    const double dist = (r - u * u.dot(r)).norm();
    if (dist > best) best = dist, i2 = i;
  }
  if (!(best > tol)) throw std::invalid_argument("all points lie on a line: no volume");
  const Vec3 nrm = (P(i1) - P(i0)).cross(P(i2) - P(i0)).normalized();
  int i3 = i0;
  best = 0;
  for (int i = 0; i < n; ++i)
    if (std::abs(nrm.dot(P(i) - P(i0))) > best) best = std::abs(nrm.dot(P(i) - P(i0))), i3 = i;
  if (!(best > tol)) throw std::invalid_argument("all points lie in a plane: no volume");
  std::vector<Tri> tris;
  const Vec3 inside = 0.25 * (P(i0) + P(i1) + P(i2) + P(i3));
  auto add = [&](int a, int b, int c) {
    Tri t = make_tri(p, a, b, c);
    if (t.n.dot(inside) > t.d) t = make_tri(p, a, c, b);  // orient outward
    tris.push_back(t);
  };
  add(i0, i1, i2);
  add(i0, i1, i3);
  add(i0, i2, i3);
  add(i1, i2, i3);
  // Each further point outside the hull replaces the faces it sees by a fan from their horizon.
  std::vector<int> visible;
  std::map<std::pair<int, int>, int> dir_edges;
  for (int i = 0; i < n; ++i) {
    if (i == i0 || i == i1 || i == i2 || i == i3) continue;
    visible.clear();
    for (size_t t = 0; t < tris.size(); ++t)
      if (tris[t].alive && tris[t].n.dot(P(i)) - tris[t].d > tol) visible.push_back(static_cast<int>(t));
    if (visible.empty()) continue;
    dir_edges.clear();
    for (int t : visible)
      for (int k = 0; k < 3; ++k)
        dir_edges[{tris[static_cast<size_t>(t)].v[static_cast<size_t>(k)], tris[static_cast<size_t>(t)].v[static_cast<size_t>((k + 1) % 3)]}] = 1;
    for (int t : visible) tris[static_cast<size_t>(t)].alive = false;
    for (const auto& kv : dir_edges)
      if (!dir_edges.count({kv.first.second, kv.first.first})) tris.push_back(make_tri(p, kv.first.first, kv.first.second, i));
  }
  std::vector<int> live;
  for (size_t t = 0; t < tris.size(); ++t)
    if (tris[t].alive) live.push_back(static_cast<int>(t));
  // Merge coplanar neighbours into faces.
  const int nt = static_cast<int>(live.size());
  std::map<std::pair<int, int>, int> edge_tri;  // directed edge -> live index
  for (int k = 0; k < nt; ++k)
    for (int e = 0; e < 3; ++e) {
      const Tri& t = tris[static_cast<size_t>(live[static_cast<size_t>(k)])];
      edge_tri[{t.v[static_cast<size_t>(e)], t.v[static_cast<size_t>((e + 1) % 3)]}] = k;
    }
  std::vector<int> parent(static_cast<size_t>(nt));
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& [e, k] : edge_tri) {
    const auto it = edge_tri.find({e.second, e.first});
    if (it == edge_tri.end()) continue;
    const Tri& a = tris[static_cast<size_t>(live[static_cast<size_t>(k)])];
    const Tri& b = tris[static_cast<size_t>(live[static_cast<size_t>(it->second)])];
    if (a.n.dot(b.n) > 1 - 1e-9) parent[static_cast<size_t>(find_root(parent, k))] = find_root(parent, it->second);
  }
  ConvexHull h;
  std::map<int, int> group_face;  // root -> face
  std::vector<std::vector<int>> face_tris;
  for (int k = 0; k < nt; ++k) {
    const int r = find_root(parent, k);
    auto [it, fresh] = group_face.emplace(r, static_cast<int>(face_tris.size()));
    if (fresh) face_tris.emplace_back();
    face_tris[static_cast<size_t>(it->second)].push_back(k);
  }
  // The hull's vertices in input order.
  std::vector<int> used;
  for (int k = 0; k < nt; ++k)
    for (int v : tris[static_cast<size_t>(live[static_cast<size_t>(k)])].v) used.push_back(v);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::map<int, int> vindex;
  for (int v : used) {
    vindex[v] = static_cast<int>(h.vertices.size());
    h.vertices.push_back(P(v));
    h.source_index.push_back(v);
  }
  std::map<std::pair<int, int>, int> edge_of;  // undirected (min, max) -> edge
  for (const auto& group : face_tris) {
    // Normal of the largest triangle; the loop from the group's boundary edges.
    int big = group[0];
    double area = -1;
    std::map<int, int> next;
    std::set<std::pair<int, int>> inner;
    for (int k : group) {
      const Tri& t = tris[static_cast<size_t>(live[static_cast<size_t>(k)])];
      const double a = (P(t.v[1]) - P(t.v[0])).cross(P(t.v[2]) - P(t.v[0])).norm();
      if (a > area) area = a, big = k;
      for (int e = 0; e < 3; ++e) inner.insert({t.v[static_cast<size_t>(e)], t.v[static_cast<size_t>((e + 1) % 3)]});
    }
    for (const auto& [a, b] : inner)
      if (!inner.count({b, a})) next[a] = b;
    const Tri& tb = tris[static_cast<size_t>(live[static_cast<size_t>(big)])];
    const int f = h.num_faces();
    h.face_normals.push_back(tb.n);
    h.face_start.push_back(static_cast<int>(h.face_vertices.size()));
    // Start the loop at its smallest vertex index, for a deterministic order.
    const int first = next.begin()->first;
    double off = -1e300;
    int v = first;
    for (size_t guard = 0; guard <= next.size(); ++guard) {
      h.face_vertices.push_back(vindex.at(v));
      off = std::max(off, tb.n.dot(P(v)));
      const int w = next.at(v);
      const std::pair<int, int> key = std::minmax(vindex.at(v), vindex.at(w));
      if (auto it = edge_of.find(key); it == edge_of.end()) {
        edge_of.emplace(key, static_cast<int>(h.edges.size()));
        h.edges.push_back({vindex.at(v), vindex.at(w)});
        h.edge_faces.push_back({f, -1});
      } else {
        h.edge_faces[static_cast<size_t>(it->second)][1] = f;
      }
      v = w;
      if (v == first) break;
    }
    h.face_offsets.push_back(off);
  }
  h.face_start.push_back(static_cast<int>(h.face_vertices.size()));
  return h;
}

double ConvexHull::bounding_radius() const {
  double r = 0;
  for (const Vec3& v : vertices) r = std::max(r, v.norm());
  return r;
}

double ConvexHull::inner_radius() const {
  const Vec3 c = mass_properties(*this).centroid;
  double r = 1e300;
  for (int f = 0; f < num_faces(); ++f)
    r = std::min(r, face_offsets[static_cast<size_t>(f)] - face_normals[static_cast<size_t>(f)].dot(c));
  return r;
}

namespace {

/// Eberly's subexpressions of the polynomial integrals over a triangle, for one coordinate.
void subexpressions(double w0, double w1, double w2, double& f1, double& f2, double& f3, double& g0, double& g1,
                    double& g2) {
  const double temp0 = w0 + w1;
  f1 = temp0 + w2;
  const double temp1 = w0 * w0;
  const double temp2 = temp1 + w1 * temp0;
  f2 = temp2 + w2 * f1;
  f3 = w0 * temp1 + w1 * temp2 + w2 * f2;
  g0 = f2 + w0 * (f1 + w0);
  g1 = f2 + w1 * (f1 + w1);
  g2 = f2 + w2 * (f1 + w2);
}

}  // namespace

PolyhedronMass mass_properties(const ConvexHull& h) {
  // Eberly (2002), "Polyhedral Mass Properties (Revisited)": the integrals of 1, x, y, z, x², y²,
  // z², xy, yz, zx over the solid, each a sum over the boundary triangles (divergence theorem).
  double integral[10] = {};
  for (int f = 0; f < h.num_faces(); ++f) {
    const int s = h.face_start[static_cast<size_t>(f)], e = h.face_start[static_cast<size_t>(f) + 1];
    const Vec3& p0 = h.vertices[static_cast<size_t>(h.face_vertices[static_cast<size_t>(s)])];
    for (int k = s + 1; k + 1 < e; ++k) {
      const Vec3& p1 = h.vertices[static_cast<size_t>(h.face_vertices[static_cast<size_t>(k)])];
      const Vec3& p2 = h.vertices[static_cast<size_t>(h.face_vertices[static_cast<size_t>(k) + 1])];
      const Vec3 d = (p1 - p0).cross(p2 - p0);
      double f1x, f2x, f3x, g0x, g1x, g2x, f1y, f2y, f3y, g0y, g1y, g2y, f1z, f2z, f3z, g0z, g1z, g2z;
      subexpressions(p0.x(), p1.x(), p2.x(), f1x, f2x, f3x, g0x, g1x, g2x);
      subexpressions(p0.y(), p1.y(), p2.y(), f1y, f2y, f3y, g0y, g1y, g2y);
      subexpressions(p0.z(), p1.z(), p2.z(), f1z, f2z, f3z, g0z, g1z, g2z);
      integral[0] += d.x() * f1x;
      integral[1] += d.x() * f2x;
      integral[2] += d.y() * f2y;
      integral[3] += d.z() * f2z;
      integral[4] += d.x() * f3x;
      integral[5] += d.y() * f3y;
      integral[6] += d.z() * f3z;
      integral[7] += d.x() * (p0.y() * g0x + p1.y() * g1x + p2.y() * g2x);
      integral[8] += d.y() * (p0.z() * g0y + p1.z() * g1y + p2.z() * g2y);
      integral[9] += d.z() * (p0.x() * g0z + p1.x() * g1z + p2.x() * g2z);
    }
  }
  const double mult[10] = {1.0 / 6, 1.0 / 24, 1.0 / 24, 1.0 / 24, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 120, 1.0 / 120, 1.0 / 120};
  for (int i = 0; i < 10; ++i) integral[i] *= mult[i];
  PolyhedronMass m;
  m.volume = integral[0];
  if (!(m.volume > 0)) return m;
  const Vec3 c = Vec3(integral[1], integral[2], integral[3]) / m.volume;
  m.centroid = c;
  const double V = m.volume;
  Mat3& J = m.inertia;
  J(0, 0) = integral[5] + integral[6] - V * (c.y() * c.y() + c.z() * c.z());
  J(1, 1) = integral[4] + integral[6] - V * (c.z() * c.z() + c.x() * c.x());
  J(2, 2) = integral[4] + integral[5] - V * (c.x() * c.x() + c.y() * c.y());
  J(0, 1) = J(1, 0) = -(integral[7] - V * c.x() * c.y());
  J(1, 2) = J(2, 1) = -(integral[8] - V * c.y() * c.z());
  J(0, 2) = J(2, 0) = -(integral[9] - V * c.z() * c.x());
  return m;
}

double mesh_volume(std::span<const Vec3> v, std::span<const std::array<int, 3>> tri) {
  double six_v = 0;
  for (const auto& t : tri) {
    const size_t a = static_cast<size_t>(t[0]), b = static_cast<size_t>(t[1]), c = static_cast<size_t>(t[2]);
    if (a >= v.size() || b >= v.size() || c >= v.size()) continue;
    six_v += v[a].dot(v[b].cross(v[c]));
  }
  return six_v / 6;
}

}  // namespace mbdae
