/// @file Ida.cpp
/// SUNDIALS IDA driver on the stabilized index-2 (GGL) form; see Ida.h for the equations and the
/// state layout. Only this file includes SUNDIALS headers.

#include <mbdae/solvers/Ida.h>

#include <mbdae/solvers/Assembly.h>
#include <mbdae/formulations/Sparsity.h>
#include <mbdae/solvers/SparseLu.h>

#include "ConsistentAccelerations.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <Eigen/SparseLU>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace mbdae {
namespace {

// ---------------------------------------------------------------------------------------------
// RAII for the SUNDIALS objects. Members are destroyed in reverse order of declaration, so the
// IDA memory goes first and the context last.

struct ContextFree {
  void operator()(std::remove_pointer_t<SUNContext>* c) const {
    SUNContext ctx = c;
    SUNContext_Free(&ctx);
  }
};
struct NVectorFree {
  void operator()(std::remove_pointer_t<N_Vector>* v) const { N_VDestroy(v); }
};
struct MatrixFree {
  void operator()(std::remove_pointer_t<SUNMatrix>* A) const { SUNMatDestroy(A); }
};
struct LinSolFree {
  void operator()(std::remove_pointer_t<SUNLinearSolver>* S) const { SUNLinSolFree(S); }
};
struct IdaMemFree {
  void operator()(void* mem) const { IDAFree(&mem); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using NVectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, NVectorFree>;
using MatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using LinSolPtr = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinSolFree>;
using IdaMemPtr = std::unique_ptr<void, IdaMemFree>;

/// A SUNDIALS setup call failed (not an integration failure): becomes OtherFailure.
struct SundialsSetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* ida_flag_name(int flag) {
  switch (flag) {
    case IDA_SUCCESS: return "IDA_SUCCESS";
    case IDA_TSTOP_RETURN: return "IDA_TSTOP_RETURN";
    case IDA_ROOT_RETURN: return "IDA_ROOT_RETURN";
    case IDA_WARNING: return "IDA_WARNING";
    case IDA_TOO_MUCH_WORK: return "IDA_TOO_MUCH_WORK";
    case IDA_TOO_MUCH_ACC: return "IDA_TOO_MUCH_ACC";
    case IDA_ERR_FAIL: return "IDA_ERR_FAIL";
    case IDA_CONV_FAIL: return "IDA_CONV_FAIL";
    case IDA_LINIT_FAIL: return "IDA_LINIT_FAIL";
    case IDA_LSETUP_FAIL: return "IDA_LSETUP_FAIL";
    case IDA_LSOLVE_FAIL: return "IDA_LSOLVE_FAIL";
    case IDA_RES_FAIL: return "IDA_RES_FAIL";
    case IDA_REP_RES_ERR: return "IDA_REP_RES_ERR";
    case IDA_RTFUNC_FAIL: return "IDA_RTFUNC_FAIL";
    case IDA_CONSTR_FAIL: return "IDA_CONSTR_FAIL";
    case IDA_FIRST_RES_FAIL: return "IDA_FIRST_RES_FAIL";
    case IDA_LINESEARCH_FAIL: return "IDA_LINESEARCH_FAIL";
    case IDA_NO_RECOVERY: return "IDA_NO_RECOVERY";
    case IDA_NLS_INIT_FAIL: return "IDA_NLS_INIT_FAIL";
    case IDA_NLS_SETUP_FAIL: return "IDA_NLS_SETUP_FAIL";
    case IDA_NLS_FAIL: return "IDA_NLS_FAIL";
    case IDA_MEM_NULL: return "IDA_MEM_NULL";
    case IDA_MEM_FAIL: return "IDA_MEM_FAIL";
    case IDA_ILL_INPUT: return "IDA_ILL_INPUT";
    case IDA_NO_MALLOC: return "IDA_NO_MALLOC";
    case IDA_BAD_EWT: return "IDA_BAD_EWT";
    case IDA_BAD_K: return "IDA_BAD_K";
    case IDA_BAD_T: return "IDA_BAD_T";
    case IDA_BAD_DKY: return "IDA_BAD_DKY";
    case IDA_VECTOROP_ERR: return "IDA_VECTOROP_ERR";
    case IDA_CONTEXT_ERR: return "IDA_CONTEXT_ERR";
    default: return "IDA_UNRECOGNIZED_ERROR";
  }
}

SolveStatus status_of(int flag) {
  switch (flag) {
    case IDA_TOO_MUCH_WORK: return SolveStatus::TooMuchWork;
    case IDA_ERR_FAIL: return SolveStatus::StepTooSmall;  // error test failed at minimum step
    case IDA_CONV_FAIL:
    case IDA_NLS_FAIL:
    case IDA_NLS_SETUP_FAIL: return SolveStatus::NewtonFailure;
    case IDA_RES_FAIL:
    case IDA_REP_RES_ERR:
    case IDA_FIRST_RES_FAIL: return SolveStatus::ResidualFailure;
    case IDA_LSETUP_FAIL:
    case IDA_LSOLVE_FAIL: return SolveStatus::SingularMatrix;
    default: return SolveStatus::OtherFailure;
  }
}

void check_flag(int flag, const char* call) {
  if (flag < 0)
    throw SundialsSetupError(std::string("IDA setup: ") + call + " returned " + ida_flag_name(flag));
}
template <class T>
T* check_ptr(T* p, const char* call) {
  if (p == nullptr) throw SundialsSetupError(std::string("IDA setup: ") + call + " returned NULL");
  return p;
}

std::string format_time(double t) {
  std::ostringstream s;
  s.precision(6);
  s << t;
  return s.str();
}

/// For every stored value k of `sub` (rows/cols shifted by r0/c0, optionally transposed), the
/// index of the same entry in the value array of `global`.
std::vector<int> destinations(const SparseMatrix& global, const SparseMatrix& sub, int r0, int c0,
                              bool transpose) {
  std::vector<int> dst(static_cast<size_t>(sub.nonZeros()));
  const int* outer = sub.outerIndexPtr();
  const int* inner = sub.innerIndexPtr();
  for (int j = 0; j < sub.outerSize(); ++j)
    for (int k = outer[j]; k < outer[j + 1]; ++k) {
      const int i = inner[k];
      dst[static_cast<size_t>(k)] =
          transpose ? value_index(global, r0 + j, c0 + i) : value_index(global, r0 + i, c0 + j);
    }
  return dst;
}

void add_pattern(PatternBuilder& P, const SparseMatrix& sub, int r0, int c0, bool transpose) {
  const int* outer = sub.outerIndexPtr();
  const int* inner = sub.innerIndexPtr();
  for (int j = 0; j < sub.outerSize(); ++j)
    for (int k = outer[j]; k < outer[j + 1]; ++k) {
      if (transpose)
        P.add(r0 + j, c0 + inner[k]);
      else
        P.add(r0 + inner[k], c0 + j);
    }
}

void scatter(const SparseMatrix& sub, const std::vector<int>& dst, double* values) {
  const double* v = sub.valuePtr();
  const size_t nnz = dst.size();
  for (size_t k = 0; k < nnz; ++k) values[dst[k]] = v[k];
}

// ---------------------------------------------------------------------------------------------
/// Everything the callbacks need: the system, work matrices with the system's patterns, the
/// global Jacobian pattern and the precomputed destinations of every sub-matrix value. Built once
/// per solve; the callbacks allocate nothing on the success path.
struct IdaProblem {
  IdaProblem(const ConstrainedSystem& s, bool use_sparse)
      : sys(s), ws(s.make_workspace()), n(s.num_coordinates()), m(s.num_constraints()), N(2 * n + 2 * m), sparse(use_sparse) {
    Tq = sys.tangent_pattern();
    Tv = sys.tangent_pattern();
    Cq = sys.jacobian_pattern();
    Gv = sys.jacobian_pattern();
    Dl = sys.jacobian_pattern();
    for (SparseMatrix* A : {&Tq, &Tv, &Cq, &Gv, &Dl}) A->makeCompressed();
    if (Tq.rows() != n || Tq.cols() != n)
      throw SolverSettingsError("IDA: tangent pattern is " + std::to_string(Tq.rows()) + "x" +
                                std::to_string(Tq.cols()) + ", expected " + std::to_string(n) +
                                "x" + std::to_string(n));
    if (Cq.rows() != m || Cq.cols() != n)
      throw SolverSettingsError("IDA: constraint Jacobian pattern is " +
                                std::to_string(Cq.rows()) + "x" + std::to_string(Cq.cols()) +
                                ", expected " + std::to_string(m) + "x" + std::to_string(n));

    // Block offsets of the state y = (q, v, λ, μ) and of the residual rows (same order).
    const int oq = 0, ov = n, ol = 2 * n, om = 2 * n + m;
    PatternBuilder P(N, N);
    for (int i = 0; i < n; ++i) {
      P.add(oq + i, oq + i);  // F_q/q: cj I
      P.add(oq + i, ov + i);  // F_q/v: −I
    }
    add_pattern(P, Cq, oq, om, true);   // F_q/μ: C_qᵀ
    add_pattern(P, Tq, ov, oq, false);  // F_v/q: ∂r/∂q
    add_pattern(P, Tv, ov, ov, false);  // F_v/v: ∂r/∂v + cj M
    add_pattern(P, Cq, ov, ol, true);   // F_v/λ: C_qᵀ
    add_pattern(P, Cq, ol, oq, false);  // F_λ/q: C_q
    add_pattern(P, Gv, om, oq, false);  // F_μ/q: ∂(C_q v)/∂q
    add_pattern(P, Cq, om, ov, false);  // F_μ/v: C_q
    // Velocity-level (nonholonomic) rows i: F_λ,i = A_i v + b_i (in place of C_i = 0, which they
    // do not have) and F_μ,i = μ_i. Their F_λ/q entries hold ∂(A v)/∂q (Gv, same pattern as C_q).
    vel_row.assign(static_cast<size_t>(m), 0);
    for (int r = 0; r < m; ++r) vel_row[static_cast<size_t>(r)] = s.is_velocity_level(r) ? 1 : 0;
    for (int c = 0; c < Cq.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(Cq, c); it; ++it)
        if (vel_row[static_cast<size_t>(it.row())]) P.add(ol + static_cast<int>(it.row()), ov + c);
    for (int r = 0; r < m; ++r)
      if (vel_row[static_cast<size_t>(r)]) P.add(om + r, om + r);
    J = P.build();

    // Each global entry is written by exactly one of the sources below (the blocks are disjoint),
    // so the callback assigns instead of accumulating.
    dst_cjI.resize(static_cast<size_t>(n));
    dst_minusI.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      dst_cjI[static_cast<size_t>(i)] = value_index(J, oq + i, oq + i);
      dst_minusI[static_cast<size_t>(i)] = value_index(J, oq + i, ov + i);
    }
    dst_CqT_mu = destinations(J, Cq, oq, om, true);
    dst_Tq = destinations(J, Tq, ov, oq, false);
    dst_Tv = destinations(J, Tv, ov, ov, false);
    dst_CqT_lambda = destinations(J, Cq, ov, ol, true);
    dst_Cq_q = destinations(J, Cq, ol, oq, false);
    dst_Gv = destinations(J, Gv, om, oq, false);
    dst_Cq_v = destinations(J, Cq, om, ov, false);
    for (int c = 0; c < Cq.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(Cq, c); it; ++it) {
        const bool vr = vel_row[static_cast<size_t>(it.row())] != 0;
        vel_entry.push_back(vr ? 1 : 0);
        dst_vel_A_v.push_back(vr ? value_index(J, ol + static_cast<int>(it.row()), ov + c) : -1);
      }
    for (int r = 0; r < m; ++r)
      if (vel_row[static_cast<size_t>(r)]) dst_vel_mu.push_back(value_index(J, om + r, om + r));

    const int nnz = static_cast<int>(J.nonZeros());
    colptr.assign(J.outerIndexPtr(), J.outerIndexPtr() + N + 1);
    rowval.assign(J.innerIndexPtr(), J.innerIndexPtr() + nnz);
    if (!sparse) {
      dense_offset.resize(static_cast<size_t>(nnz));
      for (int j = 0; j < N; ++j)
        for (int k = J.outerIndexPtr()[j]; k < J.outerIndexPtr()[j + 1]; ++k)
          dense_offset[static_cast<size_t>(k)] =
              static_cast<sunindextype>(J.innerIndexPtr()[k]) + static_cast<sunindextype>(j) * N;
    }
  }

  /// Fills J's values at (t, y, ẏ) with coefficient cj.
  void fill_jacobian(double t, double cj, const double* y, const double* yp) {
    Eigen::Map<const VecX> Y(y, N), YP(yp, N);
    const auto q = Y.segment(0, n);
    const auto v = Y.segment(n, n);
    const auto lambda = Y.segment(2 * n, m);
    const auto vdot = YP.segment(n, n);
    // ∂F_v/∂q and ∂F_v/∂v + cj ∂F_v/∂v̇ go to different column blocks: two assemblies.
    sys.assemble_tangent(ws, t, q, v, vdot, lambda, 1.0, 0.0, 0.0, Tq);
    sys.assemble_tangent(ws, t, q, v, vdot, lambda, 0.0, 1.0, cj, Tv);
    sys.assemble_jacobian(ws, t, q, Cq);
    sys.assemble_velocity_jacobian(ws, t, q, v, Gv);
    double* val = J.valuePtr();
    // F_q = q̇ − v + C_qᵀ μ: the term ∂(C_qᵀ μ)/∂q is neglected because μ = 0 at the exact
    // solution (and μ = O(tol) along the numerical one); this only affects Newton's rate.
    for (int i = 0; i < n; ++i) {
      val[dst_cjI[static_cast<size_t>(i)]] = cj;
      val[dst_minusI[static_cast<size_t>(i)]] = -1.0;
    }
    scatter(Cq, dst_CqT_mu, val);
    scatter(Tq, dst_Tq, val);
    scatter(Tv, dst_Tv, val);
    // F_v/λ = ∂r/∂λ: C_qᵀ, or C_qᵀ − ∂f/∂λ where applied forces read λ (joint friction by
    // reaction; Dl = (∂r/∂λ)ᵀ on C_q's pattern, so the same destinations).
    if (sys.forces_read_multipliers()) {
      sys.assemble_multiplier_tangent(ws, t, q, v, lambda, Dl);
      scatter(Dl, dst_CqT_lambda, val);
    } else {
      scatter(Cq, dst_CqT_lambda, val);
    }
    scatter(Cq, dst_Cq_q, val);
    scatter(Gv, dst_Gv, val);
    scatter(Cq, dst_Cq_v, val);
    if (!dst_vel_mu.empty()) {
      // Velocity-level rows: F_λ,i/q = ∂(A v)/∂q, F_λ,i/v = A; F_μ,i/μ_i = 1 and nothing else.
      const double* cq = Cq.valuePtr();
      const double* gv = Gv.valuePtr();
      for (size_t k = 0; k < vel_entry.size(); ++k) {
        if (!vel_entry[k]) continue;
        val[dst_Cq_q[k]] = gv[k];
        val[dst_vel_A_v[k]] = cq[k];
        val[dst_Gv[k]] = 0.0;
        val[dst_Cq_v[k]] = 0.0;
      }
      for (int d : dst_vel_mu) val[d] = 1.0;
    }
  }

  const ConstrainedSystem& sys;
  ConstrainedSystem::Workspace ws;  // the callbacks' scratch
  const int n, m, N;
  const bool sparse;
  SparseMatrix Tq, Tv, Cq, Gv, Dl;  ///< work matrices with the system's patterns (Dl: (∂r/∂λ)ᵀ)
  SparseMatrix J;               ///< global iteration matrix (pattern fixed at setup)
  std::vector<int> dst_cjI, dst_minusI, dst_CqT_mu, dst_Tq, dst_Tv, dst_CqT_lambda, dst_Cq_q,
      dst_Gv, dst_Cq_v;
  std::vector<sunindextype> colptr, rowval, dense_offset;
  std::vector<char> vel_row, vel_entry;  ///< velocity-level rows; per value of C_q's pattern
  std::vector<int> dst_vel_A_v, dst_vel_mu;

  double cj_last = 1.0;  ///< cj of the last Jacobian (its λ, μ columns are scaled by it)
  SparseLu lu;           ///< KLU factorization of the column-scaled iteration matrix

  void* ida_mem = nullptr;  ///< for the current step size in the weight function
  double rtol = 0, atol = 0;
  long residual_calls = 0;
  double nonfinite_residual_time = -std::numeric_limits<double>::infinity();
  std::string cause;        ///< why a callback failed (last failure)
  std::function<bool()> interrupted;  ///< the integrator's interrupt flag, read by the residual
  bool interrupt_seen = false;        ///< the residual stopped IDA because of it
  std::string ida_message;  ///< last error message from IDA's error handler
};

/// Label of residual row `row` of the GGL system, for messages.
std::string row_label(const IdaProblem& P, int row) {
  const int n = P.n, m = P.m;
  if (row < n) return "kinematic equation of " + P.sys.coordinate_label(row);
  if (row < 2 * n) return "dynamic equation of " + P.sys.coordinate_label(row - n);
  if (row < 2 * n + m) return "position constraint " + P.sys.constraint_label(row - 2 * n);
  return "velocity constraint " + P.sys.constraint_label(row - 2 * n - m);
}

extern "C" int ida_residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
  auto* P = static_cast<IdaProblem*>(user_data);
  try {
    if (P->interrupted && P->interrupted()) {  // fatal for IDA: it returns at the last accepted step
      P->interrupt_seen = true;
      P->cause = "interrupted";
      return -1;
    }
    ++P->residual_calls;
    const int n = P->n, m = P->m, N = P->N;
    Eigen::Map<const VecX> Y(N_VGetArrayPointer(yy), N), YP(N_VGetArrayPointer(yp), N);
    Eigen::Map<VecX> R(N_VGetArrayPointer(rr), N);
    const auto q = Y.segment(0, n);
    const auto v = Y.segment(n, n);
    const auto lambda = Y.segment(2 * n, m);
    const auto mu = Y.segment(2 * n + m, m);
    P->sys.assemble_jacobian(P->ws, t, q, P->Cq);
    R.segment(0, n) = YP.segment(0, n) - v;
    R.segment(0, n).noalias() += P->Cq.transpose() * mu;
    P->sys.residual(P->ws, t, q, v, YP.segment(n, n), lambda, R.segment(n, n));
    P->sys.constraints(P->ws, t, q, R.segment(2 * n, m));
    P->sys.constraint_velocity(P->ws, t, q, v, R.segment(2 * n + m, m));
    for (int i = 0; i < m; ++i)
      if (P->vel_row[static_cast<size_t>(i)]) {  // A v + b = 0 in the λ row, μ_i = 0
        R[2 * n + i] = R[2 * n + m + i];
        R[2 * n + m + i] = mu[i];
      }
    if (!R.allFinite()) {
      int bad = 0;
      while (bad < N && std::isfinite(R[bad])) ++bad;
      P->cause = "residual is not finite (NaN or Inf) in the " + row_label(*P, bad) +
                 " at t = " + format_time(t) + " s";
      P->nonfinite_residual_time = t;
      return 1;  // recoverable: IDA retries with a smaller step
    }
    return 0;
  } catch (const std::exception& e) {
    P->cause = std::string("residual threw: ") + e.what();
    return -1;
  } catch (...) {
    P->cause = "residual threw an unknown exception";
    return -1;
  }
}

extern "C" int ida_jacobian(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector /*rr*/,
                            SUNMatrix Jac, void* user_data, N_Vector /*tmp1*/, N_Vector /*tmp2*/,
                            N_Vector /*tmp3*/) {
  auto* P = static_cast<IdaProblem*>(user_data);
  try {
    P->fill_jacobian(t, cj, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp));
    P->cj_last = cj;
    const double* val = P->J.valuePtr();
    const size_t nnz = static_cast<size_t>(P->J.nonZeros());
    for (size_t k = 0; k < nnz; ++k)
      if (!std::isfinite(val[k])) {
        P->cause = "iteration matrix is not finite (NaN or Inf) at t = " + format_time(t) + " s";
        return 1;
      }
    if (P->sparse) {
      // SUNMatZero (called by IDA before this callback) may clear the index arrays too, so the
      // fixed pattern is copied back every time: a memcpy, no search.
      std::memcpy(SUNSparseMatrix_IndexPointers(Jac), P->colptr.data(),
                  P->colptr.size() * sizeof(sunindextype));
      std::memcpy(SUNSparseMatrix_IndexValues(Jac), P->rowval.data(),
                  P->rowval.size() * sizeof(sunindextype));
      std::memcpy(SUNSparseMatrix_Data(Jac), val, nnz * sizeof(double));
    } else {
      double* d = SUNDenseMatrix_Data(Jac);
      std::fill(d, d + static_cast<size_t>(P->N) * static_cast<size_t>(P->N), 0.0);
      for (size_t k = 0; k < nnz; ++k) d[P->dense_offset[k]] = val[k];
    }
    return 0;
  } catch (const std::exception& e) {
    P->cause = std::string("Jacobian assembly threw: ") + e.what();
    return -1;
  } catch (...) {
    P->cause = "Jacobian assembly threw an unknown exception";
    return -1;
  }
}

