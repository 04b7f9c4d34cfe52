#include <mbdae/solvers/InitialPlacement.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include <Eigen/Geometry>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Assembly.h>

namespace mbdae {

namespace {

/// x ↦ R x + t: where a body's points go from the drawn configuration to t0 (world both).
struct Displacement {
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  Vec3 operator()(const Vec3& x) const { return R * x + t; }
  Displacement then(const Displacement& first) const { return {R * first.R, R * first.t + t}; }
  Displacement inverse() const { return {R.transpose(), -(R.transpose() * t)}; }
};

/// A body's motion at t0: its displacement and its velocity field v(x) = v_o + ω × x (x world).
struct Placed {
  Displacement D;
  Vec3 w = Vec3::Zero();
  Vec3 v_o = Vec3::Zero();
  Vec3 velocity_at(const Vec3& x) const { return v_o + w.cross(x); }
};

bool takes_rotation(JointType t) { return t == JointType::Spherical || t == JointType::Universal; }
bool takes_angle(JointType t) { return t == JointType::Revolute || t == JointType::Cylindrical; }
bool takes_displacement(JointType t) { return t == JointType::Prismatic || t == JointType::Cylindrical; }

/// The joints whose given coordinates a loop closure holds (as drive equations).
bool held_on_loops(JointType t) { return t == JointType::Revolute || t == JointType::Prismatic; }

/// The joint's relative motion from the drawn configuration (drawn world axes), its relative
/// angular velocity there (ω_b − ω_a) and its sliding speed along the axis.
struct RelativeMotion {
  Displacement M;
  Vec3 w = Vec3::Zero();
  Vec3 e = Vec3::UnitZ();  ///< unit axis (drawn)
  double slide = 0, speed = 0;
};

RelativeMotion relative_motion(const Joint& j) {
  RelativeMotion r;
  if (!j.initial) return r;
  const JointInitial& in = *j.initial;
  r.e = j.axis.normalized();
  Mat3 Rr = Mat3::Identity();
  if (takes_angle(j.type)) {
    Rr = Eigen::AngleAxisd(in.angle, r.e).toRotationMatrix();
    r.w = in.rate * r.e;
  } else if (takes_rotation(j.type)) {
    Rr = in.rotation;
    r.w = in.angular_velocity;
  }
  if (takes_displacement(j.type)) {
    r.slide = in.displacement;
    r.speed = in.speed;
  }
  // Rotation about the joint point, then the slide along the axis.
  r.M = {Rr, j.point - Rr * j.point + r.slide * r.e};
  return r;
}

/// Union–find over the body nodes (ground is node nb).
struct Sets {
  std::vector<int> parent;
  explicit Sets(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[static_cast<size_t>(x)] != x) x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  }
  bool unite(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent[static_cast<size_t>(a)] = b;
    return true;
  }
};

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", '" : "'") + names[k] + "'";
  return s;
}

std::string num(double x) {
  std::ostringstream s;
  s.precision(3);
  s << x;
  return s.str();
}

}  // namespace

bool takes_initial_coordinates(JointType t) { return takes_rotation(t) || takes_angle(t) || takes_displacement(t); }

