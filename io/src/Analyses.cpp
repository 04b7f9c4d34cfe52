// The analyses of a loaded model; see Analyses.h.

#include <mbdae/io/Analyses.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Assembly.h>

namespace mbdae::io {

namespace {

std::string num(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", x);
  return b;
}

/// The signs of the eigenvalues of the symmetric part of the reduced stiffness at (q, λ).
struct StiffnessSigns {
  int negative = 0;  ///< eigenvalues below −1e-9 × the largest |eigenvalue|
  int zero = 0;      ///< eigenvalues within ±1e-9 × the largest (all of them if it is 0)
};

/// Lagrange–Dirichlet: a conservative system is stable at an equilibrium where the reduced
/// stiffness is positive definite; each negative eigenvalue is a direction in which the potential
/// decreases, each zero one a neutral direction.
StiffnessSigns stiffness_signs(const MultibodySystem& sys, double t, const VecX& q, const VecX& lambda) {
  const int n = sys.num_coordinates();
  const LinearizedSystem lin = linearize(sys, t, q, VecX::Zero(n), VecX::Zero(n), lambda);
  StiffnessSigns out;
  if (lin.K.rows() == 0) return out;
  const MatX Ks = 0.5 * (lin.K + lin.K.transpose());
  Eigen::SelfAdjointEigenSolver<MatX> es(Ks, Eigen::EigenvaluesOnly);
  const VecX ev = es.eigenvalues();
  const double scale = ev.cwiseAbs().maxCoeff();
  for (int i = 0; i < ev.size(); ++i) {
    if (ev[i] < -1e-9 * scale) ++out.negative;
    else if (ev[i] <= 1e-9 * scale) ++out.zero;
  }
  return out;
}

int unstable_directions(const MultibodySystem& sys, double t, const VecX& q, const VecX& lambda) {
  return stiffness_signs(sys, t, q, lambda).negative;
}

/// The number of unstable directions of the potential at the configuration a fraction x of the
/// way from q0 to q1: the straight-line point projected onto the constraints, with the
/// least-squares multipliers of the loads there. With them the reduced stiffness is the second
/// derivative of the potential along the constraints even where the point is no equilibrium
/// (least_squares_multipliers, Statics.h); the interpolated multipliers of the two ends would add
/// the unbalanced force times the curvature of the coordinates, a stiffness of no physical meaning.
int unstable_directions_between(const MultibodySystem& sys, double t, const VecX& q0, const VecX& q1, double x) {
  VecX q = q0 + x * (q1 - q0), v = VecX::Zero(q0.size());
  assemble_initial_state(sys, t, q, v);
  return unstable_directions(sys, t, q, least_squares_multipliers(sys, t, q));
}

}  // namespace

namespace {
/// The system of `model` if the analyses take it; else ModelError naming each controller state
/// and speed-driven joint.
const System& analysable(const LoadedModel& model) {
  std::vector<ModelProblem> p;
  const System& s = model.system;
  for (size_t k = 0; k < s.controller_states().size(); ++k)
    p.push_back({"controller state '" + s.controller_states()[k].name +
                     "': the analyses (statics, modes, kinematics, inverse dynamics) do not take controller states; "
                     "run the model in time",
                 ItemRef::state(static_cast<int>(k))});
  for (size_t j = 0; j < s.joints().size(); ++j)
    if (s.joints()[j].speed)
      p.push_back({"joint '" + s.joints()[j].name +
                       "': the analyses (statics, modes, kinematics, inverse dynamics) do not take a speed drive; "
                       "drive the joint with motion instead",
                   ItemRef::joint(static_cast<int>(j))});
  if (!p.empty()) throw ModelError(std::move(p));
  return s;
}
}  // namespace

ModelAnalysis::ModelAnalysis(const LoadedModel& model)
    : model_(model), prepared_(prepare(analysable(model), 0.0)),
      kinematics_(std::make_unique<MultibodyKinematics>(*prepared_.system)) {}

ModelAnalysis::~ModelAnalysis() = default;

std::unique_ptr<SensorSet> ModelAnalysis::make_sensors(StateContents contents, std::vector<std::string>* left_out) {
  std::vector<SensorSpec> kept;
  for (const SensorSpec& sp : model_.sensors) {
    const SensorOutputInfo& info = sensor_output_info(sp.output);
    const bool a_missing = info.needs_accelerations && !contents.accelerations;
    const bool l_missing = info.needs_multipliers && !contents.multipliers;
    if (a_missing || l_missing) {
      if (left_out)
        left_out->push_back("sensor '" + sp.name + "': " + info.name + " needs " +
                            (a_missing ? "accelerations" : "Lagrange multipliers"));
      continue;
    }
    kept.push_back(sp);
  }
  const VecX empty;
  return std::make_unique<SensorSet>(std::move(kept), *kinematics_,
                                     StateView{0.0, prepared_.q0, prepared_.v0, empty, empty}, contents);
}

std::unique_ptr<MultibodySystem> ModelAnalysis::scaled_system(double fraction) const {
  System s = model_.system;
  s.gravity *= fraction;
  for (Load& l : s.loads()) {
    l.value *= fraction;
    if (l.value_of_t) {
      auto f = l.value_of_t;
      l.value_of_t = [f, fraction](double t) { return Vec3(fraction * f(t)); };
    }
  }
  for (Cable& c : s.cables()) {  // a cable's distributed load and node forces are loads too
    c.load *= fraction;
    for (CableNodeForce& f : c.node_forces) f.force *= fraction;
  }
  MultibodyOptions mo;
  mo.disabled_rows = prepared_.redundancy.dependent_rows;
  return std::make_unique<MultibodySystem>(s, mo);
}

StaticsReport solve_statics(const ModelAnalysis& a, const StaticsSettings& settings) {
  if (settings.load_steps < 1)
    throw std::invalid_argument("statics: load steps must be at least 1, got " + std::to_string(settings.load_steps));
  StaticsReport rep;
  const int n = settings.load_steps;
  const double t = settings.newton.t;
  // Geometrically nonlinear cables take full Newton steps where the residual rises for a few
  // steps (StaticsOptions::nonmonotone_steps), unless the caller chose otherwise.
  StaticsOptions newton = settings.newton;
  if (newton.nonmonotone_steps == 0 && !a.model().system.cables().empty()) newton.nonmonotone_steps = 8;
  rep.q = a.prepared().q0;
  rep.lambda = VecX::Zero(a.system().num_constraints());
  int prev_unstable = -1;
  const bool check = settings.check_stability && a.system().num_coordinates() <= settings.max_stability_coordinates;
  rep.stability_checked = check;
  // The start of the load path: the equilibrium without loads, where there is one and it is
  // isolated (else the assembled start, and the first step is not checked: at a neutral
  // equilibrium without loads — a pendulum, any pose — the branch the loads pick is not known).
  bool have_prev = false;
  if (check) {
    const std::unique_ptr<MultibodySystem> unloaded = a.scaled_system(0.0);
    const StaticsResult r0 = solve_static_equilibrium(*unloaded, rep.q, newton);
    if (r0.converged) {
      rep.q = r0.q;
      rep.lambda = r0.lambda;
      const StiffnessSigns s0 = stiffness_signs(*unloaded, t, r0.q, r0.lambda);
      if (s0.zero == 0) {
        prev_unstable = s0.negative;
        have_prev = true;
      }
    }
  }
  for (int k = 1; k <= n; ++k) {
    const double f = k == n ? 1.0 : static_cast<double>(k) / n;
    std::unique_ptr<MultibodySystem> scaled;
    if (f != 1.0) scaled = a.scaled_system(f);
    const MultibodySystem& sys = scaled ? *scaled : a.system();
    const StaticsResult r = solve_static_equilibrium(sys, rep.q, newton);
    rep.iterations += r.iterations;
    const std::string step = "load fraction " + num(f) + " (step " + std::to_string(k) + " of " + std::to_string(n) + ")";
    const std::string reached =
        !rep.steps.empty() ? "the last equilibrium found is at load fraction " + num(rep.load_fraction)
        : have_prev        ? std::string("the last equilibrium found is the one without loads (load fraction 0)")
                           : std::string("no equilibrium was found at any load step");
    if (!r.converged) {
      rep.message = "no equilibrium found at " + step + ": " + r.message + "; " + reached +
                    (n == 1 ? " (more load steps, --load-steps, may reach it)" : "");
      break;
    }
    StaticsStep s;
    s.load_fraction = f;
    s.iterations = r.iterations;
    s.force_residual = r.force_residual;
    s.constraint_residual = r.constraint_residual;
    s.q = r.q;
    s.lambda = r.lambda;
    if (check) {
      const StiffnessSigns signs = stiffness_signs(sys, t, r.q, r.lambda);
      s.unstable_directions = signs.negative;
      s.neutral_directions = signs.zero;
      if (prev_unstable >= 0 && s.unstable_directions != prev_unstable) {
        rep.message = "between load fractions " + num(rep.load_fraction) + " and " + num(f) +
                      " the number of unstable directions of the equilibrium changed from " +
                      std::to_string(prev_unstable) + " to " + std::to_string(s.unstable_directions) +
                      ": the load path crosses a limit or bifurcation point (snap-through or buckling), and "
                      "the equilibrium found at " + num(f) + " is on another branch; " + reached;
        break;
      }
      // A jump to another branch: between the two equilibria the straight path crosses a region
      // less stable than both ends (the unstable middle of a snap-through). Not with cables: the
      // straight path between two bent shapes of a cable shortens its slopes, and the compressed
      // cable in between buckles whatever the load path does.
      if (have_prev && a.model().system.cables().empty()) {
        int worst = 0;
        for (double x : {0.25, 0.5, 0.75}) worst = std::max(worst, unstable_directions_between(sys, t, rep.q, s.q, x));
        if (worst > std::max(prev_unstable, s.unstable_directions)) {
          rep.message = "between load fractions " + num(rep.load_fraction) + " and " + num(f) +
                        " the equilibrium jumped across a region with " + std::to_string(worst) +
                        " unstable direction" + (worst == 1 ? "" : "s") +
                        ": the load passed a limit point (snap-through) and the equilibrium found at " + num(f) +
                        " is on another branch; " + reached + (n == 1 ? " (more load steps, --load-steps, may show the limit)" : "");
          break;
        }
      }
      prev_unstable = s.unstable_directions;
      have_prev = true;
    }
    rep.q = s.q;
    rep.lambda = s.lambda;
    rep.load_fraction = f;
    rep.steps.push_back(std::move(s));
  }
  rep.converged = rep.message.empty() && rep.load_fraction == 1.0;
  return rep;
}

ModesReport solve_modes(const ModelAnalysis& a, const ModesSettings& settings) {
  ModesReport rep;
  const MultibodySystem& sys = a.system();
  const int n = sys.num_coordinates();
  if (settings.at_equilibrium) {
    rep.statics = solve_statics(a, settings.statics);
    if (!rep.statics.converged) {
      rep.message = "no static equilibrium to linearise about: " + rep.statics.message;
      return rep;
    }
    rep.t = settings.statics.newton.t;
    rep.q = rep.statics.q;
    rep.lambda = rep.statics.lambda;
    rep.v = VecX::Zero(n);
    rep.a = VecX::Zero(n);
  } else {
    rep.q = a.prepared().q0;
    rep.v = a.prepared().v0;
    initial_accelerations(sys, rep.t, rep.q, rep.v, rep.a, rep.lambda);
    ConstrainedSystem::Workspace ws = sys.make_workspace();
    VecX r(n), f(n);
    sys.residual(ws, rep.t, rep.q, rep.v, VecX::Zero(n), rep.lambda, r);
    sys.forces(ws, rep.t, rep.q, rep.v, f);
    int kr = 0, kv = 0;
    rep.unbalanced_force = n ? r.cwiseAbs().maxCoeff(&kr) : 0.0;
    rep.max_speed = n ? rep.v.cwiseAbs().maxCoeff(&kv) : 0.0;
    const double ftol = settings.statics.newton.force_tolerance * std::max(1.0, n ? f.cwiseAbs().maxCoeff() : 0.0);
    if (rep.unbalanced_force > ftol || rep.max_speed > 0) {
      std::ostringstream s;
      s << "the initial state is not an equilibrium: ";
      if (rep.unbalanced_force > ftol)
        s << "the constraints leave a force of " << num(rep.unbalanced_force) << " (N or N m) unbalanced at "
          << sys.coordinate_label(kr);
      if (rep.max_speed > 0)
        s << (rep.unbalanced_force > ftol ? ", and " : "") << "it moves (speed " << num(rep.max_speed) << " at "
          << sys.coordinate_label(kv) << ")";
      s << "; these modes describe the motion near this state, not vibrations about an equilibrium "
           "(--at-equilibrium linearises about the static equilibrium)";
      rep.not_equilibrium = s.str();
    }
  }
  const LinearizedSystem lin = linearize(sys, rep.t, rep.q, rep.v, rep.a, rep.lambda);
  rep.dof = static_cast<int>(lin.K.rows());
  rep.modes = modal_analysis(lin);
  if (rep.dof > 0) {
    Eigen::JacobiSVD<MatX> svd(lin.K, Eigen::ComputeFullV);
    const VecX sv = svd.singularValues();
    const double smax = sv.maxCoeff();
    const double tol = smax > 0 ? settings.rigid_tolerance * smax : 1e-12;
    for (int i = 0; i < sv.size(); ++i) {
      if (sv[i] > tol) continue;
      ++rep.rigid_body_modes;
      const VecX dq = lin.N * svd.matrixV().col(i);
      int c = 0;
      dq.cwiseAbs().maxCoeff(&c);
      rep.rigid_body_coordinates.push_back(sys.coordinate_label(c));
    }
  }
  rep.ok = true;
  return rep;
}

std::vector<std::string> free_coordinates(const MultibodySystem& sys, double t, const VecX& q) {
  const int n = sys.num_coordinates();
  const LinearizedSystem lin = linearize(sys, t, q, VecX::Zero(n), VecX::Zero(n),
                                         VecX::Zero(sys.num_constraints()));
  const int k = static_cast<int>(lin.N.cols());
  std::vector<std::string> names;
  if (k == 0) return names;
  // First the relative coordinates of joints (angle, displacement): the rates of each along the
  // free directions; column-pivoting QR picks the joints whose coordinates are independent.
  const auto& joints = sys.model().joints();
  std::vector<int> cand;
  std::vector<VecX> rates;
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) {
    if (joints[static_cast<size_t>(j)].motion) continue;
    VecX r(k);
    try {
      for (int c = 0; c < k; ++c) r[c] = sys.joint_coordinate(j, t, q, lin.N.col(c)).rate;
    } catch (const std::invalid_argument&) {
      continue;  // a type without a relative coordinate
    }
    cand.push_back(j);
    rates.push_back(r);
  }
  int picked = 0;
  MatX rest = lin.N;  // free directions not yet named
  if (!cand.empty()) {
    MatX R(k, static_cast<int>(cand.size()));
    for (size_t i = 0; i < cand.size(); ++i) R.col(static_cast<int>(i)) = rates[i];
    const double scale = R.cwiseAbs().maxCoeff();
    if (scale > 0) {
      Eigen::ColPivHouseholderQR<MatX> qr(R / scale);
      qr.setThreshold(1e-8);
      picked = static_cast<int>(qr.rank());
      for (int i = 0; i < picked; ++i) {
        const int j = cand[static_cast<size_t>(qr.colsPermutation().indices()[i])];
        const Joint& jt = joints[static_cast<size_t>(j)];
        names.push_back(std::string(jt.type == JointType::Prismatic ? "the displacement" : "the coordinate") +
                        " of joint '" + jt.name + "' (" + to_string(jt.type) + ")");
      }
      // The directions that leave the picked joints' coordinates unchanged remain.
      MatX Rp(k, picked);
      for (int i = 0; i < picked; ++i) Rp.col(i) = R.col(qr.colsPermutation().indices()[i]);
      Eigen::FullPivLU<MatX> lu(Rp.transpose());
      lu.setThreshold(1e-8);
      rest = lin.N * lu.kernel();
      if (picked == k) rest.resize(n, 0);
    }
  }
  if (names.size() < static_cast<size_t>(k) && rest.cols() > 0) {
    Eigen::ColPivHouseholderQR<MatX> qr(MatX(rest.transpose()));
    const int more = std::min<int>(k - picked, static_cast<int>(rest.cols()));
    for (int i = 0; i < more; ++i) names.push_back(sys.coordinate_label(qr.colsPermutation().indices()[i]));
  }
  return names;
}

