// Grübler count and rank-based mobility; see Mobility.h.

#include <mbdae/solvers/Mobility.h>

#include <stdexcept>

#include <vector>

#include <Eigen/SparseCore>

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
  int ep_rows = 0, angle_rows = 0;  // the couplings' angle rows only define their angle coordinates
  for (int r = 0; r < m; ++r) {
    if (sys.is_velocity_level(r)) ++rep.velocity_equations;
    else if (sys.constraint_label(r).find("Euler-parameter norm") != std::string::npos) ++ep_rows;
    else if (sys.constraint_label(r).find("angle of its couplings") != std::string::npos) ++angle_rows;
  }
  rep.joint_equations = m - rep.velocity_equations - ep_rows - angle_rows;
  rep.grubler = 6 * rep.bodies + static_cast<int>(sys.model().shafts().size()) - rep.joint_equations;
  // Sparse rank tests (a dense QR of C_q took O(n m²) time and n m memory): all rows by
  // find_redundant_constraints() (its sparse LU recognises a full-rank C_q of a chain or a tree
  // in linear time), the position-level rows alone by find_dependent_rows().
  const RedundancyReport rr = find_redundant_constraints(sys, t, q, tol);
  const int all_rank = m - static_cast<int>(rr.dependent_rows.size());
  if (rep.velocity_equations == 0) {
    rep.rank = all_rank;
  } else {
    ConstrainedSystem::Workspace ws = sys.make_workspace();
    SparseMatrix C = sys.jacobian_pattern();
    sys.assemble_jacobian(ws, t, q, C);
    std::vector<int> pos_index(static_cast<size_t>(m), -1);
    int mp = 0;
    for (int r = 0; r < m; ++r)
      if (!sys.is_velocity_level(r)) pos_index[static_cast<size_t>(r)] = mp++;
    std::vector<Eigen::Triplet<double>> tr;
    for (int c = 0; c < C.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(C, c); it; ++it)
        if (const int k = pos_index[static_cast<size_t>(it.row())]; k >= 0) tr.emplace_back(k, c, it.value());
    SparseMatrix Cp(mp, n);
    Cp.setFromTriplets(tr.begin(), tr.end());
    const RedundancyReport rp = find_dependent_rows(Cp, tol);
    rep.rank = mp - static_cast<int>(rp.dependent_rows.size());
  }
  rep.mobility = n - rep.rank;
  rep.velocity_dof = n - all_rank;
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
