#pragma once
/// @file SparseLu.h
/// Sparse LU factorisation (KLU from SuiteSparse) of a matrix whose pattern is fixed: the
/// symbolic analysis (fill-reducing ordering) is done once, numeric factorisations reuse it.

#include <memory>

#include <mbdae/model/Types.h>

namespace mbdae {

class SparseLu {
 public:
  SparseLu();
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  /// Symbolic analysis of A's pattern (square, compressed). Call again only if the pattern changes.
  void analyze(const SparseMatrix& A);
  /// Numeric factorisation of A (same pattern as analysed). Reuses the previous pivot order when
  /// it stays well conditioned, otherwise factorises afresh. Returns false if A is singular.
  bool factorize(const SparseMatrix& A);
  /// Solves A x = b in place (b ← x), after a successful factorize().
  void solve(Eigen::Ref<VecX> b) const;
  /// Reciprocal pivot growth estimate of the last factorisation (cheap; small means trouble).
  double rcond() const;
  bool analyzed() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae
