// The block LDLᵀ of the explicit path's joint system against a dense computation: random block
// patterns with node sizes 1 … 6 (fill from closed cycles included), symmetric positive definite
// and saddle-point matrices, zero pivots, and patterns without their fill.

#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "../formulations/src/BlockLdlt.h"

using mbdae::MatX;
using mbdae::VecX;
using mbdae::detail::BlockLdlt;

namespace {

struct Problem {
  std::vector<int> sizes, offset;
  std::vector<std::set<int>> adj;  // node graph (both directions)
  MatX A;
};

/// The pattern of L for the order 0 … n−1: the later neighbours of k once the nodes before it
/// are eliminated (each elimination joins its later neighbours into a clique).
std::vector<std::vector<int>> symbolic(const Problem& p) {
  std::vector<std::set<int>> g = p.adj;
  std::vector<std::vector<int>> below(p.sizes.size());
  for (size_t k = 0; k < p.sizes.size(); ++k) {
    for (int u : g[k])
      if (u > static_cast<int>(k)) below[k].push_back(u);
    for (int u : below[k])
      for (int w : below[k])
        if (u != w) g[static_cast<size_t>(u)].insert(w);
  }
  return below;
}

/// Dense scalar LDLᵀ without pivoting: the pivots.
VecX dense_pivots(MatX A) {
  const int n = static_cast<int>(A.rows());
  VecX d(n);
  for (int k = 0; k < n; ++k) {
    d[k] = A(k, k);
    for (int i = k + 1; i < n; ++i) {
      const double l = A(i, k) / d[k];
      for (int j = k + 1; j <= i; ++j) A(i, j) -= l * A(j, k);
    }
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < i; ++j) A(j, i) = A(i, j);
  }
  return d;
}

/// Loads A's blocks into f (after analyze).
void load(const Problem& p, BlockLdlt& f) {
  f.set_zero();
  const int nn = static_cast<int>(p.sizes.size());
  for (int k = 0; k < nn; ++k) {
    f.diag(k).topLeftCorner(p.sizes[static_cast<size_t>(k)], p.sizes[static_cast<size_t>(k)]) =
        p.A.block(p.offset[static_cast<size_t>(k)], p.offset[static_cast<size_t>(k)], p.sizes[static_cast<size_t>(k)],
                  p.sizes[static_cast<size_t>(k)]);
    for (int i : p.adj[static_cast<size_t>(k)])
      if (i > k)
        f.off(f.find(i, k)).topLeftCorner(p.sizes[static_cast<size_t>(i)], p.sizes[static_cast<size_t>(k)]) =
            p.A.block(p.offset[static_cast<size_t>(i)], p.offset[static_cast<size_t>(k)], p.sizes[static_cast<size_t>(i)],
                      p.sizes[static_cast<size_t>(k)]);
  }
}

/// Random node sizes and graph: a path through all nodes plus `extra` random edges (cycles,
/// hence fill), and an SPD matrix with that block pattern.
Problem random_spd(std::mt19937& rng, int nn, int extra) {
  Problem p;
  std::uniform_int_distribution<int> size(1, 6), node(0, nn - 1);
  std::uniform_real_distribution<double> u(-1, 1);
  p.offset.push_back(0);
  for (int k = 0; k < nn; ++k) {
    p.sizes.push_back(size(rng));
    p.offset.push_back(p.offset.back() + p.sizes.back());
  }
  p.adj.assign(static_cast<size_t>(nn), {});
  auto edge = [&](int a, int b) {
    if (a == b) return;
    p.adj[static_cast<size_t>(a)].insert(b);
    p.adj[static_cast<size_t>(b)].insert(a);
  };
  for (int k = 0; k + 1 < nn; ++k) edge(k, k + 1);
  for (int e = 0; e < extra; ++e) edge(node(rng), node(rng));
  const int n = p.offset.back();
  MatX B = MatX::Zero(n, n);
  for (int k = 0; k < nn; ++k)
    for (int i = 0; i < nn; ++i)
      if (i == k || p.adj[static_cast<size_t>(k)].count(i))
        for (int r = 0; r < p.sizes[static_cast<size_t>(i)]; ++r)
          for (int c = 0; c < p.sizes[static_cast<size_t>(k)]; ++c)
            B(p.offset[static_cast<size_t>(i)] + r, p.offset[static_cast<size_t>(k)] + c) = u(rng);
  p.A = B + B.transpose();  // same pattern, symmetric
  p.A.diagonal().array() += 2.0 * n;  // diagonally dominant: positive definite
  return p;
}

