/// @file cases_contact.cpp
/// Validation-suite cases for the closed forms of reference/contact.md through the impulse
/// stepper (ImpulseStepper.h), with the setups of validation/tests/test_contact_closed_forms.cpp
/// (validation/contact/README.md). The stepper is first order (symplectic Euler with impulses):
/// each case runs three steps h, h/2, h/4; the tolerances are the O(h) bounds of the tests
/// (e.g. a stop distance within 3 v0 h) and the error must shrink as h does. The penalty cases
/// run the same kind of models through the implicit solvers (penalty contacts of
/// MultibodySystem), with the setups of validation/tests/test_contact_penalty.cpp.

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <mbdae/model/Contact.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Models.h>
#include <mbdae/validation/References.h>

#include "CaseSupport.h"

namespace mbdae::validation::suite {
namespace {

namespace models = mbdae::validation::models;
namespace cf = refs::contact;
constexpr double g = 9.81;

struct Traj {
  std::vector<double> t;
  std::vector<VecX> q, v;
  ImpulseResult r;
  double wall = 0;
};

Traj RunImpulse(const System& s, double h, double t_end, ImpulseOptions o = {}) {
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  o.step = h;
  o.t_end = t_end;
  o.output_every = h;
  Traj out;
  Stopwatch w;
  out.r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    out.t.push_back(st.t);
    out.q.push_back(st.q);
    out.v.push_back(st.v);
    return true;
  });
  out.wall = w.seconds();
  return out;
}

std::string HLabel(double h) { return "impulse/PGS h=" + Num(h, 3); }

/// Row "error shrinks with h": error(h/4) < error(h); the value shown is the ratio.
void Shrinks(Context& ctx, const std::string& what, const std::array<double, 3>& e, double wall) {
  ctx.add("impulse/PGS h, h/2, h/4", what + ": error(h/4)/error(h) (must be < 1; first order ≈ 0.25)",
          Tuple({e[0], e[1], e[2]}, 3), Num(e[2] / e[0], 3), e[2] / e[0], 0.999, "ratio", wall);
}

// Ball dropped from h0 = 1 m, e = 0.8: apexes e^(2n) h0 for n = 1, 2, 3. Tolerance 0.02 m at
// h ≤ 1e-3 (the impact instant is resolved to one step: apex error ~ 2 g h × fall time).
void Restitution(Context& ctx) {
  const double r = 0.1, h0 = 1.0, e = 0.8;
  std::array<double, 3> err{};
  double wall = 0;
  const double steps[3] = {1e-3, 5e-4, 2.5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(models::SphereBody("ball", 1.0, r, Vec3(0, 0, r + h0), Vec3::Zero()));
    s.add_contact(make_sphere("ball", "ball", r, 0.0, e));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.0, e));
    ImpulseOptions o;
    o.slop = 0;
    o.position_beta = 1.0;
    const Traj R = RunImpulse(s, steps[k], 2.5, o);
    wall += R.wall;
    if (!R.r.ok()) {
      ctx.add_failure(HLabel(steps[k]), "apexes", R.r.result.message, R.wall);
      return;
    }
    std::vector<double> apex;
    for (size_t i = 1; i + 1 < R.t.size(); ++i)
      if (R.v[i - 1][2] > 0 && R.v[i][2] <= 0) apex.push_back(R.q[i][2] - r);
    apex.resize(3, std::nan(""));
    double worst = 0;
    for (int n = 1; n <= 3; ++n)
      worst = std::max(worst, std::abs(apex[static_cast<size_t>(n - 1)] - cf::RestitutionApexHeight(h0, e, n)));
    err[static_cast<size_t>(k)] = worst;
    ctx.add(HLabel(steps[k]), "apex heights after bounces 1–3 [m]",
            Tuple({cf::RestitutionApexHeight(h0, e, 1), cf::RestitutionApexHeight(h0, e, 2), cf::RestitutionApexHeight(h0, e, 3)}, 6),
            Tuple(apex, 6), worst, 0.02, "max abs", R.wall);
  }
  Shrinks(ctx, "apex heights", err, wall);
}

