// No global state: two systems simulated concurrently in two threads give results identical (to
// the bit) to running them one after the other. No run state in a system: two runs of one system
// (a force element counting a joint's turns), one after the other or in two threads, give each
// the result of a run on its own.

#include <catch2/catch.hpp>

#include <barrier>
#include <cmath>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <mbdae/mbdae.h>

using namespace mbdae;

namespace {

System chain(int n, const Vec3& g) {
  System s;
  s.gravity = g;
  for (int i = 0; i < n; ++i) {
    RigidBody b;
    b.name = std::string("bar") + std::to_string(i);
    b.mass = 1.0 + 0.1 * i;
    b.inertia << 0.002, 0.085, 0.085, 0, 0, 0;
    b.position = Vec3(i + 0.5, 0, 0);
    s.add_body(b);
    s.add_spherical(std::string("j") + std::to_string(i),
                    i == 0 ? std::string("ground") : std::string("bar") + std::to_string(i - 1),
                    b.name, Vec3(i, 0, 0));
  }
  return s;
}

std::vector<double> run(const System& sys, SolverType type) {
  PreparedSystem p = prepare(sys);
  SimulationSettings s;
  s.solver = type;
  s.t_end = 0.5;
  s.step = 1e-3;
  s.output_every = 0.05;
  std::vector<double> out;
  const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, s, [&](const StateView& x) {
    out.push_back(x.t);
    out.insert(out.end(), x.q.data(), x.q.data() + x.q.size());
    return true;
  });
  if (!r.ok()) out.push_back(-1);
  return out;
}

}  // namespace

TEST_CASE("two systems in two threads give the same results as one after the other", "[threads]") {
  const System a = chain(6, Vec3(0, 0, -9.81));
  const System b = chain(4, Vec3(0, -9.81, -3));
  for (SolverType type : {SolverType::GeneralizedAlpha, SolverType::Ida, SolverType::TrapezoidalIndex2}) {
    if (!find_solver(to_string(type))) continue;  // ida in a build without SUNDIALS
    const std::vector<double> ra = run(a, type), rb = run(b, type);
    std::vector<double> ta, tb;
    std::thread t1([&] { ta = run(a, type); });
    std::thread t2([&] { tb = run(b, type); });
    t1.join();
    t2.join();
    INFO(to_string(type));
    REQUIRE(ra.size() > 10);
    CHECK(ta == ra);
    CHECK(tb == rb);
  }
}

namespace {

// A wheel (J = 0.2 kg m² about its axle) spun at 30 rad/s and held by a motor that pulls its angle,
// turns counted, to 20 rad (about 3.2 turns): J φ̈ = −k (φ − 20) − c φ̇, k = 5 N m/rad, c = 0.4 N m s.
constexpr double kJ = 0.2, kK = 5, kC = 0.4, kTarget = 20, kSpin = 30;

System wound_wheel() {
  System s;
  s.gravity = Vec3::Zero();
  RigidBody w;
  w.name = "wheel";
  w.mass = 1;
  w.inertia << kJ, kJ, kJ, 0, 0, 0;
  w.angular_velocity = Vec3(0, 0, kSpin);
  s.add_body(w);
  s.add_revolute("axle", "ground", "wheel", Vec3::Zero(), Vec3::UnitZ());
  s.add_joint_motor("motor", "axle", [](double, const JointCoordinates& q) { return -kK * (q.angle - kTarget) - kC * q.rate; });
  return s;
}

/// φ(t) of the damped oscillator above from φ(0) = 0, φ̇(0) = kSpin (closed form).
double wheel_angle(double t) {
  const double w0 = std::sqrt(kK / kJ), zeta = kC / (2 * std::sqrt(kK * kJ)), wd = w0 * std::sqrt(1 - zeta * zeta);
  const double A = -kTarget, B = (kSpin + zeta * w0 * A) / wd;
  return kTarget + std::exp(-zeta * w0 * t) * (A * std::cos(wd * t) + B * std::sin(wd * t));
}

/// The states after each of `phases` advances by dt, from `start` (a run advanced to t_first).
std::vector<VecX> advance(Integrator& run, double t_first, double dt, int phases) {
  std::vector<VecX> out;
  for (int k = 1; k <= phases; ++k) {
    run.advance_to(t_first + k * dt);
    out.push_back(run.state().q);
  }
  return out;
}

}  // namespace

