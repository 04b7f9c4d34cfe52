// Sparse LDLᵀ with a fixed pattern; algorithm in SparseLdlt.h (Davis, ACM TOMS 31, 2005).

#include "SparseLdlt.h"

#include <cmath>

namespace mbdae::detail {

void SparseLdlt::analyze(int n, const std::vector<int>& colptr, const std::vector<int>& rowind) {
  n_ = n;
  Ap_ = colptr;
  Ai_ = rowind;
  parent_.assign(static_cast<size_t>(n), -1);
  Lnz_.assign(static_cast<size_t>(n), 0);
  flag_.assign(static_cast<size_t>(n), -1);
  pattern_.assign(static_cast<size_t>(n), 0);
  // Elimination tree and column counts of L: the row pattern of row k of L is the union of the
  // tree paths from the nonzeros a_ik (i < k) up to k.
  for (int k = 0; k < n; ++k) {
    flag_[static_cast<size_t>(k)] = k;
    for (int p = Ap_[static_cast<size_t>(k)]; p < Ap_[static_cast<size_t>(k) + 1]; ++p) {
      for (int i = Ai_[static_cast<size_t>(p)]; i < k && flag_[static_cast<size_t>(i)] != k;
           i = parent_[static_cast<size_t>(i)]) {
        if (parent_[static_cast<size_t>(i)] == -1) parent_[static_cast<size_t>(i)] = k;
        ++Lnz_[static_cast<size_t>(i)];
        flag_[static_cast<size_t>(i)] = k;
      }
    }
  }
  Lp_.assign(static_cast<size_t>(n) + 1, 0);
  for (int k = 0; k < n; ++k)
    Lp_[static_cast<size_t>(k) + 1] = Lp_[static_cast<size_t>(k)] + Lnz_[static_cast<size_t>(k)];
  Li_.assign(static_cast<size_t>(Lp_[static_cast<size_t>(n)]), 0);
  Lx_.assign(static_cast<size_t>(Lp_[static_cast<size_t>(n)]), 0.0);
  D_.setZero(n);
  Y_.setZero(n);
}

int SparseLdlt::factorize(const std::vector<double>& val) {
  int bad = -1;
  const int n = n_;
  for (int k = 0; k < n; ++k) {
    // Scatter column k of the upper triangle into Y and find the row pattern of L (topological
    // order along the elimination tree, stored in pattern_[top … n)).
    Y_[k] = 0;
    int top = n;
    flag_[static_cast<size_t>(k)] = k;
    Lnz_[static_cast<size_t>(k)] = 0;
    for (int p = Ap_[static_cast<size_t>(k)]; p < Ap_[static_cast<size_t>(k) + 1]; ++p) {
      int i = Ai_[static_cast<size_t>(p)];
      Y_[i] += val[static_cast<size_t>(p)];
      int len = 0;
      for (; flag_[static_cast<size_t>(i)] != k; i = parent_[static_cast<size_t>(i)]) {
        pattern_[static_cast<size_t>(len++)] = i;
        flag_[static_cast<size_t>(i)] = k;
      }
      while (len > 0) pattern_[static_cast<size_t>(--top)] = pattern_[static_cast<size_t>(--len)];
    }
    double dk = Y_[k];
    Y_[k] = 0;
    for (; top < n; ++top) {
      const int i = pattern_[static_cast<size_t>(top)];
      const double yi = Y_[i];
      Y_[i] = 0;
      const int p0 = Lp_[static_cast<size_t>(i)];
      const int p2 = p0 + Lnz_[static_cast<size_t>(i)];
      for (int p = p0; p < p2; ++p) Y_[Li_[static_cast<size_t>(p)]] -= Lx_[static_cast<size_t>(p)] * yi;
      const double lki = yi / D_[i];
      dk -= lki * yi;
      Li_[static_cast<size_t>(p2)] = k;
      Lx_[static_cast<size_t>(p2)] = lki;
      ++Lnz_[static_cast<size_t>(i)];
    }
    D_[k] = dk;
    if (bad < 0 && !(std::isfinite(dk) && dk != 0)) bad = k;
  }
  return bad;
}

void SparseLdlt::solve(double* x) const {
  const int n = n_;
  for (int j = 0; j < n; ++j) {
    const double xj = x[j];
    for (int p = Lp_[static_cast<size_t>(j)]; p < Lp_[static_cast<size_t>(j) + 1]; ++p)
      x[Li_[static_cast<size_t>(p)]] -= Lx_[static_cast<size_t>(p)] * xj;
  }
  for (int j = 0; j < n; ++j) x[j] /= D_[j];
  for (int j = n - 1; j >= 0; --j) {
    double xj = x[j];
    for (int p = Lp_[static_cast<size_t>(j)]; p < Lp_[static_cast<size_t>(j) + 1]; ++p)
      xj -= Lx_[static_cast<size_t>(p)] * x[Li_[static_cast<size_t>(p)]];
    x[j] = xj;
  }
}

void SparseLdlt::solve(VecX& x) const { solve(x.data()); }

}  // namespace mbdae::detail
