/// @file Urdf.cpp
/// URDF → model file. urdfdom (Debian's liburdfdom-dev) reads the robot; it keeps no line numbers
/// and passes over elements it does not know, so a second, light pass with tinyxml2 finds the line
/// of every element and lists every element that is not mapped (docs/import.md).
///
/// The model is written at the file's reference configuration (every joint coordinate 0): link
/// frames are composed from the joints' <origin> from the root, and the model file's bodies,
/// joint points and axes are world coordinates of that configuration.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <Eigen/Geometry>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>
#include <yaml-cpp/yaml.h>

#include <mbdae/import/Import.h>

#include "ImportCommon.h"

namespace mbdae::import {
namespace {

using Eigen::Isometry3d;
using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

Isometry3d to_iso(const urdf::Pose& p) {
  Isometry3d T = Isometry3d::Identity();
  T.linear() = Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized().toRotationMatrix();
  T.translation() = Vector3d(p.position.x, p.position.y, p.position.z);
  return T;
}
Vector3d to_vec(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

/// Lines of the elements of a URDF file, found by a light XML pass, and the elements urdfdom reads
/// but the model file cannot express (each a warning), or that urdfdom does not read at all.
struct XmlIndex {
  std::map<std::string, int> link, joint;
  /// link name → lines of its <collision> / <visual> in file order; <inertial> line
  std::map<std::string, std::vector<int>> collision, visual;
  std::map<std::string, int> inertial;
  /// joint name → line of its <limit>, <dynamics>, <mimic>
  std::map<std::string, int> limit, dynamics, mimic, axis;
};

int line_of(const std::map<std::string, int>& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

class UrdfImporter {
 public:
  UrdfImporter(const std::string& text, const std::string& file, const ImportOptions& o)
      : text_(text), file_(file), opt_(o) {}

  ImportResult run();

 private:
  void index_xml();
  void warn(int line, const std::string& element, const std::string& message) {
    warnings_.push_back({file_, line, 0, element, message});
  }
  void error(int line, const std::string& element, const std::string& message) {
    errors_.push_back({file_, line, 0, element, message});
  }
  std::string mesh_path(const std::string& uri, int line, const std::string& element);

  const std::string& text_;
  std::string file_;
  ImportOptions opt_;
  XmlIndex ix_;
  std::vector<io::Diagnostic> warnings_, errors_;
};

void UrdfImporter::index_xml() {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text_.data(), text_.size()) != tinyxml2::XML_SUCCESS) {
    error(doc.ErrorLineNum(), "", std::string("not well-formed XML: ") + doc.ErrorStr());
    return;
  }
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) {
    error(doc.RootElement() ? doc.RootElement()->GetLineNum() : 1, "", "no <robot> element: not a URDF file");
    return;
  }
  auto name_of = [](const tinyxml2::XMLElement* e) {
    const char* n = e->Attribute("name");
    return std::string(n ? n : "");
  };
  for (const tinyxml2::XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    const std::string name = name_of(e);
    if (tag == "link") {
      ix_.link[name] = e->GetLineNum();
      for (const tinyxml2::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string ct = c->Name();
        if (ct == "inertial") {
          ix_.inertial[name] = c->GetLineNum();
        } else if (ct == "collision") {
          ix_.collision[name].push_back(c->GetLineNum());
        } else if (ct == "visual") {
          ix_.visual[name].push_back(c->GetLineNum());
        } else {
          warn(c->GetLineNum(), "link '" + name + "' <" + ct + ">", "not a URDF element of <link>: not read");
        }
      }
    } else if (tag == "joint") {
      ix_.joint[name] = e->GetLineNum();
      for (const tinyxml2::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string ct = c->Name();
        const std::string where = "joint '" + name + "' <" + ct + ">";
        if (ct == "limit") ix_.limit[name] = c->GetLineNum();
        else if (ct == "dynamics") ix_.dynamics[name] = c->GetLineNum();
        else if (ct == "mimic") ix_.mimic[name] = c->GetLineNum();
        else if (ct == "axis") ix_.axis[name] = c->GetLineNum();
        else if (ct == "origin" || ct == "parent" || ct == "child") continue;
        else if (ct == "safety_controller")
          warn(c->GetLineNum(), where, "not mapped: mbdae has no safety controller (soft limits)");
        else if (ct == "calibration")
          warn(c->GetLineNum(), where, "not mapped: calibration (reference positions of encoders) has no meaning in a model");
        else
          warn(c->GetLineNum(), where, "not a URDF element of <joint>: not read");
      }
    } else if (tag == "material") {
      warn(e->GetLineNum(), "<material name='" + name + "'>", "not mapped: colours and textures are not drawn");
    } else if (tag == "transmission") {
      warn(e->GetLineNum(), "<transmission name='" + name + "'>",
           "not mapped: a transmission describes the ROS controllers' actuators, not the mechanism");
    } else if (tag == "gazebo") {
      warn(e->GetLineNum(), "<gazebo>", "not mapped: Gazebo's own settings are not read");
    } else {
      warn(e->GetLineNum(), "<" + tag + ">", "not a URDF element of <robot>: not read");
    }
  }
}

std::string UrdfImporter::mesh_path(const std::string& uri, int line, const std::string& element) {
  namespace fs = std::filesystem;
  std::string p = uri;
  if (p.rfind("file://", 0) == 0) p = p.substr(7);
  if (p.rfind("package://", 0) == 0 || p.find("://") != std::string::npos) {
    error(line, element, "mesh '" + uri + "': only paths relative to the file or file:// are read (no ROS package lookup); "
                         "give the path relative to the URDF file");
    return {};
  }
  fs::path abs = fs::path(p).is_absolute() ? fs::path(p) : fs::path(file_).parent_path() / p;
  const std::string ext = abs.extension().string();
  std::string lower;
  for (char c : ext) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower != ".stl" && lower != ".obj") {
    error(line, element, "mesh '" + uri + "': only STL and OBJ meshes are read (got '" + ext + "')");
    return {};
  }
  const fs::path base = opt_.base_dir.empty() ? fs::path(file_).parent_path() : fs::path(opt_.base_dir);
  std::error_code ec;
  fs::path rel = fs::proximate(fs::absolute(abs, ec), fs::absolute(base.empty() ? fs::path(".") : base, ec), ec);
  return (ec ? abs : rel).generic_string();
}

