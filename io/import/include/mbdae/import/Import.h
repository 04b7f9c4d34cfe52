#pragma once
/// @file Import.h
/// Models from robot description files: URDF (through urdfdom), MJCF (through MuJoCo's parser) and
/// SDFormat (through libsdformat) become the same model file a user writes
/// (docs/model-format.md), which the model loader then reads. What the file holds and the
/// model file cannot express is an error or a warning naming the element and its line
/// (docs/import.md); nothing is dropped without a word.
///
///     import::ImportResult r = import::import_file("arm.urdf");
///     for (const io::Diagnostic& w : r.warnings) std::puts(w.to_string().c_str());
///     io::LoadedModel m = io::load_model_text(r.yaml, r.model_name);

#include <string>
#include <vector>

#include <mbdae/io/Diagnostics.h>
#include <mbdae/io/ModelLoader.h>

namespace mbdae::import {

struct ImportOptions {
  /// Map <collision> geometry to contact shapes (mbdae has no per-pair exclusion, so the shapes of
  /// neighbouring links touch wherever they overlap at a joint: off by default, each element is
  /// then a warning).
  bool collision = false;
  /// Penalty stops for <limit lower upper>: N m/rad (revolute) or N/m (prismatic), N m s/rad or N s/m.
  double limit_stiffness = 1e5;
  double limit_damping = 0;
  /// Every warning is an error (import_file throws).
  bool strict = false;
  /// Mesh paths in the model file are written relative to this folder (the folder of the model
  /// file that will hold them); empty: the folder of the imported file.
  std::string base_dir;
  /// solver.end_time of the model written.
  double end_time = 1.0;
};

struct ImportResult {
  std::string yaml;        ///< the model file (YAML)
  std::string model_name;  ///< the name to give load_model_text: "<file> (imported)", beside the file
  std::vector<io::Diagnostic> warnings;  ///< what was not mapped, each at its element and line
};

/// True for the formats import_file reads: .urdf (URDF), .xml and .mjcf (MJCF), .sdf (SDFormat).
bool is_importable(const std::string& path);

/// Reads a URDF, MJCF or SDFormat file (by its extension) and writes the equivalent model file.
/// @throws io::LoadError listing every error (and, with options.strict, every warning) at its
///   element and line.
ImportResult import_file(const std::string& path, const ImportOptions& options = {});

/// Same for text already in memory; `file_name` names it in the diagnostics and gives the folder
/// relative to which mesh files are found.
ImportResult import_urdf_text(const std::string& text, const std::string& file_name,
                              const ImportOptions& options = {});

/// MJCF, read and compiled by MuJoCo's own parser (libmujoco-dev), at qpos0.
ImportResult import_mjcf_file(const std::string& path, const ImportOptions& options = {});

/// SDFormat, read by libsdformat (libsdformat-dev 12); closed loops are kept.
ImportResult import_sdf_file(const std::string& path, const ImportOptions& options = {});

/// import_file, then io::load_model_text with the overrides. Warnings are appended to `warnings`.
io::LoadedModel load_imported(const std::string& path, const std::vector<io::Override>& overrides,
                              std::vector<io::Diagnostic>& warnings, const ImportOptions& options = {});

}  // namespace mbdae::import