KinematicsOptions kinematics_options(const LoadedModel& m) {
  KinematicsOptions o;
  o.t_end = m.settings.t_end;
  o.output_every = m.settings.output_every;
  return o;
}

void require_driven(const ModelAnalysis& a) {
  const MultibodySystem& sys = a.system();
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  if (m >= n) return;  // square (or over-determined: solve_kinematics says so)
  const std::vector<std::string> free = free_coordinates(sys, 0.0, a.prepared().q0);
  std::ostringstream s;
  s << "kinematic analysis needs a mechanism with no degree of freedom left, but " << (n - m)
    << (n - m == 1 ? " degree of freedom is" : " degrees of freedom are") << " not driven: ";
  for (size_t i = 0; i < free.size(); ++i) s << (i ? ", " : "") << free[i];
  s << ". Drive them (motion: on a revolute or prismatic joint), or simulate with mbdae run";
  throw std::invalid_argument(s.str());
}

SolveResult solve_model_kinematics(const ModelAnalysis& a, const KinematicsOptions& opt, const AnalysisObserver& obs) {
  require_driven(a);
  return solve_kinematics(a.system(), 0.0, a.prepared().q0, opt,
                          [&](const StateView& s) { return obs ? obs(s, nullptr) : true; });
}

SolveResult solve_model_inverse(const ModelAnalysis& a, const KinematicsOptions& opt, const AnalysisObserver& obs) {
  require_driven(a);
  return solve_inverse_dynamics(a.system(), 0.0, a.prepared().q0, opt,
                                [&](const StateView& s, const InverseDynamicsResult& r) {
                                  return obs ? obs(s, &r) : true;
                                });
}


