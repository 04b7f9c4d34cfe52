// The closed forms of reference/contact.md reproduced by the impulse stepper (ImpulseStepper.h),
// each at three steps h, h/2, h/4: the error must shrink, and the observed order is printed
// (first order is expected: symplectic Euler with impulses, contact.md "the position error of a
// first-order stepper is O(h)").

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/validation/Models.h>

using namespace mbdae;

namespace {

constexpr double g = 9.81;

RigidBody sphere_body(const std::string& name, double m, double r, const Vec3& pos, const Vec3& vel) {
  RigidBody b;
  b.name = name;
  b.mass = m;
  const double I = 0.4 * m * r * r;
  b.inertia << I, I, I, 0, 0, 0;
  b.position = pos;
  b.velocity = vel;
  return b;
}

RigidBody box_body(const std::string& name, double m, const Vec3& half, const Vec3& pos, const Vec3& vel) {
  RigidBody b;
  b.name = name;
  b.mass = m;
  const Vec3 L = 2 * half;
  b.inertia << m * (L.y() * L.y() + L.z() * L.z()) / 12, m * (L.x() * L.x() + L.z() * L.z()) / 12,
      m * (L.x() * L.x() + L.y() * L.y()) / 12, 0, 0, 0;
  b.position = pos;
  b.velocity = vel;
  return b;
}

struct Run {
  std::vector<double> t;
  std::vector<VecX> q, v;
  ImpulseResult r;
};

Run run(const System& s, double h, double t_end, ImpulseOptions o = {}) {
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  o.step = h;
  o.t_end = t_end;
  o.output_every = h;
  Run out;
  out.r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    out.t.push_back(st.t);
    out.q.push_back(st.q);
    out.v.push_back(st.v);
    return true;
  });
  REQUIRE(out.r.ok());
  return out;
}

double order(double e1, double e2) { return std::log2(e1 / e2); }

}  // namespace

TEST_CASE("Restitution: rebound apex heights e^(2n) h0", "[validation][contact][impulse]") {
  const double r = 0.1, h0 = 1.0, e = 0.8;
  std::array<double, 3> err{};
  const double steps[3] = {1e-3, 5e-4, 2.5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(sphere_body("ball", 1.0, r, Vec3(0, 0, r + h0), Vec3::Zero()));
    s.add_contact(make_sphere("ball", "ball", r, 0.0, e));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.0, e));
    // The penetration left by a slop would lower every apex by up to the slop: remove the whole
    // penetration in one step (split impulse, so no energy is added).
    ImpulseOptions o;
    o.slop = 0;
    o.position_beta = 1.0;
    const Run R = run(s, steps[k], 2.5, o);
    // Apexes: local maxima of the COM height after the first impact.
    std::vector<double> apex;
    for (size_t i = 1; i + 1 < R.t.size(); ++i)
      if (R.v[i - 1][2] > 0 && R.v[i][2] <= 0) apex.push_back(R.q[i][2] - r);
    REQUIRE(apex.size() >= 3);
    double worst = 0;
    for (int n = 1; n <= 3; ++n)
      worst = std::max(worst, std::abs(apex[static_cast<size_t>(n - 1)] - std::pow(e, 2 * n) * h0));
    err[static_cast<size_t>(k)] = worst;
    INFO("h = " << steps[k] << ": apexes " << apex[0] << " " << apex[1] << " " << apex[2] << " (exact "
                << e * e * h0 << " " << std::pow(e, 4) * h0 << " " << std::pow(e, 6) * h0 << ")");
    CHECK(worst < 0.02);
  }
  INFO("apex errors " << err[0] << " " << err[1] << " " << err[2] << ", observed orders "
                      << order(err[0], err[1]) << " " << order(err[1], err[2]));
  CHECK(err[1] < err[0]);
  CHECK(err[2] < err[1]);
  CHECK(order(err[1], err[2]) > 0.7);
}

