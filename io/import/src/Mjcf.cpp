/// @file Mjcf.cpp
/// MJCF → model file. MuJoCo's own parser and compiler (Debian's libmujoco-dev, mj_loadXML) read
/// the file — defaults, classes, units (degrees), inertias from geoms — and the importer reads the
/// compiled mjModel at the reference configuration qpos0 (docs/import.md says why). mjModel keeps
/// no line numbers, so a light XML pass (tinyxml2) numbers the elements in the order MuJoCo
/// numbers them (bodies, joints and geoms depth first, equalities and actuators in file order)
/// and lists the elements that are not mapped.

#include <cmath>
#include <filesystem>

#include <Eigen/Geometry>
#include <mujoco/mujoco.h>
#include <tinyxml2.h>

#include <mbdae/import/Import.h>

#include "ImportCommon.h"

namespace mbdae::import {
namespace {

using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

struct Lines {
  std::vector<int> body{0}, joint, geom, equality, actuator;  // body 0 is the world
  /// per body (in MuJoCo's numbering, depth first): its joints' and geoms' lines; MuJoCo numbers
  /// joints and geoms body by body
  std::vector<std::vector<int>> body_joints{{}}, body_geoms{{}};
  bool exact = true;  ///< false with <include> or <replicate>: elements of other files, no lines
};

class MjcfImporter {
 public:
  MjcfImporter(const std::string& file, const ImportOptions& o) : file_(file), opt_(o) {}
  ImportResult run();

 private:
  void index_xml(const tinyxml2::XMLDocument& doc);
  void walk_body(const tinyxml2::XMLElement* e, size_t body);
  void warn(int line, const std::string& element, const std::string& message) {
    warnings_.push_back({file_, line, 0, element, message});
  }
  void error(int line, const std::string& element, const std::string& message) {
    errors_.push_back({file_, line, 0, element, message});
  }
  static int at(const std::vector<int>& v, int i) {
    return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : 0;
  }
  std::string name(int type, int id, const char* kind) const {
    const char* n = mj_id2name(m_, type, id);
    return n && *n ? std::string(n) : std::string(kind) + std::to_string(id);
  }

