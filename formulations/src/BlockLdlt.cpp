// Block LDLᵀ with a fixed block pattern; the algorithm is described in BlockLdlt.h.

#include "BlockLdlt.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mbdae::detail {

namespace {
using Block = BlockLdlt::Block;
}  // namespace

void BlockLdlt::analyze(const std::vector<int>& sizes, const std::vector<std::vector<int>>& below) {
  const int nn = static_cast<int>(sizes.size());
  if (below.size() != sizes.size()) throw std::invalid_argument("BlockLdlt: sizes and pattern differ in length");
  size_ = sizes;
  offset_.assign(static_cast<size_t>(nn) + 1, 0);
  for (int k = 0; k < nn; ++k) {
    const int s = sizes[static_cast<size_t>(k)];
    if (s < 1 || s > 6) throw std::invalid_argument("BlockLdlt: node size " + std::to_string(s) + " not in 1 … 6");
    offset_[static_cast<size_t>(k) + 1] = offset_[static_cast<size_t>(k)] + s;
  }
  n_ = offset_[static_cast<size_t>(nn)];
  poff_.assign(static_cast<size_t>(nn) + 1, 0);
  for (int k = 0; k < nn; ++k)
    poff_[static_cast<size_t>(k) + 1] = poff_[static_cast<size_t>(k)] + block_capacity(sizes[static_cast<size_t>(k)]);
  xp_.assign(static_cast<size_t>(poff_[static_cast<size_t>(nn)]), 0.0);
  colptr_.assign(static_cast<size_t>(nn) + 1, 0);
  row_.clear();
  size_t widest = 0;
  for (int k = 0; k < nn; ++k) {
    const std::vector<int>& b = below[static_cast<size_t>(k)];
    for (size_t t = 0; t < b.size(); ++t)
      if (b[t] <= k || b[t] >= nn || (t > 0 && b[t] <= b[t - 1]))
        throw std::invalid_argument("BlockLdlt: pattern of node " + std::to_string(k) + " is not ascending below it");
    row_.insert(row_.end(), b.begin(), b.end());
    colptr_[static_cast<size_t>(k) + 1] = static_cast<int>(row_.size());
    widest = std::max(widest, b.size());
  }
  diag_.assign(static_cast<size_t>(nn), Block::Zero());
  off_.assign(row_.size(), Block::Zero());
  Y_.assign(widest, Block::Zero());
  // Update targets of each column: pairs (a ≤ b) of its blocks, b-major.
  upd_ptr_.assign(static_cast<size_t>(nn) + 1, 0);
  upd_.clear();
  for (int k = 0; k < nn; ++k) {
    const int p0 = colptr_[static_cast<size_t>(k)], p1 = colptr_[static_cast<size_t>(k) + 1];
    for (int b = p0; b < p1; ++b)
      for (int a = p0; a <= b; ++a) {
        const int i = row_[static_cast<size_t>(b)], j = row_[static_cast<size_t>(a)];
        if (i == j) {
          upd_.push_back(-1 - i);
        } else {
          const int idx = find(i, j);
          if (idx < 0)
            throw std::invalid_argument("BlockLdlt: fill block (" + std::to_string(i) + ", " + std::to_string(j) +
                                        ") of node " + std::to_string(k) + " is missing from the pattern");
          upd_.push_back(idx);
        }
      }
    upd_ptr_[static_cast<size_t>(k) + 1] = static_cast<int>(upd_.size());
  }
  D_.setZero(n_);
}

int BlockLdlt::find(int i, int k) const {
  const auto b = row_.begin() + colptr_[static_cast<size_t>(k)];
  const auto e = row_.begin() + colptr_[static_cast<size_t>(k) + 1];
  const auto it = std::lower_bound(b, e, i);
  return (it != e && *it == i) ? static_cast<int>(it - row_.begin()) : -1;
}

void BlockLdlt::set_zero() {
  for (Block& b : diag_) b.setZero();
  for (Block& b : off_) b.setZero();
}