TEST_CASE("Restitution: a box dropped flat rebounds to e^(2n) h0", "[validation][contact][impulse]") {
  // The four bottom corners hit together; Newton's law v⁺ = −e v⁻ at each, so the box leaves flat
  // with e times its speed and the apexes are e^(2n) h0, as for a ball (reference/contact.md).
  const Vec3 half(0.2, 0.15, 0.05);
  const double h0 = 0.5, e = 0.7;
  std::array<double, 3> err{};
  const double steps[3] = {1e-3, 5e-4, 2.5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(box_body("box", 1.0, half, Vec3(0, 0, half.z() + h0), Vec3::Zero()));
    s.add_contact(make_box("box", "box", half, 0.0, e));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.0, e));
    ImpulseOptions o;
    o.slop = 0;
    o.position_beta = 1.0;
    const Run R = run(s, steps[k], 1.6, o);
    std::vector<double> apex;
    for (size_t i = 1; i + 1 < R.t.size(); ++i)
      if (R.v[i - 1][2] > 0 && R.v[i][2] <= 0) apex.push_back(R.q[i][2] - half.z());
    REQUIRE(apex.size() >= 2);
    double worst = 0, tilt = 0;
    for (int n = 1; n <= 2; ++n)
      worst = std::max(worst, std::abs(apex[static_cast<size_t>(n - 1)] - std::pow(e, 2 * n) * h0));
    for (const VecX& v : R.v) tilt = std::max(tilt, v.segment<3>(3).norm());
    err[static_cast<size_t>(k)] = worst;
    INFO("h = " << steps[k] << ": apexes " << apex[0] << " " << apex[1] << " (exact " << e * e * h0 << " "
                << std::pow(e, 4) * h0 << "), largest angular speed " << tilt);
    CHECK(worst < 0.02);
    CHECK(tilt < 1e-6);
  }
  INFO("apex errors " << err[0] << " " << err[1] << " " << err[2]);
  CHECK(err[2] < err[0]);
}

TEST_CASE("A tall box on an incline tips over its lower edge iff tan(alpha) > w/h", "[validation][contact][impulse]") {
  // Width w (along the slope) and height h; with friction enough to hold it (μ > tan α) the box
  // stands while the weight's line passes inside the lower edge, tan α < w/h, and tips beyond.
  // The plane stays horizontal; gravity is tilted by α about y.
  const Vec3 half(0.05, 0.1, 0.2);
  const double crit = std::atan(half.x() / half.z()), mu = 1.5;
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  CAPTURE(fm == FrictionModel::Cone ? "cone" : "pyramid");
  auto tilt_after = [&](double alpha) {
    System s;
    s.gravity = g * Vec3(std::sin(alpha), 0, -std::cos(alpha));
    s.add_body(box_body("box", 1.0, half, Vec3(0, 0, half.z()), Vec3::Zero()));
    s.add_contact(make_box("box", "box", half, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    ImpulseOptions o;
    o.friction = fm;
    const Run R = run(s, 1e-3, 1.5, o);
    return 2 * std::acos(std::min(1.0, std::abs(R.q.back()[3])));
  };
  const double stay = tilt_after(crit - 0.03), tip = tilt_after(crit + 0.03);
  INFO("critical angle " << crit << " rad: tilt after 1.5 s " << stay << " rad at " << crit - 0.03 << ", " << tip
                         << " rad at " << crit + 0.03);
  CHECK(stay < 1e-6);
  CHECK(tip > 0.5);
}

TEST_CASE("Sliding block: stops after v0^2/(2 mu g) and stays at rest, cone and pyramid, on a plane and on a box",
          "[validation][contact][impulse]") {
  // The friction of every contact point of the manifold (four corners on a plane, four clipped
  // face points on a box) must take μ λ_n of the sliding momentum, with the exact Coulomb cone as
  // with the pyramid whose face the slip meets.
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  const bool on_box = GENERATE(false, true);
  const double v0 = 2.0, mu = GENERATE(0.5, 0.3);
  CAPTURE(fm == FrictionModel::Cone ? "cone" : "pyramid", on_box ? "on a ground box" : "on a plane", mu);
  const Vec3 half(0.2, 0.15, 0.05);
  const double exact = v0 * v0 / (2 * mu * g), t_stop = v0 / (mu * g);
  std::array<double, 3> err{};
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(box_body("block", 2.0, half, Vec3(0, 0, half.z()), Vec3(v0, 0, 0)));
    s.add_contact(make_box("block", "block", half, mu));
    if (on_box) {
      Contact floor = make_box("floor", "ground", Vec3(5, 5, 0.5), mu);
      floor.position = Vec3(1, 0, -0.5);
      s.add_contact(floor);
    } else {
      s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    }
    ImpulseOptions o;
    o.friction = fm;
    const Run R = run(s, steps[k], t_stop + 1.0, o);
    const double x_stop = R.q.back()[0];
    // At rest after the stop: no creep over the last second.
    size_t i_stop = 0;
    while (R.t[i_stop] < t_stop + 0.05) ++i_stop;
    const double creep = std::abs(R.q.back()[0] - R.q[i_stop][0]);
    err[static_cast<size_t>(k)] = std::abs(x_stop - exact);
    INFO("h = " << steps[k] << ": stop distance " << x_stop << " (exact " << exact << "), creep " << creep
                << ", vertical drift " << std::abs(R.q.back()[2] - half.z()));
    CHECK(creep < 1e-9);
    CHECK(std::abs(R.q.back()[1]) < 1e-9);
    CHECK(err[static_cast<size_t>(k)] < 3 * v0 * steps[k]);
  }
  INFO("errors " << err[0] << " " << err[1] << " " << err[2] << ", observed orders " << order(err[0], err[1])
                 << " " << order(err[1], err[2]));
  CHECK(err[2] < err[0]);
  CHECK(order(err[0], err[2]) / 2 > 0.7);
}

TEST_CASE("Cylinder rolls down an incline at (2/3) g sin(alpha), on a plane and on a box's inclined face",
          "[validation][contact][impulse]") {
  // A solid cylinder (I = m r²/2) lying across the slope rolls without slipping if μ ≥ tan α / 3;
  // its centre then accelerates at (2/3) g sin α (a line contact: the two ends of the lowest
  // generator). On a plane, the plane stays horizontal and gravity is tilted by α; on a box, the
  // ground box is turned by α about y (its top face through the origin, normal n = (sin α, 0,
  // cos α), downhill t = (cos α, 0, −sin α)) under vertical gravity.
  const double alpha = 0.3, r = 0.1, len = 0.4, m = 2.0, mu = 0.5, T = 1.0;
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  const bool on_box = GENERATE(false, true);
  CAPTURE(fm == FrictionModel::Cone ? "cone" : "pyramid", on_box ? "on a box" : "on a plane");
  const double a_exact = 2.0 / 3.0 * g * std::sin(alpha);
  const Vec3 n = on_box ? Vec3(std::sin(alpha), 0, std::cos(alpha)) : Vec3::UnitZ();
  const Vec3 t = on_box ? Vec3(std::cos(alpha), 0, -std::sin(alpha)) : Vec3::UnitX();
  std::array<double, 3> err{};
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = on_box ? Vec3(0, 0, -g) : Vec3(g * Vec3(std::sin(alpha), 0, -std::cos(alpha)));
    RigidBody b;
    b.name = "roller";
    b.mass = m;
    const double Ia = 0.5 * m * r * r, It = m * (3 * r * r + len * len) / 12;
    b.inertia << It, Ia, It, 0, 0, 0;  // axis along y
    b.position = r * n;
    s.add_body(b);
    Contact c = make_cylinder("roller", "roller", r, len, mu);
    c.orientation = math::rot_x(M_PI / 2);  // the shape's z axis along the body's y axis
    s.add_contact(c);
    if (on_box) {
      Contact slope = make_box("slope", "ground", Vec3(3, 1, 0.5), mu);
      slope.orientation = math::rot_y(alpha);
      slope.position = -0.5 * n;
      s.add_contact(slope);
    } else {
      s.add_contact(make_plane("slope", Vec3::UnitZ(), 0.0, mu));
    }
    ImpulseOptions o;
    o.friction = fm;
    const Run R = run(s, steps[k], T, o);
    const double x = t.dot(R.q.back().head<3>() - R.q.front().head<3>());
    const double w = R.v.back()[4], v = t.dot(R.v.back().head<3>());
    const double off = n.dot(R.q.back().head<3>()) - r;  // the centre's height above the surface − r
    err[static_cast<size_t>(k)] = std::abs(x - 0.5 * a_exact * T * T);
    INFO("h = " << steps[k] << ": distance " << x << " m (exact " << 0.5 * a_exact * T * T << "), speed " << v
                << " (exact " << a_exact * T << "), rolling slip v − ω r = " << v - w * r << ", off the surface "
                << off << " m");
    CHECK(err[static_cast<size_t>(k)] < 2 * a_exact * steps[k]);
    CHECK(std::abs(v - w * r) < 1e-6);
    CHECK(std::abs(off) < 1e-4);
  }
  INFO("errors " << err[0] << " " << err[1] << " " << err[2] << ", observed orders " << order(err[0], err[1])
                 << " " << order(err[1], err[2]));
  CHECK(err[2] < err[0]);
}

