/// @file Urdf.cpp
/// URDF → model file. urdfdom (Debian's liburdfdom-dev) reads the robot; it keeps no line numbers
/// and passes over elements it does not know, so a second, light pass with tinyxml2 finds the line
/// of every element and lists every element that is not mapped (docs/import.md).
///
/// The model is written at the file's reference configuration (every joint coordinate 0): link
/// frames are composed from the joints' <origin> from the root, and the model file's bodies,
/// joint points and axes are world coordinates of that configuration.

#include <filesystem>
#include <map>

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

  ModelWriter w(model->getName().empty() ? std::string("robot") : model->getName(),
                "imported from " + std::filesystem::path(file_).filename().string() +
                    " (URDF) at its reference configuration",
                Vector3d(0, 0, -9.81));

  // ---- bodies ------------------------------------------------------------------------------
  for (const auto& l : order) {
    if (host[l->name] != l->name || !has_mass(l)) continue;
    const urdf::Inertial& in = *l->inertial;
    const Isometry3d X_LI = to_iso(in.origin);  // inertial frame in the link frame
    Matrix3d I_I;
    I_I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    w.body(l->name, in.mass, X_LI.translation(), X_LI.linear() * I_I * X_LI.linear().transpose(), X_WL[l->name]);
  }

  // ---- joints, limits, dynamics, mimic -----------------------------------------------------
  std::map<std::string, std::string> mapped_type;  // joint → mbdae type
  if (!root_is_ground) w.joint(root->name + "_to_world", "fixed", "ground", root->name, X_WL[root->name].translation());
  struct Mimic {
    std::string a, b;
    double multiplier;
  };
  std::vector<Mimic> mimics;
  for (const auto& l : order) {
    if (l == root) continue;
    const urdf::JointConstSharedPtr& j = l->parent_joint;
    const int line = line_of(ix_.joint, j->name);
    const std::string where = "joint '" + j->name + "'";
    const std::string a = host[j->parent_link_name], b = host[l->name];
    if (a == b) continue;  // a massless link merged into its parent's body
    const Isometry3d& X = X_WL[l->name];  // the joint frame is the child link's frame
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
    if (type == "floating") continue;  // six degrees of freedom: no joint, the child moves freely
    if (type != "fixed" && e.norm() < 1e-12) {
      error(line_of(ix_.axis, j->name) ? line_of(ix_.axis, j->name) : line, where + " <axis>", "axis has zero length");
      continue;
    }
    w.joint(j->name, type, a, b, X.translation(), type == "fixed" ? std::optional<Vector3d>() : e);
    const bool one_coordinate = type == "revolute" || type == "prismatic";
    if (one_coordinate) w.sensor(j->name, type == "revolute");

    const int limit_line = line_of(ix_.limit, j->name);
    if (j->limits && limit_line) {
      const urdf::JointLimits& lim = *j->limits;
      if (j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::PRISMATIC) {
        if (lim.lower < lim.upper) {
          w.limit(j->name, lim.lower, lim.upper, opt_);
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
        error(dyn_line, where + " <dynamics>",
              "damping and friction are mapped on revolute, continuous and prismatic joints only, not on a " + type +
                  " joint");
      } else if (j->dynamics->damping < 0 || j->dynamics->friction < 0) {
        error(dyn_line, where + " <dynamics>", "damping and friction must be >= 0");
      } else {
        w.friction(j->name, type == "revolute", j->dynamics->damping, j->dynamics->friction);
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
        mimics.push_back({j->mimic->joint_name, j->name, j->mimic->multiplier});
      }
    }
  }
  for (const Mimic& c : mimics) {
    const int mimic_line = line_of(ix_.mimic, c.b);
    const std::string t = mapped_type.count(c.a) ? mapped_type[c.a] : "";
    if (!model->joints_.count(c.a)) {
      error(mimic_line, "joint '" + c.b + "' <mimic>", "joint '" + c.a + "' does not exist");
    } else if (t != "revolute" && t != "prismatic") {
      error(mimic_line, "joint '" + c.b + "' <mimic>",
            "joint '" + c.a + "' is " + (t.empty() ? std::string("not a moving joint") : "a " + t + " joint") +
                ": only revolute, continuous and prismatic joints can be mimicked");
    } else {
      // <mimic>: q_b = multiplier q_a  ⇔  multiplier q_a − q_b = 0
      w.coupling(c.b + "_mimic", {c.a, c.b}, {c.multiplier, -1.0});
    }
  }

  // ---- collision geometry → contact shapes; visuals --------------------------------------------
  for (const auto& l : order) {
    for (int line : ix_.visual[l->name])
      warn(line, "link '" + l->name + "' <visual>",
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
      const std::string name = l->name + "_collision" + (l->collision_array.size() > 1 ? std::to_string(k) : "");
      switch (c.geometry->type) {
        case urdf::Geometry::SPHERE:
          w.contact(name, "sphere", hb, X_HS, "radius: " + fmt17(static_cast<const urdf::Sphere&>(*c.geometry).radius));
          break;
        case urdf::Geometry::BOX: {
          const urdf::Vector3& d = static_cast<const urdf::Box&>(*c.geometry).dim;
          w.contact(name, "box", hb, X_HS, "size: [" + fmt17(d.x) + ", " + fmt17(d.y) + ", " + fmt17(d.z) + "]");
          break;
        }
        case urdf::Geometry::CYLINDER: {
          const auto& cyl = static_cast<const urdf::Cylinder&>(*c.geometry);
          w.contact(name, "cylinder", hb, X_HS, "radius: " + fmt17(cyl.radius) + ", length: " + fmt17(cyl.length));
          break;
        }
        case urdf::Geometry::MESH: {
          const auto& m = static_cast<const urdf::Mesh&>(*c.geometry);
          const std::string path = mesh_path(m.filename, line, where);
          YAML::Emitter quoted;
          quoted << path;
          w.contact(name, "convex_mesh", hb, X_HS,
                    std::string("file: ") + quoted.c_str() + ", scale: [" + fmt17(m.scale.x) + ", " + fmt17(m.scale.y) +
                        ", " + fmt17(m.scale.z) + "], convex_hull: true");
          warn(line, where, "mesh '" + m.filename + "' is taken as its convex hull (mbdae's contact meshes are convex)");
          break;
        }
      }
    }
  }
  return finish_import(w, file_, opt_, warnings_, errors_);
}

}  // namespace

ImportResult import_urdf_text(const std::string& text, const std::string& file_name, const ImportOptions& options) {
  return UrdfImporter(text, file_name, options).run();
}

}  // namespace mbdae::import