// Block (2 kg) sliding from v0 = 2 m/s, μ = 0.5: stops after v0²/(2 μ g) and stays at rest.
// Tolerances: stop distance 3 v0 h; creep after the stop 1e-9 m (no drift of a sticking contact).
void SlidingBlock(Context& ctx) {
  const double v0 = 2.0, mu = 0.5;
  const Vec3 half(0.2, 0.15, 0.05);
  const double exact = cf::SlidingStopDistance(v0, mu, g), t_stop = cf::SlidingStopTime(v0, mu, g);
  std::array<double, 3> err{};
  double wall = 0;
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(models::BoxBody("block", 2.0, half, Vec3(0, 0, half.z()), Vec3(v0, 0, 0)));
    s.add_contact(make_box("block", "block", half, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    const Traj R = RunImpulse(s, steps[k], t_stop + 1.0);
    wall += R.wall;
    if (!R.r.ok()) {
      ctx.add_failure(HLabel(steps[k]), "stop distance", R.r.result.message, R.wall);
      return;
    }
    size_t i_stop = 0;
    while (i_stop + 1 < R.t.size() && R.t[i_stop] < t_stop + 0.05) ++i_stop;
    const double x_stop = R.q.back()[0];
    const double creep = std::abs(R.q.back()[0] - R.q[i_stop][0]);
    err[static_cast<size_t>(k)] = std::abs(x_stop - exact);
    ctx.add(HLabel(steps[k]), "stop distance v0²/(2μg) [m]", Num(exact, 8), Num(x_stop, 8), err[static_cast<size_t>(k)],
            3 * v0 * steps[k], "abs (≤ 3 v0 h)", R.wall);
    ctx.add(HLabel(steps[k]), "creep during 1 s at rest [m]", "0", Num(creep, 3), creep, 1e-9, "abs", R.wall);
  }
  Shrinks(ctx, "stop distance", err, wall);
}

// Block on an incline (μ = 0.4; gravity tilted by α): sticks for α = atan μ − 0.02 (displacement
// ≤ 1e-9 m in 1 s), slides for α = atan μ + 0.1 with a = g(sin α − μ cos α): distance after 1 s
// within a h.
void InclineBlock(Context& ctx) {
  const double mu = 0.4;
  const Vec3 half(0.2, 0.2, 0.05);
  auto make = [&](double alpha) {
    System s;
    s.gravity = g * Vec3(std::sin(alpha), 0, -std::cos(alpha));
    s.add_body(models::BoxBody("block", 1.0, half, Vec3(0, 0, half.z()), Vec3::Zero()));
    s.add_contact(make_box("block", "block", half, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    return s;
  };
  const double a_stick = std::atan(mu) - 0.02, a_slip = std::atan(mu) + 0.1;
  const double a_exact = cf::BlockInclineAcceleration(a_slip, mu, g);
  std::array<double, 3> err{};
  double wall = 0;
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    const Traj S = RunImpulse(make(a_stick), steps[k], 1.0);
    const Traj L = RunImpulse(make(a_slip), steps[k], 1.0);
    wall += S.wall + L.wall;
    if (!S.r.ok() || !L.r.ok()) {
      ctx.add_failure(HLabel(steps[k]), "incline", S.r.result.message + L.r.result.message, S.wall + L.wall);
      return;
    }
    const double stick = (S.q.back().head<2>() - S.q.front().head<2>()).norm();
    const double x = L.q.back()[0] - L.q.front()[0];
    err[static_cast<size_t>(k)] = std::abs(x - 0.5 * a_exact);
    ctx.add(HLabel(steps[k]), "tan α < μ: displacement in 1 s [m]", "0 (sticks)", Num(stick, 3), stick, 1e-9, "abs",
            S.wall);
    ctx.add(HLabel(steps[k]), "tan α > μ: distance ½ g(sin α − μ cos α) t² at 1 s [m]", Num(0.5 * a_exact, 8), Num(x, 8),
            err[static_cast<size_t>(k)], a_exact * steps[k], "abs (≤ a h)", L.wall);
  }
  Shrinks(ctx, "sliding distance", err, wall);
}

// Sphere launched at v0 = 3 m/s without spin, μ = 0.3: rolls from t* = 2 v0/(7 μ g) at 5 v0/7
// after slipping 12 v0²/(49 μ g). Tolerances: t* within one step, final speed 1e-9 (the angular
// momentum about the contact point is conserved exactly by the impulses), slip distance 2 v0 h.
void SphereSlipRoll(Context& ctx) {
  const double v0 = 3.0, mu = 0.3, r = 0.1;
  const double t_star = cf::SphereSlipToRollTime(v0, mu, g), v_roll = cf::SphereRollingSpeed(v0),
               slip = cf::SphereSlipDistance(v0, mu, g);
  std::array<double, 3> err{};
  double wall = 0;
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(models::SphereBody("ball", 1.0, r, Vec3(0, 0, r), Vec3(v0, 0, 0)));
    s.add_contact(make_sphere("ball", "ball", r, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    NewtonEulerSystem ne(s);
    const Traj R = RunImpulse(s, steps[k], 1.0);
    wall += R.wall;
    if (!R.r.ok()) {
      ctx.add_failure(HLabel(steps[k]), "slip to roll", R.r.result.message, R.wall);
      return;
    }
    double t_roll = -1, x_roll = 0;
    for (size_t i = 0; i < R.t.size(); ++i) {
      const Vec3 w = ne.angular_velocity_world(0, R.q[i], R.v[i]);
      if (t_roll < 0 && std::abs(R.v[i][0] + w.cross(Vec3(0, 0, -r)).x()) < 1e-8) {
        t_roll = R.t[i];
        x_roll = R.q[i][0];
      }
    }
    err[static_cast<size_t>(k)] = std::abs(x_roll - slip);
    ctx.add(HLabel(steps[k]), "time when rolling starts 2v0/(7μg) [s]", Num(t_star, 8), Num(t_roll, 8),
            std::abs(t_roll - t_star), steps[k] * 1.01, "abs (≤ h)", R.wall);
    ctx.add(HLabel(steps[k]), "rolling speed 5v0/7 [m/s]", Num(v_roll, 10), Num(R.v.back()[0], 10),
            std::abs(R.v.back()[0] - v_roll), 1e-9, "abs", R.wall);
    ctx.add(HLabel(steps[k]), "slip distance 12v0²/(49μg) [m]", Num(slip, 8), Num(x_roll, 8), err[static_cast<size_t>(k)],
            2 * v0 * steps[k], "abs (≤ 2 v0 h)", R.wall);
  }
  Shrinks(ctx, "slip distance", err, wall);
}

// A 5 kg box at rest on a plane (4 corner contacts) for 10 s at h = 1e-3: no drift (1e-6 m,
// 1e-6 in R), and the normal impulses carry m g (its COM height stays within the slop, 1e-4 m).
void RestingBox(Context& ctx) {
  const Vec3 half(0.3, 0.2, 0.1);
  System s;
  s.gravity = Vec3(0, 0, -g);
  RigidBody b = models::BoxBody("box", 5.0, half, Vec3(0.1, -0.2, half.z()), Vec3::Zero());
  b.orientation = Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix();
  s.add_body(b);
  s.add_contact(make_box("box", "box", half, 0.6));
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.6));
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 10;
  o.output_every = 1;
  double drift = 0, rot = 0;
  Stopwatch w;
  const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    drift = std::max(drift, (st.q.head<3>() - q0.head<3>()).norm());
    rot = std::max(rot, (ne.rotation(0, st.q) - b.orientation).cwiseAbs().maxCoeff());
    return true;
  });
  const double wall = w.seconds();
  if (!r.ok()) {
    ctx.add_failure(HLabel(1e-3), "resting box", r.result.message, wall);
    return;
  }
  ctx.add(HLabel(1e-3), "COM drift over 10 s [m]", "0", Num(drift, 3), drift, 1e-6, "max norm", wall);
  ctx.add(HLabel(1e-3), "rotation drift over 10 s", "0", Num(rot, 3), rot, 1e-6, "max abs (R entries)", wall);
  ctx.add(HLabel(1e-3), "active contacts", "4", std::to_string(r.pgs.max_contacts),
          std::abs(r.pgs.max_contacts - 4.0), 0, "count", wall);
}

