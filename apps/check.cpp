// `mbdae check`: everything that can be known about a model without simulating it.

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mbdae/io/Run.h>

#include <mbdae/contact/ContactPairs.h>
#include <mbdae/formulations/ContactDetector.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/Mobility.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverRegistry.h>

#include "commands.h"

namespace mbdae::cli {

int check_command(const CheckOptions& o) {
  auto loaded = load_model(o.model, o.sets);
  if (!loaded) return kBadInput;
  const io::LoadedModel& m = *loaded;
  const System& sys = m.system;
  std::vector<std::string> notes;

  fmt::print("model        {} ({})\n", sys.name.empty() ? "(no name)" : sys.name, m.file);
  if (!m.description.empty()) fmt::print("             {}\n", m.description);
  fmt::print("gravity      [{:g}, {:g}, {:g}] m/s^2\n", sys.gravity.x(), sys.gravity.y(), sys.gravity.z());

  // ---- bodies: mass and inertia sanity -------------------------------------------------------
  fmt::print("\nbodies ({})\n", sys.bodies().size());
  double m_min = HUGE_VAL, m_max = 0, total = 0;
  for (const RigidBody& b : sys.bodies()) {
    const RigidBodyInertia rbi = RigidBodyInertia::from_inertia6(b.mass, b.inertia, b.com);
    const PrincipalAxes pa = rbi.principal_axes();
    fmt::print("  {:<14} mass {:<9g} kg  principal moments about the COM [{:.4g}, {:.4g}, {:.4g}] kg m^2  {}\n",
               b.name, b.mass, pa.moments[0], pa.moments[1], pa.moments[2], to_string(b.rotation));
    m_min = std::min(m_min, b.mass);
    m_max = std::max(m_max, b.mass);
    total += b.mass;
    const Vec3& J = pa.moments;
    if (J[0] + J[1] < J[2] * (1 + 1e-6))
      notes.push_back(fmt::format("body '{}': a flat body (J1 + J2 = J3 within 1e-6): fine, but check the inertia",
                                  b.name));
    if (J[0] < 1e-9 * J[2])
      notes.push_back(fmt::format("body '{}': smallest principal moment is {:.3g} of the largest; the mass "
                                  "matrix will be badly conditioned",
                                  b.name, J[0] / J[2]));
  }
  fmt::print("  total mass {:g} kg\n", total);
  if (m_max > 1e6 * m_min)
    notes.push_back(fmt::format("masses range over {:.3g} (from {:g} to {:g} kg): expect poor conditioning",
                                m_max / m_min, m_min, m_max));

  // ---- joints ---------------------------------------------------------------------------------
  // The implicit formulation sees the contacts only when an implicit solver will run the model
  // (as penalty forces); for the impulse solver its kinematics and assembly are checked without.
  // The joint friction whose normal force is the joint's reaction reads the multipliers (only the
  // time integrators take it): it is not part of the kinematics checked here, whatever the solver.
  System kin_sys = sys;
  if (solver_info(m.settings.solver).path != SolverPath::Implicit) kin_sys.contacts().clear();
  std::erase_if(kin_sys.forces(), [](const ForceElement& f) {
    return f.type == ForceType::JointFriction && f.normal_from_reaction;
  });
  std::unique_ptr<MultibodySystem> mb;
  if (std::string why = io::penalty_contacts_refusal(kin_sys); !why.empty()) {
    print_problem(m, {why, {}});
    return kBadInput;
  }
  try {
    mb = std::make_unique<MultibodySystem>(kin_sys);
  } catch (const ModelError& e) {
    print_setup_error(m, e);
    return kBadInput;
  }
  fmt::print("\njoints ({})\n", sys.joints().size());
  int joint_equations = 0;
  std::set<std::string> connected;
  for (size_t j = 0; j < sys.joints().size(); ++j) {
    const Joint& jt = sys.joints()[j];
    const int rows = static_cast<int>(mb->joint_rows(static_cast<int>(j)).size());
    joint_equations += rows;
    connected.insert(jt.bodies[0]);
    connected.insert(jt.bodies[1]);
    fmt::print("  {:<14} {:<10} {} - {}  ({} equation{})\n", jt.name, to_string(jt.type), jt.bodies[0],
               jt.bodies[1], rows, rows == 1 ? "" : "s");
  }
  if (!sys.couplings().empty()) {
    fmt::print("\ncouplings ({})\n", sys.couplings().size());
    for (const Coupling& c : sys.couplings()) {
      std::string terms;
      for (size_t k = 0; k < c.joints.size() && k < c.coefficients.size(); ++k)
        terms += fmt::format("{}{:g} q({})", k ? " + " : "", c.coefficients[k], c.joints[k]);
      fmt::print("  {:<14} {:<11} {} = 0\n", c.name, to_string(c.kind), terms);
    }
  }
  if (!sys.shafts().empty()) {
    fmt::print("\nshafts ({})\n", sys.shafts().size());
    for (const Shaft& s : sys.shafts())
      fmt::print("  {:<14} {:<6} {} {:g} {}\n", s.name, to_string(s.kind),
                 s.kind == Shaft::Kind::Rotor ? "inertia" : "mass", s.inertia,
                 s.kind == Shaft::Kind::Rotor ? "kg m^2" : "kg");
    for (const ShaftForce& f : sys.shaft_forces())
      fmt::print("  {:<14} {:<13} {}{}\n", f.name, to_string(f.kind), f.shafts[0],
                 f.kind == ShaftForce::Kind::SpringDamper ? " - " + f.shafts[1] : std::string());
  }
  for (const RigidBody& b : sys.bodies())
    if (!connected.count(b.name)) notes.push_back(fmt::format("body '{}' has no joint: it moves freely", b.name));
  for (const Joint& jt : sys.joints())
    if (jt.motion) notes.push_back(fmt::format("joint '{}' is driven (motion of t)", jt.name));
  for (const Load& l : sys.loads())
    if (l.value_of_t) notes.push_back(fmt::format("load '{}' depends on time", l.name));
  if (!sys.forces().empty()) {
    fmt::print("\nforces ({})\n", sys.forces().size());
    for (const ForceElement& f : sys.forces()) {
      if (f.type == ForceType::User) {  // a user law (a load of named quantities): its body, then those it reads
        std::string reads;
        for (size_t k = 1; k < f.bodies.size(); ++k) reads += (k > 1 ? ", " : "") + f.bodies[k];
        fmt::print("  {:<14} {:<24} on {}{}\n", f.name, to_string(f.type), f.bodies.empty() ? "" : f.bodies[0],
                   reads.empty() ? "" : " (reads " + reads + ")");
        continue;
      }
      fmt::print("  {:<14} {:<24} {} - {}\n", f.name, to_string(f.type), f.bodies.size() > 0 ? f.bodies[0] : "",
                 f.bodies.size() > 1 ? f.bodies[1] : "");
    }
  }
  if (!sys.contacts().empty()) {
    fmt::print("\ncontacts ({})\n", sys.contacts().size());
    for (const Contact& c : sys.contacts())
      fmt::print("  {:<14} {:<8} on {:<10} friction {:g}, restitution {:g}{}\n", c.name, to_string(c.shape), c.body,
                 c.friction, c.restitution,
                 c.penalty ? fmt::format("; penalty {}, stiffness {:g}", to_string(c.penalty->law), c.penalty->stiffness)
                           : std::string());
    if (sys.contact_penalty)
      fmt::print("  contact_penalty {}, stiffness {:g}\n", to_string(sys.contact_penalty->law),
                 sys.contact_penalty->stiffness);
    // The pair kinds of the model (shapes on different bodies), from the registry of pair kinds.
    // Counted by shape type, not pair by pair (linear in the contacts).
    const auto kinds = io::contact_pair_counts(sys);
    for (const auto& [name, e] : kinds) {
      const ContactPairKind& k = *e.second;
      std::string paths;
      for (const ContactPath p : {ContactPath::Impulse, ContactPath::Penalty})
        if (k.on(p)) paths += std::string(paths.empty() ? "" : ", ") + to_string(p);
      fmt::print("  pair {:<18} {:>4} pair{} of shapes, up to {} point{} each; {}\n", name, e.first,
                 e.first == 1 ? " " : "s", k.max_points, k.max_points == 1 ? "" : "s",
                 k.collide ? "paths: " + paths : std::string("not handled"));
    }
    // Deep overlaps at the given poses: every run refuses them (io::ModelRun).
    try {
      std::vector<ModelProblem> overlaps = initial_overlap_problems(sys);
      if (!overlaps.empty()) throw ModelError(std::move(overlaps));
    } catch (const ModelError& e) {
      print_setup_error(m, e);
      return kBadInput;
    }
  }

  // ---- coordinates, Grübler, rank -------------------------------------------------------------
  const int n = mb->num_coordinates();
  const int rows = mb->num_all_rows();
  const int coupling_rows = static_cast<int>(sys.couplings().size());
  int angles = n;  // the couplings' angle coordinates: one per coupled revolute joint, each with its row
  for (size_t i = 0; i < sys.bodies().size(); ++i) angles -= mb->body_size(static_cast<BodyIndex>(i));
  const int nshafts = static_cast<int>(sys.shafts().size());
  angles -= nshafts;
  int cable_coords = 0, support_rows = 0;  // flexible cables: 4 coordinates per node; their supports' rows
  for (const Cable& c : sys.cables()) {
    cable_coords += 4 * (c.segments + 1);
    for (const CableSupport& su : c.supports) support_rows += su.kind == CableSupport::Kind::Clamped ? 3 : 2;
  }
  angles -= cable_coords;
  const int norm_rows = rows - joint_equations - coupling_rows - angles - support_rows;
  VecX q0(n), v0(n);
  mb->initial_state(q0, v0);
  const RedundancyReport red = find_redundant_constraints(*mb, 0.0, q0);
  const int nb = static_cast<int>(sys.bodies().size());
  fmt::print("\ncoordinates  {} ({} bodies{}{}; {} Euler-parameter norm equation{}{})\n", n, nb,
             nshafts ? fmt::format(", {} shaft{}", nshafts, nshafts == 1 ? "" : "s") : std::string(),
             cable_coords ? fmt::format(", {} cable coordinates with {} support equations", cable_coords, support_rows)
                          : std::string(),
             norm_rows,
             norm_rows == 1 ? "" : "s",
             angles ? fmt::format("; {} joint angle{} of the couplings, each with its equation", angles, angles == 1 ? "" : "s")
                    : std::string());
  if (coupling_rows || angles)
    fmt::print("equations    {} joint + {} coupling + {} angle + {} norm = {}\n", joint_equations, coupling_rows, angles,
               norm_rows, rows);
  else
    fmt::print("equations    {} joint + {} norm = {}\n", joint_equations, norm_rows, rows);
  const MobilityReport mob = calc_mobility(*mb, 0.0, q0);
  const int gruebler = 6 * nb + nshafts - mob.joint_equations;
  const int mobility = mob.mobility;
  if (cable_coords)
    fmt::print("Grübler      not counted: the model has flexible cables (see mobility)\n");
  else
    fmt::print("Grübler      6 x {} bodies{} - {} joint equations = {} degree{} of freedom\n", nb,
               nshafts ? fmt::format(" + {} shaft{}", nshafts, nshafts == 1 ? "" : "s") : std::string(),
               mob.joint_equations, gruebler, std::abs(gruebler) == 1 ? "" : "s");
  fmt::print("mobility     {} coordinates - rank {} of the constraint Jacobian = {} degree{} of freedom "
             "(at the initial configuration)\n",
             n, mob.rank, mobility, mobility == 1 ? "" : "s");
  if (mob.velocity_equations > 0)
    fmt::print("velocity     {} nonholonomic equation{}: {} velocity degree{} of freedom\n", mob.velocity_equations,
               mob.velocity_equations == 1 ? "" : "s", mob.velocity_dof, mob.velocity_dof == 1 ? "" : "s");
  if (red.dependent_rows.empty()) {
    fmt::print("redundant    none\n");
  } else {
    fmt::print("redundant    {} equation{} (removed before a run):\n", red.dependent_rows.size(),
               red.dependent_rows.size() == 1 ? "" : "s");
    for (int r : red.dependent_rows) fmt::print("               {}\n", mb->all_row_label(r));
  }
  if (mobility == 0) notes.push_back("the mechanism cannot move (mobility 0)");

  // ---- initial constraint violation and assembly ----------------------------------------------
  VecX c(mb->num_constraints());
  auto ws = mb->make_workspace();
  mb->constraints(ws, 0.0, q0, c);
  int worst = 0;
  const double cmax = c.size() ? c.cwiseAbs().maxCoeff(&worst) : 0.0;
  if (m.placement.placed) {
    fmt::print("\n");
    print_placement(m, true);
  }
  fmt::print("\ninitial      max |C| = {:.3g}{}\n", cmax,
             c.size() && cmax > 0 ? " in " + mb->constraint_label(worst) : std::string());
  int code = kSuccess;
  try {
    const PreparedSystem p = prepare(kin_sys, 0.0);
    fmt::print("assembly     converged in {} iteration{}: max |C| {:.3g} -> {:.3g}, |dq| = {:.3g}; "
               "max |dC/dt| {:.3g} -> {:.3g}, |dv| = {:.3g}\n",
               p.assembly.iterations, p.assembly.iterations == 1 ? "" : "s", p.assembly.position_violation_before,
               p.assembly.position_violation_after, p.assembly.position_change, p.assembly.velocity_violation_before,
               p.assembly.velocity_violation_after, p.assembly.velocity_change);
    if (p.assembly.position_change > 1e-6)
      notes.push_back(fmt::format("the initial positions are moved by |dq| = {:.3g} to close the joints; "
                                  "check the model's positions",
                                  p.assembly.position_change));
  } catch (const std::exception& e) {
    std::fflush(stdout);
    print_setup_error(m, e);
    code = kBadInput;
  }

  fmt::print("\nsolver       {}, end time {:g} s, output every {:g} s, {} sensor{}\n",
             m.solver_name(), m.settings.t_end, m.output.every, m.sensors.size(),
             m.sensors.size() == 1 ? "" : "s");
  {
    const SolverInfo* info = find_solver(m.solver_name());
    const bool fixed_step = info && !info->adaptive && !m.settings.adaptive;
    const double rows = std::floor(m.settings.t_end / m.output.every + 1e-9) + 1;
    static_assert(io::max_steps == 1e9 && io::max_output_rows == 1e7);
    fmt::print("limits       {}{:g} output rows of at most 1e7 (end_time / output.every); model files up to {} MB\n",
               fixed_step ? fmt::format("{:g} steps of at most 1e9 (end_time / step), ",
                                        std::ceil(m.settings.t_end / m.settings.step - 1e-9))
                          : std::string("steps chosen by the solver, "),
               rows, io::max_model_file_bytes >> 20);
  }
  if (!notes.empty()) {
    fmt::print("\nnotes\n");
    for (const std::string& s : notes) fmt::print("  - {}\n", s);
  }
  fmt::print("\n{}\n", code == kSuccess ? "check: OK" : "check: FAILED");
  // A report that could not be written (a closed pipe, a full disk) is a failed check.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "mbdae check: cannot write the report to standard output: %s\n", std::strerror(errno));
    return kOtherError;
  }
  return code;
}

}  // namespace mbdae::cli