  std::string file_;
  ImportOptions opt_;
  Lines lines_;
  mjModel* m_ = nullptr;
  std::vector<io::Diagnostic> warnings_, errors_;
};

void MjcfImporter::walk_body(const tinyxml2::XMLElement* e, size_t body) {
  const bool world = body == 0;
  for (const tinyxml2::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string t = c->Name();
    const char* nm = c->Attribute("name");
    const std::string where = "<" + t + (nm ? std::string(" name='") + nm + "'>" : std::string(">"));
    if (t == "body") {
      lines_.body.push_back(c->GetLineNum());
      lines_.body_joints.emplace_back();
      lines_.body_geoms.emplace_back();
      walk_body(c, lines_.body.size() - 1);
    } else if (t == "joint" || t == "freejoint") {
      lines_.body_joints[body].push_back(c->GetLineNum());
    } else if (t == "geom") {
      lines_.body_geoms[body].push_back(c->GetLineNum());
    } else if (t == "inertial") {
      continue;
    } else if (t == "site") {
      warn(c->GetLineNum(), where, "not mapped: sites mark frames for sensors and tendons, which are not read");
    } else if (t == "camera" || t == "light") {
      warn(c->GetLineNum(), where, "not mapped: cameras and lights are not drawn");
    } else if (t == "include" || t == "replicate" || t == "frame") {
      lines_.exact = false;
      warn(c->GetLineNum(), where, "elements from here on are numbered without their lines");
    } else {
      error(c->GetLineNum(), where, std::string("not mapped: <") + t + "> in a " + (world ? "<worldbody>" : "<body>"));
    }
  }
}

void MjcfImporter::index_xml(const tinyxml2::XMLDocument& doc) {
  const tinyxml2::XMLElement* root = doc.FirstChildElement("mujoco");
  if (!root) return;
  for (const tinyxml2::XMLElement* s = root->FirstChildElement(); s; s = s->NextSiblingElement()) {
    const std::string t = s->Name();
    const std::string where = "<" + t + ">";
    if (t == "worldbody") {
      walk_body(s, 0);
      for (const auto& v : lines_.body_joints) lines_.joint.insert(lines_.joint.end(), v.begin(), v.end());
      for (const auto& v : lines_.body_geoms) lines_.geom.insert(lines_.geom.end(), v.begin(), v.end());
    } else if (t == "equality") {
      for (const tinyxml2::XMLElement* c = s->FirstChildElement(); c; c = c->NextSiblingElement())
        lines_.equality.push_back(c->GetLineNum());
    } else if (t == "actuator") {
      for (const tinyxml2::XMLElement* c = s->FirstChildElement(); c; c = c->NextSiblingElement())
        lines_.actuator.push_back(c->GetLineNum());
    } else if (t == "compiler" || t == "option" || t == "size" || t == "default" || t == "asset" || t == "visual" ||
               t == "statistic") {
      // Read by MuJoCo's compiler into what is mapped (units, defaults, gravity, inertias) or
      // about drawing only; the options that would change the dynamics are checked on mjModel.
      continue;
    } else if (t == "include") {
      lines_.exact = false;
      warn(s->GetLineNum(), where, "elements of the included file are numbered without their lines");
    } else if (t == "contact") {
      warn(s->GetLineNum(), where, "not mapped: contact pairs and exclusions (mbdae has no per-pair selection)");
    } else if (t == "keyframe") {
      warn(s->GetLineNum(), where, "not mapped: the model starts at qpos0 (the reference configuration)");
    } else {
      warn(s->GetLineNum(), where, "not mapped: <" + t + "> is not read");
    }
  }
}

ImportResult MjcfImporter::run() {
  {
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile(file_.c_str()) != tinyxml2::XML_SUCCESS) {
      error(doc.ErrorLineNum(), "", std::string("not well-formed XML: ") + doc.ErrorStr());
      throw io::LoadError(errors_);
    }
    if (!doc.FirstChildElement("mujoco")) {
      error(doc.RootElement() ? doc.RootElement()->GetLineNum() : 1, "", "no <mujoco> element: not an MJCF file");
      throw io::LoadError(errors_);
    }
    index_xml(doc);
  }
  char message[1000] = "";
  m_ = mj_loadXML(file_.c_str(), nullptr, message, sizeof message);
  if (!m_) {
    error(1, "<mujoco>", std::string("MuJoCo's compiler refused the file: ") + message);
    throw io::LoadError(errors_);
  }
  struct Free {
    mjModel* m;
    mjData* d;
    ~Free() {
      if (d) mj_deleteData(d);
      mj_deleteModel(m);
    }
  } guard{m_, mj_makeData(m_)};
  mjData* d = guard.d;
  if (static_cast<int>(lines_.body.size()) != m_->nbody || static_cast<int>(lines_.joint.size()) != m_->njnt ||
      static_cast<int>(lines_.geom.size()) != m_->ngeom || static_cast<int>(lines_.equality.size()) != m_->neq ||
      static_cast<int>(lines_.actuator.size()) != m_->nu)
    lines_.exact = false;
  if (!lines_.exact) lines_ = Lines{};

  // The reference configuration, and the equality constraints' residuals there.
  mj_resetData(m_, d);
  mj_forward(m_, d);

  // Options that change the dynamics and have no counterpart.
  if (m_->opt.density != 0 || m_->opt.viscosity != 0 || m_->opt.wind[0] != 0 || m_->opt.wind[1] != 0 ||
      m_->opt.wind[2] != 0)
    error(0, "<option>", "density, viscosity or wind are not mapped (mbdae has no fluid forces)");
  // (the <tendon> and <sensor> sections are listed by the XML pass; an included file's are not)
  if (!lines_.exact && m_->ntendon) warn(0, "<tendon>", std::to_string(m_->ntendon) + " tendon(s) not mapped");
  if (!lines_.exact && m_->nsensor) warn(0, "<sensor>", std::to_string(m_->nsensor) + " sensor(s) not mapped");

  // ---- bodies ------------------------------------------------------------------------------
  const int nb = m_->nbody;
  std::vector<std::string> host(static_cast<size_t>(nb));
  host[0] = "ground";
  auto X_W = [&](int b) {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = Quaterniond(d->xquat[4 * b], d->xquat[4 * b + 1], d->xquat[4 * b + 2], d->xquat[4 * b + 3])
                     .normalized()
                     .toRotationMatrix();
    X.translation() = Vector3d(d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2]);
    return X;
  };
  for (int b = 1; b < nb; ++b) {
    const std::string bn = name(mjOBJ_BODY, b, "body");
    const std::string where = "body '" + bn + "'";
    const int line = at(lines_.body, b);
    const int parent = m_->body_parentid[b];
    if (bn == "ground") error(line, where, "'ground' is mbdae's fixed body: rename the body");
    if (m_->body_mocapid[b] >= 0) error(line, where, "a mocap body (moved by the user) is not mapped");
    if (m_->body_mass[b] > 0) {
      host[static_cast<size_t>(b)] = bn;
    } else if (m_->body_jntnum[b] == 0) {
      host[static_cast<size_t>(b)] = host[static_cast<size_t>(parent)];
    } else {
      error(line, where, "has no mass but moves on its joint(s): give it an <inertial> or geoms with mass");
      host[static_cast<size_t>(b)] = bn;
    }
  }

