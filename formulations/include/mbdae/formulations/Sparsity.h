#pragma once
/// @file Sparsity.h
/// Building fixed sparsity patterns once, and locating entries of a pattern so that assembly can
/// scatter dense element blocks into the compressed value array without searching or allocating.

#include <utility>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// Collects (row, col) positions, then builds a compressed-column matrix with zero values.
class PatternBuilder {
 public:
  /// An empty pattern of size rows × cols (both ≥ 0; not checked).
  PatternBuilder(int rows, int cols) : rows_(rows), cols_(cols) {}
  /// Adds entry (row, col); duplicates are allowed and merged by build().
  /// @throws std::out_of_range if row ∉ [0, rows) or col ∉ [0, cols).
  void add(int row, int col);
  /// Every (r, c) with r in [r0, r0+nr), c in [c0, c0+nc). @throws std::out_of_range as add().
  void add_block(int r0, int nr, int c0, int nc);
  /// Every (rows[i], cols[j]). @throws std::out_of_range as add().
  void add_block(const std::vector<int>& rows, const std::vector<int>& cols);
  /// The pattern with explicit zeros; compressed, sorted, no duplicates.
  SparseMatrix build() const;

 private:
  int rows_, cols_;
  std::vector<std::pair<int, int>> entries_;
};

/// Index of entry (row, col) in A.valuePtr(); A must be compressed and 0 ≤ col < A.cols() (not
/// checked). @throws std::logic_error if the entry is not in the pattern.
int value_index(const SparseMatrix& A, int row, int col);

/// Sets every stored value of A to zero, keeping the pattern.
inline void zero_values(SparseMatrix& A) {
  std::fill(A.valuePtr(), A.valuePtr() + A.nonZeros(), 0.0);
}

/// Precomputed value indices of a dense block rows × cols inside a sparse matrix, column-major
/// (entry (i, j) of the block at index[i + j*rows.size()]); -1 where the entry is outside the
/// pattern (such entries are then skipped by scatter_add).
struct BlockMap {
  int nr = 0;  ///< block rows (= rows.size() given to make())
  int nc = 0;  ///< block columns (= cols.size())
  std::vector<int> index;  ///< nr·nc value indices into A.valuePtr(), column-major, −1 if absent
  /// The map of block rows × cols of A (compressed; indices in range, not checked). Entries
  /// outside the pattern get −1; no throw other than std::bad_alloc.
  static BlockMap make(const SparseMatrix& A, const std::vector<int>& rows,
                       const std::vector<int>& cols);
  /// A.values[index] += s * B(i, j) for a dense block B of size nr × nc.
  template <class Derived>
  void scatter_add(SparseMatrix& A, const Eigen::MatrixBase<Derived>& B, double s = 1.0) const {
    double* val = A.valuePtr();
    for (int j = 0; j < nc; ++j)
      for (int i = 0; i < nr; ++i) {
        const int k = index[static_cast<size_t>(i + j * nr)];
        if (k >= 0) val[k] += s * B(i, j);
      }
  }
};

}  // namespace mbdae
