#pragma once
// Sparse LDLᵀ factorization with a fixed pattern (internal header).
//
// Up-looking factorization of a symmetric matrix, row by row of L, along the elimination tree
// (T. A. Davis, "Algorithm 849: A concise sparse Cholesky factorization package", ACM TOMS 31,
// 2005, Sec. 2–3: the pattern of row k of L is the set of nodes reached in the elimination tree
// from the nonzeros of column k of the upper triangle). No pivoting: the order is chosen once by
// the caller (it must give nonzero pivots, e.g. bodies before the joints on them for a saddle-point
// matrix). The symbolic analysis (elimination tree, column counts) runs once in analyze(); after
// that factorize() and solve() do no heap allocation and cost O(|L|) resp. O(|L| + n).
//
// The matrix is given in permuted order as the UPPER triangle in compressed columns (row indices
// of column k are < = k; the diagonal entry must be present, possibly zero).

#include <vector>

#include <mbdae/model/System.h>

namespace mbdae::detail {

class SparseLdlt {
 public:
  /// Analyzes the pattern (colptr size n+1, rowind of the upper triangle incl. the diagonal).
  void analyze(int n, const std::vector<int>& colptr, const std::vector<int>& rowind);
  /// Numeric factorization of the matrix with values `val` (same layout as rowind). Returns the
  /// index of the first zero or non-finite pivot, or −1. The caller checks the pivots' signs and
  /// sizes through d().
  int factorize(const std::vector<double>& val);
  /// Solves L D Lᵀ x = b in place (x has size n, permuted order).
  void solve(VecX& x) const;
  /// Solves in place for a raw array of size n.
  void solve(double* x) const;
  /// The pivots D (permuted order).
  const VecX& d() const { return D_; }
  /// Number of off-diagonal nonzeros of L.
  int nnz_l() const { return static_cast<int>(Li_.size()); }
  int size() const { return n_; }

 private:
  int n_ = 0;
  std::vector<int> Ap_, Ai_;  // pattern of the upper triangle
  std::vector<int> parent_, Lnz_, Lp_, Li_, flag_, pattern_;
  std::vector<double> Lx_;
  VecX D_, Y_;
};

}  // namespace mbdae::detail