TEST_CASE("A cylinder lying or standing on a box that rests on the floor stays at rest", "[validation][contact][impulse]") {
  // Box (half 0.3, 0.3, 0.1, 5 kg) on the floor; a cylinder (r 0.1, length 0.4, 2 kg) on its top
  // face (z = 0.2), lying (axis along y: a line contact, two points) or standing (its bottom rim).
  const bool lying = GENERATE(true, false);
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  CAPTURE(lying ? "lying" : "standing", fm == FrictionModel::Cone ? "cone" : "pyramid");
  const double r = 0.1, len = 0.4, m = 2.0;
  const Vec3 half(0.3, 0.3, 0.1);
  System s;
  s.gravity = Vec3(0, 0, -g);
  s.add_body(box_body("box", 5.0, half, Vec3(0.05, 0, half.z()), Vec3::Zero()));
  RigidBody b;
  b.name = "cylinder";
  b.mass = m;
  const double Ia = 0.5 * m * r * r, It = m * (3 * r * r + len * len) / 12;
  b.inertia << It, It, Ia, 0, 0, 0;  // axis along body z
  b.position = Vec3(0, 0.05, 2 * half.z() + (lying ? r : len / 2));
  if (lying) b.orientation = math::rot_x(M_PI / 2);
  s.add_body(b);
  s.add_contact(make_box("box", "box", half, 0.6));
  s.add_contact(make_cylinder("cylinder", "cylinder", r, len, 0.6));
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.6));
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 1;
  o.output_every = 1e-3;
  o.friction = fm;
  double drift = 0, drift_box = 0, rot = 0;
  const ImpulseResult res = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    drift_box = std::max(drift_box, (st.q.segment<3>(0) - q0.segment<3>(0)).norm());
    drift = std::max(drift, (st.q.segment<3>(7) - q0.segment<3>(7)).norm());
    rot = std::max(rot, (ne.rotation(1, st.q) - b.orientation).cwiseAbs().maxCoeff());
    return true;
  });
  REQUIRE(res.ok());
  INFO("over 1 s: cylinder moved " << drift << " m, turned " << rot << "; box moved " << drift_box
                                   << " m; contacts max " << res.pgs.max_contacts);
  CHECK(drift < 1e-4);
  CHECK(drift_box < 1e-4);
  CHECK(rot < 1e-4);
  CHECK(res.pgs.max_contacts == 4 + (lying ? 2 : 8));
}

