// A planar slider-crank driven by a constant torque, built with the mbdae library from outside its
// source tree (installed package). Prints the slider position and exits 0 on success.

#include <cmath>
#include <cstdio>

#include <mbdae/mbdae.h>

int main() {
  using namespace mbdae;
  const double r = 0.2, l = 0.6;  // crank and rod lengths, m
  System sys;
  sys.name = "slider-crank";
  sys.gravity = Vec3(0, -9.81, 0);

  auto bar = [](const std::string& name, double mass, double length, const Vec3& com) {
    RigidBody b;
    b.name = name;
    b.mass = mass;
    const double J = mass * length * length / 12;  // slender bar about its COM, body x along it
    b.inertia << 1e-4 * J, J, J, 0, 0, 0;
    b.position = com;
    return b;
  };
  sys.add_body(bar("crank", 1.0, r, Vec3(r / 2, 0, 0)));
  sys.add_body(bar("rod", 2.0, l, Vec3(r + l / 2, 0, 0)));
  RigidBody slider = bar("slider", 1.0, 0.1, Vec3(r + l, 0, 0));
  slider.inertia << 1e-3, 1e-3, 1e-3, 0, 0, 0;
  sys.add_body(slider);
  sys.add_revolute("A", "ground", "crank", Vec3(0, 0, 0), Vec3::UnitZ());
  sys.add_revolute("B", "crank", "rod", Vec3(r, 0, 0), Vec3::UnitZ());
  sys.add_revolute("C", "rod", "slider", Vec3(r + l, 0, 0), Vec3::UnitZ());
  sys.add_prismatic("D", "ground", "slider", Vec3(r + l, 0, 0), Vec3::UnitX());
  Load motor;
  motor.name = "motor";
  motor.kind = Load::Kind::Torque;
  motor.body = "crank";
  motor.value = Vec3(0, 0, 5.0);  // N m
  sys.add_load(motor);

  // The planar loop modelled with spatial joints has redundant equations: prepare() finds and
  // removes them, and says so.
  PreparedSystem p = prepare(sys);
  for (const std::string& w : p.warnings) std::printf("warning: %s\n", w.c_str());

  SimulationSettings s;
  s.solver = SolverType::GeneralizedAlpha;
  s.t_end = 1.0;
  s.step = 1e-3;
  s.output_every = 0.25;
  const BodyIndex slider_index = sys.body_index("slider");
  const SolveResult res = simulate(*p.system, 0.0, p.q0, p.v0, s, [&](const StateView& x) {
    std::printf("t = %.2f s  slider x = %.6f m\n", x.t, p.system->position(slider_index, x.q).x());
    return true;
  });
  std::printf("%s: %ld steps, max constraint violation %.2e\n", to_string(res.status),
              res.stats.steps, res.stats.max_position_violation);
  return res.ok() ? 0 : 1;
}
