// Penalty contacts of the implicit formulation (MultibodySystem) against closed forms: the static
// penetration of a resting sphere, the duration and restitution of a linear spring–damper impact
// (with and without the F ≥ 0 clamp), the Hunt–Crossley rebound with χ of Flores et al. (2011),
// a block sliding to rest under regularised Coulomb friction, and a sphere launched without spin
// (slip-to-roll, reference/contact.md) run by both the impulse stepper and generalized-α.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {

constexpr double g = 9.81;

RigidBody sphere_body(double m, double r, const Vec3& pos, const Vec3& vel) {
  RigidBody b;
  b.name = "ball";
  b.mass = m;
  const double I = 0.4 * m * r * r;
  b.inertia << I, I, I, 0, 0, 0;
  b.position = pos;
  b.velocity = vel;
  return b;
}

PenaltyParameters linear(double k, double c, bool tensile = false) {
  PenaltyParameters p;
  p.law = PenaltyLaw::Linear;
  p.stiffness = k;
  p.damping = c;
  p.tensile = tensile;
  return p;
}

/// A sphere above the plane z = 0 (frictionless unless mu > 0), penalty `pen` on the sphere.
System sphere_on_plane(double m, double r, const Vec3& pos, const Vec3& vel, const PenaltyParameters& pen,
                       double gravity, double mu = 0, double e = 0) {
  System s;
  s.gravity = Vec3(0, 0, -gravity);
  s.add_body(sphere_body(m, r, pos, vel));
  Contact ball = make_sphere("ball", "ball", r, mu, e);
  ball.penalty = pen;
  s.add_contact(ball);
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu, e));
  return s;
}

struct Trace {
  std::vector<double> t;
  std::vector<VecX> q, v;
  SolveResult r;
};

Trace run(const System& model, SolverType type, double h, double t_end, double every = 0) {
  const PreparedSystem p = prepare(model);
  SimulationSettings s;
  s.solver = type;
  s.step = h;
  s.t_end = t_end;
  s.output_every = every > 0 ? every : h;
  s.rtol = 1e-8;
  s.atol = 1e-10;
  Trace out;
  out.r = simulate(*p.system, 0, p.q0, p.v0, s, [&](const StateView& st) {
    out.t.push_back(st.t);
    out.q.push_back(st.q);
    out.v.push_back(st.v);
    return true;
  });
  return out;
}

/// First time after t_min at which the sphere's height z crosses `level` upwards (linear
/// interpolation between outputs); NaN if it does not.
double up_crossing(const Trace& T, double level, double t_min = 0) {
  for (size_t i = 1; i < T.t.size(); ++i)
    if (T.t[i] > t_min && T.q[i - 1][2] < level && T.q[i][2] >= level) {
      const double z0 = T.q[i - 1][2], z1 = T.q[i][2];
      return T.t[i - 1] + (level - z0) / (z1 - z0) * (T.t[i] - T.t[i - 1]);
    }
  return std::nan("");
}

/// Rebound ratio of the 1-DOF impact δ'' = −F(δ, δ')/m from δ = 0, δ' = v0 until δ < 0 again,
/// by classical RK4 with a fine step (an independent computation of the force laws).
template <class Force>
double rk4_rebound(Force F, double m, double v0, double h) {
  double d = 0, v = v0;
  auto acc = [&](double dd, double vv) { return dd > 0 ? -F(dd, vv) / m : 0.0; };
  for (int it = 0; it < 100000000; ++it) {
    const double k1d = v, k1v = acc(d, v);
    const double k2d = v + 0.5 * h * k1v, k2v = acc(d + 0.5 * h * k1d, v + 0.5 * h * k1v);
    const double k3d = v + 0.5 * h * k2v, k3v = acc(d + 0.5 * h * k2d, v + 0.5 * h * k2v);
    const double k4d = v + h * k3v, k4v = acc(d + h * k3d, v + h * k3v);
    d += h / 6 * (k1d + 2 * k2d + 2 * k3d + k4d);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (d < 0 && v < 0) return -v / v0;
  }
  return std::nan("");
}

}  // namespace