  ModelWriter w(std::filesystem::path(file_).stem().string(),
                "imported from " + std::filesystem::path(file_).filename().string() + " (MJCF) at qpos0",
                Vector3d(m_->opt.gravity[0], m_->opt.gravity[1], m_->opt.gravity[2]));
  for (int b = 1; b < nb; ++b) {
    if (host[static_cast<size_t>(b)] != name(mjOBJ_BODY, b, "body") || m_->body_mass[b] <= 0) continue;
    const Matrix3d Ri = Quaterniond(m_->body_iquat[4 * b], m_->body_iquat[4 * b + 1], m_->body_iquat[4 * b + 2],
                                    m_->body_iquat[4 * b + 3])
                            .normalized()
                            .toRotationMatrix();
    const Vector3d diag(m_->body_inertia[3 * b], m_->body_inertia[3 * b + 1], m_->body_inertia[3 * b + 2]);
    w.body(name(mjOBJ_BODY, b, "body"), m_->body_mass[b],
           Vector3d(m_->body_ipos[3 * b], m_->body_ipos[3 * b + 1], m_->body_ipos[3 * b + 2]),
           Ri * diag.asDiagonal() * Ri.transpose(), X_W(b));
  }

  // ---- joints ------------------------------------------------------------------------------
  auto vec = [](const mjtNum* p) { return Vector3d(p[0], p[1], p[2]); };
  for (int b = 1; b < nb; ++b) {
    const std::string bn = name(mjOBJ_BODY, b, "body");
    const std::string a = host[static_cast<size_t>(m_->body_parentid[b])];
    if (host[static_cast<size_t>(b)] != bn) continue;  // merged into its parent
    const int nj = m_->body_jntnum[b];
    if (nj == 0) {
      w.joint(bn + "_weld", "fixed", a, bn, vec(d->xpos + 3 * b));
      continue;
    }
    if (nj > 1) {
      std::string names;
      for (int k = 0; k < nj; ++k) names += (k ? ", " : "") + name(mjOBJ_JOINT, m_->body_jntadr[b] + k, "joint");
      error(at(lines_.body, b), "body '" + bn + "'",
            std::to_string(nj) + " joints (" + names +
                ") in one body are not mapped: mbdae joins two bodies by one joint (split the body, or use one joint)");
      continue;
    }
    const int j = m_->body_jntadr[b];
    const std::string jn = name(mjOBJ_JOINT, j, "joint");
    const std::string where = "joint '" + jn + "'";
    const int line = at(lines_.joint, j);
    const int type = m_->jnt_type[j];
    const int dof = m_->jnt_dofadr[j];
    const bool scalar = type == mjJNT_HINGE || type == mjJNT_SLIDE;
    if (type == mjJNT_BALL) w.joint(jn, "spherical", a, bn, vec(d->xanchor + 3 * j));
    if (scalar) {
      w.joint(jn, type == mjJNT_HINGE ? "revolute" : "prismatic", a, bn, vec(d->xanchor + 3 * j), vec(d->xaxis + 3 * j));
      w.sensor(jn, type == mjJNT_HINGE);
    }
    const int ndof = type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
    for (int k = 0; k < ndof; ++k)
      if (m_->dof_armature[dof + k] != 0)
        error(line, where, "armature " + fmt_num(m_->dof_armature[dof + k]) + " is not mapped (a rotor inertia on the coordinate)");
    if (m_->jnt_stiffness[j] != 0)
      error(line, where, "stiffness " + fmt_num(m_->jnt_stiffness[j]) + " is not mapped (write a spring-damper)");
    if (m_->jnt_limited[j]) {
      if (!scalar) {
        error(line, where, "a range on a ball or free joint is not mapped");
      } else {
        const double q0 = m_->qpos0[m_->jnt_qposadr[j]];
        w.limit(jn, m_->jnt_range[2 * j] - q0, m_->jnt_range[2 * j + 1] - q0, opt_);
      }
    }
    bool dyn = false;
    for (int k = 0; k < ndof; ++k) dyn = dyn || m_->dof_damping[dof + k] != 0 || m_->dof_frictionloss[dof + k] != 0;
    if (dyn && !scalar) {
      error(line, where, "damping and frictionloss are mapped on hinge and slide joints only");
    } else if (dyn) {
      if (m_->dof_damping[dof] < 0 || m_->dof_frictionloss[dof] < 0)
        error(line, where, "damping and frictionloss must be >= 0");
      else
        w.friction(jn, type == mjJNT_HINGE, m_->dof_damping[dof], m_->dof_frictionloss[dof]);
    }
  }
  // ---- equality constraints: connect → spherical, weld → fixed joints -------------------------
  for (int e = 0; e < m_->neq; ++e) {
    const std::string en = name(mjOBJ_EQUALITY, e, "equality");
    const int line = at(lines_.equality, e);
    const int type = m_->eq_type[e];
    const std::string kind = type == mjEQ_CONNECT ? "connect" : type == mjEQ_WELD ? "weld" : type == mjEQ_JOINT ? "joint"
                             : type == mjEQ_TENDON ? "tendon" : "distance";
    const std::string where = "<" + kind + " name='" + en + "'>";
    if (!m_->eq_active[e]) {
      warn(line, where, "inactive (active=\"false\"): not mapped");
      continue;
    }
    // mbdae's constraints hold the relative configuration the model starts in: MuJoCo's must
    // be satisfied at qpos0.
    double residual = 0;
    for (int r = 0; r < d->nefc; ++r)
      if (d->efc_type[r] == mjCNSTR_EQUALITY && d->efc_id[r] == e) residual = std::max(residual, std::abs(d->efc_pos[r]));
    if (type == mjEQ_TENDON || type == mjEQ_DISTANCE) {
      error(line, where, "a " + kind + " equality is not mapped");
      continue;
    }
    if (residual > 1e-9) {
      error(line, where, "not satisfied at qpos0 (residual " + fmt_num(residual) +
                             "): mbdae holds the relative configuration the model starts in");
      continue;
    }
    if (type == mjEQ_JOINT) {
      const int j1 = m_->eq_obj1id[e], j2 = m_->eq_obj2id[e];
      const mjtNum* p = m_->eq_data + mjNEQDATA * e;  // polycoef: q1 − q1₀ = p0 + p1 (q2 − q2₀) + p2 (…)² …
      if (p[0] != 0 || p[2] != 0 || p[3] != 0 || p[4] != 0) {
        error(line, where, "polycoef with other than a linear term (" + fmt_num(p[0]) + " " + fmt_num(p[1]) + " " +
                               fmt_num(p[2]) + " " + fmt_num(p[3]) + " " + fmt_num(p[4]) + ") is not mapped");
        continue;
      }
      auto scalar = [&](int j) { return j >= 0 && (m_->jnt_type[j] == mjJNT_HINGE || m_->jnt_type[j] == mjJNT_SLIDE); };
      if (!scalar(j1) || (j2 >= 0 && !scalar(j2))) {
        error(line, where, "couples a ball or free joint: not mapped");
        continue;
      }
      if (j2 >= 0)
        w.coupling(en, {name(mjOBJ_JOINT, j1, "joint"), name(mjOBJ_JOINT, j2, "joint")}, {1.0, -p[1]});
      else
        w.coupling(en, {name(mjOBJ_JOINT, j1, "joint")}, {1.0});
      continue;
    }
    const int b1 = m_->eq_obj1id[e], b2 = m_->eq_obj2id[e];
    const mjtNum* p = m_->eq_data + mjNEQDATA * e;
    Vector3d point;
    if (type == mjEQ_CONNECT) {
      point = X_W(b1) * Vector3d(p[0], p[1], p[2]);
    } else {
      point = X_W(b2).translation();
    }
    w.joint(en, type == mjEQ_CONNECT ? "spherical" : "fixed", host[static_cast<size_t>(b1)],
            host[static_cast<size_t>(b2)], point);
  }

