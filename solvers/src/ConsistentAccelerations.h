#pragma once
// initial_accelerations() (Assembly.h) for many states of one system: a solver's output states
// between its steps. The workspace, the KKT pattern and the factorization's symbolic analysis are
// made once. Private to the solvers.

#include <memory>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae::detail {

/// [M C_qᵀ; C_q 0][a; λ] = [f; γ] at (t, q, v), as initial_accelerations() (Newton where applied
/// forces read λ). Keeps a reference to `sys`. Not for concurrent use.
class ConsistentAccelerations {
 public:
  /// @param sys the system whose states are solved for (kept by reference)
  explicit ConsistentAccelerations(const ConstrainedSystem& sys);
  ~ConsistentAccelerations();
  ConsistentAccelerations(const ConsistentAccelerations&) = delete;
  ConsistentAccelerations& operator=(const ConsistentAccelerations&) = delete;
  /// a (size n) and λ (size m) at (t, q, v); throws std::runtime_error as initial_accelerations().
  void solve(double t, const VecX& q, const VecX& v, VecX& a, VecX& lambda);
  /// True if the last solve() chose a new pivot sequence (its first factorization did not reuse
  /// the previous one, SparseLu::chose_pivots()): later solves depend on the state it was at.
  bool chose_pivots() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae::detail