// Newton's cradle: 5 equal balls (e = 1, 0.5 mm gaps), the first at 1 m/s: after the impacts only
// the last one moves, at 1 m/s (1e-6), and the momentum is conserved (1e-12 relative).
void NewtonsCradle(Context& ctx) {
  const double rad = 0.05, v0 = 1.0, gap = 5e-4;
  const int n = 5;
  System s;
  for (int i = 0; i < n; ++i) {
    s.add_body(models::SphereBody("ball" + std::to_string(i), 0.2, rad, Vec3((2 * rad + gap) * i, 0, 0),
                                  i == 0 ? Vec3(v0, 0, 0) : Vec3::Zero()));
    s.add_contact(make_sphere("ball" + std::to_string(i), "ball" + std::to_string(i), rad, 0.0, 1.0));
  }
  NewtonEulerSystem ne(s);
  VecX q0, vv0;
  ne.initial_state(q0, vv0);
  ImpulseOptions o;
  o.step = 1e-4;
  o.t_end = 0.2;
  o.restitution_threshold = 1e-6;
  VecX vf;
  Stopwatch w;
  const ImpulseResult r = solve_impulse(ne, 0, q0, vv0, o, [&](const StateView& st) {
    vf = st.v;
    return true;
  });
  const double wall = w.seconds();
  if (!r.ok()) {
    ctx.add_failure(HLabel(1e-4), "cradle", r.result.message, wall);
    return;
  }
  std::vector<double> speeds;
  double err = 0;
  for (int i = 0; i < n; ++i) {
    speeds.push_back(vf[6 * i]);
    err = std::max(err, std::abs(vf[6 * i] - (i == n - 1 ? v0 : 0.0)));
  }
  ctx.add(HLabel(1e-4), "ball speeds after the impacts [m/s]", "(0, 0, 0, 0, 1)", Tuple(speeds, 6), err, 1e-6, "max abs",
          wall);
  const double p = ne.linear_momentum(vf).x();
  ctx.add(HLabel(1e-4), "momentum [kg m/s]", Num(0.2 * v0), Num(p, 15), std::abs(p - 0.2 * v0) / (0.2 * v0), 1e-12,
          "rel", wall);
}

