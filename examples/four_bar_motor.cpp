// A four-bar linkage whose crank is driven by a motor at constant speed (a driven revolute joint:
// motion(t) = ω t). Prints the rocker angle and the motor torque over one crank turn, and checks
// the power balance: the motor's power equals the rate of change of kinetic + potential energy.

#include <cmath>
#include <cstdio>

#include <mbdae/mbdae.h>

int main() {
  using namespace mbdae;
  // Ground link 0.4 m, crank 0.1 m, coupler 0.4 m, rocker 0.3 m (a Grashof crank-rocker).
  const Vec3 A(0, 0, 0), D(0.4, 0, 0);
  const Vec3 B(0, 0.1, 0);
  // C: intersection of the circles |C − B| = 0.4 and |C − D| = 0.3 (upper branch).
  const double d = (D - B).norm(), a = (0.4 * 0.4 - 0.3 * 0.3 + d * d) / (2 * d);
  const double hh = std::sqrt(0.4 * 0.4 - a * a);
  const Vec3 e = (D - B) / d, n(-e.y(), e.x(), 0);
  const Vec3 C = B + a * e + hh * n;

  System sys;
  sys.gravity = Vec3(0, -9.81, 0);
  auto link = [](const std::string& name, const Vec3& p, const Vec3& q, double mass) {
    // A slender steel-like bar from p to q: inertia from the utilities, COM at mid-bar.
    RigidBody b;
    b.name = name;
    const Vec3 axis = q - p;
    const RigidBodyInertia I = RigidBodyInertia::cylinder(mass, 0.005, axis.norm(), axis.normalized());
    b.mass = I.mass();
    b.inertia = I.inertia6_about_reference();
    b.position = 0.5 * (p + q);
    return b;
  };
  sys.add_body(link("crank", A, B, 0.2));
  sys.add_body(link("coupler", B, C, 0.8));
  sys.add_body(link("rocker", D, C, 0.6));
  const double omega = 2 * M_PI;  // one turn per second
  Joint motor;
  motor.name = "motor";
  motor.type = JointType::Revolute;
  motor.bodies = {"ground", "crank"};
  motor.point = A;
  motor.axis = Vec3::UnitZ();
  motor.motion.value = [omega](double t) { return omega * t; };
  motor.motion.velocity = [omega](double) { return omega; };
  motor.motion.acceleration = [](double) { return 0.0; };
  sys.add_joint(motor);
  sys.add_revolute("B", "crank", "coupler", B, Vec3::UnitZ());
  sys.add_revolute("C", "coupler", "rocker", C, Vec3::UnitZ());
  sys.add_revolute("D", "ground", "rocker", D, Vec3::UnitZ());

  PreparedSystem p = prepare(sys);
  for (const auto& w : p.warnings) std::printf("note: %s\n", w.c_str());
  const MultibodySystem& mb = *p.system;
  SimulationSettings s;
  s.t_end = 1.0;
  s.step = 1e-3;
  s.output_every = 1e-3;  // fine enough for the quadrature of the power balance
  double E_prev = 0, t_prev = 0, P_prev = 0, worst_balance = 0;
  std::printf("%6s %12s %14s\n", "t [s]", "rocker [rad]", "torque [N m]");
  auto ws = mb.make_workspace();
  const SolveResult res = simulate(mb, 0, p.q0, p.v0, s, [&](const StateView& x) {
    const double torque = mb.joint_drive_force(0, x.t, x.q, x.lambda);
    const double E = mb.energy(ws, x.t, x.q, x.v);
    const double P = torque * omega;
    const Vec3 ex = mb.rotation(sys.body_index("rocker"), x.q).col(0);
    if (std::lround(x.t * 1000) % 50 == 0)
      std::printf("%6.2f %12.5f %14.6f\n", x.t, std::atan2(ex.y(), ex.x()), torque);
    if (x.t > 0) {  // trapezoidal check of ∫P dt = ΔE over each output interval
      const double balance = 0.5 * (P + P_prev) * (x.t - t_prev) - (E - E_prev);
      worst_balance = std::max(worst_balance, std::abs(balance));
    }
    E_prev = E;
    t_prev = x.t;
    P_prev = P;
    return true;
  });
  std::printf("%s; largest |∫P dt − ΔE| over an output interval: %.2e J (trapezoidal quadrature)\n",
              to_string(res.status), worst_balance);
  return res.ok() ? 0 : 1;
}
