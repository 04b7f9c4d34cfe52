// No heap allocation inside the step loop: malloc/calloc/realloc are interposed (glibc exports
// __libc_malloc & co.) and counted between two output times after the first step, for every
// implicit solver on a 16-link chain, on an 8-link chain with force elements (torsional and
// linear spring-dampers) and on a sphere bouncing and rolling on a plane with penalty contacts
// (Hunt–Crossley normal force, regularised friction), for the explicit Newton–Euler path (RK4 and
// Dormand–Prince, both joint-solve methods, with and without projection, with and without force
// elements), for the Lie-group integrators (Lie–Euler and RK4 on SE(3) and SO(3)×R³), and for the
// impulse stepper (PGS with warm start, grid broad phase, split impulse, rolling resistance) on a
// resting 3 × 3 × 3 block of spheres. Covers C++ new (which calls malloc) and C libraries (KLU,
// SUNDIALS). Built only without sanitizers (they interpose malloc themselves).

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverRegistry.h>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
}

static std::atomic<bool> g_counting{false};
static std::atomic<long> g_allocs{0};

extern "C" void* malloc(size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) ++g_allocs;
  return __libc_malloc(n);
}
extern "C" void* calloc(size_t a, size_t b) {
  if (g_counting.load(std::memory_order_relaxed)) ++g_allocs;
  return __libc_calloc(a, b);
}
extern "C" void* realloc(void* p, size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) ++g_allocs;
  return __libc_realloc(p, n);
}
extern "C" void free(void* p) { __libc_free(p); }

using namespace mbdae;

static System chain(int N) {
  System s;
  s.gravity = Vec3(0, 0, -9.81);
  for (int i = 0; i < N; ++i) {
    RigidBody b;
    b.name = std::string("bar") + std::to_string(i);
    b.mass = 1;
    b.inertia << (0.01 + 0.01) / 12, (1 + 0.01) / 12, (1 + 0.01) / 12, 0, 0, 0;
    b.position = Vec3(i + 0.5, 0, 0);
    s.add_body(b);
    s.add_spherical("j" + std::to_string(i), i == 0 ? "ground" : "bar" + std::to_string(i - 1),
                    "bar" + std::to_string(i), Vec3(i, 0, 0));
  }
  return s;
}

// The chain with force elements: a torsional spring-damper parallel to every joint and a linear
// spring-damper from the ground to the tip.
static System chain_with_forces(int N) {
  System s = chain(N);
  for (int i = 0; i < N; ++i)
    s.add_torsional_spring_damper("torsion" + std::to_string(i), i == 0 ? "ground" : "bar" + std::to_string(i - 1),
                                  "bar" + std::to_string(i), Vec3(i, 0, 0), Vec3::UnitY(), 1e3, 10);
  s.add_spring_damper("tip_spring", "ground", "bar" + std::to_string(N - 1), Vec3(N, 0, 1), Vec3(N, 0, 0), 100, 1);
  return s;
}

// 27 spheres (r = 0.1 m) touching on a cubic lattice on the floor: the contact set stays the same.
static System sphere_block() {
  System s;
  s.gravity = Vec3(0, 0, -9.81);
  const double r = 0.1;
  for (int i = 0; i < 27; ++i) {
    RigidBody b;
    b.name = "s" + std::to_string(i);
    b.mass = 1;
    b.inertia << 0.4 * r * r, 0.4 * r * r, 0.4 * r * r, 0, 0, 0;
    b.position = Vec3(2 * r * (i % 3), 2 * r * ((i / 3) % 3), r + 2 * r * (i / 9));
    s.add_body(b);
    Contact c = make_sphere(b.name, b.name, r, 0.5);
    c.rolling_resistance = 0.01;
    c.torsional_friction = 0.002;
    s.add_contact(c);
  }
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
  return s;
}

static System bouncing_sphere() {
  System s;
  s.gravity = Vec3(0, 0, -9.81);
  RigidBody b;
  b.name = "ball";
  b.mass = 1;
  b.inertia << 0.001, 0.001, 0.001, 0, 0, 0;
  b.position = Vec3(0, 0, 0.1);
  b.velocity = Vec3(1, 0, 0);
  b.angular_velocity = Vec3(0, 0, 3);
  s.add_body(b);
  Contact ball = make_sphere("ball", "ball", 0.05, 0.5, 0.8);
  PenaltyParameters pen;
  pen.law = PenaltyLaw::HuntCrossley;
  pen.stiffness = 1e7;
  pen.impact_velocity = 1.0;
  ball.penalty = pen;
  ball.rolling_resistance = 0.01;  // the torques of the penalty path, too
  ball.torsional_friction = 0.002;
  s.add_contact(ball);
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5, 0.8));
  return s;
}


/// Observer that counts the heap allocations between the 2nd and 3rd output times (0.1 s → 0.2 s
/// with outputs every 0.1 s): after the first step, inside the step loop.
struct AllocWindow {
  long counted = -1;
  int outputs = 0;
  Observer observer() {
    return [this](const StateView&) {
      ++outputs;
      if (outputs == 2) {
        g_allocs = 0;
        g_counting = true;
      } else if (outputs == 3) {
        g_counting = false;
        counted = g_allocs;
      }
      return true;
    };
  }
};

