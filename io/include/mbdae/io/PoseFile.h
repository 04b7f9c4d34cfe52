#pragma once
/// @file PoseFile.h
/// Body poses over time in a compact binary file (`results.poses` beside `results.csv`): what the
/// viewer animates and what other tools read (docs/results-format.md describes the bytes).
///
/// Layout, little-endian, version 1:
///
/// | offset | type       | contents                                                        |
/// |--------|------------|-----------------------------------------------------------------|
/// | 0      | char[8]    | magic "MBDAEPOS"                                                |
/// | 8      | uint32     | version (1)                                                     |
/// | 12     | uint32     | header size in bytes (128): the first frame starts there        |
/// | 16     | uint32     | number of bodies n                                              |
/// | 20     | uint32     | values per body (7)                                             |
/// | 24     | uint32     | kind: 0 motion over time, 1 mode shape (frames over one period) |
/// | 28     | uint32     | reserved, 0                                                     |
/// | 32     | uint64     | number of frames; 0 while the file is written (see below)       |
/// | 40     | float64    | kind 1: the mode's frequency, Hz; else 0                        |
/// | 48     | char[80]   | label, UTF-8, NUL-padded ("" for a run; "mode 2" for a mode)    |
/// | 128    | frames     | each: float64 t, then n × float32 [x, y, z, qw, qx, qy, qz]     |
///
/// A frame is 8 + 28 n bytes: t (s; kind 1: the phase in [0, 1)), then for every body (in the
/// order of the model's bodies) its reference point in world coordinates (m) and its orientation
/// R_WB as a unit quaternion, scalar first. Each frame is flushed when written, and the frame
/// count is patched when the writer closes; a file whose count is 0 (a run that was killed) holds
/// as many whole frames as its size allows, and a reader ignores a trailing partial frame.

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace mbdae::io {

/// What the frames of a pose file hold.
enum class PoseKind : std::uint32_t {
  Motion = 0,     ///< a run: t in s, at the output times
  ModeShape = 1,  ///< one mode shape animated over a period: t is the phase in [0, 1)
};

inline constexpr std::uint32_t kPoseFileVersion = 1;
inline constexpr std::uint32_t kPoseHeaderBytes = 128;
inline constexpr std::uint32_t kPoseValuesPerBody = 7;
/// The largest pose file read (read_pose_file; a FIFO or a device is refused).
inline constexpr std::uint64_t kMaxPoseFileBytes = std::uint64_t{1} << 30;

/// Bytes of one frame for n bodies: 8 + 28 n.
constexpr std::uint64_t pose_frame_bytes(std::uint32_t bodies) {
  return 8 + 4ull * kPoseValuesPerBody * bodies;
}

/// Writes a pose file frame by frame (see the layout above).
class PoseWriter {
 public:
  /// Opens (truncates) `path` and writes the header. `label` is cut to 79 bytes.
  /// @throws std::runtime_error naming the file and the system's reason if it cannot be written.
  PoseWriter(const std::string& path, std::uint32_t bodies, PoseKind kind = PoseKind::Motion,
             const std::string& label = "", double frequency = 0);
  /// Closes the file (patches the frame count; errors are ignored here: call close() to see them).
  ~PoseWriter();
  PoseWriter(const PoseWriter&) = delete;
  PoseWriter& operator=(const PoseWriter&) = delete;

  /// Appends one frame and flushes it. `values` holds 7 n numbers [x, y, z, qw, qx, qy, qz] per
  /// body. @throws std::runtime_error on a write error or a wrong number of values.
  void write_frame(double t, std::span<const float> values);
  /// Patches the frame count into the header and closes the file. @throws std::runtime_error on
  /// a write error. Further calls do nothing.
  void close();

  const std::string& path() const { return path_; }
  std::uint64_t frames() const { return frames_; }
  std::uint32_t bodies() const { return bodies_; }
  /// Bytes written so far (header and frames).
  std::uint64_t bytes() const { return kPoseHeaderBytes + frames_ * pose_frame_bytes(bodies_); }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint32_t bodies_ = 0;
  std::uint64_t frames_ = 0;
  std::vector<unsigned char> buffer_;
};

/// A pose file read into memory.
struct PoseData {
  PoseKind kind = PoseKind::Motion;
  std::string label;
  double frequency = 0;            ///< Hz, mode shapes
  std::uint32_t bodies = 0;
  std::vector<double> times;       ///< one per frame
  std::vector<float> values;       ///< frames × bodies × 7
  bool truncated = false;          ///< the header's count was 0 or larger than the file holds
};

/// Reads a pose file. @throws std::runtime_error naming the file and what is wrong (no such
/// file, not a pose file, an unknown version, a header that contradicts itself).
PoseData read_pose_file(const std::string& path);

}  // namespace mbdae::io