TEST_CASE("Block on an incline: sticks iff tan(alpha) <= mu, else slides with g(sin - mu cos)",
          "[validation][contact][impulse]") {
  const double mu = 0.4;
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  CAPTURE(fm == FrictionModel::Cone ? "cone" : "pyramid");
  ImpulseOptions o;
  o.friction = fm;
  const Vec3 half(0.2, 0.2, 0.05);
  // The plane stays horizontal; gravity is tilted by α (same physics, simpler geometry).
  auto make = [&](double alpha) {
    System s;
    s.gravity = g * Vec3(std::sin(alpha), 0, -std::cos(alpha));
    s.add_body(box_body("block", 1.0, half, Vec3(0, 0, half.z()), Vec3::Zero()));
    s.add_contact(make_box("block", "block", half, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    return s;
  };
  const double a_stick = std::atan(mu) - 0.02, a_slip = std::atan(mu) + 0.1;
  const double T = 1.0;
  std::array<double, 3> err{};
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    const Run S = run(make(a_stick), steps[k], T, o);
    const double stick_disp = (S.q.back().head<2>() - S.q.front().head<2>()).norm();
    const Run L = run(make(a_slip), steps[k], T, o);
    const double a_exact = g * (std::sin(a_slip) - mu * std::cos(a_slip));
    const double x = L.q.back()[0] - L.q.front()[0];
    err[static_cast<size_t>(k)] = std::abs(x - 0.5 * a_exact * T * T);
    INFO("h = " << steps[k] << ": stick displacement " << stick_disp << " m; slide " << x << " m (exact "
                << 0.5 * a_exact * T * T << ")");
    CHECK(stick_disp < 1e-9);
    CHECK(err[static_cast<size_t>(k)] < a_exact * steps[k]);
  }
  INFO("slide errors " << err[0] << " " << err[1] << " " << err[2] << ", observed orders "
                       << order(err[0], err[1]) << " " << order(err[1], err[2]));
  CHECK(err[2] < err[0]);
}

TEST_CASE("Sphere launched without spin: slips until 2 v0/(7 mu g), then rolls at 5 v0/7",
          "[validation][contact][impulse]") {
  const double v0 = 3.0, mu = 0.3, r = 0.1;
  const double t_star = 2 * v0 / (7 * mu * g), v_roll = 5 * v0 / 7, slip = 12 * v0 * v0 / (49 * mu * g);
  std::array<double, 3> err_t{}, err_v{}, err_x{};
  const double steps[3] = {2e-3, 1e-3, 5e-4};
  for (int k = 0; k < 3; ++k) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(sphere_body("ball", 1.0, r, Vec3(0, 0, r), Vec3(v0, 0, 0)));
    s.add_contact(make_sphere("ball", "ball", r, mu));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    NewtonEulerSystem ne(s);
    const Run R = run(s, steps[k], 1.0);
    double t_roll = -1, x_roll = 0;
    for (size_t i = 0; i < R.t.size(); ++i) {
      const Vec3 w = ne.angular_velocity_world(0, R.q[i], R.v[i]);
      const double slip_v = R.v[i][0] + w.cross(Vec3(0, 0, -r)).x();
      if (t_roll < 0 && std::abs(slip_v) < 1e-8) {
        t_roll = R.t[i];
        x_roll = R.q[i][0];
      }
    }
    err_t[static_cast<size_t>(k)] = std::abs(t_roll - t_star);
    err_v[static_cast<size_t>(k)] = std::abs(R.v.back()[0] - v_roll);
    err_x[static_cast<size_t>(k)] = std::abs(x_roll - slip);
    INFO("h = " << steps[k] << ": rolls from t = " << t_roll << " s (exact " << t_star << "), x = " << x_roll
                << " (exact " << slip << "), final speed " << R.v.back()[0] << " (exact " << v_roll << ")");
    CHECK(err_t[static_cast<size_t>(k)] <= steps[k] * 1.01);
    CHECK(err_v[static_cast<size_t>(k)] < 1e-9);  // momentum about the contact point is conserved exactly
    CHECK(err_x[static_cast<size_t>(k)] < 2 * v0 * steps[k]);
  }
  INFO("slip-distance errors " << err_x[0] << " " << err_x[1] << " " << err_x[2] << ", observed orders "
                               << order(err_x[0], err_x[1]) << " " << order(err_x[1], err_x[2]));
  CHECK(err_x[2] < err_x[0]);
}