MotionTable::MotionTable(ModelAnalysis& a, bool inverse) : a_(a), inverse_(inverse) {
  const System& model = a.system().model();
  sensors_ = a.make_sensors({true, inverse}, &left_out_);
  auto add = [&](std::string name, std::string unit, std::string group, std::string output) {
    columns_.push_back({std::move(name), std::move(unit), std::move(group), std::move(output)});
  };
  auto add3 = [&](const std::string& group, const char* const (&suffix)[3], const char* unit, const char* output) {
    for (const char* s : suffix) add(group + s, unit, group, output);
  };
  static const char* const kXyz[3] = {".x", ".y", ".z"};
  static const char* const kRxyz[3] = {".rx", ".ry", ".rz"};
  static const char* const kV[3] = {".vx", ".vy", ".vz"};
  static const char* const kW[3] = {".wx", ".wy", ".wz"};
  static const char* const kA[3] = {".ax", ".ay", ".az"};
  static const char* const kAl[3] = {".alphax", ".alphay", ".alphaz"};
  static const char* const kF[3] = {".fx", ".fy", ".fz"};
  static const char* const kT[3] = {".tx", ".ty", ".tz"};
  add("time", "s", "time", "");
  if (inverse) {
    for (int j = 0; j < static_cast<int>(model.joints().size()); ++j) {
      const Joint& jt = model.joints()[static_cast<size_t>(j)];
      if (!jt.motion) continue;
      driven_.push_back(j);
      add(jt.name + ".effort", jt.type == JointType::Prismatic ? "N" : "N m", jt.name + ".effort", "drive effort");
    }
    for (const Joint& j : model.joints()) {
      add3(j.name, kF, "N", "reaction_force");
      add3(j.name, kT, "N m", "reaction_torque");
    }
    add("residual", "", "residual", "");
  } else {
    for (const RigidBody& b : model.bodies()) {
      add3(b.name, kXyz, "m", "position");
      add3(b.name, kRxyz, "rad", "rotation");
      add3(b.name, kV, "m/s", "velocity");
      add3(b.name, kW, "rad/s", "angular_velocity");
      add3(b.name, kA, "m/s^2", "acceleration");
      add3(b.name, kAl, "rad/s^2", "angular_acceleration");
    }
  }
  for (int c = 0; c < sensors_->size(); ++c) {
    const SensorSpec& sp = sensors_->specs()[static_cast<size_t>(sensors_->column_sensor()[static_cast<size_t>(c)])];
    add(sensors_->columns()[static_cast<size_t>(c)], sensors_->units()[static_cast<size_t>(c)], sp.name,
        to_string(sp.output));
  }
  sensor_row_.resize(static_cast<size_t>(sensors_->size()));
}

