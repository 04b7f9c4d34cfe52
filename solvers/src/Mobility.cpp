// Grübler count and rank-based mobility; see Mobility.h.

#include <mbdae/solvers/Mobility.h>

#include <stdexcept>

#include <Eigen/Dense>

#include <mbdae/solvers/Assembly.h>

namespace mbdae {

MobilityReport calc_mobility(const MultibodySystem& sys, double t, const VecX& q, double tol) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  if (q.size() != n)
    throw std::invalid_argument("calc_mobility: q has size " + std::to_string(q.size()) +
                                ", expected " + std::to_string(n));
  MobilityReport rep;
  rep.bodies = static_cast<int>(sys.model().bodies().size());
  rep.coordinates = n;
  int ep_rows = 0;
  for (int r = 0; r < m; ++r) {
    if (sys.is_velocity_level(r)) ++rep.velocity_equations;
    else if (sys.constraint_label(r).find("Euler-parameter norm") != std::string::npos) ++ep_rows;
  }
  rep.joint_equations = m - rep.velocity_equations - ep_rows;
  rep.grubler = 6 * rep.bodies - rep.joint_equations;
  // Rank of the position-level rows (scaled to unit norm), then of all rows.
  SparseMatrix C = sys.jacobian_pattern();
  sys.assemble_jacobian(t, q, C);
  MatX Cd(C);
  for (int r = 0; r < m; ++r) {
    const double nr = Cd.row(r).norm();
    if (nr > 0) Cd.row(r) /= nr;
  }
  std::vector<int> pos_rows;
  for (int r = 0; r < m; ++r)
    if (!sys.is_velocity_level(r)) pos_rows.push_back(r);
  MatX Cp(static_cast<int>(pos_rows.size()), n);
  for (size_t k = 0; k < pos_rows.size(); ++k) Cp.row(static_cast<int>(k)) = Cd.row(pos_rows[k]);
  auto rank_of = [&](const MatX& A) {
    if (A.rows() == 0) return 0;
    Eigen::ColPivHouseholderQR<MatX> qr(A.transpose());
    qr.setThreshold(tol);
    return static_cast<int>(qr.rank());
  };
  rep.rank = rank_of(Cp);
  rep.mobility = n - rep.rank;
  rep.velocity_dof = n - rank_of(Cd);
  const RedundancyReport rr = find_redundant_constraints(sys, t, q, tol);
  for (int r : rr.dependent_rows) rep.redundant.push_back(sys.constraint_label(r));
  return rep;
}

MobilityReport calc_mobility(const System& model, double t0, double tol) {
  const MultibodySystem sys(model);
  VecX q(sys.num_coordinates()), v(sys.num_coordinates());
  sys.initial_state(q, v);
  return calc_mobility(sys, t0, q, tol);
}

}  // namespace mbdae
