// The uniform-grid broad phase (GridBroadPhase, ContactGeometry.h) and the plane test of the
// shapes that the grid does not hold.

#include <mbdae/contact/ContactGeometry.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace mbdae {

namespace {

/// The uniform grid of one find_pairs() call: origin lo, cell size, nx × ny × nz cells.
struct Grid {
  Vec3 lo;
  double cell = 0;
  std::uint64_t nx = 0, ny = 0, nz = 0;
  void cell_of(const Vec3& x, std::int64_t& ix, std::int64_t& iy, std::int64_t& iz) const {
    ix = static_cast<std::int64_t>((x.x() - lo.x()) / cell);
    iy = static_cast<std::int64_t>((x.y() - lo.y()) / cell);
    iz = static_cast<std::int64_t>((x.z() - lo.z()) / cell);
  }
  std::uint64_t key_of(std::int64_t ix, std::int64_t iy, std::int64_t iz) const {
    return (static_cast<std::uint64_t>(ix) * ny + static_cast<std::uint64_t>(iy)) * nz +
           static_cast<std::uint64_t>(iz);
  }
  bool in_grid(std::int64_t jx, std::int64_t jy, std::int64_t jz) const {
    return jx >= 0 && jy >= 0 && jz >= 0 && jx < static_cast<std::int64_t>(nx) && jy < static_cast<std::int64_t>(ny) &&
           jz < static_cast<std::int64_t>(nz);
  }
  /// visit(nk) for each neighbouring cell nk of cell (ix, iy, iz) (key `key`) in the grid with a
  /// larger key (each pair of cells is visited once).
  template <class Visit>
  void later_neighbours(std::int64_t ix, std::int64_t iy, std::int64_t iz, std::uint64_t key, Visit&& visit) const {
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const std::int64_t jx = ix + dx, jy = iy + dy, jz = iz + dz;
          if (!in_grid(jx, jy, jz)) continue;
          const std::uint64_t nk = key_of(jx, jy, jz);
          if (nk <= key) continue;
          visit(nk);
        }
  }
};

/// The sphere test of a candidate pair: different groups and overlapping spheres (+ margin).
struct PairTest {
  const std::vector<Vec3>& c;
  const std::vector<double>& r;
  const std::vector<int>& group;
  double mg;
  std::vector<std::pair<int, int>>& pairs;
  void operator()(int i, int j) const {
    const size_t a = static_cast<size_t>(i), b = static_cast<size_t>(j);
    if (group[a] == group[b]) return;
    const double rr = r[a] + r[b] + mg;
    if ((c[a] - c[b]).squaredNorm() > rr * rr) return;
    pairs.emplace_back(std::min(i, j), std::max(i, j));
  }
};

/// Dense grid of nc cells: the spheres bucketed by a counting sort (cell_start[c] …
/// cell_start[c + 1] − 1 index cell_items), so a neighbouring cell is found by its index, without
/// a search.
void dense_pairs(const Grid& g, size_t nc, const std::vector<Vec3>& c, const PairTest& test_pair,
                 std::vector<int>& cell_start, std::vector<int>& cell_items, std::vector<std::uint64_t>& item_cell) {
  const size_t N = c.size();
  cell_start.assign(nc + 1, 0);
  cell_items.resize(N);
  item_cell.resize(N);
  for (size_t e = 0; e < N; ++e) {
    std::int64_t ix, iy, iz;
    g.cell_of(c[e], ix, iy, iz);
    item_cell[e] = g.key_of(ix, iy, iz);
    ++cell_start[item_cell[e] + 1];
  }
  for (size_t k = 0; k < nc; ++k) cell_start[k + 1] += cell_start[k];
  for (size_t e = 0; e < N; ++e) cell_items[static_cast<size_t>(cell_start[item_cell[e]]++)] = static_cast<int>(e);
  for (size_t k = nc; k > 0; --k) cell_start[k] = cell_start[k - 1];
  cell_start[0] = 0;
  for (std::uint64_t key = 0; key < nc; ++key) {
    const int b0 = cell_start[key], b1 = cell_start[key + 1];
    if (b0 == b1) continue;
    const std::int64_t iz = static_cast<std::int64_t>(key % g.nz), iy = static_cast<std::int64_t>((key / g.nz) % g.ny),
                       ix = static_cast<std::int64_t>(key / (g.nz * g.ny));
    for (int e = b0; e < b1; ++e) {
      const int si = cell_items[static_cast<size_t>(e)];
      // Same cell: the entries after this one.
      for (int f = e + 1; f < b1; ++f) test_pair(si, cell_items[static_cast<size_t>(f)]);
      // Neighbouring cells with a larger index (each pair of cells is visited once).
      g.later_neighbours(ix, iy, iz, key, [&](std::uint64_t nk) {
        for (int f = cell_start[nk]; f < cell_start[nk + 1]; ++f) test_pair(si, cell_items[static_cast<size_t>(f)]);
      });
    }
  }
}

/// Sparse grid (spheres spread over many more cells than there are spheres): sorted cell keys.
void sparse_pairs(const Grid& g, const std::vector<Vec3>& c, const PairTest& test_pair,
                  std::vector<std::pair<std::uint64_t, int>>& cells) {
  const size_t N = c.size();
  cells.clear();
  for (size_t e = 0; e < N; ++e) {
    std::int64_t ix, iy, iz;
    g.cell_of(c[e], ix, iy, iz);
    cells.emplace_back(g.key_of(ix, iy, iz), static_cast<int>(e));
  }
  std::sort(cells.begin(), cells.end());
  for (size_t e = 0; e < N; ++e) {
    // Plain variables, not a structured binding: the lambda below captures si (clang before 16
    // does not capture structured bindings).
    const std::uint64_t key = cells[e].first;
    const int si = cells[e].second;
    for (size_t f = e + 1; f < N && cells[f].first == key; ++f) test_pair(si, cells[f].second);
    std::int64_t ix, iy, iz;
    g.cell_of(c[static_cast<size_t>(si)], ix, iy, iz);
    g.later_neighbours(ix, iy, iz, key, [&](std::uint64_t nk) {
      auto it = std::lower_bound(cells.begin(), cells.end(), std::make_pair(nk, -1));
      for (; it != cells.end() && it->first == nk; ++it) test_pair(si, it->second);
    });
  }
}

}  // namespace

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
  Grid g;
  g.lo = lo;
  g.cell = cell;
  g.ny = static_cast<std::uint64_t>(ext[1]);
  g.nz = static_cast<std::uint64_t>(ext[2]);
  g.nx = static_cast<std::uint64_t>(ext[0]);
  const PairTest test_pair{c, r, group, mg, pairs};
  const double ncells = ext[0] * ext[1] * ext[2];
  if (ncells <= static_cast<double>(4 * N + 1024))
    dense_pairs(g, static_cast<size_t>(ncells), c, test_pair, cell_start_, cell_items_, item_cell_);
  else
    sparse_pairs(g, c, test_pair, cells_);
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

}  // namespace mbdae