TEST_CASE("A box at rest on a plane does not drift over 10 s", "[validation][contact][impulse]") {
  const Vec3 half(0.3, 0.2, 0.1);
  System s;
  s.gravity = Vec3(0, 0, -g);
  RigidBody b = box_body("box", 5.0, half, Vec3(0.1, -0.2, half.z()), Vec3::Zero());
  b.orientation = math::rot_z(0.3);
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
  const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    drift = std::max(drift, (st.q.head<3>() - q0.head<3>()).norm());
    rot = std::max(rot, (ne.rotation(0, st.q) - b.orientation).cwiseAbs().maxCoeff());
    return true;
  });
  REQUIRE(r.ok());
  INFO("drift " << drift << " m, rotation drift " << rot << "; PGS iterations max " << r.pgs.max_iterations
                << ", mean " << double(r.pgs.total_iterations) / r.result.stats.steps << ", max residual "
                << r.pgs.max_residual);
  CHECK(drift < 1e-6);
  CHECK(rot < 1e-6);
  CHECK(r.pgs.max_contacts == 4);
}

TEST_CASE("A stack of ten boxes stays at rest over 10 s: drift and penetration", "[validation][contact][impulse]") {
  // validation::models::BoxStack(10): boxes 0.2 × 0.2 × 0.1 m, 1 kg, μ = 0.5, each face on face
  // on the one below (box–box manifolds of four clipped points), the bottom one on the floor.
  // Closed form: nothing moves. With the stepper's defaults (h = 1 ms) every box must stay
  // within the split impulse's slop (1e-4 m, the position error the stepper leaves uncorrected by
  // design) of its start over 10 s, turn by less than 1e-4 rad, and no box may sink into the one
  // below (or the floor) by more than the slop. The penetration is measured from the poses: the
  // depth of a box's lowest corner below the top face of the box under it (below z = 0 for the
  // bottom box).
  const FrictionModel fm = GENERATE(FrictionModel::Pyramid, FrictionModel::Cone);
  CAPTURE(fm == FrictionModel::Cone ? "cone" : "pyramid");
  const int n = 10;
  const double a = 0.2, hz = a / 4, slop = ImpulseOptions{}.slop;
  const System s = validation::models::BoxStack(n, a);
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 10;
  o.output_every = 1e-2;
  o.friction = fm;
  double drift = 0, turn = 0, pen = 0, speed_end = 0;
  int drift_box = -1;
  const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    for (int k = 0; k < n; ++k) {
      const double d = (ne.com_position(k, st.q) - ne.com_position(k, q0)).norm();
      if (d > drift) {
        drift = d;
        drift_box = k;
      }
      const Mat3 dR = ne.rotation(k, st.q) * ne.rotation(k, q0).transpose();
      turn = std::max(turn, std::acos(std::clamp(0.5 * (dR.trace() - 1), -1.0, 1.0)));
      // lowest corner of box k along the normal of the face below it
      const Mat3 R = ne.rotation(k, st.q);
      const Vec3 c = ne.com_position(k, st.q);
      Vec3 nrm = Vec3::UnitZ();
      double face = 0;
      if (k > 0) {
        nrm = ne.rotation(k - 1, st.q).col(2);
        face = nrm.dot(ne.com_position(k - 1, st.q)) + hz;
      }
      const double lowest = nrm.dot(c) - (a / 2 * std::abs(nrm.dot(R.col(0))) + a / 2 * std::abs(nrm.dot(R.col(1))) +
                                          hz * std::abs(nrm.dot(R.col(2))));
      pen = std::max(pen, face - lowest);
    }
    speed_end = 0;
    for (int k = 0; k < n; ++k) speed_end = std::max(speed_end, ne.com_velocity(k, st.v).norm());
    return true;
  });
  REQUIRE(r.ok());
  INFO("over 10 s: largest displacement " << drift << " m (box " << drift_box << "), largest turn " << turn
                                          << " rad, deepest penetration " << pen << " m; largest speed at 10 s "
                                          << speed_end << " m/s; contacts per step at most " << r.pgs.max_contacts);
  CHECK(drift < slop);
  CHECK(turn < 1e-4);
  CHECK(pen < slop);
  CHECK(speed_end < 1e-6);
}

