// Broad phase (uniform grid, sorted cell keys) and narrow phase for the contact shapes. The
// closest-point formulas are the standard ones (Ericson, "Real-Time Collision Detection", 2005,
// §5.1.3 point–box, §5.2.2 sphere–plane, §5.2.5 box–plane).

#include <mbdae/formulations/ContactGeometry.h>

#include <algorithm>
#include <utility>
#include <cmath>

namespace mbdae {

namespace {

void fill_material(const Contact& ca, const Contact& cb, ContactPoint& cp) {
  cp.friction = std::sqrt(ca.friction * cb.friction);
  cp.restitution = std::max(ca.restitution, cb.restitution);
  cp.rolling_resistance = std::max(ca.rolling_resistance, cb.rolling_resistance);
}

}  // namespace

PlacedShape placed_shape(const Contact& c) {
  PlacedShape g;
  g.type = c.shape;
  g.radius = c.radius;
  g.half_length = c.half_length;
  g.half = c.half_extents;
  g.normal = c.normal.norm() > 0 ? Vec3(c.normal.normalized()) : Vec3::UnitZ();
  g.offset = c.offset;
  g.c_W = c.position;
  g.R_WS = c.orientation;
  return g;
}

int shape_order(ShapeType t) {
  switch (t) {
    case ShapeType::Plane: return 0;
    case ShapeType::Box: return 1;
    case ShapeType::Capsule: return 2;
    case ShapeType::Sphere: return 3;
  }
  return 4;
}

bool narrow_phase_handles(ShapeType x, ShapeType y) {
  if (shape_order(x) > shape_order(y)) std::swap(x, y);
  if (x == ShapeType::Plane) return y != ShapeType::Plane;
  return y == ShapeType::Sphere && (x == ShapeType::Sphere || x == ShapeType::Box);
}

int narrow_phase(const PlacedShape& s1, const PlacedShape& s2, double margin, PairPoint* out,
                 bool& swapped) {
  // Order the pair: plane first, then box, then capsule, then sphere (a is the "lower" type).
  swapped = !(shape_order(s1.type) <= shape_order(s2.type));
  const PlacedShape& A = swapped ? s2 : s1;
  const PlacedShape& B = swapped ? s1 : s2;
  int count = 0;
  auto emit = [&](const Vec3& p, const Vec3& n, double depth, int feature, double r_eff) {
    out[count++] = PairPoint{p, n, depth, feature, r_eff};
  };
  // Sphere of radius r at c against a plane.
  auto sphere_plane = [&](const PlacedShape& pl, const Vec3& c, double r, int feature) {
    const double dist = pl.normal.dot(c) - pl.offset;
    const double d = dist - r;
    if (d < margin) emit(c - pl.normal * (r + 0.5 * d), pl.normal, d, feature, r);
  };
  if (A.type == ShapeType::Plane) {
    switch (B.type) {
      case ShapeType::Sphere: sphere_plane(A, B.c_W, B.radius, 0); break;
      case ShapeType::Capsule: {
        const Vec3 ax = B.R_WS.col(2) * B.half_length;
        sphere_plane(A, B.c_W + ax, B.radius, 0);
        sphere_plane(A, B.c_W - ax, B.radius, 1);
        break;
      }
      case ShapeType::Box:
        for (int k = 0; k < 8; ++k) {
          const Vec3 corner_S((k & 1 ? 1 : -1) * B.half.x(), (k & 2 ? 1 : -1) * B.half.y(),
                              (k & 4 ? 1 : -1) * B.half.z());
          const Vec3 x = B.c_W + B.R_WS * corner_S;
          const double d = A.normal.dot(x) - A.offset;
          if (d < margin) emit(x - A.normal * (0.5 * d), A.normal, d, k, 0);
        }
        break;
      case ShapeType::Plane: break;
    }
    return count;
  }
  if (A.type == ShapeType::Sphere && B.type == ShapeType::Sphere) {
    const Vec3 dc = B.c_W - A.c_W;
    const double L = dc.norm();
    const double d = L - A.radius - B.radius;
    if (d >= margin || L == 0) return count;
    const Vec3 n = dc / L;
    emit(A.c_W + n * (A.radius + 0.5 * d), n, d, 0, A.radius * B.radius / (A.radius + B.radius));
    return count;
  }
  if (A.type == ShapeType::Box && B.type == ShapeType::Sphere) {
    const Vec3 cl = A.R_WS.transpose() * (B.c_W - A.c_W);
    const Vec3 clamped = cl.cwiseMax(-A.half).cwiseMin(A.half);
    const Vec3 diff = cl - clamped;
    const double dist = diff.norm();
    Vec3 n_S, s_S;
    double sd;
    if (dist > 0) {
      n_S = diff / dist;
      s_S = clamped;
      sd = dist;
    } else {
      // Centre inside the box: leave through the nearest face.
      int k = 0;
      double best = 1e300;
      for (int i = 0; i < 3; ++i) {
        const double gap = A.half[i] - std::abs(cl[i]);
        if (gap < best) {
          best = gap;
          k = i;
        }
      }
      n_S = Vec3::Zero();
      n_S[k] = cl[k] >= 0 ? 1 : -1;
      s_S = cl;
      s_S[k] = n_S[k] * A.half[k];
      sd = -best;
    }
    const double d = sd - B.radius;
    if (d >= margin) return count;
    const Vec3 n = A.R_WS * n_S;
    const Vec3 s_W = A.c_W + A.R_WS * s_S;
    emit(s_W + n * (0.5 * d), n, d, 0, B.radius);
    return count;
  }
  // Other pairs (box–box, capsule–sphere, …) are not handled.
  return count;
}

ContactDetector::ContactDetector(const NewtonEulerSystem& sys) : sys_(sys) {
  const System& m = sys.model();
  std::vector<ModelProblem> problems;
  for (size_t k = 0; k < m.contacts().size(); ++k) {
    const Contact& c = m.contacts()[k];
    const ItemRef item = ItemRef::contact(static_cast<int>(k));
    for (auto& p : contact_problems(c)) problems.push_back({std::move(p), item});
    const auto bi = m.find_body(c.body);
    if (!bi) {
      problems.push_back({"contact '" + c.name + "': unknown body '" + c.body + "'", item});
      continue;
    }
    Shape s{};
    s.index = static_cast<int>(k);
    s.body = *bi;
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
  if (!problems.empty()) throw ModelError(std::move(problems));
  cells_.reserve(finite_.size());
  cell_start_.reserve(dense_cell_limit() + 1);
  cell_items_.reserve(finite_.size());
  shape_cell_.reserve(finite_.size());
}

void ContactDetector::detect(const VecX& q, double margin, std::vector<ContactPoint>& out) {
  out.clear();
  pairs_ = 0;
  // World poses of the finite shapes.
  for (int si : finite_) {
    Shape& s = shapes_[static_cast<size_t>(si)];
    if (s.body == kGround) continue;  // fixed shapes keep their body-frame pose as world pose
    const Mat3 R = sys_.rotation(s.body, q);
    s.g.c_W = sys_.com_position(s.body, q) + R * s.pos_B;
    s.g.R_WS = R * s.R_BS;
  }
  // Planes against every finite shape on a body.
  for (int pi : planes_)
    for (int si : finite_) {
      const Shape& s = shapes_[static_cast<size_t>(si)];
      if (s.body == kGround) continue;
      const Shape& pl = shapes_[static_cast<size_t>(pi)];
      if (pl.g.normal.dot(s.g.c_W) - pl.g.offset - s.bound >= margin) continue;
      ++pairs_;
      narrow(pl, s, margin, out);
    }
  if (finite_.size() < 2) return;
  // Uniform grid: cell size 2 × the largest bounding radius (+ margin), so overlapping shapes are
  // in the same or neighbouring cells.
  double rmax = 0;
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (int si : finite_) {
    const Shape& s = shapes_[static_cast<size_t>(si)];
    rmax = std::max(rmax, s.bound);
    lo = lo.cwiseMin(s.g.c_W);
    hi = hi.cwiseMax(s.g.c_W);
  }
  const double cell = 2 * rmax + std::max(margin, 0.0) + 1e-12;
  const Eigen::Array3d ext = ((hi - lo) / cell).array().floor() + 1;
  if (!(ext.maxCoeff() < 2e6)) return;  // non-finite or absurd positions: no pairs
  const std::uint64_t ny = static_cast<std::uint64_t>(ext[1]), nz = static_cast<std::uint64_t>(ext[2]);
  const std::uint64_t nx = static_cast<std::uint64_t>(ext[0]);
  auto cell_of = [&](const Vec3& c, std::int64_t& ix, std::int64_t& iy, std::int64_t& iz) {
    ix = static_cast<std::int64_t>((c.x() - lo.x()) / cell);
    iy = static_cast<std::int64_t>((c.y() - lo.y()) / cell);
    iz = static_cast<std::int64_t>((c.z() - lo.z()) / cell);
  };
  auto key_of = [&](std::int64_t ix, std::int64_t iy, std::int64_t iz) {
    return (static_cast<std::uint64_t>(ix) * ny + static_cast<std::uint64_t>(iy)) * nz +
           static_cast<std::uint64_t>(iz);
  };
  auto test_pair = [&](int i, int j) {
    const Shape& s1 = shapes_[static_cast<size_t>(i)];
    const Shape& s2 = shapes_[static_cast<size_t>(j)];
    if (s1.body == s2.body) return;
    const double r = s1.bound + s2.bound + std::max(margin, 0.0);
    if ((s1.g.c_W - s2.g.c_W).squaredNorm() > r * r) return;
    ++pairs_;
    narrow(s1, s2, margin, out);
  };
  auto in_grid = [&](std::int64_t jx, std::int64_t jy, std::int64_t jz) {
    return jx >= 0 && jy >= 0 && jz >= 0 && jx < static_cast<std::int64_t>(nx) && jy < static_cast<std::int64_t>(ny) &&
           jz < static_cast<std::int64_t>(nz);
  };
  const size_t N = finite_.size();
  const double ncells = ext[0] * ext[1] * ext[2];
  if (ncells <= static_cast<double>(dense_cell_limit())) {
    // Dense grid: the shapes bucketed by a counting sort (cell_start_[c] … cell_start_[c + 1] − 1
    // index cell_items_), so a neighbouring cell is found by its index, without a search.
    const size_t nc = static_cast<size_t>(ncells);
    cell_start_.assign(nc + 1, 0);
    cell_items_.resize(N);
    shape_cell_.resize(N);
    for (size_t e = 0; e < N; ++e) {
      std::int64_t ix, iy, iz;
      cell_of(shapes_[static_cast<size_t>(finite_[e])].g.c_W, ix, iy, iz);
      shape_cell_[e] = key_of(ix, iy, iz);
      ++cell_start_[shape_cell_[e] + 1];
    }
    for (size_t c = 0; c < nc; ++c) cell_start_[c + 1] += cell_start_[c];
    for (size_t e = 0; e < N; ++e) cell_items_[static_cast<size_t>(cell_start_[shape_cell_[e]]++)] = finite_[e];
    for (size_t c = nc; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
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
  // Sparse grid (shapes spread over many more cells than there are shapes): sorted cell keys.
  cells_.clear();
  for (int si : finite_) {
    std::int64_t ix, iy, iz;
    cell_of(shapes_[static_cast<size_t>(si)].g.c_W, ix, iy, iz);
    cells_.emplace_back(key_of(ix, iy, iz), si);
  }
  std::sort(cells_.begin(), cells_.end());
  for (size_t e = 0; e < N; ++e) {
    const auto [key, si] = cells_[e];
    // Same cell: the entries after this one.
    for (size_t f = e + 1; f < N && cells_[f].first == key; ++f) test_pair(si, cells_[f].second);
    std::int64_t ix, iy, iz;
    cell_of(shapes_[static_cast<size_t>(si)].g.c_W, ix, iy, iz);
    // Neighbouring cells with a larger key (each pair of cells is visited once).
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

void ContactDetector::narrow(const Shape& s1, const Shape& s2, double margin,
                             std::vector<ContactPoint>& out) const {
  const System& m = sys_.model();
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
    fill_material(m.contacts()[static_cast<size_t>(A.index)], m.contacts()[static_cast<size_t>(B.index)], cp);
    out.push_back(cp);
  }
}

}  // namespace mbdae
