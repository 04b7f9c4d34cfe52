/// @file ModelWriter.cpp
/// The model file of an import (ImportCommon.h).

#include <algorithm>
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "ImportCommon.h"

namespace mbdae::import {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

std::string num(double v) { return fmt17(v); }
std::string vec(const Vector3d& v) { return "[" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + "]"; }
std::string quat(const Matrix3d& R) {
  const Eigen::Quaterniond q(R);
  return "{quaternion: [" + num(q.w()) + ", " + num(q.x()) + ", " + num(q.y()) + ", " + num(q.z()) + "]}";
}
/// A name as a YAML scalar (quoted when it needs to be).
std::string str(const std::string& s) {
  YAML::Emitter e;
  e << s;
  return e.c_str();
}

}  // namespace

void ModelWriter::body(const std::string& name, double mass, const Vector3d& com, const Matrix3d& I_C,
                       const Eigen::Isometry3d& X_W) {
  const Matrix3d J = I_C + mass * (com.squaredNorm() * Matrix3d::Identity() - com * com.transpose());
  bodies_.push_back("{name: " + str(name) + ", mass: " + num(mass) + ", inertia: [" + num(J(0, 0)) + ", " +
                    num(J(1, 1)) + ", " + num(J(2, 2)) + ", " + num(J(1, 2)) + ", " + num(J(0, 2)) + ", " +
                    num(J(0, 1)) + "], com: " + vec(com) + ", position: " + vec(X_W.translation()) +
                    ", orientation: " + quat(X_W.linear()) + "}");
}

void ModelWriter::joint(const std::string& name, const std::string& type, const std::string& a, const std::string& b,
                        const Vector3d& point, const std::optional<Vector3d>& axis) {
  joints_.push_back("{name: " + str(name) + ", type: " + type + ", bodies: [" + str(a) + ", " + str(b) +
                    "], point: " + vec(point) + (axis ? ", axis: " + vec(*axis) : std::string()) + "}");
}

void ModelWriter::limit(const std::string& joint, double lower, double upper, const ImportOptions& o) {
  forces_.push_back("{name: " + str(joint + "_limit") + ", type: joint_limit, joint: " + str(joint) +
                    ", lower: " + num(lower) + ", upper: " + num(upper) + ", stiffness: " + num(o.limit_stiffness) +
                    (o.limit_damping > 0 ? ", damping: " + num(o.limit_damping) : std::string()) + "}");
}

void ModelWriter::friction(const std::string& joint, bool revolute, double damping, double coulomb) {
  std::string f = "{name: " + str(joint + "_dynamics") + ", type: joint_friction, joint: " + str(joint);
  if (damping > 0) f += std::string(", ") + (revolute ? "viscous_rotation" : "viscous_slide") + ": " + num(damping);
  if (coulomb > 0) f += ", friction: 1, normal_force: " + num(coulomb) + (revolute ? ", radius: 1" : "");
  forces_.push_back(f + "}");
}

void ModelWriter::motor(const std::string& name, const std::string& joint, const std::string& value) {
  forces_.push_back("{name: " + str(name) + ", type: joint_motor, joint: " + str(joint) + ", value: " + str(value) +
                    "}");
}

void ModelWriter::coupling(const std::string& name, const std::vector<std::string>& joints,
                           const std::vector<double>& c) {
  std::string j, k;
  for (size_t i = 0; i < joints.size(); ++i) {
    j += (i ? ", " : "") + str(joints[i]);
    k += (i ? ", " : "") + num(c[i]);
  }
  couplings_.push_back("{name: " + str(name) + ", type: linear, joints: [" + j + "], coefficients: [" + k + "]}");
}

void ModelWriter::contact(const std::string& name, const std::string& type, const std::string& body,
                          const Eigen::Isometry3d& X_BS, const std::string& keys) {
  std::string c = "{name: " + str(name) + ", type: " + type + ", body: " + str(body) + ", " + keys;
  if (type == "plane") {
    c += ", normal: " + vec(X_BS.linear().col(2)) + ", point: " + vec(X_BS.translation());
  } else {
    c += ", position: " + vec(X_BS.translation());
    if (type != "sphere") c += ", orientation: " + quat(X_BS.linear());
  }
  contacts_.push_back(c + "}");
}

void ModelWriter::sensor(const std::string& joint, bool revolute) {
  sensors_.push_back("{name: " + str(joint) + ", output: " + (revolute ? "joint_angle" : "joint_displacement") +
                     ", joint: " + str(joint) + "}");
}

std::string ModelWriter::yaml(const std::string& source_file, const ImportOptions& o) const {
  std::string s = "# Imported by mbdae from " + std::filesystem::path(source_file).filename().string() +
                  " (docs/import.md).\nname: " + str(name_) + "\ndescription: " + str(description_) +
                  "\ngravity: " + vec(gravity_) + "\n";
  auto section = [&](const char* key, const std::vector<std::string>& items) {
    if (items.empty() && std::string(key) != "bodies") return;
    s += std::string(key) + ":" + (items.empty() ? " []\n" : "\n");
    for (const std::string& i : items) s += "  - " + i + "\n";
  };
  section("bodies", bodies_);
  section("joints", joints_);
  section("couplings", couplings_);
  section("forces", forces_);
  section("contacts", contacts_);
  section("sensors", sensors_);
  s += "solver: {end_time: " + num(o.end_time) + "}\n";
  return s;
}

ImportResult finish_import(const ModelWriter& w, const std::string& file, const ImportOptions& o,
                           std::vector<io::Diagnostic> warnings, std::vector<io::Diagnostic> errors) {
  auto by_line = [](const io::Diagnostic& a, const io::Diagnostic& b) { return a.line < b.line; };
  std::stable_sort(warnings.begin(), warnings.end(), by_line);
  if (o.strict)
    for (io::Diagnostic d : warnings) {
      d.message += " (--strict)";
      errors.push_back(d);
    }
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end(), by_line);
    throw io::LoadError(errors);
  }
  ImportResult r;
  r.yaml = w.yaml(file, o);
  r.model_name = file + " (imported)";
  r.warnings = std::move(warnings);
  return r;
}

}  // namespace mbdae::import
