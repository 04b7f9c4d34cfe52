#include <mbdae/solvers/SparseLu.h>

#include <stdexcept>
#include <string>

#include <klu.h>

namespace mbdae {

struct SparseLu::Impl {
  mutable klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  int n = 0;
  bool chose_pivots = false;
  Impl() { klu_defaults(&common); }
  ~Impl() { release(); }
  void release() {
    if (numeric) klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
};

SparseLu::SparseLu() : impl_(std::make_unique<Impl>()) {}
SparseLu::~SparseLu() = default;

bool SparseLu::analyzed() const { return impl_->symbolic != nullptr; }

void SparseLu::analyze(const SparseMatrix& A) {
  if (A.rows() != A.cols() || !A.isCompressed())
    throw std::invalid_argument("SparseLu::analyze: matrix must be square and compressed");
  impl_->release();
  impl_->n = static_cast<int>(A.rows());
  impl_->symbolic = klu_analyze(impl_->n, const_cast<int*>(A.outerIndexPtr()),
                                const_cast<int*>(A.innerIndexPtr()), &impl_->common);
  if (!impl_->symbolic)
    throw std::runtime_error("KLU symbolic analysis failed (status " +
                             std::to_string(impl_->common.status) + ")");
}

bool SparseLu::factorize(const SparseMatrix& A) {
  Impl& I = *impl_;
  if (!I.symbolic) analyze(A);
  int* Ap = const_cast<int*>(A.outerIndexPtr());
  int* Ai = const_cast<int*>(A.innerIndexPtr());
  double* Ax = const_cast<double*>(A.valuePtr());
  if (I.numeric) {
    // Same pivot sequence as before: cheap, but only safe while the pivots stay healthy.
    if (klu_refactor(Ap, Ai, Ax, I.symbolic, I.numeric, &I.common) &&
        klu_rcond(I.symbolic, I.numeric, &I.common) && I.common.rcond > 1e-10) {
      I.chose_pivots = false;
      return true;
    }
    klu_free_numeric(&I.numeric, &I.common);
  }
  I.numeric = klu_factor(Ap, Ai, Ax, I.symbolic, &I.common);
  I.chose_pivots = true;
  if (!I.numeric || I.common.status == KLU_SINGULAR) {
    if (I.numeric) klu_free_numeric(&I.numeric, &I.common);
    return false;
  }
  klu_rcond(I.symbolic, I.numeric, &I.common);
  return I.common.rcond > 1e-14;
}

void SparseLu::solve(Eigen::Ref<VecX> b) const {
  if (!impl_->numeric) throw std::logic_error("SparseLu::solve before a successful factorize");
  klu_solve(impl_->symbolic, impl_->numeric, impl_->n, 1, b.data(), &impl_->common);
}

double SparseLu::rcond() const { return impl_->common.rcond; }
bool SparseLu::chose_pivots() const { return impl_->chose_pivots; }
void SparseLu::clear() {
  impl_->release();
  impl_->symbolic = nullptr;
  impl_->numeric = nullptr;
  impl_->chose_pivots = false;
}

}  // namespace mbdae
