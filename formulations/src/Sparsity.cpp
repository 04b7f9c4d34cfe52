#include <mbdae/formulations/Sparsity.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mbdae {

void PatternBuilder::add(int row, int col) {
  if (row < 0 || row >= rows_ || col < 0 || col >= cols_)
    throw std::out_of_range("PatternBuilder: entry (" + std::to_string(row) + ", " +
                            std::to_string(col) + ") outside " + std::to_string(rows_) + "x" +
                            std::to_string(cols_));
  entries_.emplace_back(row, col);
}

void PatternBuilder::add_block(int r0, int nr, int c0, int nc) {
  for (int j = 0; j < nc; ++j)
    for (int i = 0; i < nr; ++i) add(r0 + i, c0 + j);
}

void PatternBuilder::add_block(const std::vector<int>& rows, const std::vector<int>& cols) {
  for (int c : cols)
    for (int r : rows) add(r, c);
}

SparseMatrix PatternBuilder::build() const {
  std::vector<Eigen::Triplet<double, int>> t;
  t.reserve(entries_.size());
  for (const auto& [r, c] : entries_) t.emplace_back(r, c, 0.0);
  SparseMatrix A(rows_, cols_);
  A.setFromTriplets(t.begin(), t.end());  // duplicates are summed: still zero
  A.makeCompressed();
  return A;
}

int value_index(const SparseMatrix& A, int row, int col) {
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const int* begin = inner + outer[col];
  const int* end = inner + outer[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  if (it == end || *it != row)
    throw std::logic_error("sparsity pattern has no entry (" + std::to_string(row) + ", " +
                           std::to_string(col) + ")");
  return static_cast<int>(it - inner);
}

BlockMap BlockMap::make(const SparseMatrix& A, const std::vector<int>& rows,
                        const std::vector<int>& cols) {
  BlockMap m;
  m.nr = static_cast<int>(rows.size());
  m.nc = static_cast<int>(cols.size());
  m.index.assign(rows.size() * cols.size(), -1);
  for (int j = 0; j < m.nc; ++j)
    for (int i = 0; i < m.nr; ++i) {
      const int col = cols[static_cast<size_t>(j)];
      const int row = rows[static_cast<size_t>(i)];
      const int* outer = A.outerIndexPtr();
      const int* inner = A.innerIndexPtr();
      const int* b = inner + outer[col];
      const int* e = inner + outer[col + 1];
      const int* it = std::lower_bound(b, e, row);
      if (it != e && *it == row) m.index[static_cast<size_t>(i + j * m.nr)] = static_cast<int>(it - inner);
    }
  return m;
}

}  // namespace mbdae