  // ---- actuators → joint motors ------------------------------------------------------------
  for (int u = 0; u < m_->nu; ++u) {
    const std::string an = name(mjOBJ_ACTUATOR, u, "actuator");
    const int line = at(lines_.actuator, u);
    const std::string where = "actuator '" + an + "'";
    const int j = m_->actuator_trnid[2 * u];
    if (m_->actuator_trntype[u] != mjTRN_JOINT || j < 0 ||
        (m_->jnt_type[j] != mjJNT_HINGE && m_->jnt_type[j] != mjJNT_SLIDE)) {
      error(line, where, "only actuators on a hinge or slide joint are mapped (not tendons, sites, slider-cranks, bodies)");
      continue;
    }
    if (m_->actuator_dyntype[u] != mjDYN_NONE) {
      error(line, where, "activation dynamics (dyntype) are not mapped");
      continue;
    }
    if (m_->actuator_gaintype[u] != mjGAIN_FIXED ||
        (m_->actuator_biastype[u] != mjBIAS_NONE && m_->actuator_biastype[u] != mjBIAS_AFFINE)) {
      error(line, where, "only fixed gains and affine biases (motor, position, velocity) are mapped");
      continue;
    }
    // force = gain·ctrl + b0 + b1·q + b2·q̇ (clamped to forcerange), on the joint times gear.
    // mbdae has no control inputs: ctrl is 0 (edit the motor's value to drive it).
    const mjtNum* bp = m_->actuator_biasprm + mjNBIAS * u;
    const double gear = m_->actuator_gear[6 * u];
    const std::string jn = name(mjOBJ_JOINT, j, "joint");
    const double q0 = m_->qpos0[m_->jnt_qposadr[j]];
    const bool hinge = m_->jnt_type[j] == mjJNT_HINGE;
    std::string f = "0";
    if (m_->actuator_biastype[u] == mjBIAS_AFFINE) {
      const std::string q = std::string(hinge ? "angle()" : "displacement()") + (q0 != 0 ? " + " + fmt_num(q0) : "");
      f = fmt_num(bp[0]) + " + " + fmt_num(bp[1]) + "*(" + q + ") + " + fmt_num(bp[2]) + "*" +
          (hinge ? "rate()" : "speed()");
    }
    if (m_->actuator_forcelimited[u])
      f = "max(" + fmt_num(m_->actuator_forcerange[2 * u]) + ", min(" + fmt_num(m_->actuator_forcerange[2 * u + 1]) +
          ", " + f + "))";
    if (gear != 1) f = fmt_num(gear) + "*(" + f + ")";
    warn(line, where, "its control input is 0 (mbdae has no control inputs): edit the value of the joint_motor '" + an + "'");
    w.motor(an, jn, f);
  }

