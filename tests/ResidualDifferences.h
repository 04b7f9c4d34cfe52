#pragma once
// The independent check of an iteration matrix: the residual's derivatives by central differences.

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae::test {

/// ∂r/∂q, ∂r/∂v and ∂r/∂a (dense n × n, column k from r at x_k ± h) of r(t, q, v, a, λ).
struct ResidualDifferences {
  MatX dq, dv, da;
  /// c_q ∂r/∂q + c_v ∂r/∂v + c_a ∂r/∂a, what assemble_tangent() forms.
  MatX tangent(double cq, double cv, double ca) const { return cq * dq + cv * dv + ca * da; }
};

/// The differences of a residual function res(q, v, a, r) (r of size n), e.g. one unit's terms.
template <class Residual>
ResidualDifferences residual_differences(Residual&& res, const VecX& q, const VecX& v, const VecX& a, double h) {
  const Eigen::Index n = q.size();
  ResidualDifferences d{MatX(n, n), MatX(n, n), MatX(n, n)};
  const VecX* x[3] = {&q, &v, &a};
  MatX* dx[3] = {&d.dq, &d.dv, &d.da};
  VecX rp(n), rm(n);
  for (int j = 0; j < 3; ++j)
    for (Eigen::Index k = 0; k < n; ++k) {
      VecX xp = *x[j], xm = *x[j];  // argument j moved by ±h in its entry k
      xp[k] += h;
      xm[k] -= h;
      res(j == 0 ? xp : q, j == 1 ? xp : v, j == 2 ? xp : a, rp);
      res(j == 0 ? xm : q, j == 1 ? xm : v, j == 2 ? xm : a, rm);
      dx[j]->col(k) = (rp - rm) / (2 * h);
    }
  return d;
}

/// The differences of the system's residual at multipliers λ.
inline ResidualDifferences residual_differences(const ConstrainedSystem& sys, ConstrainedSystem::Workspace& ws,
                                                double t, const VecX& q, const VecX& v, const VecX& a,
                                                const VecX& lambda, double h) {
  return residual_differences(
      [&](const VecX& qq, const VecX& vv, const VecX& aa, VecX& r) { sys.residual(ws, t, qq, vv, aa, lambda, r); }, q,
      v, a, h);
}

}  // namespace mbdae::test