void MotionTable::row(const StateView& s, const InverseDynamicsResult* r, std::vector<double>& row) {
  row.clear();
  row.push_back(s.t);
  auto put3 = [&row](const Vec3& x) { row.insert(row.end(), {x.x(), x.y(), x.z()}); };
  sensors_->evaluate(s, sensor_row_);
  if (inverse_) {
    if (!r) throw std::invalid_argument("MotionTable::row: an inverse-dynamics row needs its result");
    row.insert(row.end(), r->drive_forces.begin(), r->drive_forces.end());
    for (const JointReaction& jr : r->reactions) {
      put3(jr.force_J);
      put3(jr.torque_J);
    }
    row.push_back(r->residual);
  } else {
    BodyKinematics& kin = a_.kinematics();
    kin.update(s);
    for (int i = 0; i < static_cast<int>(a_.system().model().bodies().size()); ++i) {
      put3(kin.position(i));
      put3(math::matrix_to_rxyz(kin.rotation(i)).angles);
      put3(kin.velocity(i));
      put3(kin.angular_velocity(i));
      put3(kin.acceleration(i));
      put3(kin.angular_acceleration(i));
    }
  }
  row.insert(row.end(), sensor_row_.begin(), sensor_row_.end());
}

}  // namespace mbdae::io