  // ---- geoms -------------------------------------------------------------------------------
  for (int g = 0; g < m_->ngeom; ++g) {
    const std::string gn = name(mjOBJ_GEOM, g, "geom");
    const int line = at(lines_.geom, g);
    const std::string where = "geom '" + gn + "'";
    if (!opt_.collision) {
      warn(line, where, "not mapped (import with --collision to map geoms to contact shapes)");
      continue;
    }
    const std::string& hb = host[static_cast<size_t>(m_->geom_bodyid[g])];
    const int type = m_->geom_type[g];
    const mjtNum* s = m_->geom_size + 3 * g;
    // the geom's pose in its host body's frame
    Eigen::Isometry3d X_BG = Eigen::Isometry3d::Identity();
    X_BG.linear() = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->geom_xmat + 9 * g);
    X_BG.translation() = vec(d->geom_xpos + 3 * g);
    const int hid = hb == "ground" ? 0 : mj_name2id(m_, mjOBJ_BODY, hb.c_str());
    X_BG = (hid > 0 ? X_W(hid) : Eigen::Isometry3d::Identity()).inverse() * X_BG;
    const std::string mu = ", friction: " + fmt17(m_->geom_friction[3 * g]);
    if (type == mjGEOM_PLANE)
      w.contact(gn, "plane", hb, X_BG, mu.substr(2));
    else if (type == mjGEOM_SPHERE)
      w.contact(gn, "sphere", hb, X_BG, "radius: " + fmt17(s[0]) + mu);
    else if (type == mjGEOM_CAPSULE || type == mjGEOM_CYLINDER)
      w.contact(gn, type == mjGEOM_CAPSULE ? "capsule" : "cylinder", hb, X_BG,
                "radius: " + fmt17(s[0]) + ", length: " + fmt17(2 * s[1]) + mu);
    else if (type == mjGEOM_BOX)
      w.contact(gn, "box", hb, X_BG, "size: [" + fmt17(2 * s[0]) + ", " + fmt17(2 * s[1]) + ", " + fmt17(2 * s[2]) + "]" + mu);
    else
      error(line, where, "a geom of this type (ellipsoid, mesh, height field) is not mapped to a contact shape");
  }
  return finish_import(w, file_, opt_, warnings_, errors_);
}

}  // namespace

ImportResult import_mjcf_file(const std::string& path, const ImportOptions& options) {
  return MjcfImporter(path, options).run();
}

}  // namespace mbdae::import
