#pragma once
// Saddle-point (KKT) matrix of a constrained system, with its pattern built once:
//
//     S = [ A       C_qᵀ ]      A: n×n (tangent pattern), C: m×n (constraint Jacobian pattern)
//         [ s·C     −ε I ]      ε ≥ 0 (see fill()); the diagonal is always in the pattern
//
// The upper-right block is ∂r/∂λ: C_qᵀ, or CTᵀ (fill(..., use_ct)) where applied forces read the
// multipliers (ConstrainedSystem::assemble_multiplier_tangent(), on C's pattern).
//
// Private to the solvers.

#include <algorithm>
#include <cmath>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/formulations/Sparsity.h>

namespace mbdae::detail {

class Kkt {
 public:
  explicit Kkt(const ConstrainedSystem& sys) : n_(sys.num_coordinates()), m_(sys.num_constraints()) {
    A = sys.tangent_pattern();
    C = sys.jacobian_pattern();
    C2 = C;
    CT = C;
    const int N = n_ + m_;
    PatternBuilder pb(N, N);
    for (int c = 0; c < A.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(A, c); it; ++it) pb.add(static_cast<int>(it.row()), c);
    for (int c = 0; c < C.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(C, c); it; ++it) {
        pb.add(n_ + static_cast<int>(it.row()), c);
        pb.add(c, n_ + static_cast<int>(it.row()));
      }
    for (int r = 0; r < m_; ++r) pb.add(n_ + r, n_ + r);
    S = pb.build();
    mapA_.reserve(static_cast<size_t>(A.nonZeros()));
    for (int c = 0; c < A.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(A, c); it; ++it)
        mapA_.push_back(value_index(S, static_cast<int>(it.row()), c));
    for (int c = 0; c < C.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(C, c); it; ++it) {
        mapC_.push_back(value_index(S, n_ + static_cast<int>(it.row()), c));
        mapCT_.push_back(value_index(S, c, n_ + static_cast<int>(it.row())));
      }
    for (int c = 0, k = 0; c < A.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(A, c); it; ++it, ++k)
        if (it.row() == c) diagA_.push_back(k);
    for (int r = 0; r < m_; ++r) mapD_.push_back(value_index(S, n_ + r, n_ + r));
  }

  /// S ← [A, Cuᵀ; s·Cb, −ε I] with Cb = C (or C2 if use_c2: a different lower-left block on C's
  /// pattern), Cu = C (or CT if use_ct: (∂r/∂λ)ᵀ on C's pattern) and ε = reg / max_i |A_ii| (0 if
  /// reg = 0 or A has no nonzero diagonal); returns ε.
  double fill(double s, bool use_c2 = false, double reg = 0, bool use_ct = false) {
    zero_values(S);
    double* v = S.valuePtr();
    const double* a = A.valuePtr();
    for (size_t k = 0; k < mapA_.size(); ++k) v[mapA_[k]] += a[k];
    const double* c = C.valuePtr();
    const double* c2 = use_c2 ? C2.valuePtr() : c;
    const double* ct = use_ct ? CT.valuePtr() : c;
    for (size_t k = 0; k < mapC_.size(); ++k) {
      v[mapC_[k]] += s * c2[k];
      v[mapCT_[k]] += ct[k];
    }
    double amax = 0;
    for (int k : diagA_) amax = std::max(amax, std::abs(a[k]));
    const double eps = (reg > 0 && amax > 0) ? reg / amax : 0.0;
    for (int k : mapD_) v[k] = -eps;
    return eps;
  }

  /// After fill(): rows with row_flag[r] (entries of C's pattern flagged in entry_flag, in C's
  /// value order) leave the system: their C and Cᵀ entries become 0 and their diagonal −1, so
  /// their multiplier is 0 and the other rows are untouched.
  void drop_rows(const std::vector<char>& row_flag, const std::vector<char>& entry_flag) {
    double* v = S.valuePtr();
    for (size_t k = 0; k < mapC_.size() && k < entry_flag.size(); ++k)
      if (entry_flag[k]) v[mapC_[k]] = v[mapCT_[k]] = 0.0;
    for (int r = 0; r < m_ && static_cast<size_t>(r) < row_flag.size(); ++r)
      if (row_flag[static_cast<size_t>(r)]) v[mapD_[static_cast<size_t>(r)]] = -1.0;
  }

  int n() const { return n_; }
  int m() const { return m_; }

  SparseMatrix A, C, C2, CT, S;

 private:
  int n_, m_;
  std::vector<int> mapA_, mapC_, mapCT_, diagA_, mapD_;
};

}  // namespace mbdae::detail
