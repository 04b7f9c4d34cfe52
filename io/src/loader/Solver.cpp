/// @file Solver.cpp
/// The `solver` section, and what the chosen solver cannot handle (checked after every section).

#include "Loader.h"

#include <array>

#include <cmath>

#include <mbdae/contact/ContactGeometry.h>
#include <mbdae/contact/ContactPairs.h>
#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae::io::loader {

// ---- solver ---------------------------------------------------------------------------------------
void Loader::solver(const YAML::Node& n) {
  Map s(*this, n, "solver",
        {"type", "end_time", "step", "rho_inf", "formulation", "tolerance", "linear_solver", "adaptive", "projection",
         "pgs_iterations", "pgs_tolerance", "friction_model"});
  if (!s.valid()) return;
  SimulationSettings& st = m_.settings;
  if (const Entry* e = s.find("type")) {
    std::vector<std::string> names;  // the solvers of this build (SolverRegistry.h)
    for (const SolverInfo& info : solvers()) names.push_back(info.name);
    const char* unavailable = e->value.IsScalar() ? unavailable_solver(e->value.Scalar()) : nullptr;
    if (unavailable) {
      error(e->value, s.path("type"), "solver '" + e->value.Scalar() + "' " + unavailable);
      solver_ok_ = false;
    } else if (auto t = choice(e->value, s.path("type"), names, {}, "solver")) {
      st.solver = solver_type_from_string(*t);
      solver_type_mark_ = e->value.Mark();
    } else {
      solver_ok_ = false;
    }
  }
  const std::string sname = m_.solver_name();
  const SolverInfo& info = solver_info(st.solver);
  const bool implicit = info.path == SolverPath::Implicit;
  if (const Entry* e = s.find("adaptive")) {
    if (auto f = flag(e->value, s.path("adaptive"))) {
      const bool fixed_step = !info.adaptive;
      if (*f && fixed_step && !implicit)
        error(e->value, s.path("adaptive"), "solver " + sname + " has a fixed step; adaptive steps are for "
                                            "generalized_alpha and trapezoidal_index2 (ida and dopri5 always adapt)");
      else st.adaptive = *f && fixed_step;
    }
  }
  if (const Entry* e = s.find("projection")) {
    if (auto f = flag(e->value, s.path("projection"))) st.projection = *f;
  }
  if (const Entry* e = s.find("pgs_iterations")) {
    if (auto x = number(e->value, s.path("pgs_iterations"), {1, 1e6, false, false, "in [1, 1e6]"})) {
      if (*x != std::floor(*x)) error(e->value, s.path("pgs_iterations"), "expected a whole number, got " + fmt_num(*x));
      else st.pgs_iterations = static_cast<int>(*x);
    }
  }
  if (const Entry* e = s.find("pgs_tolerance")) {
    if (auto x = number(e->value, s.path("pgs_tolerance"), positive())) st.pgs_tolerance = *x;
  }
  if (const Entry* e = s.find("friction_model")) {
    if (auto x = choice(e->value, s.path("friction_model"), {"pyramid", "cone"})) st.friction_cone = *x == "cone";
  }
  if (const Entry* e = s.require("end_time", "s")) {
    if (auto x = number(e->value, s.path("end_time"), positive())) {
      st.t_end = *x;
      have_end_time_ = true;
      end_time_mark_ = e->value.Mark();
    }
  }
  if (const Entry* e = s.find("step")) {
    step_given_ = true;
    if (auto x = number(e->value, s.path("step"), positive())) {
      st.step = *x;
      if (have_end_time_ && st.step > st.t_end)
        error(e->value, s.path("step"), "the step " + fmt_num(st.step) + " s is longer than end_time " +
                                            fmt_num(st.t_end) + " s");
      else if (have_end_time_ && st.t_end / st.step > max_steps)
        error(e->value, s.path("step"), "end_time / step = " + fmt_num(st.t_end / st.step) +
                                            " steps; at most 1e9 are allowed");
    }
  }
  if (const Entry* e = s.find("rho_inf")) {
    if (auto x = number(e->value, s.path("rho_inf"), {0, 1, false, false, "in [0, 1]"})) st.rho_inf = *x;
  }
  if (const Entry* e = s.find("formulation")) {
    if (auto x = choice(e->value, s.path("formulation"), {"index3", "index2_ggl"})) {
      if (st.solver != SolverType::GeneralizedAlpha)
        error(e->value, s.path("formulation"),
              "the constraint formulation is a setting of generalized_alpha; solver " + sname +
                  " has its own (see the solver table of the model format)");
      else
        st.formulation = *x == "index2_ggl" ? AlphaFormulation::StabilizedIndex2 : AlphaFormulation::Index3;
    }
  } else if (implicit && st.solver == SolverType::GeneralizedAlpha && st.rho_inf == 1) {
    // Without numerical damping the index-3 form is only weakly stable (Arnold & Brüls 2007): a
    // free pendulum's run diverges after about 8 s at h = 1e-3, a 100-link falling chain at 4.5 s.
    // The stabilized index-2 form is stable at rho_inf = 1 (the IFToMM A01 pendulum for 2000 s),
    // so it is the default there; `formulation: index3` still chooses the index-3 form.
    st.formulation = AlphaFormulation::StabilizedIndex2;
  }
  if (const Entry* e = s.find("tolerance")) {
    Map t(*this, e->value, s.path("tolerance"), {"relative", "absolute"});
    if (t.valid()) {
      if (const Entry* r = t.find("relative")) {
        if (auto x = number(r->value, t.path("relative"), {0, 1, true, true, "in (0, 1)"})) st.rtol = *x;
      }
      if (const Entry* a = t.find("absolute")) {
        if (auto x = number(a->value, t.path("absolute"), positive())) st.atol = *x;
      }
    }
  }
  if (const Entry* e = s.find("linear_solver")) {
    if (auto x = choice(e->value, s.path("linear_solver"), {"sparse", "dense"})) st.sparse = *x == "sparse";
  }
}

