// Broad phase (uniform grid, sorted cell keys) for the contact shapes and the detector that
// combines it with the narrow phase (NarrowPhase.cpp).

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/ContactGeometry.h>
#include <mbdae/formulations/ContactPairs.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace mbdae {


ContactDetector::ContactDetector(const NewtonEulerSystem& sys) : sys_(sys) {
  const System& m = sys.model();
  std::vector<ModelProblem> problems;
  const std::unordered_map<std::string, BodyIndex> body_index = m.body_indices();  // not find_body(): O(bodies) each
  for (size_t k = 0; k < m.contacts().size(); ++k) {
    const Contact& c = m.contacts()[k];
    const ItemRef item = ItemRef::contact(static_cast<int>(k));
    for (auto& p : contact_problems(c)) problems.push_back({std::move(p), item});
    const auto bi = body_index.find(c.body);
    if (bi == body_index.end()) {
      problems.push_back({"contact '" + c.name + "': unknown body '" + c.body + "'", item});
      continue;
    }
    Shape s{};
    s.index = static_cast<int>(k);
    s.body = bi->second;
    s.pos_B = c.position - (s.body == kGround ? Vec3::Zero() : sys.com_offset(s.body));
    s.R_BS = c.orientation;
    s.g = placed_shape(c);
    s.bound = c.bounding_radius();
    s.g.c_W = s.pos_B;
    s.g.R_WS = s.R_BS;
    shapes_.push_back(s);
    if (c.shape == ShapeType::Plane) planes_.push_back(static_cast<int>(shapes_.size()) - 1);
    else finite_.push_back(static_cast<int>(shapes_.size()) - 1);
  }
  if (problems.empty())
    for (ModelProblem& p : contact_pair_problems(m, ContactPath::Impulse)) problems.push_back(std::move(p));
  if (!problems.empty()) throw ModelError(std::move(problems));
  for (int si : finite_) {
    bound_.push_back(shapes_[static_cast<size_t>(si)].bound);
    group_.push_back(static_cast<int>(shapes_[static_cast<size_t>(si)].body));
  }
  centre_.reserve(finite_.size());
  grid_.reserve(finite_.size());
}

