#pragma once
// The one finite-difference helper of the formulations: central differences for the tangent terms
// that are not analytic yet (the bodies' residuals, force elements without a Jacobian, penalty
// contacts, the q-derivatives of the joints' reaction and velocity terms). Step
// h = 1e-6 max(1, |x|): truncation ~h² f''' and round-off ~ε|f|/h, both about 1e-12 to 1e-10
// for terms of order one.

#include <algorithm>
#include <cmath>

namespace mbdae::detail {

/// The step for a coordinate of value x.
inline double fd_step(double x) { return 1e-6 * std::max(1.0, std::abs(x)); }

/// For k in [begin, end): evaluates f(k, fp) with x[k] = x0 + h and f(k, fm) with x[k] = x0 − h,
/// restores x[k] = x0 and hands column(k, fp, fm, 2 h) the two values (the caller forms
/// (fp − fm) / (2 h) into its matrix, scaled as it needs). x is anything indexable by int.
template <class X, class Out, class F, class Column>
void central_differences(X&& x, int begin, int end, Out& fp, Out& fm, F&& f, Column&& column) {
  for (int k = begin; k < end; ++k) {
    const double h = fd_step(x[k]), x0 = x[k];
    x[k] = x0 + h;
    f(k, fp);
    x[k] = x0 - h;
    f(k, fm);
    x[k] = x0;
    column(k, fp, fm, 2 * h);
  }
}

}  // namespace mbdae::detail