TEST_CASE("Newton's cradle passes the momentum through the row", "[validation][contact][impulse]") {
  // As in a real cradle the balls hang with small gaps (0.5 mm here), so the impacts follow one
  // another; with exactly touching balls all contacts of the row are active in the same step and
  // a simultaneous solve spreads the momentum (the known limit of simultaneous impulse methods).
  const double rad = 0.05, v0 = 1.0, gap = 5e-4;
  const int n = 5;
  System s;  // no gravity: the balls hang on strings in reality; here they float
  for (int i = 0; i < n; ++i) {
    s.add_body(sphere_body("ball" + std::to_string(i), 0.2, rad, Vec3((2 * rad + gap) * i, 0, 0),
                           i == 0 ? Vec3(v0, 0, 0) : Vec3::Zero()));
    s.add_contact(make_sphere("ball" + std::to_string(i), "ball" + std::to_string(i), rad, 0.0, 1.0));
  }
  NewtonEulerSystem ne(s);
  VecX q0, v0v;
  ne.initial_state(q0, v0v);
  ImpulseOptions o;
  o.step = 1e-4;
  o.t_end = 0.2;
  o.restitution_threshold = 1e-6;
  VecX vf;
  const ImpulseResult r = solve_impulse(ne, 0, q0, v0v, o, [&](const StateView& st) {
    vf = st.v;
    return true;
  });
  REQUIRE(r.ok());
  std::string speeds;
  for (int i = 0; i < n; ++i) speeds += std::to_string(vf[6 * i]) + " ";
  INFO("final speeds " << speeds);
  for (int i = 0; i < n - 1; ++i) CHECK(std::abs(vf[6 * i]) < 1e-6);
  CHECK(std::abs(vf[6 * (n - 1)] - v0) < 1e-6);
  CHECK(ne.linear_momentum(vf).x() == Approx(0.2 * v0).epsilon(1e-12));
}

TEST_CASE("Rolling resistance: a rolling sphere decelerates at 5 mu_r g / 7 and stops at 7 v0 / (5 mu_r g)",
          "[validation][contact][impulse]") {
  // A sphere (I = 2/5 m r²) rolling without slip with a resisting torque M = μ_r r m g about the
  // contact: m v̇ = F, I ω̇ = −r F − M, v = r ω give v̇ = −M r / (I + m r²) = −(5/7) μ_r g (a
  // friction force of (5/7) μ_r m g ≤ μ m g keeps it rolling), so it stops at t_s = 7 v0 / (5 μ_r g)
  // after v0² / (2 · (5/7) μ_r g), and stays at rest.
  const double v0 = 1.0, mu = 0.5, mur = 0.02, r = 0.1;
  const double a = 5.0 / 7.0 * mur * g, t_stop = v0 / a, x_stop = v0 * v0 / (2 * a);
  for (const double h : {2e-3, 1e-3}) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    RigidBody b = sphere_body("ball", 1.0, r, Vec3(0, 0, r), Vec3(v0, 0, 0));
    b.angular_velocity = Vec3(0, v0 / r, 0);  // rolling without slip from the start
    s.add_body(b);
    Contact ball = make_sphere("ball", "ball", r, mu);
    ball.rolling_resistance = mur;
    s.add_contact(ball);
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    const Run R = run(s, h, t_stop + 1.0);
    double t_rest = -1;
    for (size_t i = 0; i < R.t.size(); ++i) {
      const double t = R.t[i];
      if (t_rest < 0 && R.v[i][0] < 1e-12) t_rest = t;
      if (t <= t_stop - 2 * h) CHECK(std::abs(R.v[i][0] - (v0 - a * t)) < 2 * a * h);
    }
    INFO("h = " << h << ": at rest from t = " << t_rest << " s (exact " << t_stop << "), x = " << R.q.back()[0]
                << " m (exact " << x_stop << "), final speed " << R.v.back()[0]);
    CHECK(std::abs(t_rest - t_stop) <= 2 * h);
    CHECK(std::abs(R.q.back()[0] - x_stop) < 2 * v0 * h);
    CHECK(std::abs(R.v.back()[0]) < 1e-12);
    CHECK(R.v.back().segment<3>(3).norm() < 1e-10);
  }
}