namespace {

/// T (Pi × Pj) −= L (Pi × Pk) Y (Pj × Pk)ᵀ.
template <int Pi, int Pj, int Pk>
void update(Block& T, const Block& L, const Block& Y) {
  T.topLeftCorner<Pi, Pj>().noalias() -= L.topLeftCorner<Pi, Pk>() * Y.topLeftCorner<Pj, Pk>().transpose();
}

/// Y = B L_kk⁻ᵀ (unit lower L_kk in the strict lower triangle of A), B ← Y D⁻¹; s columns.
template <int Pi>
void column_block(int s, const Block& A, const double* d, Block& B, Block& Y) {
  for (int c = 0; c < s; ++c) {
    Eigen::Matrix<double, Pi, 1> y = B.col(c).head<Pi>();
    for (int q = 0; q < c; ++q) y -= A(c, q) * Y.col(q).head<Pi>();
    Y.col(c).head<Pi>() = y;
    B.col(c).head<Pi>() = y / d[c];
  }
  for (int c = s; c < 6; ++c) Y.col(c).head<Pi>().setZero();
}

}  // namespace

int BlockLdlt::factorize() {
  int bad = -1;
  const int nn = num_nodes();
  for (int k = 0; k < nn; ++k) {
    const int s = size_[static_cast<size_t>(k)];
    Block& A = diag_[static_cast<size_t>(k)];
    double* d = D_.data() + offset_[static_cast<size_t>(k)];
    // Scalar LDLᵀ of the diagonal block (lower triangle), in place: A = L D Lᵀ.
    for (int c = 0; c < s; ++c) {
      double dc = A(c, c);
      for (int p = 0; p < c; ++p) dc -= A(c, p) * A(c, p) * d[p];
      d[c] = dc;
      if (bad < 0 && !(std::isfinite(dc) && dc != 0)) bad = offset_[static_cast<size_t>(k)] + c;
      for (int r = c + 1; r < s; ++r) {
        double v = A(r, c);
        for (int p = 0; p < c; ++p) v -= A(r, p) * A(c, p) * d[p];
        A(r, c) = v / dc;
      }
    }
    // Column blocks: Y_ik = A_ik L_kk⁻ᵀ, L_ik = Y_ik D_k⁻¹.
    const int p0 = colptr_[static_cast<size_t>(k)], p1 = colptr_[static_cast<size_t>(k) + 1];
    for (int p = p0; p < p1; ++p) {
      Block& B = off_[static_cast<size_t>(p)];
      Block& Y = Y_[static_cast<size_t>(p - p0)];
      with_capacity(size_[static_cast<size_t>(row_[static_cast<size_t>(p)])],
                    [&](auto Pi) { column_block<decltype(Pi)::value>(s, A, d, B, Y); });
    }
    // Schur complement on the later nodes: A_ij −= L_ik Y_jkᵀ.
    const int* u = upd_.data() + upd_ptr_[static_cast<size_t>(k)];
    for (int b = p0; b < p1; ++b) {
      const int si = size_[static_cast<size_t>(row_[static_cast<size_t>(b)])];
      const Block& L = off_[static_cast<size_t>(b)];
      for (int a = p0; a <= b; ++a, ++u) {
        const int sj = size_[static_cast<size_t>(row_[static_cast<size_t>(a)])];
        Block& T = *u >= 0 ? off_[static_cast<size_t>(*u)] : diag_[static_cast<size_t>(-1 - *u)];
        const Block& Y = Y_[static_cast<size_t>(a - p0)];
        with_capacity(si, [&](auto Pi) {
          with_capacity(sj, [&](auto Pj) {
            with_capacity(s, [&](auto Pk) {
              update<decltype(Pi)::value, decltype(Pj)::value, decltype(Pk)::value>(T, L, Y);
            });
          });
        });
      }
    }
  }
  return bad;
}

