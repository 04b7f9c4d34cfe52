#pragma once
/// @file FilePolicy.h
/// What mbdae reads and writes, decided in one place.
///
/// Outputs. The one rule for every file an mbdae command writes (results CSV, .meta.json, .poses,
/// .scene.json, state files, pages, plots, study tables, mode shapes), decided here and nowhere
/// else (docs/results-format.md, "Where results may be written"):
///
/// - an output is a regular file or does not exist yet. A FIFO, a device, a socket or a directory
///   is refused by name: mbdae never writes into it and never creates files beside it;
/// - an output is never a symbolic link (whatever it points to): a link is refused, not followed;
/// - an output is never one of the run's inputs (the model, the tables and meshes it reads, the
///   state it restarts from, the study file, three.js, the results a page is made from), compared
///   by file identity (hard links too) and by normalized path.
///
/// A refusal names the output and, for an input, the input; the commands exit with 2 (bad input)
/// before anything is written.

#include <stdexcept>
#include <string>
#include <vector>

namespace mbdae::io {

/// Thrown by require_outputs(); what() names the output (and the input it would replace).
class OutputRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Why `output` may not be written ("" if it may): not a regular file, a symbolic link, or the
/// same file as one of `inputs`. Nothing is created or changed.
std::string output_refusal(const std::string& output, const std::vector<std::string>& inputs);

/// output_refusal() for each of `outputs` (empty names skipped), and no two outputs the same file.
/// @throws OutputRefused with the first reason.
void require_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

/// True if a and b name the same file: the same device and inode when both exist, else the same
/// absolute, normalized path. Symbolic links are followed (an input reached through a link is
/// still that input).
bool same_file(const std::string& a, const std::string& b);

/// Inputs a model names (tables of table(x, file), meshes) resolve inside the model file's folder
/// or one of the folders listed in the environment variable MBDAE_READ_PATHS (separated by ':').
/// Returns "" if `path` (already joined to the model's folder if it was relative) may be read,
/// else why not, naming `as_written` (never the file's contents).
std::string input_refusal(const std::string& path, const std::string& model_folder, const std::string& as_written);

/// Reads at most `max_bytes` of the regular file `path` (a FIFO, a device or a directory is
/// refused, and so is a file that grows past the bound while it is read). `what` names the file
/// in messages ("table file 'x.csv'"); a message never shows the file's contents.
/// @throws std::runtime_error
std::string read_bounded(const std::string& path, size_t max_bytes, const std::string& what);

}  // namespace mbdae::io