TEST_CASE("Torsional friction: a spinning sphere decelerates at mu_t m g / I_z and stops at I_z w0 / (mu_t m g)",
          "[validation][contact][impulse]") {
  // A sphere resting on the floor and spinning about the vertical: the contact point is on the
  // spin axis, so the sliding friction does nothing; the torsional friction torque M = μ_t m g
  // (μ_t a length, model/Contact.h) gives I_z ω̇ = −M, ω = ω0 − (μ_t m g / I_z) t until it stops
  // at t_s = I_z ω0 / (μ_t m g), after turning ω0² / (2 α); then it stays at rest. A torque T about
  // the vertical below M leaves it at rest; above M it spins up at (T − M) / I_z. On the impulse
  // stepper the bound is h μ_t λ_n per step with λ_n = m g h: ω falls by exactly α h a step.
  const double m = 1.0, r = 0.1, w0 = 10.0, mut = 0.005, mu = 0.5;
  const double Iz = 0.4 * m * r * r, M = mut * m * g, alpha = M / Iz, t_stop = w0 / alpha;
  auto model = [&](double spin, double torque) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    RigidBody b = sphere_body("ball", m, r, Vec3(0, 0, r), Vec3::Zero());
    b.angular_velocity = Vec3(0, 0, spin);
    s.add_body(b);
    Contact ball = make_sphere("ball", "ball", r, mu);
    ball.torsional_friction = mut;
    s.add_contact(ball);
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
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
  for (const double h : {2e-3, 1e-3}) {
    const Run R = run(model(w0, 0), h, t_stop + 0.5);
    double t_rest = -1;
    for (size_t i = 0; i < R.t.size(); ++i) {
      const double t = R.t[i];
      if (t_rest < 0 && R.v[i][5] < 1e-12) t_rest = t;
      if (t <= t_stop - 2 * h) CHECK(std::abs(R.v[i][5] - (w0 - alpha * t)) < 2 * alpha * h);
    }
    INFO("h = " << h << ": at rest from t = " << t_rest << " s (exact " << t_stop << "), final spin "
                << R.v.back()[5] << " rad/s, final position " << R.q.back().head<3>().transpose());
    CHECK(std::abs(t_rest - t_stop) <= 2 * h);
    CHECK(R.v.back().norm() < 1e-10);
    CHECK((R.q.back().head<3>() - Vec3(0, 0, r)).norm() < 1e-9);  // spins in place
    // A torque of half the bound: at rest throughout; twice the bound: spins up at (T − M) / I_z.
    const Run S = run(model(0, 0.5 * M), h, 1.0);
    double wmax = 0;
    for (const VecX& v : S.v) wmax = std::max(wmax, v.norm());
    INFO("torque M/2: largest speed " << wmax);
    CHECK(wmax < 1e-12);
    const Run D = run(model(0, 2 * M), h, 1.0);
    INFO("torque 2 M: spin " << D.v.back()[5] << " rad/s at 1 s, exact " << M / Iz);
    CHECK(std::abs(D.v.back()[5] - M / Iz) < 1e-9 * M / Iz);
  }
}

TEST_CASE("Torsional and rolling friction off (the default) leave a spinning, rolling sphere free",
          "[validation][contact][impulse]") {
  // Without μ_t and μ_r a sphere rolling on the floor while spinning about the vertical keeps both
  // motions (no torque acts about the contact point): the new rows stay out of the step.
  const double r = 0.1, v0 = 1.0, wz = 5.0;
  System s;
  s.gravity = Vec3(0, 0, -g);
  RigidBody b = sphere_body("ball", 1.0, r, Vec3(0, 0, r), Vec3(v0, 0, 0));
  b.angular_velocity = Vec3(0, v0 / r, wz);
  s.add_body(b);
  s.add_contact(make_sphere("ball", "ball", r, 0.5));
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
  NewtonEulerSystem ne(s);
  VecX q0, v0v;
  ne.initial_state(q0, v0v);
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 1.0;
  o.output_every = 1.0;
  VecX vf, qf;
  REQUIRE(solve_impulse(ne, 0, q0, v0v, o, [&](const StateView& st) {
            vf = st.v;
            qf = st.q;
            return true;
          }).ok());
  const Vec3 w = ne.angular_velocity_world(0, qf, vf);
  INFO("speed " << vf[0] << ", spin " << w.transpose());
  CHECK(std::abs(vf[0] - v0) < 1e-9);
  CHECK(std::abs(w.y() - v0 / r) < 1e-9);
  CHECK(std::abs(w.z() - wz) < 1e-9);
}

