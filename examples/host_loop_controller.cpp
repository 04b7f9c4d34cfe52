// Stepping a model from a host loop: a PD controller, computed by the host between steps, drives a
// pendulum to the upright position through a motor torque. The torque is a load whose value the
// host changes; the integrator is advanced with advance_to().

#include <cmath>
#include <cstdio>
#include <memory>

#include <mbdae/mbdae.h>

int main() {
  using namespace mbdae;
  System sys;
  sys.gravity = Vec3(0, 0, -9.81);
  RigidBody arm;
  arm.name = "arm";
  arm.mass = 1.0;
  const RigidBodyInertia I = RigidBodyInertia::box(1.0, 0.5, 0.04, 0.04).translated(Vec3(0.25, 0, 0));
  arm.inertia = I.inertia6_about_reference();  // about the pivot
  arm.com = I.com();
  arm.orientation = math::rxyz_to_matrix(Vec3(0, M_PI / 2, 0));  // hanging down (body x → −z)
  sys.add_body(arm);
  sys.add_revolute("pivot", "ground", "arm", Vec3::Zero(), Vec3::UnitY());

  // The host owns the torque; the load reads it whenever the solver evaluates forces.
  auto torque = std::make_shared<double>(0.0);
  Load motor;
  motor.name = "motor";
  motor.kind = Load::Kind::Torque;
  motor.body = "arm";
  motor.value_of_t = [torque](double) { return Vec3(0, *torque, 0); };
  sys.add_load(motor);

  PreparedSystem p = prepare(sys);
  SimulationSettings s;
  s.solver = SolverType::GeneralizedAlpha;
  s.step = 1e-3;
  std::unique_ptr<Integrator> integ = make_integrator(*p.system, 0.0, p.q0, p.v0, s);

  const double dt = 0.01, kp = 40, kd = 6, target = M_PI;  // swing up to the inverted position
  std::printf("%6s %10s %10s\n", "t [s]", "angle", "torque");
  for (int k = 0; k <= 300; ++k) {
    const StateView x = integ->state();
    const Vec3 ex = p.system->rotation(0, x.q).col(0);
    // Rotation by φ about +y takes the hanging axis (0, 0, −1) to (−sin φ, 0, −cos φ).
    const double angle = std::atan2(-ex.x(), -ex.z());
    const double rate = p.system->angular_velocity(0, x.q, x.v).y();
    double err = std::remainder(target - angle, 2 * M_PI);
    *torque = std::clamp(kp * err - kd * rate, -8.0, 8.0);  // the controller, between steps
    if (k % 25 == 0) std::printf("%6.2f %10.4f %10.4f\n", x.t, angle, *torque);
    if (!integ->advance_to(x.t + dt)) {
      std::printf("failed: %s\n", integ->message().c_str());
      return 1;
    }
  }
  const StateView x = integ->state();
  const Vec3 ex = p.system->rotation(0, x.q).col(0);
  const double final_angle = std::atan2(-ex.x(), -ex.z());
  std::printf("final angle %.4f rad (target ±π), %ld steps\n", final_angle, integ->stats().steps);
  return std::abs(std::abs(final_angle) - M_PI) < 0.05 ? 0 : 1;
}
