#pragma once
/// @file ImportCommon.h
/// What the importers share: the model file they write (ModelWriter: bodies, joints, limits,
/// joint friction, motors, couplings, contact shapes and the joints' sensors, in the keys of
/// docs/model-format.md), the end of an import (warnings, --strict) and number formatting.

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include <mbdae/import/Import.h>

namespace mbdae::import {

/// A number as the user wrote it, near enough for a message ("0.5", "1e+05").
inline std::string fmt_num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

/// A number that reads back to the same double ("0.40000000000000002", "7").
inline std::string fmt17(double v) {
  if (v == 0) return "0";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

/// The model file of an import, written at the end from what the importer adds.
class ModelWriter {
 public:
  ModelWriter(std::string name, std::string description, const Eigen::Vector3d& gravity)
      : name_(std::move(name)), description_(std::move(description)), gravity_(gravity) {}

  /// A body: mass (kg), COM in body axes (m), inertia about the COM in body axes (kg m²), the
  /// body frame's world pose. Written with its inertia about the body frame's origin (mbdae's
  /// reference point), by parallel axes.
  void body(const std::string& name, double mass, const Eigen::Vector3d& com, const Eigen::Matrix3d& inertia_com,
            const Eigen::Isometry3d& X_W);
  /// A joint of the model file: type, [a, b], point and (unless empty) axis in world.
  void joint(const std::string& name, const std::string& type, const std::string& a, const std::string& b,
             const Eigen::Vector3d& point, const std::optional<Eigen::Vector3d>& axis = {});
  /// A joint_limit force named <joint>_limit (bounds from the initial configuration).
  void limit(const std::string& joint, double lower, double upper, const ImportOptions& o);
  /// A joint_friction force named <joint>_dynamics: viscous damping and a Coulomb effort (N m or
  /// N) as μ = 1, normal_force = effort (radius 1 m on a turning joint).
  void friction(const std::string& joint, bool revolute, double damping, double coulomb);
  /// A joint_motor with a value expression.
  void motor(const std::string& name, const std::string& joint, const std::string& value);
  /// A linear coupling Σ c_i q_i = 0.
  void coupling(const std::string& name, const std::vector<std::string>& joints, const std::vector<double>& c);
  /// A contact shape: `type` sphere / box / capsule / cylinder / convex_mesh / plane, its pose in
  /// the body's frame, and its size keys as YAML text ("radius: 0.1").
  void contact(const std::string& name, const std::string& type, const std::string& body, const Eigen::Isometry3d& X_BS,
               const std::string& keys);
  /// A joint_angle (revolute) or joint_displacement (prismatic) sensor named as the joint.
  void sensor(const std::string& joint, bool revolute);

  /// The model file (YAML), with a first comment naming the source file.
  std::string yaml(const std::string& source_file, const ImportOptions& o) const;

 private:
  std::string name_, description_;
  Eigen::Vector3d gravity_;
  std::vector<std::string> bodies_, joints_, forces_, couplings_, contacts_, sensors_;  // flow mappings
};

/// Ends an import: with options.strict the warnings become errors; errors (sorted by line) are
/// thrown as io::LoadError; else the result with the warnings sorted by line.
ImportResult finish_import(const ModelWriter& w, const std::string& file, const ImportOptions& o,
                           std::vector<io::Diagnostic> warnings, std::vector<io::Diagnostic> errors);

}  // namespace mbdae::import