// ---- penalty contacts (implicit solvers) ----------------------------------------------------

/// A sphere (I = 2/5 m r²) on the plane z = 0 with penalty `pen` on the sphere.
System PenaltySphere(double m, double r, const Vec3& pos, const Vec3& vel, const PenaltyParameters& pen,
                     double gravity, double mu = 0, double e = 0) {
  System s;
  s.gravity = Vec3(0, 0, -gravity);
  s.add_body(models::SphereBody("ball", m, r, pos, vel));
  Contact ball = make_sphere("ball", "ball", r, mu, e);
  ball.penalty = pen;
  s.add_contact(ball);
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu, e));
  return s;
}

struct ImplicitTraj {
  std::vector<double> t, z, vz;
  SolveResult r;
  double wall = 0;
};

ImplicitTraj RunImplicit(const System& model, SolverType type, double h, double t_end, double every) {
  Stopwatch w;
  const PreparedSystem p = prepare(model);
  SimulationSettings st;
  st.solver = type;
  st.step = h;
  st.t_end = t_end;
  st.output_every = every;
  st.rtol = 1e-8;
  st.atol = 1e-10;
  ImplicitTraj out;
  out.r = simulate(*p.system, 0, p.q0, p.v0, st, [&](const StateView& x) {
    out.t.push_back(x.t);
    out.z.push_back(x.q[2]);
    out.vz.push_back(x.v[2]);
    return true;
  });
  out.wall = w.seconds();
  return out;
}

std::string SolverLabel(SolverType type, double h) {
  return std::string(to_string(type)) + (type == SolverType::Ida ? " rtol=1e-08" : " h=" + Num(h, 3)) + ", penalty";
}