TEST_CASE("one system, two runs in turn and in two threads: each counts the motor's turns itself", "[threads][compiled]") {
  const std::shared_ptr<const CompiledModel> cm = compile(wound_wheel());
  const MultibodySystem mb(cm);
  const NewtonEulerSystem ne(cm);
  // Steps: generalized-α's phase error of the 30 rad/s spin, about ω³h²t/12, stays below 2e-4 rad
  // over 1.3 s at h = 2.5e-4 s; rk4's is far smaller at 1e-3 s.
  NewmarkOptions alpha;
  alpha.step = 2.5e-4;
  alpha.t_end = 2;
  ExplicitOptions rk4;
  rk4.step = 1e-3;
  rk4.t_end = 2;
  struct Path {
    const char* name;
    std::function<std::unique_ptr<Integrator>()> start;  // a run on the one shared system, from t = 0
    std::function<double(const VecX&)> angle;            // the wheel's angle in (−π, π] at q
  };
  auto angle_of = [](const Mat3& R) { return std::atan2(R(1, 0), R(0, 0)); };
  const std::vector<Path> paths = {
      {"generalized-alpha (implicit formulation)",
       [&] {
         VecX q(mb.num_coordinates()), v(mb.num_coordinates());
         mb.initial_state(q, v);
         return make_generalized_alpha(mb, 0, q, v, alpha);
       },
       [&](const VecX& q) { return angle_of(mb.rotation(0, q)); }},
      {"rk4 (Newton-Euler formulation)",
       [&] {
         VecX q, v;
         ne.initial_state(q, v);
         return make_explicit(ne, 0, q, v, rk4);
       },
       [&](const VecX& q) { return angle_of(ne.rotation(0, q)); }},
  };
  const double dt = 0.01, head = 0.3;
  const int phases = 100;
  for (const Path& p : paths) {
    INFO(p.name);
    // Each alone: b from t = 0, a from a head start of 0.3 s (about 1.4 turns ahead).
    const std::unique_ptr<Integrator> ref_b = p.start(), ref_a = p.start();
    const std::vector<VecX> alone_b = advance(*ref_b, 0, dt, phases);
    ref_a->advance_to(head);
    const std::vector<VecX> alone_a = advance(*ref_a, head, dt, phases);
    // The closed form: the angle, turns counted, reaches 20 rad; a law that lost count would pull
    // to 20 − 2π k instead and end elsewhere.
    for (int k : {9, 49, 99}) {
      const double t = (k + 1) * dt;
      CHECK(std::abs(std::remainder(p.angle(alone_b[static_cast<size_t>(k)]) - wheel_angle(t), 2 * M_PI)) <= 1e-3);
    }
    CHECK(wheel_angle(phases * dt) > 2 * (2 * M_PI));  // the premise: by then more than two turns
    // The same system once more, after those runs: a count left in the system from them (the
    // wheel is then more than 3 turns from its start) would shift this run's angle by 2π k.
    const std::unique_ptr<Integrator> again = p.start();
    CHECK(advance(*again, 0, dt, phases) == alone_b);
    // Two runs in two threads, in step (a barrier after each 0.01 s) with a at 0.3 s ahead: a count
    // shared by the two would carry a's angle into b's evaluations and b's into a's.
    const std::unique_ptr<Integrator> a = p.start(), b = p.start();
    a->advance_to(head);
    std::vector<VecX> in_a, in_b;
    std::barrier sync(2);
    std::thread ta([&] {
      for (int k = 1; k <= phases; ++k) {
        a->advance_to(head + k * dt);
        in_a.push_back(a->state().q);
        sync.arrive_and_wait();
      }
    });
    std::thread tb([&] {
      for (int k = 1; k <= phases; ++k) {
        b->advance_to(k * dt);
        in_b.push_back(b->state().q);
        sync.arrive_and_wait();
      }
    });
    ta.join();
    tb.join();
    CHECK(in_a == alone_a);
    CHECK(in_b == alone_b);
  }
}