TEST_CASE("Penalty: a sphere resting on a plane sinks m g / k", "[validation][contact][penalty]") {
  const double m = 2.0, r = 0.05, k = 1e5;
  const double c = 2 * 0.5 * std::sqrt(k * m);  // ζ = 0.5: settled to round-off within 0.5 s
  const double delta = m * g / k;
  for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida, SolverType::TrapezoidalIndex2}) {
    const System s = sphere_on_plane(m, r, Vec3(0, 0, r), Vec3::Zero(), linear(k, c), g, 0.3);
    const Trace T = run(s, type, 1e-3, 1.0, 0.1);
    REQUIRE(T.r.ok());
    const double got = r - T.q.back()[2];
    INFO(to_string(type) << ": penetration " << got << " m, m g / k = " << delta << " m");
    CHECK(std::abs(got / delta - 1) < 1e-9);
    CHECK(std::abs(T.q.back()[0]) < 1e-12);  // no sliding
  }
}

TEST_CASE("Penalty: linear spring-damper impact lasts pi/omega_d and rebounds with exp(-zeta pi/sqrt(1-zeta^2))",
          "[validation][contact][penalty]") {
  // No gravity: the contact is the damped oscillator δ'' + 2ζω δ' + ω² δ = 0 from δ = 0, δ' = v0.
  const double m = 1.0, r = 0.05, k = 1e4, zeta = 0.2, v0 = 1.0;
  const double w = std::sqrt(k / m), wd = w * std::sqrt(1 - zeta * zeta), c = 2 * zeta * std::sqrt(k * m);
  SECTION("tensile variant: the closed forms hold") {
    const double T_exact = M_PI / wd, e_exact = std::exp(-zeta * M_PI / std::sqrt(1 - zeta * zeta));
    const double steps[3] = {2e-4, 1e-4, 5e-5};
    std::array<double, 3> eT{}, ee{};
    for (int i = 0; i < 3; ++i) {
      const System s = sphere_on_plane(m, r, Vec3(0, 0, r), Vec3(0, 0, -v0), linear(k, c, true), 0);
      const Trace T = run(s, SolverType::GeneralizedAlpha, steps[i], 0.05);
      REQUIRE(T.r.ok());
      const double t_end = up_crossing(T, r, 0.5 * T_exact);
      const double e = T.v.back()[2] / v0;
      eT[static_cast<size_t>(i)] = std::abs(t_end - T_exact);
      ee[static_cast<size_t>(i)] = std::abs(e - e_exact);
      INFO("h = " << steps[i] << ": duration " << t_end << " s (exact " << T_exact << "), e " << e << " (exact "
                  << e_exact << ")");
      CHECK(eT[static_cast<size_t>(i)] < 2e-3 * T_exact);
      // The force jumps by c v0 at the onset and by c e v0 at the exit (δ = 0 with δ' ≠ 0): a
      // step over such a jump errs by up to one step's worth of it, so the rebound speed is first
      // order, with a constant that depends on where the exit falls in the step.
      CHECK(ee[static_cast<size_t>(i)] < c * (1 + e_exact) * steps[i] / m);
    }
    INFO("duration errors " << eT[0] << " " << eT[1] << " " << eT[2] << "; restitution errors " << ee[0] << " "
                            << ee[1] << " " << ee[2]);
    CHECK(eT[1] < eT[0]);
    CHECK(eT[2] < eT[1]);
    CHECK(ee[2] < ee[0]);
  }
  SECTION("clamped F >= 0: the force ends early, the rebound is faster") {
    // The force k δ + c δ' reaches zero at ω_d t* = π − atan2(2ζ√(1−ζ²), 1 − 2ζ²) (from
    // δ = v0/ω_d e^{−ζωt} sin ω_d t); from then on the sphere leaves freely with δ'(t*).
    const double phi = M_PI - std::atan2(2 * zeta * std::sqrt(1 - zeta * zeta), 1 - 2 * zeta * zeta);
    const double ts = phi / wd;
    const double vs = v0 * std::exp(-zeta * w * ts) * (std::cos(phi) - zeta * w / wd * std::sin(phi));
    const double ds = v0 / wd * std::exp(-zeta * w * ts) * std::sin(phi);
    const double e_exact = -vs / v0;
    const double T_exact = ts + ds / -vs;  // δ back to 0
    CHECK(e_exact > std::exp(-zeta * M_PI / std::sqrt(1 - zeta * zeta)));
    const double steps[3] = {2e-4, 1e-4, 5e-5};
    std::array<double, 3> ee{};
    for (int i = 0; i < 3; ++i) {
      const System s = sphere_on_plane(m, r, Vec3(0, 0, r), Vec3(0, 0, -v0), linear(k, c), 0);
      const Trace T = run(s, SolverType::GeneralizedAlpha, steps[i], 0.05);
      REQUIRE(T.r.ok());
      const double t_end = up_crossing(T, r, 0.5 * T_exact);
      const double e = T.v.back()[2] / v0;
      ee[static_cast<size_t>(i)] = std::abs(e - e_exact);
      INFO("h = " << steps[i] << ": contact " << t_end << " s (exact " << T_exact << "), e " << e << " (exact "
                  << e_exact << ")");
      CHECK(std::abs(t_end - T_exact) < 5e-3 * T_exact);
      CHECK(ee[static_cast<size_t>(i)] < 5e-3 * e_exact);
    }
    // One force jump (c v0 at the onset, none at the end): first order, halving with h.
    INFO("restitution errors " << ee[0] << " " << ee[1] << " " << ee[2]);
    CHECK(ee[1] < 0.6 * ee[0]);
    CHECK(ee[2] < 0.6 * ee[1]);
  }
  SECTION("IDA steps through the impact") {
    const double e_exact = std::exp(-zeta * M_PI / std::sqrt(1 - zeta * zeta));
    const System s = sphere_on_plane(m, r, Vec3(0, 0, r), Vec3(0, 0, -v0), linear(k, c, true), 0);
    const Trace T = run(s, SolverType::Ida, 1e-4, 0.05);
    REQUIRE(T.r.ok());
    CHECK(std::abs(T.v.back()[2] / v0 - e_exact) < 1e-3 * e_exact);
    CHECK(std::abs(up_crossing(T, r, 0.01) - M_PI / wd) < 1e-3 * M_PI / wd);
  }
}

TEST_CASE("Penalty: Hunt-Crossley rebound with chi of Flores et al. (2011)", "[validation][contact][penalty]") {
  // χ = 8(1 − e)/(5 e v⁻) at v⁻ = impact_velocity. The rebound ratio of the Hunt–Crossley law with
  // this χ is below e by 1.4 % at e = 0.8 and 0.7 % at e = 0.9 (n = 1.5; it depends on χ v⁻ and n
  // only); both are checked against e within 2 % and against an independent RK4 solution of the
  // same force law within 1e-3.
  const double m = 1.0, r = 0.05, k = 1e7, v0 = 2.0;
  for (double e : {0.8, 0.9}) {
    PenaltyParameters p;
    p.law = PenaltyLaw::HuntCrossley;
    p.stiffness = k;
    p.exponent = 1.5;
    p.impact_velocity = v0;
    const double chi = 8 * (1 - e) / (5 * e * v0);
    const double ref = rk4_rebound(
        [&](double d, double dd) { return std::max(k * std::pow(d, 1.5) * (1 + chi * dd), 0.0); }, m, v0, 1e-8);
    const System s = sphere_on_plane(m, r, Vec3(0, 0, r), Vec3(0, 0, -v0), p, 0, 0, e);
    for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida}) {
      const Trace T = run(s, type, 2e-5, 0.02);
      REQUIRE(T.r.ok());
      const double got = T.v.back()[2] / v0;
      INFO(to_string(type) << ", e = " << e << ": rebound ratio " << got << ", RK4 of the law " << ref);
      CHECK(std::abs(got - ref) < 1e-3 * ref);
      CHECK(std::abs(got - e) < 0.02 * e);
      CHECK(got < e);  // Flores' χ slightly over-damps
    }
  }
}

TEST_CASE("Penalty: a block slides to rest after v0^2/(2 mu g) as v_eps -> 0", "[validation][contact][penalty]") {
  // Regularised friction F_t = −μ F_n v/√(v² + ε²): the distance is ∫ m v dv / F_t,
  // x(ε) = (v0 √(v0² + ε²) + ε² asinh(v0/ε)) / (2 μ g) → v0²/(2 μ g).
  const double m = 2.0, v0 = 2.0, mu = 0.5, k = 1e6;
  const Vec3 half(0.2, 0.15, 0.05);
  const double exact = v0 * v0 / (2 * mu * g);
  const double eps[3] = {0.1, 0.03, 0.01};
  std::array<double, 3> err{};
  for (int i = 0; i < 3; ++i) {
    PenaltyParameters p = linear(k, 2 * std::sqrt(k * m / 4));  // each corner critically damped
    p.friction_velocity = eps[i];
    System s;
    s.gravity = Vec3(0, 0, -g);
    RigidBody b;
    b.name = "block";
    b.mass = m;
    const Vec3 L = 2 * half;
    b.inertia << m * (L.y() * L.y() + L.z() * L.z()) / 12, m * (L.x() * L.x() + L.z() * L.z()) / 12,
        m * (L.x() * L.x() + L.y() * L.y()) / 12, 0, 0, 0;
    b.position = Vec3(0, 0, half.z() - m * g / (4 * k));  // at the static penetration
    b.velocity = Vec3(v0, 0, 0);
    s.add_body(b);
    Contact box = make_box("block", "block", half, mu);
    box.penalty = p;
    s.add_contact(box);
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    const Trace T = run(s, SolverType::GeneralizedAlpha, 5e-4, v0 / (mu * g) + 0.5, 0.01);
    REQUIRE(T.r.ok());
    const double x = T.q.back()[0];
    const double xe = (v0 * std::sqrt(v0 * v0 + eps[i] * eps[i]) + eps[i] * eps[i] * std::asinh(v0 / eps[i])) /
                      (2 * mu * g);
    err[static_cast<size_t>(i)] = std::abs(x - exact);
    INFO("v_eps = " << eps[i] << ": distance " << x << " m, regularised law " << xe << " m, Coulomb " << exact
                    << " m; speed at the end " << T.v.back()[0]);
    CHECK(std::abs(x - xe) < 1e-3 * exact);
    CHECK(std::abs(T.v.back()[0]) < 1e-3);
  }
  INFO("errors " << err[0] << " " << err[1] << " " << err[2]);
  CHECK(err[1] < err[0]);
  CHECK(err[2] < err[1]);
  CHECK(err[2] < 2e-3 * exact);
}

TEST_CASE("Penalty and impulse paths agree on a sphere launched without spin", "[validation][contact][penalty]") {
  // reference/contact.md: slips until t* = 2 v0/(7 μ g), then rolls with v = 5 v0/7.
  const double m = 1.0, r = 0.05, v0 = 2.0, mu = 0.3;
  const double t_roll = 2 * v0 / (7 * mu * g), v_roll = 5 * v0 / 7;
  const double k = 1e6;
  PenaltyParameters p = linear(k, 2 * std::sqrt(k * m));
  p.friction_velocity = 1e-3;
  const System s = sphere_on_plane(m, r, Vec3(0, 0, r - m * g / k), Vec3(v0, 0, 0), p, g, mu);
  // Time at which the slip speed v − ω r falls below 2 % of v0 (the exact law: slip
  // v0 − (7/2) μ g t, i.e. at 0.98 t*).
  auto slip_time = [&](const std::vector<double>& t, const std::vector<double>& slip) {
    for (size_t i = 1; i < t.size(); ++i)
      if (slip[i] < 0.02 * v0) return t[i - 1] + (slip[i - 1] - 0.02 * v0) / (slip[i - 1] - slip[i]) * (t[i] - t[i - 1]);
    return std::nan("");
  };
  const double t_exact = 0.98 * t_roll;
  // Generalized-α with penalty contacts.
  const PreparedSystem P = prepare(s);
  SimulationSettings st;
  st.step = 2e-4;
  st.t_end = 0.5;
  st.output_every = 2e-4;
  std::vector<double> ta, sa;
  double va = 0;
  const SolveResult ra = simulate(*P.system, 0, P.q0, P.v0, st, [&](const StateView& x) {
    const Vec3 vel = P.system->velocity(0, x.q, x.v), w = P.system->angular_velocity(0, x.q, x.v);
    ta.push_back(x.t);
    sa.push_back(vel.x() - w.y() * r);
    va = vel.x();
    return true;
  });
  REQUIRE(ra.ok());
  // Impulse stepper on the same model.
  NewtonEulerSystem ne(s);
  VecX q0, v0v;
  ne.initial_state(q0, v0v);
  ImpulseOptions o;
  o.step = 2e-4;
  o.t_end = 0.5;
  o.output_every = 2e-4;
  std::vector<double> tb, sb;
  double vb = 0;
  const ImpulseResult rb = solve_impulse(ne, 0, q0, v0v, o, [&](const StateView& x) {
    const Vec3 vel = ne.com_velocity(0, x.v), w = ne.angular_velocity_world(0, x.q, x.v);
    tb.push_back(x.t);
    sb.push_back(vel.x() - w.y() * r);
    vb = vel.x();
    return true;
  });
  REQUIRE(rb.ok());
  const double t_a = slip_time(ta, sa), t_b = slip_time(tb, sb);
  INFO("slip below 2 % of v0 at " << t_a << " s (penalty, generalized-α), " << t_b << " s (impulse), exact "
                                  << t_exact << " s; final speed " << va << ", " << vb << " m/s, exact " << v_roll);
  CHECK(std::abs(t_a - t_exact) < 0.01 * t_exact);
  CHECK(std::abs(t_b - t_exact) < 0.01 * t_exact);
  CHECK(std::abs(t_a - t_b) < 0.01 * t_exact);
  CHECK(std::abs(va - v_roll) < 2e-3 * v_roll);
  CHECK(std::abs(vb - v_roll) < 2e-3 * v_roll);
  CHECK(std::abs(va - vb) < 2e-3 * v_roll);
}

TEST_CASE("Penalty: rolling resistance decelerates a rolling sphere at 5 mu_r g / 7", "[validation][contact][penalty]") {
  // As the impulse stepper's closed form (test_contact_closed_forms.cpp): a sphere rolling with a
  // resisting torque μ_r r F_n decelerates at a = (5/7) μ_r g and stops after v0² / (2 a). The
  // penalty law deviates from it by (i) the lever arm r − δ of the contact point (δ = m g / k,
  // here δ / r = 1e-4), (ii) the regularisation ω/√(ω² + ω_ε²) of the torque, which matters only
  // below ω ~ ω_ε (the last v ~ ω_ε r = 1e-3 m/s, where it turns into a rotational damper with a
  // time constant ω_ε r / a = 3 ms) and (iii) the creep of the regularised friction, whose slip
  // v_ε (5/7) μ_r / μ = 1e-5 m/s does not change the translation. So v(t) = v0 − a t within
  // 1e-3 v0 (ten times the largest of these), the distance v0² / (2 a) within 1e-3 of it.
  const double m = 1.0, r = 0.1, v0 = 1.0, mu = 0.5, mur = 0.05, k = 1e6;
  const double a = 5.0 / 7.0 * mur * g, t_stop = v0 / a, x_stop = v0 * v0 / (2 * a);
  PenaltyParameters p = linear(k, 2 * std::sqrt(k * m));
  p.friction_velocity = 1e-3;
  p.friction_angular_velocity = 0.01;
  for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2}) {
    System s = sphere_on_plane(m, r, Vec3(0, 0, r - m * g / k), Vec3(v0, 0, 0), p, g, mu);
    s.bodies()[0].angular_velocity = Vec3(0, v0 / r, 0);
    s.contacts()[0].rolling_resistance = mur;
    const Trace T = run(s, type, 1e-3, t_stop + 1.0, 0.01);
    REQUIRE(T.r.ok());
    double worst = 0;
    for (size_t i = 0; i < T.t.size(); ++i)
      if (T.t[i] <= 0.95 * t_stop) worst = std::max(worst, std::abs(T.v[i][0] - (v0 - a * T.t[i])));
    INFO(to_string(type) << ": largest |v − (v0 − a t)| " << worst << " m/s before 0.95 t_stop; distance "
                         << T.q.back()[0] << " m (exact " << x_stop << "), final speed " << T.v.back()[0]);
    CHECK(worst < 1e-3 * v0);
    CHECK(std::abs(T.q.back()[0] - x_stop) < 1e-3 * x_stop);
    CHECK(std::abs(T.v.back()[0]) < 1e-6 * v0);
  }
}