// ---------------------------------------------------------------------------------------------
/// Sparse direct linear solver for IDA on the GGL iteration matrix, through mbdae's KLU wrapper
/// (SparseLu: AMD ordering and symbolic analysis once, then numeric refactorization with the
/// previous pivot order while it stays well conditioned).
///
/// Why not SUNDIALS' own KLU module: it orders with COLAMD, which gave 1.5× the L+U fill of AMD
/// on the GGL matrix of a 16-link chain (33k vs 22k entries), and after every refactorization
/// it checks KLU's pivot ratio min|U_ii|/max|U_ii| against uround^(2/3) and factorizes afresh
/// below it — which is almost always, because the matrix is badly scaled: the λ and μ columns
/// enter the Schur complement of the constraint rows with weights 1/cj and 1/cj² (cj ~ 1/h),
/// so that ratio is ~h² however good the pivots are. Here those columns are scaled by cj
/// (A D y = b, x = D y, D = diag(1 for q and v, cj for λ and μ)), which makes the ratio a
/// meaningful test, and a refactorization is normally all a setup costs.
struct GglLinearSolver {
  IdaProblem* P = nullptr;
  long last_flag = 0;
};

extern "C" SUNLinearSolver_Type ggl_ls_type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
extern "C" SUNLinearSolver_ID ggl_ls_id(SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; }
extern "C" int ggl_ls_initialize(SUNLinearSolver) { return SUNLS_SUCCESS; }
extern "C" sunindextype ggl_ls_last_flag(SUNLinearSolver S) {
  return static_cast<GglLinearSolver*>(S->content)->last_flag;
}
extern "C" int ggl_ls_free(SUNLinearSolver S) {
  S->content = nullptr;  // owned by the integrator
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

extern "C" int ggl_ls_setup(SUNLinearSolver S, SUNMatrix A) {
  auto* L = static_cast<GglLinearSolver*>(S->content);
  IdaProblem& P = *L->P;
  try {
    // A holds the values ida_jacobian copied from P.J, in P.J's order; copy them back (IDA may
    // have scaled nothing, but A is what IDA asked to factorize).
    double* val = P.J.valuePtr();
    const size_t nnz = static_cast<size_t>(P.J.nonZeros());
    std::memcpy(val, SUNSparseMatrix_Data(A), nnz * sizeof(double));
    const int* outer = P.J.outerIndexPtr();
    const double cj = P.cj_last;
    for (int j = 2 * P.n; j < P.N; ++j)
      for (int k = outer[j]; k < outer[j + 1]; ++k) val[k] *= cj;
    if (!P.lu.factorize(P.J)) {
      L->last_flag = SUNLS_PACKAGE_FAIL_REC;
      P.cause = "iteration matrix is singular (KLU, rcond " + format_time(P.lu.rcond()) + ")";
      return SUNLS_PACKAGE_FAIL_REC;  // recoverable: IDA retries with a smaller step
    }
    L->last_flag = SUNLS_SUCCESS;
    return SUNLS_SUCCESS;
  } catch (const std::exception& e) {
    P.cause = std::string("KLU factorization threw: ") + e.what();
    L->last_flag = SUNLS_PACKAGE_FAIL_UNREC;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
}

extern "C" int ggl_ls_solve(SUNLinearSolver S, SUNMatrix /*A*/, N_Vector x, N_Vector b,
                            realtype /*tol*/) {
  auto* L = static_cast<GglLinearSolver*>(S->content);
  IdaProblem& P = *L->P;
  Eigen::Map<VecX> X(N_VGetArrayPointer(x), P.N);
  X = Eigen::Map<const VecX>(N_VGetArrayPointer(b), P.N);
  P.lu.solve(X);
  X.tail(P.N - 2 * P.n) *= P.cj_last;
  L->last_flag = X.allFinite() ? SUNLS_SUCCESS : SUNLS_PACKAGE_FAIL_REC;
  return static_cast<int>(L->last_flag);
}

/// A SUNLinearSolver whose content is L (not owned).
SUNLinearSolver make_ggl_linear_solver(GglLinearSolver* L, SUNContext ctx) {
  SUNLinearSolver S = check_ptr(SUNLinSolNewEmpty(ctx), "SUNLinSolNewEmpty");
  S->content = L;
  S->ops->gettype = ggl_ls_type;
  S->ops->getid = ggl_ls_id;
  S->ops->initialize = ggl_ls_initialize;
  S->ops->setup = ggl_ls_setup;
  S->ops->solve = ggl_ls_solve;
  S->ops->lastflag = ggl_ls_last_flag;
  S->ops->free = ggl_ls_free;
  return S;
}

/// Error weights w_i = 1/(rtol |y_i| + atol) for q and v. For the index-2 variables λ and μ the
/// weight is multiplied by the step size h: they are out of the error test (SuppressAlg), so the
/// weight only enters Newton's convergence test, and there the natural measure of an error δλ
/// (δμ) is the velocity (position) error h·M⁻¹C_qᵀδλ (h·C_qᵀδμ) it causes. Unscaled weights ask
/// for λ to an accuracy that round-off cannot deliver when h is small (the iteration matrix has
/// condition ~1/h²): Newton then fails at the first steps. Scaling higher-index components by
/// powers of h is the usual remedy for BDF on index-2 problems (Brenan, Campbell & Petzold;
/// Hairer & Wanner, Solving ODEs II, ch. VII). IDA calls this function before
/// every step with the step size about to be tried; before the first step h is not yet known
/// and the index-2 components get weight 0.
constexpr double kAlgebraicRtol = 1e-10;  ///< tightest relative tolerance of λ and μ in Newton's test
constexpr double kAlgebraicAtol = 1e-12;  ///< tightest absolute tolerance of λ and μ in Newton's test

extern "C" int ida_error_weights(N_Vector y, N_Vector ewt, void* user_data) {
  auto* P = static_cast<IdaProblem*>(user_data);
  realtype h = 0;
  if (IDAGetCurrentStep(P->ida_mem, &h) != IDA_SUCCESS) return -1;
  const double s = std::abs(h);
  const double* Y = N_VGetArrayPointer(y);
  double* W = N_VGetArrayPointer(ewt);
  const int nd = 2 * P->n;
  // The index-2 variables' tolerances stop at kAlgebraicRtol / kAlgebraicAtol: below them Newton
  // cannot resolve λ and μ for round-off (their corrections come through an iteration matrix of
  // condition ~1/h²), and a run at rtol 1e-12 failed with IDA_CONV_FAIL on the 64-link chains
  // while q and v were well within their tolerance. They are out of the error test, so this does
  // not loosen the accuracy of q and v.
  const double rtol_alg = std::max(P->rtol, kAlgebraicRtol), atol_alg = std::max(P->atol, kAlgebraicAtol);
  for (int i = 0; i < P->N; ++i) {
    const double w = i < nd ? 1.0 / (P->rtol * std::abs(Y[i]) + P->atol)
                            : s / (rtol_alg * std::abs(Y[i]) + atol_alg);
    if (!std::isfinite(w)) return -1;
    W[i] = w;
  }
  return 0;
}

extern "C" void ida_error_handler(int error_code, const char* /*module*/, const char* function,
                                  char* msg, void* user_data) {
  if (error_code >= 0) return;  // warnings are not failures; keep stderr quiet
  auto* P = static_cast<IdaProblem*>(user_data);
  try {
    P->ida_message = std::string(function ? function : "IDA") + ": " + (msg ? msg : "");
  } catch (...) {
    // Never let an exception cross the C boundary.
  }
}

void validate(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
              const IdaOptions& o) {
  const auto n = sys.num_coordinates();
  if (q0.size() != n || v0.size() != n)
    throw SolverSettingsError("IDA: expected q0 and v0 of size " + std::to_string(n) + ", got " +
                              std::to_string(q0.size()) + " and " + std::to_string(v0.size()));
  if (!std::isfinite(t0) || !std::isfinite(o.t_end) || o.t_end < t0)
    throw SolverSettingsError("IDA: end time " + format_time(o.t_end) +
                              " s must be finite and not before the start time " +
                              format_time(t0) + " s");
  if (!(o.rtol > 0) || !(o.atol > 0))
    throw SolverSettingsError("IDA: tolerances must be positive, got rtol = " +
                              format_time(o.rtol) + ", atol = " + format_time(o.atol));
  if (o.max_order < 1 || o.max_order > 5)
    throw SolverSettingsError("IDA: max_order must be in 1..5, got " +
                              std::to_string(o.max_order));
  if (!(o.max_step >= 0) || !(o.initial_step >= 0))
    throw SolverSettingsError("IDA: max_step and initial_step must be >= 0 (0 = automatic)");
  if (o.max_steps < 1)
    throw SolverSettingsError("IDA: max_steps must be positive, got " +
                              std::to_string(o.max_steps));
}

/// Largest |C| and |Ċ| at (t, q, v), with the index of the worst position constraint.
struct Violation {
  double position = 0, velocity = 0;
  int worst_position = -1, worst_velocity = -1;
};
Violation violation(const ConstrainedSystem& sys, ConstrainedSystem::Workspace& ws, double t, const VecX& q,
                    const VecX& v, VecX& work) {
  Violation out;
  if (work.size() == 0) return out;
  sys.constraints(ws, t, q, work);
  out.position = work.cwiseAbs().maxCoeff(&out.worst_position);
  sys.constraint_velocity(ws, t, q, v, work);
  out.velocity = work.cwiseAbs().maxCoeff(&out.worst_velocity);
  return out;
}

/// Solves [M C_qᵀ; C_q 0][a; λ] = [f; γ] at t0 (consistent accelerations and multipliers).
/// Returns false if the KKT matrix is singular.
bool consistent_accelerations(const ConstrainedSystem& sys, ConstrainedSystem::Workspace& ws, double t0,
                              const VecX& q0, const VecX& v0, VecX& a0, VecX& lambda0) {
  if (sys.forces_read_multipliers()) {
    // Forces that read λ (joint friction by reaction): a nonlinear system, solved by Newton there.
    try {
      initial_accelerations(sys, t0, q0, v0, a0, lambda0);
    } catch (const std::exception&) {
      return false;
    }
    return true;
  }
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  SparseMatrix M = sys.tangent_pattern();
  SparseMatrix Cq = sys.jacobian_pattern();
  M.makeCompressed();
  Cq.makeCompressed();
  PatternBuilder P(n + m, n + m);
  add_pattern(P, M, 0, 0, false);
  add_pattern(P, Cq, n, 0, false);
  add_pattern(P, Cq, 0, n, true);
  SparseMatrix K = P.build();
  const auto dM = destinations(K, M, 0, 0, false);
  const auto dC = destinations(K, Cq, n, 0, false);
  const auto dCT = destinations(K, Cq, 0, n, true);
  sys.assemble_mass(ws, q0, M);
  sys.assemble_jacobian(ws, t0, q0, Cq);
  scatter(M, dM, K.valuePtr());
  scatter(Cq, dC, K.valuePtr());
  scatter(Cq, dCT, K.valuePtr());

  VecX rhs(n + m);
  sys.forces(ws, t0, q0, v0, rhs.head(n));
  sys.gamma(ws, t0, q0, v0, rhs.tail(m));
  Eigen::SparseLU<SparseMatrix> lu;
  lu.compute(K);
  if (lu.info() != Eigen::Success) return false;
  const VecX x = lu.solve(rhs);
  if (lu.info() != Eigen::Success || !x.allFinite()) return false;
  a0 = x.head(n);
  lambda0 = x.tail(m);
  return true;
}


class IdaIntegrator final : public Integrator {
 public:
  IdaIntegrator(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                const IdaOptions& opt)
      : sys_(sys), opt_(opt), n_(sys.num_coordinates()), m_(sys.num_constraints()),
        N_(2 * n_ + 2 * m_), t_(t0), q_(q0), v_(v0), a_(VecX::Zero(n_)), lambda_(VecX::Zero(m_)),
        P_(sys, opt.linear_solver == IdaOptions::LinearSolver::Sparse) {
    P_.interrupted = [this] { return interrupted(); };
    validate(sys, t0, q0, v0, opt);
    // Consistency of the initial values (position and velocity level).
    VecX cwork(m_);
    const Violation v_init = violation(sys, P_.ws, t0, q0, v0, cwork);
    const double q_scale = std::max(1.0, q0.cwiseAbs().maxCoeff());
    const double v_scale = std::max(1.0, v0.cwiseAbs().maxCoeff());
    if (v_init.position > 1e-6 * q_scale || v_init.velocity > 1e-6 * v_scale) {
      status_ = SolveStatus::InconsistentInitialConditions;
      std::ostringstream s;
      s << "IDA: initial values at t = " << format_time(t0) << " s are not consistent: |C| = "
        << v_init.position << " (constraint " << sys.constraint_label(v_init.worst_position)
        << "), |C_q v + C_t| = " << v_init.velocity << " (constraint "
        << sys.constraint_label(v_init.worst_velocity)
        << "); project them onto the constraints first";
      message_ = s.str();
      return;
    }
    if (!consistent_accelerations(sys, P_.ws, t0, q0, v0, a_, lambda_)) {
      status_ = SolveStatus::SingularMatrix;
      message_ = "IDA: the matrix [M C_q^T; C_q 0] at t = " + format_time(t0) +
                 " s is singular (redundant constraints or singular mass matrix)";
      return;
    }
    try {
      setup(t0);
    } catch (const SundialsSetupError& e) {
      status_ = SolveStatus::OtherFailure;
      message_ = e.what();
    }
  }

  bool advance_to(double tout) override {
    if (status_ != SolveStatus::Success) return false;
    if (tout <= t_) return true;
    const auto clock_start = std::chrono::steady_clock::now();
    auto done = [&](bool ok) {
      collect_stats();
      stats_.wall_time +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
      return ok;
    };
    void* ida = mem_.get();
    long steps_so_far = 0;
    IDAGetNumSteps(ida, &steps_so_far);
    const long remaining = opt_.max_steps - steps_so_far;
    int flag = IDA_TOO_MUCH_WORK;
    realtype tret = t_;
    try {
      if (remaining > 0) {
        // IDA's limit counts steps per IDASolve call; the option is a total over the run.
        check_flag(IDASetMaxNumSteps(ida, remaining), "IDASetMaxNumSteps");
        // Never step past the requested time: a host may change loads before the next call.
        check_flag(IDASetStopTime(ida, tout), "IDASetStopTime");
        flag = IDASolve(ida, tout, &tret, yy_.get(), yp_.get(), IDA_NORMAL);
      } else {
        P_.ida_message = "the total step limit max_steps = " + std::to_string(opt_.max_steps) +
                         " was reached";
      }
    } catch (const SundialsSetupError& e) {
      status_ = SolveStatus::OtherFailure;
      message_ = e.what();
      return done(false);
    }
    if (flag < 0 && P_.interrupt_seen) {
      // Keep the last accepted step: IDA's interpolant at its current time tn = tret.
      if (tret > t_ && IDAGetDky(ida, tret, 0, yy_.get()) == IDA_SUCCESS &&
          IDAGetDky(ida, tret, 1, yp_.get()) == IDA_SUCCESS)
        take_state(tret);
      status_ = SolveStatus::Interrupted;
      message_ = "interrupted at t = " + format_time(t_) + " s";
      return done(false);
    }
    if (flag < 0) {
      status_ = status_of(flag);
      // Repeated recoverable residual failures (NaN/Inf) end as a convergence or error-test
      // failure in IDA; name the real cause when the NaN occurred at the point of failure.
      if ((flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL) && P_.nonfinite_residual_time >= tret)
        status_ = SolveStatus::ResidualFailure;
      std::string cause = P_.cause;
      if (!P_.ida_message.empty()) cause += (cause.empty() ? "" : "; ") + P_.ida_message;
      if (cause.empty()) cause = to_string(status_);
      message_ = "IDA failed at t = " + format_time(tret) + " s: " + cause + " (" +
                 ida_flag_name(flag) + ")";
      return done(false);
    }
    take_state(tret);
    // Rotation coordinates at their singularity (checked at the requested times only).
    // h = 0: IDA's error test keeps its accuracy near the singularity; only the hard limits.
    if (std::string why = sys_.coordinate_problem(q_, v_, 0.0); !why.empty()) {
      status_ = SolveStatus::OtherFailure;
      message_ = "IDA stopped at t = " + format_time(t_) + " s: " + why;
      return done(false);
    }
    return done(true);
  }

  double time() const override { return t_; }
  StateView state() const override { return StateView{t_, q_, v_, a_, lambda_}; }

  /// q, v at time t from IDA's vector yy; a and λ solved from [M C_qᵀ; C_q 0][a; λ] = [f; γ] at
  /// (t, q, v). IDA returns at t by interpolating its BDF polynomial (IDAGetSolution), which
  /// keeps q and v to the tolerance but whose derivative v̇ and algebraic λ at a point that is
  /// not the end of a corrector step (or the end of a very short one, where v̇ comes from
  /// differences over it) need not satisfy the equations of motion: an output row then had
  /// accelerations and multipliers off by 10 % with exact positions. The index-1 solve makes
  /// them those of the output state. Where the KKT matrix is singular (a mechanism at a
  /// singular configuration, where λ is not unique) IDA's own values are kept.
  void take_state(double t) {
    t_ = t;
    Eigen::Map<const VecX> Y(N_VGetArrayPointer(yy_.get()), N_), YP(N_VGetArrayPointer(yp_.get()), N_);
    q_ = Y.segment(0, n_);
    v_ = Y.segment(n_, n_);
    try {
      output_accelerations_.solve(t, q_, v_, a_, lambda_);
      if (a_.allFinite() && lambda_.allFinite()) return;
    } catch (const std::exception&) {
      // singular KKT matrix: IDA's values below
    }
    a_ = YP.segment(n_, n_);
    lambda_ = Y.segment(2 * n_, m_);
  }
  const SolverStats& stats() const override { return stats_; }
  SolveStatus status() const override { return status_; }
  const std::string& message() const override { return message_; }

 private:
  void setup(double t0) {
    const int n = n_, m = m_, N = N_;
    SUNContext ctx_raw = nullptr;
    check_flag(SUNContext_Create(nullptr, &ctx_raw), "SUNContext_Create");
    ctx_.reset(ctx_raw);
    yy_.reset(check_ptr(N_VNew_Serial(N, ctx_.get()), "N_VNew_Serial"));
    yp_.reset(check_ptr(N_VNew_Serial(N, ctx_.get()), "N_VNew_Serial"));
    id_.reset(check_ptr(N_VNew_Serial(N, ctx_.get()), "N_VNew_Serial"));

    Eigen::Map<VecX> Y(N_VGetArrayPointer(yy_.get()), N), YP(N_VGetArrayPointer(yp_.get()), N);
    Y << q_, v_, lambda_, VecX::Zero(m);  // μ0 = 0
    YP << v_, a_, VecX::Zero(2 * m);      // λ̇, μ̇ unknown: 0 (not used by F, only by the predictor)
    Eigen::Map<VecX> ID(N_VGetArrayPointer(id_.get()), N);
    ID.head(2 * n).setOnes();  // q, v differential
    ID.tail(2 * m).setZero();  // λ, μ algebraic
    // Tolerances through a weight function: rtol/atol on q and v, h-scaled on λ and μ (see
    // ida_error_weights).
    mem_.reset(check_ptr(IDACreate(ctx_.get()), "IDACreate"));
    void* ida = mem_.get();
    check_flag(IDASetErrHandlerFn(ida, ida_error_handler, &P_), "IDASetErrHandlerFn");
    check_flag(IDAInit(ida, ida_residual, t0, yy_.get(), yp_.get()), "IDAInit");
    P_.ida_mem = ida;
    P_.rtol = opt_.rtol;
    P_.atol = opt_.atol;
    check_flag(IDAWFtolerances(ida, ida_error_weights), "IDAWFtolerances");
    check_flag(IDASetUserData(ida, &P_), "IDASetUserData");
    check_flag(IDASetId(ida, id_.get()), "IDASetId");
    // Index-2 variables (λ, μ) are excluded from the local error test; see Ida.h.
    check_flag(IDASetSuppressAlg(ida, SUNTRUE), "IDASetSuppressAlg");
    check_flag(IDASetMaxOrd(ida, opt_.max_order), "IDASetMaxOrd");
    if (opt_.max_step > 0) check_flag(IDASetMaxStep(ida, opt_.max_step), "IDASetMaxStep");
    if (opt_.initial_step > 0) check_flag(IDASetInitStep(ida, opt_.initial_step), "IDASetInitStep");
    // IDA's default minimum step is 0: after repeated failures (e.g. a residual that is NaN from
    // some time on) it would shrink h until t + h == t and then "succeed" with zero-length steps.
    // A floor of a few hundred ulps of t makes it stop with a failure instead.
    const double t_scale = std::max({std::abs(t0), std::abs(opt_.t_end), 1e-3});
    check_flag(IDASetMinStep(ida, 256 * std::numeric_limits<double>::epsilon() * t_scale),
               "IDASetMinStep");
    if (P_.sparse) {
      Jmat_.reset(check_ptr(SUNSparseMatrix(N, N, static_cast<sunindextype>(P_.J.nonZeros()),
                                            CSC_MAT, ctx_.get()),
                            "SUNSparseMatrix"));
      // KLU through GglLinearSolver: symbolic analysis once (the pattern never changes),
      // numeric refactorization afterwards.
      ls_content_.P = &P_;
      LS_.reset(make_ggl_linear_solver(&ls_content_, ctx_.get()));
    } else {
      Jmat_.reset(check_ptr(SUNDenseMatrix(N, N, ctx_.get()), "SUNDenseMatrix"));
      LS_.reset(check_ptr(SUNLinSol_Dense(yy_.get(), Jmat_.get(), ctx_.get()), "SUNLinSol_Dense"));
    }
    check_flag(IDASetLinearSolver(ida, LS_.get(), Jmat_.get()), "IDASetLinearSolver");
    check_flag(IDASetJacFn(ida, ida_jacobian), "IDASetJacFn");
  }

  void collect_stats() {
    void* ida = mem_.get();
    if (!ida) return;
    long nsteps = 0, netf = 0, nni = 0, nncf = 0, nje = 0, nsetups = 0;
    realtype hlast = 0;
    IDAGetNumSteps(ida, &nsteps);
    IDAGetNumErrTestFails(ida, &netf);
    IDAGetNumNonlinSolvIters(ida, &nni);
    IDAGetNumNonlinSolvConvFails(ida, &nncf);
    IDAGetNumJacEvals(ida, &nje);
    IDAGetNumLinSolvSetups(ida, &nsetups);
    IDAGetLastStep(ida, &hlast);
    stats_.steps = nsteps;
    stats_.error_test_failures = netf;
    stats_.rejected_steps = netf + nncf;
    stats_.newton_iterations = nni;
    // Counted in the callback: includes every call IDA makes (steps and error recovery).
    stats_.residual_evaluations = P_.residual_calls;
    stats_.jacobian_evaluations = nje;
    stats_.factorizations = nsetups;  // each linear-solver setup is one numeric LU factorization
    stats_.last_step = hlast;
  }

  const ConstrainedSystem& sys_;
  IdaOptions opt_;
  int n_, m_, N_;
  double t_;
  VecX q_, v_, a_, lambda_;
  SolverStats stats_;
  SolveStatus status_ = SolveStatus::Success;
  std::string message_;
  IdaProblem P_;  // user data: declared before (destroyed after) the IDA memory
  detail::ConsistentAccelerations output_accelerations_{sys_};  // a and λ of the output states (take_state)
  GglLinearSolver ls_content_;  // content of the sparse linear solver (destroyed after it)
  // Destroyed in reverse order: IDA memory first, the context last.
  ContextPtr ctx_;
  NVectorPtr yy_, yp_, id_;
  MatrixPtr Jmat_;
  LinSolPtr LS_;
  IdaMemPtr mem_;
};

}  // namespace

std::unique_ptr<Integrator> make_ida(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                     const VecX& v0, const IdaOptions& opt) {
  return std::make_unique<IdaIntegrator>(sys, t0, q0, v0, opt);
}

SolveResult solve_ida(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                      const IdaOptions& opt, const Observer& obs) {
  IdaIntegrator integ(sys, t0, q0, v0, opt);
  return run_to_end(sys, integ, opt, obs);
}

}  // namespace mbdae
