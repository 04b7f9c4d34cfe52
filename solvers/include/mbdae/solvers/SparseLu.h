#pragma once
/// @file SparseLu.h
/// Sparse LU factorisation (KLU from SuiteSparse) of a matrix whose pattern is fixed: the
/// symbolic analysis (fill-reducing ordering) is done once, numeric factorisations reuse it.

#include <memory>

#include <mbdae/model/Types.h>

namespace mbdae {

/// KLU wrapper (RAII; not copyable). Typical use: analyze() once, then factorize() and solve()
/// per Newton matrix. Not for concurrent use.
class SparseLu {
 public:
  /// An empty factorisation (no analysis yet).
  SparseLu();
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  /// Symbolic analysis of A's pattern (square, compressed). Call again only if the pattern changes.
  /// @throws std::invalid_argument if A is not square or not compressed; std::runtime_error if
  /// KLU's analysis fails.
  void analyze(const SparseMatrix& A);
  /// Numeric factorisation of A (same pattern as analysed). Reuses the previous pivot order when
  /// it stays well conditioned (rcond > 1e-10), otherwise factorises afresh. Returns false if A
  /// is singular or rcond ≤ 1e-14. Analyses A first if analyze() was not called.
  /// @throws as analyze() when it analyses.
  bool factorize(const SparseMatrix& A);
  /// Solves A x = b in place (b ← x, size n = A.rows(), not checked), after a successful
  /// factorize(). @throws std::logic_error if there is no factorisation.
  void solve(Eigen::Ref<VecX> b) const;
  /// KLU's cheap reciprocal condition estimate min|U_ii| / max|U_ii| of the last factorisation
  /// (klu_rcond; small means trouble). Not meaningful before the first successful factorize().
  double rcond() const;
  /// True if the last factorize() chose a new pivot sequence (klu_factor) rather than reusing the
  /// previous one (klu_refactor): the result of later refactorisations depends on the matrix it
  /// chose them from (a restart that must reproduce them forms that matrix again first).
  bool chose_pivots() const;
  /// Forgets the analysis and the factors (the next factorize() starts afresh).
  void clear();
  /// True once a symbolic analysis exists.
  bool analyzed() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae
