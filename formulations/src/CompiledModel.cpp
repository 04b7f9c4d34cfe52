// The compiled model (CompiledModel.h): the tables every formulation reads, derived once.

#include <mbdae/formulations/CompiledModel.h>

#include <algorithm>

#include <Eigen/LU>

#include "ForceKernels.h"
#include "JointKernels.h"

namespace mbdae {

namespace {
CompiledModel::Body compile_body(const RigidBody& rb) {
  CompiledModel::Body b;
  b.name = rb.name;
  b.rotation = rb.rotation;
  b.mass = rb.mass;
  b.inertia_ref = rb.inertia_tensor();
  b.com = rb.com;
  // Inertia about the COM from the one about the reference point (parallel axes).
  b.inertia_com = b.inertia_ref - rb.mass * (rb.com.squaredNorm() * Mat3::Identity() - rb.com * rb.com.transpose());
  b.inertia_com_inv = b.inertia_com.inverse();
  return b;
}
}  // namespace

CompiledModel::CompiledModel(const System& system) : system_(system) {
  system_.validate();
  const System& s = system_;
  for (const RigidBody& rb : s.bodies()) bodies_.push_back(compile_body(rb));
  for (size_t li = 0; li < s.loads().size(); ++li) {
    const BodyIndex bi = s.body_index(s.loads()[li].body);
    if (bi != kGround) bodies_[static_cast<size_t>(bi)].loads.push_back(static_cast<int>(li));
  }
  const std::unordered_map<std::string, BodyIndex> indices = s.body_indices();
  auto index_of = [&](const std::string& n) {  // body_index() names an unknown body
    const auto it = indices.find(n);
    return it != indices.end() ? it->second : s.body_index(n);
  };
  auto com0 = [&](BodyIndex i, Mat3& R, Vec3& p) {
    if (i == kGround) {
      R.setIdentity();
      p.setZero();
      return;
    }
    const RigidBody& rb = s.bodies()[static_cast<size_t>(i)];
    R = rb.orientation;
    p = rb.position + R * rb.com;
  };
  for (size_t ji = 0; ji < s.joints().size(); ++ji) {
    const mbdae::Joint& j = s.joints()[ji];
    Joint jd;
    jd.name = j.name;
    jd.type = j.type;
    jd.a = index_of(j.bodies[0]);
    jd.b = index_of(j.bodies[1]);
    Mat3 Ra, Rb;
    Vec3 pa, pb;
    initial_pose(jd.a, Ra, pa);
    initial_pose(jd.b, Rb, pb);
    jd.at_reference = detail::make_joint_geometry(j, Ra, pa, Rb, pb);
    com0(jd.a, Ra, pa);
    com0(jd.b, Rb, pb);
    jd.at_com = detail::make_joint_geometry(j, Ra, pa, Rb, pb);
    if (j.motion) jd.motion = &j.motion;
    if (j.speed) jd.speed = &j.speed;
    if (j.has_offsets()) jd.offsets = &j.offsets;
    joint_of_.emplace(j.name, static_cast<int>(ji));
    joints_.push_back(std::move(jd));
  }
  for (const ForceElement& f : s.forces()) {
    Force fd;
    fd.src = &f;
    for (const std::string& bn : f.bodies) fd.bodies.push_back(index_of(bn));
    for (const std::string& sn : f.states) fd.states.push_back(s.find_controller_state(sn));
    if (force_type_info(f.type).pairwise) {
      Mat3 Ra, Rb;
      Vec3 pa, pb;
      initial_pose(fd.bodies[0], Ra, pa);
      initial_pose(fd.bodies[1], Rb, pb);
      fd.geometry = detail::make_force_geometry(f, Ra, pa, Rb, pb);
    }
    forces_.push_back(std::move(fd));
  }
  for (const ControllerState& z : s.controller_states()) {
    Controller cd;
    cd.src = &z;
    for (const std::string& bn : z.bodies) cd.bodies.push_back(index_of(bn));
    for (const std::string& sn : z.states) cd.states.push_back(s.find_controller_state(sn));
    controllers_.push_back(std::move(cd));
  }
  for (const Contact& c : s.contacts()) {
    Shape sh;
    if (const auto it = indices.find(c.body); it != indices.end()) sh.body = it->second;
    sh.pose = placed_shape(c);
    sh.bound = c.bounding_radius();
    shapes_.push_back(sh);
  }
}

void CompiledModel::initial_pose(BodyIndex i, Mat3& R, Vec3& p) const {
  if (i == kGround) {
    R.setIdentity();
    p.setZero();
  } else {
    R = system_.bodies()[static_cast<size_t>(i)].orientation;
    p = system_.bodies()[static_cast<size_t>(i)].position;
  }
}

int CompiledModel::joint_index(const std::string& name) const {
  const auto it = joint_of_.find(name);
  return it == joint_of_.end() ? -1 : it->second;
}

ContactMaterial CompiledModel::material(int i, int j) const {
  const Contact& ca = system_.contacts()[static_cast<size_t>(i)];
  const Contact& cb = system_.contacts()[static_cast<size_t>(j)];
  ContactMaterial m;
  m.friction = combine(system_.contact_friction_rule, ca.friction, cb.friction);
  m.restitution = combine(system_.contact_restitution_rule, ca.restitution, cb.restitution);
  m.rolling_resistance = std::max(ca.rolling_resistance, cb.rolling_resistance);
  m.torsional_friction = std::max(ca.torsional_friction, cb.torsional_friction);
  return m;
}

std::shared_ptr<const CompiledModel> compile(const System& system) {
  return std::make_shared<const CompiledModel>(system);
}

}  // namespace mbdae
