#pragma once
/// @file Mobility.h
/// Degrees of freedom of a model: Grübler's (Chebychev–Grübler–Kutzbach) count and the true
/// mobility from the rank of the constraint Jacobian at a configuration (Nikravesh 1988, §2.5;
/// Wittenburg, Dynamics of Multibody Systems, 2008, §5.2). They differ when equations are
/// redundant (planar loops built from spatial joints, the Bricard mechanism, parallel
/// four-bars) or at singular configurations.

#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>

namespace mbdae {

/// Degree-of-freedom counts of calc_mobility().
struct MobilityReport {
  int bodies = 0;             ///< moving bodies
  int joint_equations = 0;    ///< position-level joint equations (active rows)
  int velocity_equations = 0; ///< velocity-level (nonholonomic) equations
  int grubler = 0;            ///< 6·bodies + shafts − joint_equations
  int coordinates = 0;        ///< n (including Euler parameters)
  int rank = 0;               ///< rank of the position-level C_q (Euler-parameter norms included)
  int mobility = 0;           ///< n − rank: the true number of position degrees of freedom
  int velocity_dof = 0;       ///< mobility − rank of the velocity-level rows on top
  std::vector<std::string> redundant;  ///< labels of dependent equations (later rows reported)
};

/// Mobility of the formulated system at (t, q), q of size n. `tol` is the relative rank
/// tolerance of find_redundant_constraints. @throws std::invalid_argument if q has the wrong size.
MobilityReport calc_mobility(const MultibodySystem& sys, double t, const VecX& q, double tol = 1e-9);

/// Mobility of a model at its initial configuration as given (all rows, nothing removed; the
/// Jacobian is evaluated before assembly, so a loop that does not close still shows its
/// structural redundancy). @throws ModelError for an invalid model.
MobilityReport calc_mobility(const System& model, double t0 = 0.0, double tol = 1e-9);

}  // namespace mbdae