namespace {

/// x_i −= L_ik z_k (forward) or z_k −= L_ikᵀ x_i (backward), at the capacities Pi × Pk.
template <int Pi, int Pk>
void forward(const Block& L, const double* zk, double* xi) {
  Eigen::Map<Eigen::Matrix<double, Pi, 1>>(xi).noalias() -=
      L.topLeftCorner<Pi, Pk>() * Eigen::Map<const Eigen::Matrix<double, Pk, 1>>(zk);
}
template <int Pi, int Pk>
void backward(const Block& L, const double* xi, double* zk) {
  Eigen::Map<Eigen::Matrix<double, Pk, 1>>(zk).noalias() -=
      L.topLeftCorner<Pi, Pk>().transpose() * Eigen::Map<const Eigen::Matrix<double, Pi, 1>>(xi);
}

}  // namespace

void BlockLdlt::solve(double* x) {
  const int nn = num_nodes();
  // Work in a copy padded to the capacities (zeros beyond each node's size), so that every
  // block product has a fixed size; the padding stays zero (the padded rows and columns of the
  // off-diagonal blocks are zero).
  double* xp = xp_.data();
  for (int k = 0; k < nn; ++k) {
    const int s = size_[static_cast<size_t>(k)], o = poff_[static_cast<size_t>(k)];
    for (int c = 0; c < block_capacity(s); ++c) xp[o + c] = c < s ? x[offset_[static_cast<size_t>(k)] + c] : 0.0;
  }
  // L z = b, node by node.
  for (int k = 0; k < nn; ++k) {
    const int s = size_[static_cast<size_t>(k)];
    double* zk = xp + poff_[static_cast<size_t>(k)];
    const Block& A = diag_[static_cast<size_t>(k)];
    for (int r = 1; r < s; ++r)
      for (int c = 0; c < r; ++c) zk[r] -= A(r, c) * zk[c];
    for (int p = colptr_[static_cast<size_t>(k)]; p < colptr_[static_cast<size_t>(k) + 1]; ++p) {
      const int i = row_[static_cast<size_t>(p)];
      double* xi = xp + poff_[static_cast<size_t>(i)];
      with_capacity(size_[static_cast<size_t>(i)], [&](auto Pi) {
        with_capacity(s, [&](auto Pk) {
          forward<decltype(Pi)::value, decltype(Pk)::value>(off_[static_cast<size_t>(p)], zk, xi);
        });
      });
    }
  }
  for (int k = 0; k < nn; ++k) {
    const double* d = D_.data() + offset_[static_cast<size_t>(k)];
    double* zk = xp + poff_[static_cast<size_t>(k)];
    for (int c = 0; c < size_[static_cast<size_t>(k)]; ++c) zk[c] /= d[c];
  }
  // Lᵀ x = w, backwards.
  for (int k = nn - 1; k >= 0; --k) {
    const int s = size_[static_cast<size_t>(k)];
    double* zk = xp + poff_[static_cast<size_t>(k)];
    for (int p = colptr_[static_cast<size_t>(k)]; p < colptr_[static_cast<size_t>(k) + 1]; ++p) {
      const int i = row_[static_cast<size_t>(p)];
      const double* xi = xp + poff_[static_cast<size_t>(i)];
      with_capacity(size_[static_cast<size_t>(i)], [&](auto Pi) {
        with_capacity(s, [&](auto Pk) {
          backward<decltype(Pi)::value, decltype(Pk)::value>(off_[static_cast<size_t>(p)], xi, zk);
        });
      });
    }
    const Block& A = diag_[static_cast<size_t>(k)];
    for (int r = s - 2; r >= 0; --r)
      for (int c = r + 1; c < s; ++c) zk[r] -= A(c, r) * zk[c];
  }
  for (int k = 0; k < nn; ++k) {
    const int o = poff_[static_cast<size_t>(k)], s = size_[static_cast<size_t>(k)];
    for (int c = 0; c < s; ++c) x[offset_[static_cast<size_t>(k)] + c] = xp[o + c];
  }
}

}  // namespace mbdae::detail