void check_solve(const Problem& p, BlockLdlt& f) {
  load(p, f);
  REQUIRE(f.factorize() == -1);
  const VecX d = dense_pivots(p.A);
  CHECK((f.d() - d).cwiseAbs().maxCoeff() < 1e-12 * d.cwiseAbs().maxCoeff());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  VecX b(p.A.rows());
  for (int i = 0; i < b.size(); ++i) b[i] = u(rng);
  VecX x = b;
  f.solve(x);
  const VecX xd = p.A.fullPivLu().solve(b);
  INFO("n " << b.size() << ", |x − x_dense| " << (x - xd).norm());
  CHECK((x - xd).norm() < 1e-11 * xd.norm());
  CHECK((p.A * x - b).norm() < 1e-11 * b.norm());
}

}  // namespace

TEST_CASE("Block LDLt: random SPD block patterns with fill match a dense solve", "[block_ldlt]") {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 40; ++trial) {
    const int nn = 2 + trial % 15;
    const Problem p = random_spd(rng, nn, trial % 5);
    BlockLdlt f;
    f.analyze(p.sizes, symbolic(p));
    INFO("trial " << trial << ", " << nn << " nodes");
    check_solve(p, f);
    check_solve(p, f);  // a second factorization on the same storage
  }
}

TEST_CASE("Block LDLt: saddle-point matrix, bodies first", "[block_ldlt]") {
  // Three bodies (6 each) and joints between them and ground, [M Jᵀ; J 0]: positive pivots on
  // the bodies, negative ones on the joints.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  Problem p;
  p.sizes = {6, 6, 6, 5, 3, 4, 1};  // bodies 0 … 2; joints: ground–0, 0–1, 1–2, 2–0 (a loop)
  const std::vector<std::pair<int, int>> joint_bodies = {{-1, 0}, {0, 1}, {1, 2}, {2, 0}};
  p.offset = {0};
  for (int s : p.sizes) p.offset.push_back(p.offset.back() + s);
  p.adj.assign(p.sizes.size(), {});
  const int n = p.offset.back();
  p.A = MatX::Zero(n, n);
  for (int b = 0; b < 3; ++b) {
    MatX R = MatX::Random(6, 6);
    p.A.block(6 * b, 6 * b, 6, 6) = R * R.transpose() + 6 * MatX::Identity(6, 6);
  }
  for (size_t j = 0; j < joint_bodies.size(); ++j) {
    const int node = 3 + static_cast<int>(j);
    for (int b : {joint_bodies[j].first, joint_bodies[j].second}) {
      if (b < 0) continue;
      p.adj[static_cast<size_t>(node)].insert(b);
      p.adj[static_cast<size_t>(b)].insert(node);
      for (int r = 0; r < p.sizes[static_cast<size_t>(node)]; ++r)
        for (int c = 0; c < 6; ++c) {
          const double v = u(rng);
          p.A(p.offset[static_cast<size_t>(node)] + r, 6 * b + c) = v;
          p.A(6 * b + c, p.offset[static_cast<size_t>(node)] + r) = v;
        }
    }
  }
  BlockLdlt f;
  f.analyze(p.sizes, symbolic(p));
  check_solve(p, f);
  for (int s = 0; s < n; ++s) {
    INFO("scalar " << s);
    CHECK((s < 18 ? f.d()[s] > 0 : f.d()[s] < 0));
  }
}

TEST_CASE("Block LDLt: a zero pivot is reported at its scalar position", "[block_ldlt]") {
  // Two 3-nodes; the second row of node 1 is a copy of its first: singular at scalar 3 + 1.
  Problem p;
  p.sizes = {3, 3};
  p.offset = {0, 3, 6};
  p.adj = {{1}, {0}};
  MatX G(6, 5);
  G.setRandom();
  MatX A = G * G.transpose();  // rank 5 of 6
  // make row/column 4 a combination of rows 3 and the others: replace with row 3's copy
  A.row(4) = A.row(3);
  A.col(4) = A.col(3);
  p.A = A;
  BlockLdlt f;
  f.analyze(p.sizes, symbolic(p));
  load(p, f);
  CHECK(f.factorize() == 4);
}

TEST_CASE("Block LDLt: a pattern without its fill is rejected", "[block_ldlt]") {
  // A triangle of nodes 0–1, 0–2, 1–2 eliminated in order needs block (2, 1); leave it out.
  BlockLdlt f;
  CHECK_THROWS_WITH(f.analyze({2, 2, 2}, {{1, 2}, {}, {}}), Catch::Contains("fill block (2, 1)"));
  CHECK_THROWS_AS(f.analyze({2, 7}, {{1}, {}}), std::invalid_argument);
  CHECK_THROWS_AS(f.analyze({2, 2}, {{0}, {}}), std::invalid_argument);
}