TEST_CASE("Penalty: torsional friction stops a spinning sphere at I_z w0 / (mu_t m g); a smaller torque creeps",
          "[validation][contact][penalty]") {
  // A sphere spinning about the vertical on the floor: I_z ω̇ = −μ_t F_n ω/√(ω² + ω_ε²) with F_n =
  // m g (it starts at the static penetration). Above ω_ε it decelerates at α = μ_t m g / I_z
  // (the regularisation removes less than ω_ε² / (2 ω) of the spin: 5e-5 rad/s at ω = 1 rad/s),
  // so ω = ω0 − α t within 1e-3 ω0; below ω_ε it decays with the time constant ω_ε / α = 1 ms.
  // A torque T = M / 2 (M = μ_t m g) holds it at the creep speed of the regularised law,
  // M ω/√(ω² + ω_ε²) = T ⇒ ω = ω_ε (T/M) / √(1 − (T/M)²) (the penalty counterpart of sticking);
  // a torque T = 2 M spins it up at (T − M) / I_z, ahead of it by the torque the regularisation
  // leaves out while ω is small: I_z ω̇ = 2M − M u(ω), u = ω/√(ω² + ω_ε²), so at ω ≫ ω_ε the
  // spin exceeds (M / I_z) t by ∫₀^ω (1 − u)/(2 − u) dω' (by quadrature below; 7.36e-3 rad/s).
  // IDA resolves that law (to 1e-4 rad/s); the fixed steps of 1 ms cross the zone ω < ω_ε
  // (ω_ε / α = 0.8 ms) in one step, whose torque is off by at most M: to α h.
  const double m = 1.0, r = 0.1, w0 = 10.0, mut = 0.005, mu = 0.5, k = 1e6, we = 0.01;
  const double Iz = 0.4 * m * r * r, M = mut * m * g, alpha = M / Iz, t_stop = w0 / alpha;
  PenaltyParameters p = linear(k, 2 * std::sqrt(k * m));
  p.friction_velocity = 1e-3;
  p.friction_angular_velocity = we;
  auto model = [&](double spin, double torque) {
    System s = sphere_on_plane(m, r, Vec3(0, 0, r - m * g / k), Vec3::Zero(), p, g, mu);
    s.bodies()[0].angular_velocity = Vec3(0, 0, spin);
    s.contacts()[0].torsional_friction = mut;
    if (torque != 0) {
      Load l;
      l.name = "twist";
      l.kind = Load::Kind::Torque;
      l.body = "ball";
      l.value = Vec3(0, 0, torque);
      s.add_load(l);
    }
    return s;
  };
  auto spin = [](const System& s, double t_end, SolverType type, std::vector<double>& t, std::vector<double>& w) {
    const PreparedSystem P = prepare(s);
    SimulationSettings st;
    st.solver = type;
    st.step = 1e-3;
    st.t_end = t_end;
    st.output_every = 0.01;
    st.rtol = 1e-8;
    st.atol = 1e-10;
    const SolveResult r = simulate(*P.system, 0, P.q0, P.v0, st, [&](const StateView& x) {
      t.push_back(x.t);
      w.push_back(P.system->angular_velocity(0, x.q, x.v).z());
      return true;
    });
    return r.ok();
  };
  for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida, SolverType::TrapezoidalIndex2}) {
    std::vector<double> t, w;
    REQUIRE(spin(model(w0, 0), t_stop + 0.5, type, t, w));
    double worst = 0;
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i] <= 0.95 * t_stop) worst = std::max(worst, std::abs(w[i] - (w0 - alpha * t[i])));
    INFO(to_string(type) << ": largest |w − (w0 − alpha t)| " << worst << " rad/s before 0.95 t_stop, final spin "
                         << w.back() << " rad/s");
    CHECK(worst < 1e-3 * w0);
    CHECK(std::abs(w.back()) < 1e-6 * w0);
    std::vector<double> t2, w2;
    REQUIRE(spin(model(0, 0.5 * M), 1.0, type, t2, w2));
    const double creep = we * 0.5 / std::sqrt(1 - 0.25);
    INFO("torque M/2: spin " << w2.back() << " rad/s at 1 s, creep of the regularised law " << creep);
    CHECK(std::abs(w2.back() - creep) < 0.01 * creep);
    std::vector<double> t3, w3;
    REQUIRE(spin(model(0, 2 * M), 1.0, type, t3, w3));
    // ∫₀^(M/I_z) (1 − u)/(2 − u) dω, ω = ω_ε sinh(s), midpoint rule on 10⁵ intervals of s.
    double ahead = 0;
    const int nq = 100000;
    const double smax = std::asinh(M / Iz / we), ds = smax / nq;
    for (int i = 0; i < nq; ++i) {
      const double x = std::sinh((i + 0.5) * ds), u = x / std::sqrt(1 + x * x);
      ahead += (1 - u) / (2 - u) * we * std::cosh((i + 0.5) * ds) * ds;
    }
    const double expect = M / Iz + ahead, tol = type == SolverType::Ida ? 1e-4 : alpha * 1e-3;
    INFO("torque 2 M: spin " << w3.back() << " rad/s at 1 s; (T - M) t / I_z = " << M / Iz << ", plus the "
                             << "regularisation's " << ahead << " = " << expect);
    CHECK(std::abs(w3.back() - expect) < tol);
  }
}
