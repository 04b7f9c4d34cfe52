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

inline ResidualDifferences residual_differences(const ConstrainedSystem& sys, ConstrainedSystem::Workspace& ws,
                                                double t, const VecX& q, const VecX& v, const VecX& a,
                                                const VecX& lambda, double h) {
  const Eigen::Index n = q.size();
  ResidualDifferences d{MatX(n, n), MatX(n, n), MatX(n, n)};
  VecX rp(n), rm(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    VecX xp = q, xm = q;
    xp[k] += h;
    xm[k] -= h;
    sys.residual(ws, t, xp, v, a, lambda, rp);
    sys.residual(ws, t, xm, v, a, lambda, rm);
    d.dq.col(k) = (rp - rm) / (2 * h);
    xp = v;
    xm = v;
    xp[k] += h;
    xm[k] -= h;
    sys.residual(ws, t, q, xp, a, lambda, rp);
    sys.residual(ws, t, q, xm, a, lambda, rm);
    d.dv.col(k) = (rp - rm) / (2 * h);
    xp = a;
    xm = a;
    xp[k] += h;
    xm[k] -= h;
    sys.residual(ws, t, q, v, xp, lambda, rp);
    sys.residual(ws, t, q, v, xm, lambda, rm);
    d.da.col(k) = (rp - rm) / (2 * h);
  }
  return d;
}

}  // namespace mbdae::test
