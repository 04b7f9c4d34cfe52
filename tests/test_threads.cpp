// No global state: two systems simulated concurrently in two threads give results identical (to
// the bit) to running them one after the other.

#include <catch2/catch.hpp>

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