void GridBroadPhase::find_pairs(const std::vector<Vec3>& c, const std::vector<double>& r,
                                const std::vector<int>& group, double margin,
                                std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const size_t N = c.size();
  if (N < 2) return;
  const double mg = std::max(margin, 0.0);
  // Uniform grid: cell size 2 × the largest bounding radius (+ margin), so overlapping spheres are
  // in the same or neighbouring cells.
  double rmax = 0;
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (size_t e = 0; e < N; ++e) {
    rmax = std::max(rmax, r[e]);
    lo = lo.cwiseMin(c[e]);
    hi = hi.cwiseMax(c[e]);
  }
  const double cell = 2 * rmax + mg + 1e-12;
  const Eigen::Array3d ext = ((hi - lo) / cell).array().floor() + 1;
  if (!(ext.maxCoeff() < 2e6)) return;  // non-finite or absurd positions: no pairs
  const std::uint64_t ny = static_cast<std::uint64_t>(ext[1]), nz = static_cast<std::uint64_t>(ext[2]);
  const std::uint64_t nx = static_cast<std::uint64_t>(ext[0]);
  auto cell_of = [&](const Vec3& x, std::int64_t& ix, std::int64_t& iy, std::int64_t& iz) {
    ix = static_cast<std::int64_t>((x.x() - lo.x()) / cell);
    iy = static_cast<std::int64_t>((x.y() - lo.y()) / cell);
    iz = static_cast<std::int64_t>((x.z() - lo.z()) / cell);
  };
  auto key_of = [&](std::int64_t ix, std::int64_t iy, std::int64_t iz) {
    return (static_cast<std::uint64_t>(ix) * ny + static_cast<std::uint64_t>(iy)) * nz +
           static_cast<std::uint64_t>(iz);
  };
  auto test_pair = [&](int i, int j) {
    const size_t a = static_cast<size_t>(i), b = static_cast<size_t>(j);
    if (group[a] == group[b]) return;
    const double rr = r[a] + r[b] + mg;
    if ((c[a] - c[b]).squaredNorm() > rr * rr) return;
    pairs.emplace_back(std::min(i, j), std::max(i, j));
  };
  auto in_grid = [&](std::int64_t jx, std::int64_t jy, std::int64_t jz) {
    return jx >= 0 && jy >= 0 && jz >= 0 && jx < static_cast<std::int64_t>(nx) && jy < static_cast<std::int64_t>(ny) &&
           jz < static_cast<std::int64_t>(nz);
  };
  const double ncells = ext[0] * ext[1] * ext[2];
  if (ncells <= static_cast<double>(4 * N + 1024)) {
    // Dense grid: the spheres bucketed by a counting sort (cell_start_[c] … cell_start_[c + 1] − 1
    // index cell_items_), so a neighbouring cell is found by its index, without a search.
    const size_t nc = static_cast<size_t>(ncells);
    cell_start_.assign(nc + 1, 0);
    cell_items_.resize(N);
    item_cell_.resize(N);
    for (size_t e = 0; e < N; ++e) {
      std::int64_t ix, iy, iz;
      cell_of(c[e], ix, iy, iz);
      item_cell_[e] = key_of(ix, iy, iz);
      ++cell_start_[item_cell_[e] + 1];
    }
    for (size_t k = 0; k < nc; ++k) cell_start_[k + 1] += cell_start_[k];
    for (size_t e = 0; e < N; ++e) cell_items_[static_cast<size_t>(cell_start_[item_cell_[e]]++)] = static_cast<int>(e);
    for (size_t k = nc; k > 0; --k) cell_start_[k] = cell_start_[k - 1];
    cell_start_[0] = 0;
    for (std::uint64_t key = 0; key < nc; ++key) {
      const int b0 = cell_start_[key], b1 = cell_start_[key + 1];
      if (b0 == b1) continue;
      const std::int64_t iz = static_cast<std::int64_t>(key % nz), iy = static_cast<std::int64_t>((key / nz) % ny),
                         ix = static_cast<std::int64_t>(key / (nz * ny));
      for (int e = b0; e < b1; ++e) {
        const int si = cell_items_[static_cast<size_t>(e)];
        // Same cell: the entries after this one.
        for (int f = e + 1; f < b1; ++f) test_pair(si, cell_items_[static_cast<size_t>(f)]);
        // Neighbouring cells with a larger index (each pair of cells is visited once).
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz) {
              const std::int64_t jx = ix + dx, jy = iy + dy, jz = iz + dz;
              if (!in_grid(jx, jy, jz)) continue;
              const std::uint64_t nk = key_of(jx, jy, jz);
              if (nk <= key) continue;
              for (int f = cell_start_[nk]; f < cell_start_[nk + 1]; ++f) test_pair(si, cell_items_[static_cast<size_t>(f)]);
            }
      }
    }
    return;
  }
  // Sparse grid (spheres spread over many more cells than there are spheres): sorted cell keys.
  cells_.clear();
  for (size_t e = 0; e < N; ++e) {
    std::int64_t ix, iy, iz;
    cell_of(c[e], ix, iy, iz);
    cells_.emplace_back(key_of(ix, iy, iz), static_cast<int>(e));
  }
  std::sort(cells_.begin(), cells_.end());
  for (size_t e = 0; e < N; ++e) {
    const auto [key, si] = cells_[e];
    for (size_t f = e + 1; f < N && cells_[f].first == key; ++f) test_pair(si, cells_[f].second);
    std::int64_t ix, iy, iz;
    cell_of(c[static_cast<size_t>(si)], ix, iy, iz);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const std::int64_t jx = ix + dx, jy = iy + dy, jz = iz + dz;
          if (!in_grid(jx, jy, jz)) continue;
          const std::uint64_t nk = key_of(jx, jy, jz);
          if (nk <= key) continue;
          auto it = std::lower_bound(cells_.begin(), cells_.end(), std::make_pair(nk, -1));
          for (; it != cells_.end() && it->first == nk; ++it) test_pair(si, it->second);
        }
  }
}

void GridBroadPhase::reserve(size_t n) {
  cells_.reserve(n);
  cell_start_.reserve(4 * n + 1024 + 1);  // the largest dense grid (find_pairs)
  cell_items_.reserve(n);
  item_cell_.reserve(n);
}

bool plane_may_touch(const PlacedShape& plane, const Vec3& c, double bound, double margin) {
  const Vec3 n = plane.R_WS * plane.normal;
  return n.dot(c - plane.c_W) - plane.offset - bound < margin;
}

