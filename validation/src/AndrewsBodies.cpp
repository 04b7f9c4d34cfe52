/// @file AndrewsBodies.cpp
/// Andrews' squeezing mechanism as 7 rigid bodies (IFToMM A03) and the stiff flyball governor
/// (IFToMM A05); see Models.h, AndrewsBodies and FlyballGovernor.

#include <cmath>
#include <string>

#include <Eigen/Geometry>

#include <mbdae/validation/Andrews.h>
#include <mbdae/validation/Models.h>

namespace mbdae::validation::models {

System AndrewsBodies(const std::array<double, 7>& q) {
  using namespace andrews::param;
  const double beta = q[0], Theta = q[1], gamma = q[2], Phi = q[3], delta = q[4], Omega = q[5], eps = q[6];
  const auto dir = [](double a) { return Vec3(std::cos(a), std::sin(a), 0.0); };
  const auto rot = [](double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); };
  const Vec3 O = Vec3::Zero(), A(xa, ya, 0), B(xb, yb, 0), C(xc, yc, 0);
  // Points of the mechanism (Hairer–Wanner constraints g1…g6 hold with these).
  const Vec3 E = rr * dir(beta);
  const Vec3 F = E - d * dir(beta + Theta);
  const Vec3 D = B + rot(gamma) * Vec3(sd, -sc, 0);
  const Vec3 G = A + zt * dir(delta);
  const Vec3 H = A + u * Vec3(std::sin(eps), -std::cos(eps), 0);
  const double psi4 = Phi + delta, psi6 = Omega + eps;
  const Vec3 dir4(std::sin(psi4), -std::cos(psi4), 0);  // from G to F
  struct B7 {
    const char* name;
    double m, i, angle;
    Vec3 com;
  };
  const B7 bodies[7] = {
      {"body1", m1, i1, beta, O + ra * dir(beta)},                      // crank, pivot O, COM at ra
      {"body2", m2, i2, beta + Theta, E - da * dir(beta + Theta)},      // E → F, COM at da from E
      {"body3", m3, i3, gamma, B + rot(gamma) * Vec3(sa, sb, 0)},       // pivot B, COM at √(sa²+sb²)
      {"body4", m4, i4, psi4, G + (e - ea) * dir4},                      // G → F, COM at e − ea from G
      {"body5", m5, i5, delta, A + rot(delta) * Vec3(ta, tb, 0)},       // pivot A
      {"body6", m6, i6, psi6, H + (zf - fa) * dir(psi6)},               // H → F, COM at zf − fa from H
      {"body7", m7, i7, eps, A + rot(eps) * Vec3(ua, ub, 0)}};          // pivot A
  System s;
  s.name = "andrews_bodies";
  for (const B7& b : bodies) {
    RigidBody rb;
    rb.name = b.name;
    rb.mass = b.m;
    rb.inertia << b.i, b.i, b.i, 0, 0, 0;
    rb.position = b.com;
    rb.orientation = rot(b.angle);
    s.add_body(rb);
  }
  const Vec3 z = Vec3::UnitZ();
  s.add_revolute("O", "ground", "body1", O, z);
  s.add_revolute("E", "body1", "body2", E, z);
  s.add_revolute("F3", "body2", "body3", F, z);
  s.add_revolute("F4", "body2", "body4", F, z);
  s.add_revolute("F6", "body2", "body6", F, z);
  s.add_revolute("B", "ground", "body3", B, z);
  s.add_revolute("A5", "ground", "body5", A, z);
  s.add_revolute("A7", "ground", "body7", A, z);
  s.add_revolute("G", "body5", "body4", G, z);
  s.add_revolute("H", "body7", "body6", H, z);
  s.add_spring_damper("spring", "ground", "body3", C, D, c0, 0.0, l0);
  Load motor;
  motor.name = "motor";
  motor.kind = Load::Kind::Torque;
  motor.body = "body1";
  motor.value = Vec3(0, 0, mom);
  s.add_load(motor);
  return s;
}

System FlyballGovernor() {
  constexpr double rho = 3000, L = 1.0, a = 0.01, cube = 0.1, ball = 5.0;
  constexpr double K = 8e5, C = 4e4, rest = 0.5, s_att = 0.5, g = 9.81;
  const double alpha = 30.0 * M_PI / 180.0, W = 2 * M_PI;
  const double m_bar = rho * L * a * a;  // 0.3 kg
  const Vec3 w(0, 0, W);
  const Vec3 top(0, 0, L);
  System s;
  s.name = "flyball_governor";
  s.gravity = Vec3(0, 0, -g);
  auto body = [&](const std::string& name, double m, const Vec3& J, const Vec3& p, const Mat3& R) {
    RigidBody b;
    b.name = name;
    b.mass = m;
    b.inertia << J.x(), J.y(), J.z(), 0, 0, 0;
    b.position = p;
    b.orientation = R;
    b.angular_velocity = w;
    b.velocity = w.cross(p);
    return b;
  };
  const double Jt_bar = m_bar * (L * L + a * a) / 12, Ja_bar = m_bar * (2 * a * a) / 12;
  s.add_body(body("shaft", m_bar, Vec3(Jt_bar, Jt_bar, Ja_bar), Vec3(0, 0, L / 2), Mat3::Identity()));
  // Rod + point mass at its end: COM at c from the hinge; transverse inertia about the COM.
  const double m_rod = m_bar + ball, c = (m_bar * L / 2 + ball * L) / m_rod;
  const double Jt = Jt_bar + m_bar * (L / 2 - c) * (L / 2 - c) + ball * (L - c) * (L - c);
  for (int side : {1, 2}) {
    const double sgn = side == 1 ? 1.0 : -1.0;
    const Vec3 d(sgn * std::sin(alpha), 0, -std::cos(alpha));  // hinge → free end
    const Mat3 R = Eigen::AngleAxisd(M_PI - sgn * alpha, Vec3::UnitY()).toRotationMatrix();  // body z = d
    s.add_body(body("rod" + std::to_string(side), m_rod, Vec3(Jt, Jt, Ja_bar), top + c * d, R));
  }
  const double h0 = L - 2 * s_att * std::cos(alpha);
  const Vec3 p_slider(0, 0, h0);
  const double m_cube = rho * cube * cube * cube, J_cube = m_cube * 2 * cube * cube / 12;
  s.add_body(body("slider", m_cube, Vec3(J_cube, J_cube, J_cube), p_slider, Mat3::Identity()));
  Joint drive;
  drive.name = "drive";
  drive.type = JointType::Revolute;
  drive.bodies = {"ground", "shaft"};
  drive.axis = Vec3::UnitZ();
  drive.motion.value = [W](double t) { return W * t; };
  drive.motion.velocity = [W](double) { return W; };
  drive.motion.acceleration = [](double) { return 0.0; };
  s.add_joint(drive);
  s.add_revolute("hinge1", "shaft", "rod1", top, Vec3::UnitY());
  s.add_revolute("hinge2", "shaft", "rod2", top, Vec3::UnitY());
  s.add_prismatic("guide", "shaft", "slider", p_slider, Vec3::UnitZ());
  for (int side : {1, 2}) {
    const double sgn = side == 1 ? 1.0 : -1.0;
    const Vec3 P = top + s_att * Vec3(sgn * std::sin(alpha), 0, -std::cos(alpha));
    s.add_spring_damper("coupler" + std::to_string(side), "rod" + std::to_string(side), "slider", P, p_slider, K, C,
                        rest);
  }
  return s;
}

}  // namespace mbdae::validation::models