PlacementReport place_from_joint_coordinates(System& sys, const PlacementOptions& opt) {
  PlacementReport rep;
  const auto& joints = sys.joints();
  if (std::none_of(joints.begin(), joints.end(), [](const Joint& j) { return j.initial.has_value(); })) return rep;
  rep.placed = true;
  sys.validate();

  // ---- the initial coordinates themselves
  std::vector<ModelProblem> problems;
  for (size_t k = 0; k < joints.size(); ++k) {
    const Joint& j = joints[k];
    if (!j.initial) continue;
    const ItemRef item = ItemRef::joint(static_cast<int>(k));
    const std::string who = "joint '" + j.name + "': ";
    const JointInitial& in = *j.initial;
    if (!takes_initial_coordinates(j.type)) {
      problems.push_back({who + "a " + to_string(j.type) +
                              " joint takes no initial coordinates (revolute, prismatic, cylindrical, spherical and "
                              "universal joints do)",
                          item});
      continue;
    }
    if (j.motion || j.speed) {
      problems.push_back({who + "initial coordinates and a " + std::string(j.motion ? "motion" : "speed") +
                              " both set its coordinate at t0; give one",
                          item});
      continue;
    }
    if (!std::isfinite(in.angle) || !std::isfinite(in.rate) || !std::isfinite(in.displacement) ||
        !std::isfinite(in.speed) || !in.rotation.allFinite() || !in.angular_velocity.allFinite()) {
      problems.push_back({who + "initial coordinates must be finite", item});
      continue;
    }
    if (takes_rotation(j.type)) {
      const double orth = (in.rotation.transpose() * in.rotation - Mat3::Identity()).cwiseAbs().maxCoeff();
      if (orth > 1e-9 || std::abs(in.rotation.determinant() - 1) > 1e-9) {
        problems.push_back({who + "the initial rotation is not a rotation (|RᵀR − I| = " + num(orth) +
                                ", det R = " + num(in.rotation.determinant()) + ")",
                            item});
        continue;
      }
      if (j.type == JointType::Universal) {
        const Vec3 a = j.axis.normalized(), b = j.axis_b.normalized();
        const double change = std::abs(a.dot(in.rotation * b) - a.dot(b));
        if (change > 1e-9)
          problems.push_back({who + "the initial rotation changes the angle between axis and axis_b (cos by " +
                                  num(change) + "); a universal joint keeps it",
                              item});
        const double wz = std::abs(in.angular_velocity.dot(a.cross(in.rotation * b)));
        if (wz > 1e-9 * std::max(1.0, in.angular_velocity.norm()))
          problems.push_back({who + "the initial angular velocity turns axis_b about the cross's normal (by " +
                                  num(wz) + " rad/s); a universal joint allows turning about axis and axis_b only",
                              item});
      }
    }
  }
  if (!problems.empty()) throw ModelError(std::move(problems));

  // ---- spanning tree: joints with initial coordinates first
  const int nb = static_cast<int>(sys.bodies().size());
  const int ground = nb;
  const auto index = sys.body_indices();
  auto node = [&](const std::string& name) {
    const BodyIndex b = index.at(name);
    return b == kGround ? ground : b;
  };
  std::vector<int> order;
  for (size_t k = 0; k < joints.size(); ++k)
    if (joints[k].initial) order.push_back(static_cast<int>(k));
  for (size_t k = 0; k < joints.size(); ++k)
    if (!joints[k].initial) order.push_back(static_cast<int>(k));
  Sets sets(nb + 1);
  std::vector<std::vector<int>> adjacent(static_cast<size_t>(nb + 1));
  std::vector<int> closing;  // joints left out of the tree
  for (int k : order) {
    const Joint& j = joints[static_cast<size_t>(k)];
    const int a = node(j.bodies[0]), b = node(j.bodies[1]);
    if (sets.unite(a, b)) {
      adjacent[static_cast<size_t>(a)].push_back(k);
      adjacent[static_cast<size_t>(b)].push_back(k);
    } else {
      closing.push_back(k);
    }
  }
  // Breadth-first from the ground, then from each body not connected to it.
  std::vector<int> parent_joint(static_cast<size_t>(nb + 1), -1), parent(static_cast<size_t>(nb + 1), -1),
      depth(static_cast<size_t>(nb + 1), -1), walk;
  std::vector<char> given_path(static_cast<size_t>(nb + 1), 0);  // a joint with initial coordinates on its path
  std::vector<int> given_joint(static_cast<size_t>(nb + 1), -1);  // the nearest such joint
  std::vector<int> roots{ground};
  for (int i = 0; i < nb; ++i) roots.push_back(i);
  for (int root : roots) {
    if (depth[static_cast<size_t>(root)] >= 0) continue;
    depth[static_cast<size_t>(root)] = 0;
    std::vector<int> queue{root};
    for (size_t h = 0; h < queue.size(); ++h) {
      const int x = queue[h];
      walk.push_back(x);
      for (int k : adjacent[static_cast<size_t>(x)]) {
        const Joint& j = joints[static_cast<size_t>(k)];
        const int a = node(j.bodies[0]), b = node(j.bodies[1]);
        const int y = a == x ? b : a;
        if (depth[static_cast<size_t>(y)] >= 0) continue;
        depth[static_cast<size_t>(y)] = depth[static_cast<size_t>(x)] + 1;
        parent[static_cast<size_t>(y)] = x;
        parent_joint[static_cast<size_t>(y)] = k;
        given_path[static_cast<size_t>(y)] = given_path[static_cast<size_t>(x)] || j.initial.has_value();
        given_joint[static_cast<size_t>(y)] = j.initial ? k : given_joint[static_cast<size_t>(x)];
        queue.push_back(y);
      }
    }
  }

  // ---- the loops: each closing joint with the tree path between its bodies
  std::vector<std::vector<int>> loops;
  std::vector<char> on_loop(joints.size(), 0);
  for (int k : closing) {
    const Joint& j = joints[static_cast<size_t>(k)];
    int a = node(j.bodies[0]), b = node(j.bodies[1]);
    std::vector<int> up_a, up_b;
    while (a != b) {
      if (depth[static_cast<size_t>(a)] >= depth[static_cast<size_t>(b)]) {
        up_a.push_back(parent_joint[static_cast<size_t>(a)]);
        a = parent[static_cast<size_t>(a)];
      } else {
        up_b.push_back(parent_joint[static_cast<size_t>(b)]);
        b = parent[static_cast<size_t>(b)];
      }
    }
    std::vector<int> loop(up_a.begin(), up_a.end());
    loop.insert(loop.end(), up_b.rbegin(), up_b.rend());
    loop.push_back(k);
    // A loop without given coordinates is carried whole by the walk (both sides of it get the
    // displacement of their common ancestor): it stays closed.
    if (std::none_of(loop.begin(), loop.end(), [&](int x) { return joints[static_cast<size_t>(x)].initial.has_value(); }))
      continue;
    for (int x : loop) on_loop[static_cast<size_t>(x)] = 1;
    std::vector<std::string> names;
    for (int x : loop) names.push_back(joints[static_cast<size_t>(x)].name);
    rep.loops.push_back(names);
    loops.push_back(std::move(loop));
  }
  for (size_t k = 0; k < joints.size(); ++k)
    if (on_loop[k] && joints[k].initial && !held_on_loops(joints[k].type))
      problems.push_back({"joint '" + joints[k].name + "': initial coordinates of a " + to_string(joints[k].type) +
                              " joint on a closed loop are not supported (only revolute and prismatic coordinates "
                              "are held by the loop closure); give them on a joint off the loop",
                          ItemRef::joint(static_cast<int>(k))});
  if (!problems.empty()) throw ModelError(std::move(problems));

  // ---- the walk
  std::vector<Placed> drawn(static_cast<size_t>(nb + 1));  // each body's own state, D = identity
  for (int i = 0; i < nb; ++i) {
    const RigidBody& rb = sys.bodies()[static_cast<size_t>(i)];
    drawn[static_cast<size_t>(i)].w = rb.angular_velocity;
    drawn[static_cast<size_t>(i)].v_o = rb.velocity - rb.angular_velocity.cross(rb.position);
  }
  // Body y's motion from its parent's, through tree joint k.
  auto through = [&](const Placed& from, int x, int k) {
    const Joint& j = joints[static_cast<size_t>(k)];
    const RelativeMotion r = relative_motion(j);
    const bool forward = node(j.bodies[0]) == x;  // x is body a
    Placed p;
    const Displacement Da = forward ? from.D : from.D.then(r.M.inverse());
    p.D = forward ? from.D.then(r.M) : Da;
    const Vec3 e = Da.R * r.e, w = Da.R * r.w, on_line = Da(j.point + r.slide * r.e);
    const double s = forward ? 1.0 : -1.0;
    p.w = from.w + s * w;
    p.v_o = from.v_o + s * (-w.cross(on_line) + r.speed * e);
    return p;
  };
  std::vector<Placed> placed = drawn;
  for (int y : walk) {
    const int x = parent[static_cast<size_t>(y)];
    if (x < 0 || !given_path[static_cast<size_t>(y)]) continue;
    placed[static_cast<size_t>(y)] = through(placed[static_cast<size_t>(x)], x, parent_joint[static_cast<size_t>(y)]);
  }
  std::vector<char> moved_body(static_cast<size_t>(nb + 1), 0);
  for (int i = 0; i < nb; ++i) moved_body[static_cast<size_t>(i)] = given_path[static_cast<size_t>(i)];

  // ---- closing the loops
  if (!loops.empty()) {
    // The bodies and joints alone, drawn. A given revolute or prismatic coordinate becomes a drive
    // whose "time" is the continuation parameter τ: value τ x0 (0 drawn, x0 at τ = 1), rate r0.
    // The drawn configuration is closed, and the closure follows the given coordinates from it in
    // steps, so the loops stay in the assembly mode they are drawn in.
    System ref;
    ref.gravity = sys.gravity;
    for (const RigidBody& b : sys.bodies()) ref.add_body(b);
    double largest_angle = 0, largest_slide = 0, size = 1e-3;
    for (const Joint& j : joints) {
      Joint c = j;
      if (c.initial && held_on_loops(c.type)) {
        const bool turn = c.type == JointType::Revolute;
        const double x0 = turn ? c.initial->angle : c.initial->displacement;
        const double r0 = turn ? c.initial->rate : c.initial->speed;
        (turn ? largest_angle : largest_slide) = std::max(turn ? largest_angle : largest_slide, std::abs(x0));
        c.motion.value = [x0](double tau) { return tau * x0; };
        c.motion.velocity = [r0](double) { return r0; };
        c.motion.acceleration = [](double) { return 0.0; };
      }
      c.initial.reset();
      ref.add_joint(std::move(c));
    }
    for (const auto& lp : loops)
      for (int k : lp) size = std::max(size, (joints[static_cast<size_t>(k)].point - joints[static_cast<size_t>(lp.front())].point).norm());
    // At most 0.1 rad and 5 % of the loops' size per step.
    const int steps = static_cast<int>(std::clamp(std::ceil(std::max(largest_angle / 0.1, largest_slide / (0.05 * size))), 1.0, 2000.0));

    // A state in `ref`'s coordinates: its bodies at the poses and velocity fields given.
    auto state_of = [&](const std::vector<Placed>& at, VecX& q, VecX& v) {
      System s;
      for (int i = 0; i < nb; ++i) {
        RigidBody b = sys.bodies()[static_cast<size_t>(i)];
        const Placed& p = at[static_cast<size_t>(i)];
        b.position = p.D(b.position);
        b.orientation = p.D.R * b.orientation;
        b.angular_velocity = p.w;
        b.velocity = p.velocity_at(b.position);
        s.add_body(b);
      }
      const MultibodySystem ms(s);
      q.resize(ms.num_coordinates());
      v.resize(ms.num_coordinates());
      ms.initial_state(q, v);
    };
    MultibodySystem full(ref);
    const int n = full.num_coordinates();
    VecX q(n), v(n), q_walk, v_walk;
    full.initial_state(q, v);
    state_of(placed, q_walk, v_walk);
    if (q_walk.size() != n) throw std::logic_error("place_from_joint_coordinates: the coordinate layouts differ");
    const RedundancyReport red = find_redundant_constraints(full, 0.0, q);
    MultibodyOptions mo;
    mo.disabled_rows = red.dependent_rows;
    const MultibodySystem sysA(ref, mo);
    {
      VecX c(sysA.num_constraints()), cv(sysA.num_constraints());
      MultibodySystem::Workspace ws = sysA.make_workspace();
      sysA.constraints(ws, 1.0, q_walk, c);
      sysA.constraint_velocity(ws, 1.0, q_walk, v_walk, cv);
      rep.position_residual_before = c.size() ? c.cwiseAbs().maxCoeff() : 0.0;
      rep.velocity_residual_before = cv.size() ? cv.cwiseAbs().maxCoeff() : 0.0;
    }
    AssemblyOptions ao;
    ao.tolerance = opt.tolerance;
    ao.max_iterations = opt.max_iterations;
    ao.mass_weighted_positions = true;

    // The loop a joint belongs to; a failure names the loop's joints.
    auto loop_of_joint = [&](int joint) -> int {
      for (size_t l = 0; l < loops.size(); ++l)
        if (std::find(loops[l].begin(), loops[l].end(), joint) != loops[l].end()) return static_cast<int>(l);
      return loops.size() == 1 ? 0 : -1;
    };
    auto fail = [&](int joint, const std::string& what) {
      const int l = joint >= 0 ? loop_of_joint(joint) : -1;
      std::vector<std::string> names;
      if (l >= 0) names = rep.loops[static_cast<size_t>(l)];
      else
        for (const auto& lp : rep.loops) names.insert(names.end(), lp.begin(), lp.end());
      const int first = l >= 0 ? loops[static_cast<size_t>(l)].front() : loops.front().front();
      throw ItemError("the loop of joints " + quoted_list(names) + " cannot close at the given joint coordinates: " +
                          what,
                      ItemRef::joint(first));
    };
    auto worst_joint = [&](const AssemblyReport& ar) {
      const ItemRef it = ar.worst_row >= 0 ? sysA.constraint_item(ar.worst_row) : ItemRef{};
      return it.kind == ItemRef::Kind::Joint ? it.index : -1;
    };
    for (int k = 1; k <= steps; ++k) {
      const double tau = static_cast<double>(k) / steps;
      AssemblyOptions step = ao;
      if (k < steps) step.tolerance = std::max(ao.tolerance, 1e-10);
      VecX v_any = VecX::Zero(n);
      const AssemblyReport ar = assemble_initial_state(sysA, tau, q, v_any, step);
      rep.iterations += ar.iterations;
      rep.position_residual_after = ar.position_violation_after;
      if (ar.position_violation_after > step.tolerance) {
        // Name the worst joint equation (a failed Newton also leaves the Euler-parameter norms off).
        VecX c(sysA.num_constraints());
        MultibodySystem::Workspace ws = sysA.make_workspace();
        sysA.constraints(ws, tau, q, c);
        int row = ar.worst_row;
        for (int r = 0; r < c.size(); ++r)
          if (sysA.constraint_item(r).kind == ItemRef::Kind::Joint &&
              (row < 0 || sysA.constraint_item(row).kind != ItemRef::Kind::Joint || std::abs(c[r]) > std::abs(c[row])))
            row = r;
        const ItemRef it = row >= 0 ? sysA.constraint_item(row) : ItemRef{};
        fail(it.kind == ItemRef::Kind::Joint ? it.index : -1,
             "the joint equations keep a residual ‖C‖∞ = " + num(ar.position_violation_after) + " (m, rad) after " +
                 std::to_string(ar.iterations) + " Newton iterations" +
                 (steps > 1 ? " at " + num(100.0 * tau) + " % of the way from the drawn configuration to the given coordinates" : std::string()) +
                 (row >= 0 ? ", worst joint equation " + sysA.constraint_label(row) + " = " + num(c[row]) : std::string()) +
                 " (coordinates inconsistent with each other, or outside the mechanism's reach)");
      }
    }
    // Velocities: the walk's velocity fields at the closed poses, then the least kinetic-energy
    // change that satisfies the velocity equations with the given rates.
    {
      std::vector<Placed> closed = placed;
      for (int i = 0; i < nb; ++i) {
        const RigidBody& rb = sys.bodies()[static_cast<size_t>(i)];
        Placed& p = closed[static_cast<size_t>(i)];
        p.D.R = sysA.rotation(i, q) * rb.orientation.transpose();
        p.D.t = sysA.position(i, q) - p.D.R * rb.position;
      }
      // (the same poses; the rotation coordinates as the formulation sets them up)
      state_of(closed, q, v);
    }
    const AssemblyReport ar = assemble_initial_state(sysA, 1.0, q, v, ao);
    rep.velocity_residual_after = ar.velocity_violation_after;
    if (!ar.converged)
      fail(worst_joint(ar), "the velocity equations keep a residual ‖Ċ‖∞ = " + num(ar.velocity_violation_after) +
                                " (m/s, rad/s), worst in " +
                                (ar.worst_row >= 0 ? sysA.constraint_label(ar.worst_row) : std::string("?")) +
                                " (given rates inconsistent with each other, or a singular position)");
    // The equations left out as dependent must hold where the others do; else the given
    // coordinates contradict each other.
    if (!red.dependent_rows.empty()) {
      const int m = full.num_constraints();
      VecX c(m), cv(m);
      MultibodySystem::Workspace ws = full.make_workspace();
      full.constraints(ws, 1.0, q, c);
      full.constraint_velocity(ws, 1.0, q, v, cv);
      const double vs = std::max(1.0, v.cwiseAbs().maxCoeff());
      for (int r : red.dependent_rows) {
        const ItemRef it = full.all_row_item(r);
        const int joint = it.kind == ItemRef::Kind::Joint ? it.index : -1;
        if (std::abs(c[r]) > 1e3 * opt.tolerance)
          fail(joint, "the given coordinates contradict each other: " + full.all_row_label(r) + " keeps a residual " +
                          num(c[r]) + " (m, rad) where the other equations hold");
        if (std::abs(cv[r]) > 1e3 * opt.tolerance * vs)
          fail(joint, "the given rates contradict each other: " + full.all_row_label(r) + " keeps a residual " +
                          num(cv[r]) + " (m/s, rad/s) where the other equations hold");
      }
    }
    // The bodies of the loops where the closure put them; the others walked from them again.
    std::vector<char> loop_body(static_cast<size_t>(nb + 1), 0);
    for (const auto& lp : loops) {
      const int first_given = *std::find_if(lp.begin(), lp.end(), [&](int k) { return joints[static_cast<size_t>(k)].initial.has_value(); });
      for (int k : lp)
        for (const std::string& b : joints[static_cast<size_t>(k)].bodies)
          if (const int x = node(b); x != ground) {
            loop_body[static_cast<size_t>(x)] = 1;
            if (given_joint[static_cast<size_t>(x)] < 0) given_joint[static_cast<size_t>(x)] = first_given;
          }
    }
    for (int i = 0; i < nb; ++i) {
      if (!loop_body[static_cast<size_t>(i)]) continue;
      const RigidBody& rb = sys.bodies()[static_cast<size_t>(i)];
      Placed p;
      const Vec3 pos = sysA.position(i, q);
      const Mat3 R = sysA.rotation(i, q);
      p.D.R = R * rb.orientation.transpose();
      p.D.t = pos - p.D.R * rb.position;
      p.w = sysA.angular_velocity(i, q, v);
      p.v_o = sysA.velocity(i, q, v) - p.w.cross(pos);
      const Placed& before = placed[static_cast<size_t>(i)];
      BodyMove mv;
      mv.body = rb.name;
      mv.translation = (pos - before.D(rb.position)).norm();
      mv.rotation = math::so3_log(p.D.R * before.D.R.transpose()).norm();
      mv.velocity = (p.velocity_at(pos) - before.velocity_at(pos)).norm();
      mv.angular_velocity = (p.w - before.w).norm();
      rep.moved.push_back(mv);
      placed[static_cast<size_t>(i)] = p;
      moved_body[static_cast<size_t>(i)] = 1;
    }
    for (int y : walk) {
      const int x = parent[static_cast<size_t>(y)];
      if (x < 0 || loop_body[static_cast<size_t>(y)] || !moved_body[static_cast<size_t>(x)]) continue;
      placed[static_cast<size_t>(y)] = through(placed[static_cast<size_t>(x)], x, parent_joint[static_cast<size_t>(y)]);
      moved_body[static_cast<size_t>(y)] = 1;
      if (given_joint[static_cast<size_t>(y)] < 0) given_joint[static_cast<size_t>(y)] = given_joint[static_cast<size_t>(x)];
    }
  }

  // ---- the placed System: bodies, and every world point and axis carried with its body
  std::vector<Displacement> D(static_cast<size_t>(nb + 1));
  for (int i = 0; i < nb; ++i) {
    if (!moved_body[static_cast<size_t>(i)]) continue;
    ++rep.bodies_placed;
    rep.bodies.push_back({i, given_joint[static_cast<size_t>(i)]});
    const Placed& p = placed[static_cast<size_t>(i)];
    D[static_cast<size_t>(i)] = p.D;
    RigidBody& rb = sys.bodies()[static_cast<size_t>(i)];
    rb.position = p.D(rb.position);
    rb.orientation = p.D.R * rb.orientation;
    rb.angular_velocity = p.w;
    rb.velocity = p.velocity_at(rb.position);
  }
  for (Joint& j : sys.joints()) {
    const Displacement& Da = D[static_cast<size_t>(node(j.bodies[0]))];
    const Displacement& Db = D[static_cast<size_t>(node(j.bodies[1]))];
    j.point = Da(j.point);
    j.axis = Da.R * j.axis;
    // A generic joint without a frame has world axes where it is drawn: they turn with body a.
    if (j.frame || (j.type == JointType::Generic && Da.R != Mat3::Identity()))
      j.frame = Da.R * j.frame.value_or(Mat3::Identity());
    j.point_b = Db(j.point_b);
    j.axis_b = Db.R * j.axis_b;
  }
  for (ForceElement& f : sys.forces()) {
    // The pairwise elements: point, axis and frame on body a, point_b on body b.
    if (f.bodies.size() != 2 || !index.count(f.bodies[0]) || !index.count(f.bodies[1])) continue;
    const Displacement& Da = D[static_cast<size_t>(node(f.bodies[0]))];
    const Displacement& Db = D[static_cast<size_t>(node(f.bodies[1]))];
    f.point = Da(f.point);
    f.axis = Da.R * f.axis;
    if (f.frame || (f.type == ForceType::RigidBodySpringDamper && Da.R != Mat3::Identity()))
      f.frame = Da.R * f.frame.value_or(Mat3::Identity());
    f.point_b = Db(f.point_b);
  }
  return rep;
}

std::vector<std::string> describe(const PlacementReport& r) {
  std::vector<std::string> lines;
  if (!r.placed) return lines;
  lines.push_back("placed " + std::to_string(r.bodies_placed) + " bod" + (r.bodies_placed == 1 ? "y" : "ies") +
                  " from joint coordinates");
  for (const auto& loop : r.loops) lines.push_back("closed the loop of joints " + quoted_list(loop));
  if (!r.loops.empty()) {
    lines.push_back("positions: " + std::to_string(r.iterations) + " Newton iteration" + (r.iterations == 1 ? "" : "s") +
                    ", ‖C‖∞ " + num(r.position_residual_before) + " -> " + num(r.position_residual_after) +
                    "; velocities: ‖Ċ‖∞ " + num(r.velocity_residual_before) + " -> " + num(r.velocity_residual_after));
    for (const BodyMove& m : r.moved)
      lines.push_back("moved " + m.body + " by " + num(m.translation) + " m, " + num(m.rotation) + " rad; its velocity by " +
                      num(m.velocity) + " m/s, " + num(m.angular_velocity) + " rad/s");
  }
  return lines;
}

}  // namespace mbdae
