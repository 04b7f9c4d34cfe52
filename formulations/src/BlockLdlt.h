#pragma once
// Block LDLᵀ factorization with a fixed block pattern (internal header).
//
// The matrix is made of dense node blocks of at most 6 × 6 (a body's 6 velocities, a joint's rows).
// Nodes are numbered in elimination order; the caller gives each node's size and, for each node k,
// the later nodes i > k whose block L_ik is nonzero (fill included: the neighbours that k has when
// it is eliminated from the node graph, as a minimum-degree ordering computes them). Right-looking
// block elimination, node after node, without pivoting — in exact arithmetic it produces the same
// L and D as the scalar LDLᵀ in the same order, so the caller's order must give nonzero pivots
// (e.g. bodies before the joints on them for a saddle-point matrix):
//   A_kk = L_kk D_k L_kkᵀ              (unit lower L_kk, diagonal D_k: scalar LDLᵀ of the block)
//   Y_ik = A_ik L_kk⁻ᵀ,  L_ik = Y_ik D_k⁻¹
//   A_ij −= L_ik Y_jkᵀ                 for i ≥ j among the later neighbours of k.
// The same block right-looking scheme as Baraff's linear-time Lagrange-multiplier method (Baraff,
// "Linear-time dynamics using Lagrange multipliers", SIGGRAPH 1996), for any order and pattern. The
// blocks are dense fixed-size storage, so the inner products are small dense products instead of
// the index chasing of a scalar sparse LDLᵀ. analyze() allocates; set_zero(), factorize() and
// solve() do not.

#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include <mbdae/model/System.h>

namespace mbdae::detail {

/// Blocks are multiplied at a fixed size: a node's size (1 … 6) rounded up to 3 or 6. The rows
/// and columns beyond a node's size are zero in every off-diagonal block.
inline int block_capacity(int size) { return size <= 3 ? 3 : 6; }

/// Calls f(P) with P = std::integral_constant<int, block_capacity(size)>, so that f can use the
/// capacity as a compile-time size.
template <class F>
void with_capacity(int size, F&& f) {
  if (block_capacity(size) == 3)
    f(std::integral_constant<int, 3>{});
  else
    f(std::integral_constant<int, 6>{});
}

class BlockLdlt {
 public:
  using Block = Eigen::Matrix<double, 6, 6>;

  /// sizes[k] (1 … 6): scalars of node k; below[k]: the nodes i > k with a block L_ik, ascending.
  /// Throws std::invalid_argument if the pattern is not closed under elimination (a fill block
  /// missing) or a size is out of range.
  void analyze(const std::vector<int>& sizes, const std::vector<std::vector<int>>& below);

  /// Zeroes every block of A (before the caller adds the values of a new matrix).
  void set_zero();
  /// Diagonal block of node k (the caller writes both triangles or at least the lower one).
  Block& diag(int k) { return diag_[static_cast<size_t>(k)]; }
  /// Index of the off-diagonal block (i, k), i > k, or −1 if it is not in the pattern.
  int find(int i, int k) const;
  /// Off-diagonal block by index from find(): rows of node i, columns of node k.
  Block& off(int idx) { return off_[static_cast<size_t>(idx)]; }

  /// Factorizes in place. Returns the scalar position (offset of the node + row) of the first
  /// zero or non-finite pivot, or −1. The caller checks the pivots' signs and sizes through d().
  int factorize();
  /// Solves L D Lᵀ x = b in place; x has size() scalars, node after node in elimination order.
  void solve(double* x);
  void solve(VecX& x) { solve(x.data()); }

  /// The pivots D (scalar positions in elimination order).
  const VecX& d() const { return D_; }
  int size() const { return n_; }
  int num_nodes() const { return static_cast<int>(size_.size()); }
  int offset(int k) const { return offset_[static_cast<size_t>(k)]; }

 private:
  int n_ = 0;
  std::vector<int> size_, offset_;
  std::vector<int> colptr_, row_;   // off blocks of node k: colptr_[k] … colptr_[k+1], row node
  std::vector<Block> diag_, off_;
  std::vector<int> upd_ptr_, upd_;  // per pair (a ≤ b) of column k's blocks: target (≥ 0 off, < 0 diag)
  std::vector<Block> Y_;            // Y_ik of the column being eliminated
  std::vector<int> poff_;           // node offsets in the padded work vector (sizes rounded up to 3 or 6)
  std::vector<double> xp_;  // padded work vector of solve()
  VecX D_;
};

}  // namespace mbdae::detail