// Penalty contacts against the closed forms of their force laws: resting penetration m g / k
// (1e-9 relative, every implicit solver); linear spring–damper impact without the clamp
// (tensile): duration π/ω_d, restitution exp(−ζπ/√(1 − ζ²)) (tolerances: duration 1e-4
// relative at h = 5e-5; e within one step's worth of the force jumps c (1 + e) h / m); Hunt–
// Crossley with χ = 8(1 − e)/(5 e v⁻) (Flores et al. 2011): rebound within 2 % of e = 0.8 (the
// formula's own accuracy there is −1.4 %).
void PenaltyClosedForms(Context& ctx) {
  const double m = 2.0, r = 0.05;
  {
    PenaltyParameters pen;
    pen.stiffness = 1e5;
    pen.damping = std::sqrt(1e5 * m);  // ζ = 0.5
    const double delta = m * g / pen.stiffness;
    for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida, SolverType::TrapezoidalIndex2}) {
      const ImplicitTraj T = RunImplicit(PenaltySphere(m, r, Vec3(0, 0, r), Vec3::Zero(), pen, g, 0.3), type, 1e-3,
                                         1.0, 0.1);
      if (!T.r.ok()) {
        ctx.add_failure(SolverLabel(type, 1e-3), "resting sphere", T.r.message, T.wall);
        continue;
      }
      const double got = r - T.z.back();
      ctx.add(SolverLabel(type, 1e-3), "resting penetration m g / k [m]", Num(delta, 10), Num(got, 10),
              std::abs(got / delta - 1), 1e-9, "rel", T.wall);
    }
  }
  {
    const double mm = 1.0, k = 1e4, zeta = 0.2, v0 = 1.0, h = 5e-5;
    const double w = std::sqrt(k / mm), wd = w * std::sqrt(1 - zeta * zeta);
    PenaltyParameters pen;
    pen.stiffness = k;
    pen.damping = 2 * zeta * std::sqrt(k * mm);
    pen.tensile = true;
    const double T_exact = M_PI / wd, e_exact = std::exp(-zeta * M_PI / std::sqrt(1 - zeta * zeta));
    const ImplicitTraj T =
        RunImplicit(PenaltySphere(mm, r, Vec3(0, 0, r), Vec3(0, 0, -v0), pen, 0), SolverType::GeneralizedAlpha, h,
                    0.05, h);
    if (!T.r.ok()) {
      ctx.add_failure(SolverLabel(SolverType::GeneralizedAlpha, h), "linear impact", T.r.message, T.wall);
    } else {
      double t_end = std::nan("");
      for (size_t i = 1; i < T.t.size(); ++i)
        if (T.t[i] > 0.5 * T_exact && T.z[i - 1] < r && T.z[i] >= r) {
          t_end = T.t[i - 1] + (r - T.z[i - 1]) / (T.z[i] - T.z[i - 1]) * h;
          break;
        }
      const double e = T.vz.back() / v0;
      ctx.add(SolverLabel(SolverType::GeneralizedAlpha, h), "linear, tensile: contact duration π/ω_d [s]",
              Num(T_exact, 8), Num(t_end, 8), std::abs(t_end / T_exact - 1), 1e-4, "rel", T.wall);
      ctx.add(SolverLabel(SolverType::GeneralizedAlpha, h), "linear, tensile: restitution exp(−ζπ/√(1−ζ²))",
              Num(e_exact, 8), Num(e, 8), std::abs(e - e_exact), pen.damping * (1 + e_exact) * h / mm,
              "abs (≤ c (1 + e) h / m)", T.wall);
    }
  }
  {
    const double mm = 1.0, v0 = 2.0, e = 0.8;
    PenaltyParameters pen;
    pen.law = PenaltyLaw::HuntCrossley;
    pen.stiffness = 1e7;
    pen.impact_velocity = v0;
    for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida}) {
      const ImplicitTraj T =
          RunImplicit(PenaltySphere(mm, r, Vec3(0, 0, r), Vec3(0, 0, -v0), pen, 0, 0, e), type, 2e-5, 0.02, 0.02);
      if (!T.r.ok()) {
        ctx.add_failure(SolverLabel(type, 2e-5), "Hunt–Crossley impact", T.r.message, T.wall);
        continue;
      }
      const double got = T.vz.back() / v0;
      ctx.add(SolverLabel(type, 2e-5), "Hunt–Crossley (Flores χ) rebound ratio vs e at v⁻ = v_ref", Num(e), Num(got, 6),
              std::abs(got / e - 1), 0.02, "rel", T.wall);
    }
  }
}