TEST_CASE("Warm start: a resting stack keeps its impulses from step to step", "[contact][impulse]") {
  // Ten spheres stacked on the floor, touching (d = 0). Once the impulses are found, the warm start
  // (matched per contact from the previous step) is already the solution: one sweep per step,
  // where a cold start needs many (the support of the top sphere reaches the floor one contact per
  // sweep at best). The normal impulses equal the weight above each contact, so nothing moves.
  const double r = 0.1;
  const int n = 10;
  System s;
  s.gravity = Vec3(0, 0, -g);
  for (int i = 0; i < n; ++i) {
    const std::string name = "s" + std::to_string(i);
    s.add_body(sphere_body(name, 1.0, r, Vec3(0, 0, r + 2 * r * i), Vec3::Zero()));
    s.add_contact(make_sphere(name, name, r, 0.5));
  }
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
  auto sweeps_after = [&](bool warm, double t_from) {
    ImpulseOptions o;
    o.warm_start = warm;
    o.pgs_tolerance = 1e-9;
    o.pgs_max_iterations = 1000;
    const Run R = run(s, 1e-3, 1.0, o);
    long sweeps = 0, steps = 0;
    for (const PgsStepStats& p : R.r.pgs.per_step)
      if (p.t > t_from) {
        sweeps += p.iterations;
        ++steps;
        CHECK(p.contacts == n);
        CHECK(p.residual <= 1e-9);
      }
    const double top = R.q.back()[7 * (n - 1) + 2];
    CHECK(std::abs(top - (r + 2 * r * (n - 1))) < 1e-6);  // the stack neither sinks nor jumps
    return double(sweeps) / double(steps);
  };
  const double warm = sweeps_after(true, 0.5), cold = sweeps_after(false, 0.5);
  INFO("mean PGS sweeps per step over the last 0.5 s: warm start " << warm << ", cold start " << cold);
  CHECK(warm <= 2.0);
  CHECK(cold >= 5 * warm);
}

// Force elements on the impulse stepper (applied explicitly at the start of each step, like
// gravity): a free damped oscillator against its closed form, and a ball pressed onto the floor
// by a compressed spring, which must stay where it is.
TEST_CASE("Impulse stepper applies spring-dampers: damped oscillation (closed form, first order)",
          "[validation][contact][impulse][forces]") {
  const double m = 1.0, k = 100.0, c = 2.0, L0 = 1.0, u0 = 0.1, T = 1.0;
  const double w = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m)), wd = w * std::sqrt(1 - zeta * zeta);
  auto exact = [&](double t) {  // extension u(t), u(0) = u0, u'(0) = 0
    return u0 * std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t));
  };
  const double steps[3] = {1e-3, 5e-4, 2.5e-4};
  double err[3] = {0, 0, 0};
  for (int s = 0; s < 3; ++s) {
    System sys;
    sys.gravity = Vec3::Zero();
    sys.add_body(sphere_body("ball", m, 0.1, Vec3(L0 + u0, 0, 0), Vec3::Zero()));
    sys.add_spring_damper("spring", "ground", "ball", Vec3::Zero(), Vec3(L0 + u0, 0, 0), k, c, L0);
    const Run out = run(sys, steps[s], T);
    for (size_t i = 0; i < out.t.size(); ++i)
      err[s] = std::max(err[s], std::abs(out.q[i][0] - L0 - exact(out.t[i])));
  }
  INFO("max |x - x_exact| over 1 s: " << err[0] << ", " << err[1] << ", " << err[2]
                                      << " m; order " << order(err[0], err[1]) << ", " << order(err[1], err[2]));
  // Symplectic Euler on the oscillator (ω = 10 rad/s): its frequency is second-order accurate,
  // the positions carry an O(h) offset of about ½ ω u0 h (5e-4 m at h = 1e-3). The error must
  // shrink at first order and stay below twice that estimate (ω u0 h) at h/4.
  CHECK(err[2] / err[0] < 0.35);
  CHECK(err[2] < w * u0 * steps[2]);
}

TEST_CASE("Impulse stepper: a ball pressed onto the floor by a compressed spring stays at rest",
          "[validation][contact][impulse][forces]") {
  const double r = 0.1, k = 100.0, L0 = 1.2;  // anchor 0.9 m above the centre: 0.3 m compressed
  System sys;
  sys.gravity = Vec3(0, 0, -g);
  sys.add_body(sphere_body("ball", 1.0, r, Vec3(0, 0, r), Vec3::Zero()));
  sys.add_contact(make_sphere("ball", "ball", r, 0.5));
  sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
  sys.add_spring_damper("spring", "ground", "ball", Vec3(0, 0, 1.0), Vec3(0, 0, r), k, 1.0, L0);
  const Run out = run(sys, 1e-3, 1.0);
  double drift = 0;
  for (const VecX& q : out.q) drift = std::max(drift, (q.head<3>() - Vec3(0, 0, r)).norm());
  INFO("max COM drift " << drift << " m");
  CHECK(drift < 1e-6);
  // Without the floor the same spring and gravity move the ball down: 39.81 N on 1 kg.
  System free_sys = sys;
  free_sys.contacts().clear();
  const Run fall = run(free_sys, 1e-3, 0.05);
  const double dz = fall.q.back()[2] - r;
  INFO("free fall with the spring after 0.05 s: " << dz << " m (about -0.5 * 39.81 * 0.05^2 = -0.0498)");
  CHECK(dz < -0.04);
  CHECK(dz > -0.06);
}