ImportResult UrdfImporter::run() {
  index_xml();
  if (!errors_.empty()) throw io::LoadError(errors_);

  urdf::ModelInterfaceSharedPtr model;
  {
    // urdfdom reports its own parse errors to stderr (console_bridge) and returns null.
    model = urdf::parseURDF(text_);
  }
  if (!model) {
    error(1, "<robot>", "urdfdom could not read the file (its message is above)");
    throw io::LoadError(errors_);
  }
  urdf::LinkConstSharedPtr root = model->getRoot();

  // ---- which link becomes which body -------------------------------------------------------
  // A link with a positive mass is a body. A link without mass is the ground if it is the root,
  // and part of its parent's body if it hangs on a fixed joint (its frame is kept for its children
  // and its collision shapes); on a moving joint it has no mass to move: an error.
  std::map<std::string, Isometry3d> X_WL;      // world pose of every link frame
  std::map<std::string, std::string> host;     // link → the body (or "ground") that carries it
  std::vector<urdf::LinkConstSharedPtr> order;  // parents before children
  auto has_mass = [](const urdf::LinkConstSharedPtr& l) { return l->inertial && l->inertial->mass > 0; };
  {
    std::vector<urdf::LinkConstSharedPtr> stack{root};
    X_WL[root->name] = Isometry3d::Identity();
    while (!stack.empty()) {
      urdf::LinkConstSharedPtr l = stack.back();
      stack.pop_back();
      order.push_back(l);
      for (auto it = l->child_links.rbegin(); it != l->child_links.rend(); ++it) {
        const urdf::LinkSharedPtr& c = *it;
        X_WL[c->name] = X_WL[l->name] * to_iso(c->parent_joint->parent_to_joint_origin_transform);
        stack.push_back(c);
      }
    }
  }
  const bool root_is_ground = !has_mass(root);
  for (const auto& l : order) {
    const int line = line_of(ix_.link, l->name);
    const std::string where = "link '" + l->name + "'";
    if (l->name == "ground") {
      error(line, where, "'ground' is mbdae's fixed body: rename the link");
      continue;
    }
    if (l->inertial && l->inertial->mass < 0) error(line_of(ix_.inertial, l->name), where + " <inertial>", "mass < 0");
    if (l == root) {
      host[l->name] = root_is_ground ? "ground" : l->name;
    } else if (has_mass(l)) {
      host[l->name] = l->name;
    } else if (l->parent_joint->type == urdf::Joint::FIXED) {
      host[l->name] = host[l->getParent()->name];
    } else {
      error(line, where, "has no mass (no <inertial> or mass 0) but moves on joint '" + l->parent_joint->name +
                             "' (line " + std::to_string(line_of(ix_.joint, l->parent_joint->name)) +
                             "): give it an <inertial>");
      host[l->name] = l->name;
    }
  }
  if (!root_is_ground)
    warn(line_of(ix_.link, root->name), "link '" + root->name + "'",
         "the root link has a mass: it is fixed to the world by the joint '" + root->name +
             "_to_world' (as MuJoCo and ROS do); remove that joint to let it float");

  YAML::Emitter y;
  y.SetDoublePrecision(17);
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << (model->getName().empty() ? std::string("robot") : model->getName());
  y << YAML::Key << "description" << YAML::Value
    << "imported from " + std::filesystem::path(file_).filename().string() + " (URDF) at its reference configuration";
  y << YAML::Key << "gravity" << YAML::Value << YAML::Flow << std::vector<double>{0, 0, -9.81};

  // ---- bodies ------------------------------------------------------------------------------
  y << YAML::Key << "bodies" << YAML::Value << YAML::BeginSeq;
  std::vector<std::string> body_names;
  for (const auto& l : order) {
    if (host[l->name] != l->name || !has_mass(l)) continue;
    const urdf::Inertial& in = *l->inertial;
    const Isometry3d X_LI = to_iso(in.origin);  // inertial frame in the link frame
    Matrix3d I_I;
    I_I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    const Matrix3d I_C = X_LI.linear() * I_I * X_LI.linear().transpose();  // about the COM, link axes
    const Vector3d c = X_LI.translation();
    // mbdae's `inertia` is about the body's reference point (the link frame's origin): parallel axes.
    const Matrix3d J = I_C + in.mass * (c.squaredNorm() * Matrix3d::Identity() - c * c.transpose());
    const Isometry3d& X = X_WL[l->name];
    const Quaterniond q(X.linear());
    y << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << l->name;
    y << YAML::Key << "mass" << YAML::Value << in.mass;
    y << YAML::Key << "inertia" << YAML::Value << YAML::Flow
      << std::vector<double>{J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1)};
    y << YAML::Key << "com" << YAML::Value << YAML::Flow << std::vector<double>{c.x(), c.y(), c.z()};
    y << YAML::Key << "position" << YAML::Value << YAML::Flow
      << std::vector<double>{X.translation().x(), X.translation().y(), X.translation().z()};
    y << YAML::Key << "orientation" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "quaternion"
      << YAML::Value << YAML::Flow << std::vector<double>{q.w(), q.x(), q.y(), q.z()} << YAML::EndMap;
    y << YAML::EndMap;
    body_names.push_back(l->name);
  }
  y << YAML::EndSeq;

  // ---- joints, limits, dynamics, mimic -----------------------------------------------------
  struct ForceItem {
    std::string type, joint;
    double a = 0, b = 0;  // limit: lower, upper; friction: damping, coulomb
    bool has_lower = false, has_upper = false;
    bool revolute = true;
  };
  std::vector<ForceItem> forces;
  struct Coupling {
    std::string name, a, b;
    double multiplier;
  };
  std::vector<Coupling> couplings;
  std::map<std::string, std::string> mapped_type;  // joint → mbdae type
  y << YAML::Key << "joints" << YAML::Value << YAML::BeginSeq;
  if (!root_is_ground) {
    const Vector3d p = X_WL[root->name].translation();
    y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << root->name + "_to_world" << YAML::Key << "type"
      << YAML::Value << "fixed" << YAML::Key << "bodies" << YAML::Value << YAML::Flow
      << std::vector<std::string>{"ground", root->name} << YAML::Key << "point" << YAML::Value << YAML::Flow
      << std::vector<double>{p.x(), p.y(), p.z()} << YAML::EndMap;
  }
  for (const auto& l : order) {
    if (l == root) continue;
    const urdf::JointConstSharedPtr& j = l->parent_joint;
    const int line = line_of(ix_.joint, j->name);
    const std::string where = "joint '" + j->name + "'";
    const std::string a = host[j->parent_link_name], b = host[l->name];
    if (a == b) continue;  // a massless link merged into its parent's body
    const Isometry3d& X = X_WL[l->name];  // the joint frame is the child link's frame
    const Vector3d p = X.translation();
    const Vector3d e = X.linear() * to_vec(j->axis);
    std::string type;
    switch (j->type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS: type = "revolute"; break;
      case urdf::Joint::PRISMATIC: type = "prismatic"; break;
      case urdf::Joint::FIXED: type = "fixed"; break;
      case urdf::Joint::PLANAR: type = "planar"; break;
      case urdf::Joint::FLOATING: type = "floating"; break;
      default: error(line, where, "joint type unknown to urdfdom: not mapped"); continue;
    }
    mapped_type[j->name] = type;
    if (type == "floating") {
      // Six degrees of freedom: no joint at all, the child moves freely.
      continue;
    }
    if ((type == "revolute" || type == "prismatic" || type == "planar") && e.norm() < 1e-12) {
      error(line_of(ix_.axis, j->name) ? line_of(ix_.axis, j->name) : line, where + " <axis>", "axis has zero length");
      continue;
    }
    y << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << j->name;
    y << YAML::Key << "type" << YAML::Value << type;
    y << YAML::Key << "bodies" << YAML::Value << YAML::Flow << std::vector<std::string>{a, b};
    y << YAML::Key << "point" << YAML::Value << YAML::Flow << std::vector<double>{p.x(), p.y(), p.z()};
    if (type != "fixed")
      y << YAML::Key << "axis" << YAML::Value << YAML::Flow << std::vector<double>{e.x(), e.y(), e.z()};
    y << YAML::EndMap;

    const bool one_coordinate = type == "revolute" || type == "prismatic";
    const int limit_line = line_of(ix_.limit, j->name);
    if (j->limits && limit_line) {
      const urdf::JointLimits& lim = *j->limits;
      if (j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::PRISMATIC) {
        if (lim.lower < lim.upper) {
          forces.push_back({"joint_limit", j->name, lim.lower, lim.upper, true, true, type == "revolute"});
        } else {
          warn(limit_line, where + " <limit>",
               "lower (" + fmt_num(lim.lower) + ") is not below upper (" + fmt_num(lim.upper) +
                   "): no limit mapped (URDF reads this as a joint that cannot move; mbdae as an unlimited one)");
        }
      } else if (j->type == urdf::Joint::CONTINUOUS && (lim.lower != 0 || lim.upper != 0)) {
        warn(limit_line, where + " <limit>", "lower/upper of a continuous joint are not used (as in URDF)");
      }
      if (lim.effort > 0 || lim.velocity > 0)
        warn(limit_line, where + " <limit>",
             "effort (" + fmt_num(lim.effort) + ") and velocity (" + fmt_num(lim.velocity) +
                 ") limits are not enforced: mbdae has no actuator limits");
    }
    const int dyn_line = line_of(ix_.dynamics, j->name);
    if (j->dynamics && dyn_line && (j->dynamics->damping != 0 || j->dynamics->friction != 0)) {
      if (!one_coordinate) {
        error(dyn_line, where + " <dynamics>", "damping and friction are mapped on revolute, continuous and prismatic joints only, not on a " +
                                                   type + " joint");
      } else if (j->dynamics->damping < 0 || j->dynamics->friction < 0) {
        error(dyn_line, where + " <dynamics>", "damping and friction must be >= 0");
      } else {
        forces.push_back({"joint_friction", j->name, j->dynamics->damping, j->dynamics->friction, false, false,
                          type == "revolute"});
      }
    }
    const int mimic_line = line_of(ix_.mimic, j->name);
    if (j->mimic && mimic_line) {
      if (!one_coordinate) {
        error(mimic_line, where + " <mimic>", "a " + type + " joint has no single coordinate to couple");
      } else if (j->mimic->offset != 0) {
        error(mimic_line, where + " <mimic>",
              "offset " + fmt_num(j->mimic->offset) +
                  " is not mapped: the model starts at the reference configuration, where this joint's coordinate is 0, "
                  "so only offset 0 holds there");
      } else {
        couplings.push_back({j->name + "_mimic", j->mimic->joint_name, j->name, j->mimic->multiplier});
      }
    }
  }
  y << YAML::EndSeq;

  for (const Coupling& c : couplings) {
    auto it = model->joints_.find(c.a);
    const int mimic_line = line_of(ix_.mimic, c.b);
    if (it == model->joints_.end()) {
      error(mimic_line, "joint '" + c.b + "' <mimic>", "joint '" + c.a + "' does not exist");
    } else {
      const std::string t = mapped_type.count(c.a) ? mapped_type[c.a] : "";
      if (t != "revolute" && t != "prismatic")
        error(mimic_line, "joint '" + c.b + "' <mimic>",
              "joint '" + c.a + "' is " + (t.empty() ? std::string("not a moving joint") : "a " + t + " joint") +
                  ": only revolute, continuous and prismatic joints can be mimicked");
    }
  }
  if (!couplings.empty()) {
    y << YAML::Key << "couplings" << YAML::Value << YAML::BeginSeq;
    for (const Coupling& c : couplings) {
      // <mimic>: q_b = multiplier q_a  ⇔  multiplier q_a − q_b = 0
      y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key << "type" << YAML::Value
        << "linear" << YAML::Key << "joints" << YAML::Value << YAML::Flow << std::vector<std::string>{c.a, c.b}
        << YAML::Key << "coefficients" << YAML::Value << YAML::Flow << std::vector<double>{c.multiplier, -1.0}
        << YAML::EndMap;
    }
    y << YAML::EndSeq;
  }

  if (!forces.empty()) {
    y << YAML::Key << "forces" << YAML::Value << YAML::BeginSeq;
    for (const ForceItem& f : forces) {
      y << YAML::BeginMap;
      if (f.type == "joint_limit") {
        y << YAML::Key << "name" << YAML::Value << f.joint + "_limit" << YAML::Key << "type" << YAML::Value
          << "joint_limit" << YAML::Key << "joint" << YAML::Value << f.joint << YAML::Key << "lower" << YAML::Value
          << f.a << YAML::Key << "upper" << YAML::Value << f.b << YAML::Key << "stiffness" << YAML::Value
          << opt_.limit_stiffness;
        if (opt_.limit_damping > 0) y << YAML::Key << "damping" << YAML::Value << opt_.limit_damping;
      } else {
        // URDF <dynamics>: damping (N m s/rad or N s/m) and a Coulomb friction effort (N m or N).
        // mbdae's Coulomb level is μ N (times the pin radius r on a turning joint): μ = 1, N = the
        // effort, r = 1 m gives the same torque.
        y << YAML::Key << "name" << YAML::Value << f.joint + "_dynamics" << YAML::Key << "type" << YAML::Value
          << "joint_friction" << YAML::Key << "joint" << YAML::Value << f.joint;
        if (f.a > 0) y << YAML::Key << (f.revolute ? "viscous_rotation" : "viscous_slide") << YAML::Value << f.a;
        if (f.b > 0) {
          y << YAML::Key << "friction" << YAML::Value << 1.0 << YAML::Key << "normal_force" << YAML::Value << f.b;
          if (f.revolute) y << YAML::Key << "radius" << YAML::Value << 1.0;
        }
      }
      y << YAML::EndMap;
    }
    y << YAML::EndSeq;
  }

  // ---- collision geometry → contact shapes; visuals --------------------------------------------
  bool any_contact = false;
  std::ostringstream contacts_yaml;
  YAML::Emitter cy;
  cy.SetDoublePrecision(17);
  cy << YAML::BeginSeq;
  for (const auto& l : order) {
    const std::vector<int>& vis = ix_.visual[l->name];
    for (size_t k = 0; k < vis.size(); ++k)
      warn(vis[k], "link '" + l->name + "' <visual>",
           "not mapped: the viewer draws the contact shapes and the bodies' inertia boxes, not visual geometry");
    const std::vector<int>& col = ix_.collision[l->name];
    for (size_t k = 0; k < l->collision_array.size(); ++k) {
      const int line = k < col.size() ? col[k] : line_of(ix_.link, l->name);
      const std::string where = "link '" + l->name + "' <collision>";
      if (!opt_.collision) {
        warn(line, where, "not mapped (import with --collision to map collision geometry to contact shapes)");
        continue;
      }
      const urdf::Collision& c = *l->collision_array[k];
      if (!c.geometry) {
        error(line, where, "no <geometry>");
        continue;
      }
      const std::string& hb = host[l->name];
      const Isometry3d X_WH = hb == "ground" ? Isometry3d::Identity() : X_WL[hb];
      const Isometry3d X_HS = X_WH.inverse() * X_WL[l->name] * to_iso(c.origin);  // shape in its body's frame
      const Vector3d p = X_HS.translation();
      const Quaterniond q(X_HS.linear());
      const std::string name = l->name + "_collision" + (l->collision_array.size() > 1 ? std::to_string(k) : "");
      cy << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
      switch (c.geometry->type) {
        case urdf::Geometry::SPHERE:
          cy << YAML::Key << "type" << YAML::Value << "sphere" << YAML::Key << "radius" << YAML::Value
             << static_cast<const urdf::Sphere&>(*c.geometry).radius;
          break;
        case urdf::Geometry::BOX: {
          const urdf::Vector3& d = static_cast<const urdf::Box&>(*c.geometry).dim;
          cy << YAML::Key << "type" << YAML::Value << "box" << YAML::Key << "size" << YAML::Value << YAML::Flow
             << std::vector<double>{d.x, d.y, d.z};
          break;
        }
        case urdf::Geometry::CYLINDER: {
          const auto& cyl = static_cast<const urdf::Cylinder&>(*c.geometry);
          cy << YAML::Key << "type" << YAML::Value << "cylinder" << YAML::Key << "radius" << YAML::Value << cyl.radius
             << YAML::Key << "length" << YAML::Value << cyl.length;
          break;
        }
        case urdf::Geometry::MESH: {
          const auto& m = static_cast<const urdf::Mesh&>(*c.geometry);
          const std::string path = mesh_path(m.filename, line, where);
          cy << YAML::Key << "type" << YAML::Value << "convex_mesh" << YAML::Key << "file" << YAML::Value << path
             << YAML::Key << "scale" << YAML::Value << YAML::Flow
             << std::vector<double>{m.scale.x, m.scale.y, m.scale.z} << YAML::Key << "convex_hull" << YAML::Value
             << true;
          warn(line, where, "mesh '" + m.filename + "' is taken as its convex hull (mbdae's contact meshes are convex)");
          break;
        }
      }
      cy << YAML::Key << "body" << YAML::Value << hb;
      cy << YAML::Key << "position" << YAML::Value << YAML::Flow << std::vector<double>{p.x(), p.y(), p.z()};
      if (c.geometry->type != urdf::Geometry::SPHERE)
        cy << YAML::Key << "orientation" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "quaternion"
           << YAML::Value << YAML::Flow << std::vector<double>{q.w(), q.x(), q.y(), q.z()} << YAML::EndMap;
      cy << YAML::EndMap;
      any_contact = true;
    }
  }
  cy << YAML::EndSeq;
  if (any_contact) y << YAML::Key << "contacts" << YAML::Value << YAML::Load(cy.c_str());

  // ---- sensors: every joint coordinate -------------------------------------------------------
  std::vector<std::pair<std::string, std::string>> sensors;
  for (const auto& l : order) {
    if (l == root || host[l->name] == host[l->getParent()->name]) continue;
    const std::string& t = mapped_type[l->parent_joint->name];
    if (t == "revolute") sensors.emplace_back(l->parent_joint->name, "joint_angle");
    if (t == "prismatic") sensors.emplace_back(l->parent_joint->name, "joint_displacement");
  }
  if (!sensors.empty()) {
    y << YAML::Key << "sensors" << YAML::Value << YAML::BeginSeq;
    for (const auto& [j, out] : sensors)
      y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << j << YAML::Key << "output"
        << YAML::Value << out << YAML::Key << "joint" << YAML::Value << j << YAML::EndMap;
    y << YAML::EndSeq;
  }
  y << YAML::Key << "solver" << YAML::Value << YAML::BeginMap << YAML::Key << "end_time" << YAML::Value << opt_.end_time
    << YAML::EndMap;
  y << YAML::EndMap;

  if (opt_.strict)
    for (io::Diagnostic d : warnings_) {
      d.message += " (--strict)";
      errors_.push_back(d);
    }
  if (!errors_.empty()) {
    std::stable_sort(errors_.begin(), errors_.end(),
                     [](const io::Diagnostic& a, const io::Diagnostic& b) { return a.line < b.line; });
    throw io::LoadError(errors_);
  }
  ImportResult r;
  r.yaml = std::string("# Imported by mbdae from ") + std::filesystem::path(file_).filename().string() +
           " (docs/import.md).\n" + y.c_str() + "\n";
  r.model_name = file_ + " (imported)";
  std::stable_sort(warnings_.begin(), warnings_.end(),
                   [](const io::Diagnostic& a, const io::Diagnostic& b) { return a.line < b.line; });
  r.warnings = warnings_;
  return r;
}

}  // namespace

ImportResult import_urdf_text(const std::string& text, const std::string& file_name, const ImportOptions& options) {
  return UrdfImporter(text, file_name, options).run();
}

}  // namespace mbdae::import