// ---- limits with the defaults ----------------------------------------------------------------
void Loader::limit_checks() {
  if (!have_end_time_ || !solver_ok_) return;
  const SimulationSettings& st = m_.settings;
  const SolverInfo* info = find_solver(m_.solver_name());
  const bool fixed_step = info && !info->adaptive && !st.adaptive;  // adaptive ones: their max_steps
  if (!step_given_ && fixed_step && st.t_end / st.step > max_steps)
    error(end_time_mark_, "solver.end_time",
          "end_time / step = " + fmt_num(st.t_end / st.step) + " steps with the default step " + fmt_num(st.step) +
              " s; at most 1e9 are allowed (give a larger solver.step, or a shorter end_time)");
  if (!every_given_ && st.t_end / m_.output.every > max_output_rows)
    error(end_time_mark_, "solver.end_time",
          "end_time / output.every = " + fmt_num(st.t_end / m_.output.every) +
              " output rows with the default output.every " + fmt_num(m_.output.every) +
              " s; at most 1e7 are allowed (give a larger output.every, or a shorter end_time)");
}

// ---- what the chosen solver cannot do --------------------------------------------------------
void Loader::solver_checks() {
  if (!solver_ok_) return;
  const std::string sname = m_.solver_name();
  const SolverInfo* info = find_solver(sname);
  if (!info) return;  // the solver section reported it
  const SolverSupport& can = info->support;
  const std::string why = " (solver.type " + sname + (override_of("solver.type") ? ", set on the command line)" : ")");
  // "handled by generalized_alpha, ida, ...": the solvers that declare the support.
  auto by = [](bool SolverSupport::*flag) {
    std::string names;
    for (const SolverInfo& s : solvers())
      if (s.support.*flag) names += std::string(names.empty() ? "" : ", ") + s.name;
    return names;
  };
  if (!can.contacts)
    for (const Placed& c : contacts_)
      error(c.mark, c.path, "contacts are handled by " + by(&SolverSupport::contacts) + "; " + sname +
                                " has no contact model" + why);
  if (can.contacts) {
    // Pair kinds the geometry handles but this solver's contact path does not take (the pair
    // kinds that are not handled at all are refused with the model's checks).
    const ContactPath path = can.contact_penalty ? ContactPath::Penalty : ContactPath::Impulse;
    const auto& cs = m_.system.contacts();
    std::set<const ContactPairKind*> reported;
    // Linear in the contacts, not pair by pair: for each shape type, the first contact of that
    // type before j and the first one on another body than it; the first contact of a type on
    // another body than j's is one of the two.
    constexpr size_t T = kShapeTypeCount;
    std::array<long, T> first, other;
    first.fill(-1);
    other.fill(-1);
    for (size_t j = 0; j < cs.size() && j < contact_items_.size(); ++j) {
      for (size_t t = 0; t < T; ++t) {
        long i = -1;
        if (first[t] >= 0 && cs[static_cast<size_t>(first[t])].body != cs[j].body) i = first[t];
        else if (other[t] >= 0 && cs[static_cast<size_t>(other[t])].body != cs[j].body) i = other[t];
        if (i < 0) continue;
        const Contact& a = cs[static_cast<size_t>(i)];
        bool swapped;
        const ContactPairKind& kind = contact_pair_kind(a.shape, cs[j].shape, swapped);
        if (!kind.collide || kind.on(path) || !reported.insert(&kind).second) continue;
        error(contact_items_[j].mark, contact_items_[j].path,
              "contacts '" + a.name + "' and '" + cs[j].name + "': the " + to_string(path) +
                  " contacts of " + sname + " do not take the pair " + kind.name + why);
      }
      const size_t s = static_cast<size_t>(cs[j].shape);
      if (first[s] < 0) first[s] = static_cast<long>(j);
      else if (other[s] < 0 && cs[j].body != cs[static_cast<size_t>(first[s])].body) other[s] = static_cast<long>(j);
    }
  }
  // Rolling resistance and torsional friction: refused by key where the solver's contacts do not
  // model them (a sphere_plane item is two shapes: reported once).
  const struct {
    double Contact::*value;
    bool SolverSupport::*flag;
    const char* key;
    const char* what;
  } torques[] = {{&Contact::rolling_resistance, &SolverSupport::rolling_resistance, "rolling_resistance",
                  "rolling resistance"},
                 {&Contact::torsional_friction, &SolverSupport::torsional_friction, "torsional_friction",
                  "torsional friction"}};
  for (const auto& tq : torques) {
    std::set<std::string> reported;
    if (can.contacts && !(can.*tq.flag))
      for (size_t j = 0; j < m_.system.contacts().size() && j < contact_items_.size(); ++j)
        if (m_.system.contacts()[j].*tq.value > 0 && reported.insert(contact_items_[j].path).second)
          error(contact_items_[j].mark, contact_items_[j].path + "." + tq.key,
                std::string(tq.what) + " is handled by " + by(tq.flag) + "; the contacts of " + sname +
                    " do not model it" + why);
  }
  if (can.contacts && can.contact_penalty && !contact_penalty_given_) {
    // Every pair of shapes on different bodies that can touch needs penalty parameters, from one
    // of its two shapes (MultibodySystem takes those of the pair's sphere, capsule or box first).
    const auto& cs = m_.system.contacts();
    for (size_t j = 0; j < cs.size() && j < contact_items_.size(); ++j)
      for (size_t i = 0; i < j; ++i) {
        if (cs[i].body == cs[j].body || cs[i].penalty || cs[j].penalty) continue;
        if (!narrow_phase_handles(cs[i].shape, cs[j].shape)) continue;
        const bool same_item = contact_items_[i].path == contact_items_[j].path;  // sphere_plane
        const std::string where = same_item ? "on this contact" : "on this contact or on contact '" + cs[i].name + "'";
        error(contact_items_[j].mark, contact_items_[j].path,
              "with " + sname + " contacts are penalty forces and need their parameters: a penalty block " +
                  where + ", or a model-wide contact_penalty (or a solver without penalty contacts: " +
                  [&] {
                    std::string names;
                    for (const SolverInfo& s : solvers())
                      if (s.support.contacts && !s.support.contact_penalty)
                        names += std::string(names.empty() ? "" : ", ") + s.name;
                    return names;
                  }() + ")" + why);
        break;
      }
  }
  if (!can.joints && first_joint_)
    error(first_joint_->mark, first_joint_->path,
          sname + " integrates free bodies only; a model with joints needs " + by(&SolverSupport::joints) + why);
  if (!can.force_elements)
    for (const Placed& f : force_elements_)
      error(f.mark, f.path, "force elements are handled by " + by(&SolverSupport::force_elements) + ", not by " +
                                sname + why);
  if (can.force_elements && !can.reaction_friction)
    for (const Placed& f : reaction_friction_)
      error(f.mark, f.path, "joint friction with the joint's reaction as the normal force is handled by " +
                                by(&SolverSupport::reaction_friction) + ", not by " + sname +
                                " (give the normal force: normal: given with normal_force)" + why);
  if (!can.couplings) {
    for (const Placed& c : couplings_)
      error(c.mark, c.path, "couplings of joint coordinates are handled by " + by(&SolverSupport::couplings) +
                                ", not by " + sname + why);
    for (const Placed& c : shafts_)
      error(c.mark, c.path, "1-D shafts and their efforts are handled by " + by(&SolverSupport::couplings) +
                                ", not by " + sname + why);
  }
  if (info->path != SolverPath::Implicit)
    for (const Placed& c : cables_)
      error(c.mark, c.path, "flexible cables are handled by the implicit solvers (" + [] {
        std::string names;
        for (const SolverInfo& s : solvers())
          if (s.path == SolverPath::Implicit) names += std::string(names.empty() ? "" : ", ") + s.name;
        return names;
      }() + "), not by " + sname + why);
  if (!can.controller_states)
    for (const Placed& z : states_)
      error(z.mark, z.path, "controller states are integrated by " + by(&SolverSupport::controller_states) +
                                ", not by " + sname + why);
  if (can.joints && !can.driven_joints)
    for (const Placed& d : driven_joints_)
      error(d.mark, d.path, "driven joints are handled by " + by(&SolverSupport::driven_joints) + "; the " + sname +
                                " stepper's joint equations do not depend on time" + why);
}

}  // namespace mbdae::io::loader
