// Kinematic analysis of driven mechanisms; equations in Kinematics.h.

#include <mbdae/solvers/Kinematics.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <mbdae/solvers/SparseLu.h>

namespace mbdae {

namespace {

void check_square(const ConstrainedSystem& sys) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  if (m != n) {
    std::ostringstream s;
    s << "kinematic analysis needs as many independent constraint equations as coordinates: "
      << n << " coordinates, " << m << " equations ("
      << (m < n ? "degrees of freedom remain undriven" : "redundant equations; remove them first")
      << ")";
    throw std::invalid_argument(s.str());
  }
  for (int r = 0; r < m; ++r)
    if (sys.is_velocity_level(r))
      throw std::invalid_argument("kinematic analysis: " + sys.constraint_label(r) +
                                  " is a velocity-level (nonholonomic) equation; not supported");
}

double inf_norm(const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace

bool solve_kinematic_state(const ConstrainedSystem& sys, double t, VecX& q, VecX& v, VecX& a,
                           const KinematicsOptions& opt, std::string* message) {
  check_square(sys);
  const int n = sys.num_coordinates();
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  SparseMatrix C = sys.jacobian_pattern();
  SparseLu lu;
  VecX c(n), dq(n);
  v.resize(n);
  a.resize(n);
  auto fail = [&](const std::string& why) {
    if (message) {
      std::ostringstream s;
      s.precision(8);
      s << "kinematic analysis failed at t = " << t << " s: " << why;
      *message = s.str();
    }
    return false;
  };
  sys.constraints(ws, t, q, c);
  int it = 0;
  for (;; ++it) {
    if (!c.allFinite()) return fail("the constraint residual is not finite");
    sys.assemble_jacobian(ws, t, q, C);
    if (!lu.factorize(C))
      return fail("the constraint Jacobian is singular (a locked or dead-centre position, or a "
                  "redundant equation)");
    if (inf_norm(c) <= opt.tolerance && it > 0) break;
    if (it >= opt.max_iterations) {
      int k = 0;
      c.cwiseAbs().maxCoeff(&k);
      std::ostringstream s;
      s << "Newton did not reach ‖C‖∞ ≤ " << opt.tolerance << " in " << opt.max_iterations
        << " iterations (‖C‖∞ = " << inf_norm(c) << " in " << sys.constraint_label(k) << ")";
      return fail(s.str());
    }
    dq = -c;
    lu.solve(dq);
    q += dq;
    sys.constraints(ws, t, q, c);
  }
  // Velocities: C_q v = −C_t; accelerations: C_q a = γ (same factorisation, at the final q).
  const VecX zero = VecX::Zero(n);
  sys.constraint_velocity(ws, t, q, zero, v);
  v = -v;
  lu.solve(v);
  sys.gamma(ws, t, q, v, a);
  lu.solve(a);
  if (!v.allFinite() || !a.allFinite()) return fail("velocities or accelerations are not finite");
  return true;
}

SolveResult solve_kinematics(const ConstrainedSystem& sys, double t0, const VecX& q0,
                             const KinematicsOptions& opt, const Observer& obs) {
  check_square(sys);
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  const auto wall0 = std::chrono::steady_clock::now();
  if (!(opt.t_end >= t0)) throw SolverSettingsError("kinematic analysis: t_end must be ≥ t0");
  const OutputGrid grid(t0, opt.t_end, opt.output_every);
  SolveResult res;
  res.t_reached = t0;
  VecX q = q0, v, a;
  const VecX empty;
  double t_prev = t0;
  VecX qp, vp, ap;
  for (int k = 0; k < grid.size(); ++k) {
    const double t = grid.time(k);
    if (k > 0) {
      const double h = t - t_prev;
      q = qp + h * vp + 0.5 * h * h * ap;  // predictor
    }
    std::string msg;
    if (!solve_kinematic_state(sys, t, q, v, a, opt, &msg)) {
      res.status = msg.find("singular") != std::string::npos ? SolveStatus::SingularMatrix
                                                             : SolveStatus::NewtonFailure;
      res.message = msg;
      break;
    }
    ++res.stats.steps;
    res.t_reached = t;
    VecX c(sys.num_constraints());
    sys.constraints(ws, t, q, c);
    res.stats.max_position_violation = std::max(res.stats.max_position_violation, inf_norm(c));
    sys.constraint_velocity(ws, t, q, v, c);
    res.stats.max_velocity_violation = std::max(res.stats.max_velocity_violation, inf_norm(c));
    if (obs && !obs(StateView{t, q, v, a, empty})) {
      res.status = SolveStatus::StoppedByObserver;
      res.message = "stopped by the observer";
      break;
    }
    qp = q;
    vp = v;
    ap = a;
    t_prev = t;
  }
  res.stats.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

}  // namespace mbdae