/// Tally of the runs: one line per run, which passes iff the run succeeded, nothing was allocated
/// in the window and `extra_ok` holds.
struct Tally {
  int passed = 0, failures = 0;
  void add(const std::string& label, bool run_ok, const AllocWindow& w, long steps, bool extra_ok = true,
           const std::string& extra = "") {
    const bool ok = run_ok && w.counted == 0 && extra_ok;
    std::printf("%-40s %s: %ld heap allocations between t = 0.1 and 0.2 s (run of %ld steps%s)\n", label.c_str(),
                ok ? "ok" : "FAILED", w.counted, steps, extra.c_str());
    ok ? ++passed : ++failures;
  }
};

int main() {
  Tally tally;
  for (int model = 0; model < 3; ++model) {
    const PreparedSystem p =
        prepare(model == 0 ? chain(16) : model == 1 ? bouncing_sphere() : chain_with_forces(8));
    std::printf("%s\n", model == 0   ? "16-link chain"
                         : model == 1 ? "bouncing sphere, penalty contacts"
                                      : "8-link chain with force elements");
    for (SolverType type :
         {SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2, SolverType::Ida}) {
      if (!find_solver(to_string(type))) continue;  // ida in a build without SUNDIALS
      SimulationSettings s;
      s.solver = type;
      s.t_end = 0.5;
      s.step = 1e-3;
      s.output_every = 0.1;
      AllocWindow window;
      const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, s, window.observer());
      tally.add(to_string(type), r.ok(), window, r.stats.steps);
    }
  }
  // Explicit Newton–Euler path: sparse joint solve, projections.
  struct Case {
    ExplicitMethod method;
    JointSolveMethod joints;
    bool project;
  };
  const System plain_chain = chain(16), forced_chain = chain_with_forces(8);
  for (const Case& c : {Case{ExplicitMethod::RK4, JointSolveMethod::Schur, false},
                        Case{ExplicitMethod::RK4, JointSolveMethod::EquationSystem, true},
                        Case{ExplicitMethod::Dopri5, JointSolveMethod::Schur, true},
                        Case{ExplicitMethod::Dopri5, JointSolveMethod::EquationSystem, false}})
  for (const System* model : {&plain_chain, &forced_chain}) {
    NewtonEulerOptions no;
    no.joint_solve = c.joints;
    no.baumgarte_alpha = c.project ? 0.0 : 5.0;
    no.baumgarte_beta = c.project ? 0.0 : 5.0;
    const NewtonEulerSystem ne(*model, no);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ExplicitOptions eo;
    eo.method = c.method;
    eo.t_end = 0.5;
    eo.step = 1e-3;
    eo.rtol = 1e-7;
    eo.atol = 1e-9;
    eo.output_every = 0.1;
    eo.project_positions = c.project;
    eo.project_velocities = c.project;
    AllocWindow window;
    const SolveResult r = solve_explicit(ne, 0, q0, v0, eo, window.observer());
    tally.add(std::string("explicit ") + (c.method == ExplicitMethod::RK4 ? "rk4/" : "dopri5/") +
                  to_string(c.joints) + (c.project ? "/projection" : "") +
                  (model == &forced_chain ? " (force elements)" : ""),
              r.ok(), window, r.stats.steps);
  }
  // Lie-group integrators (free bodies: the 27 spheres falling without contacts, spinning).
  for (const LieGroupType group : {LieGroupType::SE3, LieGroupType::SO3xR3})
    for (const LieGroupMethod method : {LieGroupMethod::Euler, LieGroupMethod::RK4}) {
      System free_bodies = sphere_block();
      const LieGroupBodies lg(free_bodies, group, 0.1, 0.01);
      LieGroupState s0 = lg.initial_state();
      for (int i = 0; i < lg.num_bodies(); ++i) s0.xi.segment<3>(6 * i) = Vec3(1.0, 2.0, 3.0 + i);
      LieGroupOptions lo;
      lo.method = method;
      lo.t_end = 0.5;
      lo.step = 1e-3;
      lo.output_every = 0.1;
      AllocWindow window;
      const SolveResult r = solve_lie_group(lg, 0, s0, lo, window.observer());
      tally.add(std::string("lie group ") + to_string(group) + "/" + to_string(method), r.ok(), window,
                r.stats.steps);
    }
  {
    const System block = sphere_block();
    const NewtonEulerSystem ne(block);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ImpulseOptions o;
    o.t_end = 0.5;
    o.step = 1e-3;
    o.output_every = 0.1;
    AllocWindow window;
    int contacts = 0;
    const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, window.observer());
    for (const PgsStepStats& st : r.pgs.per_step) contacts = std::max(contacts, st.contacts);
    tally.add("impulse", r.ok(), window, r.result.stats.steps, contacts > 27,
              ", up to " + std::to_string(contacts) + " contacts");
  }
  std::printf("%d passed, %d failed\n", tally.passed, tally.failures);
  return tally.failures ? 1 : 0;
}