// The sphere launched without spin (t*, 5 v0/7) through generalized-α with penalty contacts
// (k = 1e6 N/m, critically damped, v_ε = 1 mm/s) at h = 2e-4: the slip falls below 2 % of v0 at
// 0.98 t* (1 % tolerance) and the final speed is 5 v0/7 (2e-3 relative).
void PenaltySlipRoll(Context& ctx) {
  const double m = 1.0, r = 0.05, v0 = 2.0, mu = 0.3, k = 1e6, h = 2e-4;
  const double t_star = cf::SphereSlipToRollTime(v0, mu, g), v_roll = cf::SphereRollingSpeed(v0);
  PenaltyParameters pen;
  pen.stiffness = k;
  pen.damping = 2 * std::sqrt(k * m);
  pen.friction_velocity = 1e-3;
  const System s = PenaltySphere(m, r, Vec3(0, 0, r - m * g / k), Vec3(v0, 0, 0), pen, g, mu);
  Stopwatch w;
  const PreparedSystem p = prepare(s);
  SimulationSettings st;
  st.step = h;
  st.t_end = 0.5;
  st.output_every = h;
  std::vector<double> t, slip;
  double v_end = 0;
  const SolveResult res = simulate(*p.system, 0, p.q0, p.v0, st, [&](const StateView& x) {
    const Vec3 vel = p.system->velocity(0, x.q, x.v), om = p.system->angular_velocity(0, x.q, x.v);
    t.push_back(x.t);
    slip.push_back(vel.x() - om.y() * r);
    v_end = vel.x();
    return true;
  });
  const double wall = w.seconds();
  const std::string label = SolverLabel(SolverType::GeneralizedAlpha, h);
  if (!res.ok()) {
    ctx.add_failure(label, "slip to roll", res.message, wall);
    return;
  }
  double t2 = std::nan("");
  for (size_t i = 1; i < t.size(); ++i)
    if (slip[i] < 0.02 * v0) {
      t2 = t[i - 1] + (slip[i - 1] - 0.02 * v0) / (slip[i - 1] - slip[i]) * h;
      break;
    }
  ctx.add(label, "slip below 2 % of v0 at 0.98 · 2v0/(7μg) [s]", Num(0.98 * t_star, 8), Num(t2, 8),
          std::abs(t2 / (0.98 * t_star) - 1), 0.01, "rel", wall);
  ctx.add(label, "rolling speed 5v0/7 [m/s]", Num(v_roll, 10), Num(v_end, 10), std::abs(v_end / v_roll - 1), 2e-3,
          "rel", wall);
}

}  // namespace

void AddContactCases(std::vector<Case>& cases) {
  cases.push_back({"contact_restitution", "Ball bouncing with restitution e: apexes e^(2n) h0 (impulse stepper)", false,
                   Restitution});
  cases.push_back({"contact_sliding_block", "Block sliding with Coulomb friction: stop distance, no creep", false,
                   SlidingBlock});
  cases.push_back({"contact_incline_block", "Block on an incline: sticks iff tan α ≤ μ, else a = g(sin α − μ cos α)",
                   false, InclineBlock});
  cases.push_back({"contact_sphere_slip_roll", "Sphere launched without spin: slip, then roll at 5 v0/7", false,
                   SphereSlipRoll});
  cases.push_back({"contact_resting_box", "Box resting on a plane (4 contacts): no drift over 10 s", false, RestingBox});
  cases.push_back({"contact_newtons_cradle", "Newton's cradle (e = 1): momentum passes through the row", false,
                   NewtonsCradle});
  cases.push_back({"contact_penalty_closed_forms",
                   "Penalty contacts (implicit solvers): resting penetration, linear and Hunt–Crossley impacts", false,
                   PenaltyClosedForms});
  cases.push_back({"contact_penalty_slip_roll", "Sphere launched without spin through penalty contacts: 5 v0/7", false,
                   PenaltySlipRoll});
}

}  // namespace mbdae::validation::suite