void ContactDetector::detect(const VecX& q, double margin, std::vector<ContactPoint>& out) {
  out.clear();
  pairs_ = 0;
  // World poses of the shapes on bodies (ground shapes keep their body-frame pose as world pose).
  for (Shape& s : shapes_) {
    if (s.body == kGround) continue;
    const Mat3 R = sys_.rotation(s.body, q);
    s.g.c_W = sys_.com_position(s.body, q) + R * s.pos_B;
    s.g.R_WS = R * s.R_BS;
  }
  // Planes against every finite shape on another body.
  for (int pi : planes_)
    for (int si : finite_) {
      const Shape& s = shapes_[static_cast<size_t>(si)];
      const Shape& pl = shapes_[static_cast<size_t>(pi)];
      if (s.body == pl.body || !plane_may_touch(pl.g, s.g.c_W, s.bound, margin)) continue;
      ++pairs_;
      narrow(pl, s, margin, out);
    }
  // Finite shapes: the grid.
  centre_.resize(finite_.size());
  for (size_t e = 0; e < finite_.size(); ++e) centre_[e] = shapes_[static_cast<size_t>(finite_[e])].g.c_W;
  grid_.find_pairs(centre_, bound_, group_, margin, candidates_);
  for (const auto& [i, j] : candidates_) {
    ++pairs_;
    narrow(shapes_[static_cast<size_t>(finite_[static_cast<size_t>(i)])],
           shapes_[static_cast<size_t>(finite_[static_cast<size_t>(j)])], margin, out);
  }
}

void ContactDetector::narrow(const Shape& s1, const Shape& s2, double margin,
                             std::vector<ContactPoint>& out) const {
  PairPoint pts[kMaxPairPoints];
  bool swapped = false;
  const int k = narrow_phase(s1.g, s2.g, margin, pts, swapped);
  const Shape& A = swapped ? s2 : s1;
  const Shape& B = swapped ? s1 : s2;
  for (int i = 0; i < k; ++i) {
    ContactPoint cp;
    cp.shape_a = A.index;
    cp.shape_b = B.index;
    cp.a = A.body;
    cp.b = B.body;
    cp.p = pts[i].p;
    cp.n = pts[i].n;
    cp.depth = pts[i].depth;
    cp.feature = pts[i].feature;
    cp.r_eff = pts[i].r_eff;
    const ContactMaterial mat = sys_.compiled()->material(A.index, B.index);
    cp.friction = mat.friction;
    cp.restitution = mat.restitution;
    cp.rolling_resistance = mat.rolling_resistance;
    cp.torsional_friction = mat.torsional_friction;
    out.push_back(cp);
  }
}


namespace {
/// The thickness initial_overlap_problems() measures an overlap against (its doc), m.
double thickness(const Contact& c) {
  switch (c.shape) {
    case ShapeType::Plane: return std::numeric_limits<double>::infinity();
    case ShapeType::Sphere:
    case ShapeType::Capsule: return c.radius;
    case ShapeType::Cylinder: return std::min(c.radius, c.half_length);
    case ShapeType::Box: return c.half_extents.minCoeff();
    case ShapeType::ConvexMesh: return c.hull ? c.hull->inner_radius() : 0;
  }
  return 0;
}
}  // namespace

std::vector<ModelProblem> initial_overlap_problems(const NewtonEulerSystem& sys, const VecX& q) {
  std::vector<ModelProblem> problems;
  const auto& contacts = sys.model().contacts();
  if (contacts.size() < 2) return problems;
  ContactDetector detector(sys);
  std::vector<ContactPoint> points;
  detector.detect(q, 0.0, points);
  std::map<std::pair<int, int>, double> deepest;  // pair -> largest penetration, m
  for (const ContactPoint& cp : points) {
    const std::pair<int, int> key = std::minmax(cp.shape_a, cp.shape_b);
    double& d = deepest[key];
    d = std::max(d, -cp.depth);
  }
  for (const auto& [pair, depth] : deepest) {
    const Contact& a = contacts[static_cast<size_t>(pair.first)];
    const Contact& b = contacts[static_cast<size_t>(pair.second)];
    const double allowed = kInitialOverlapFraction * std::min(thickness(a), thickness(b));
    if (!(depth > allowed)) continue;
    char text[512];
    std::snprintf(text, sizeof text,
                  "contact shapes '%s' and '%s' overlap by %.3g m at the start (resting contact allows %.3g m, a "
                  "tenth of the thinner shape's radius or half thickness); the contacts would push them apart "
                  "with energy that no force supplies: move the bodies apart or change the shapes",
                  a.name.c_str(), b.name.c_str(), depth, allowed);
    // About the second shape (as a pair that is not handled), unless it is on ground.
    const auto body_b = sys.model().find_body(b.body);
    const int item = body_b && *body_b == kGround ? pair.first : pair.second;
    problems.push_back({text, ItemRef::contact(item)});
  }
  return problems;
}

std::vector<ModelProblem> initial_overlap_problems(const System& model) {
  if (model.contacts().size() < 2) return {};
  const NewtonEulerSystem given(model);
  VecX q, v;
  given.initial_state(q, v);
  return initial_overlap_problems(given, q);
}

}  // namespace mbdae
