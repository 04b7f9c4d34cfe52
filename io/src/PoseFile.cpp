#include <mbdae/io/PoseFile.h>
#include <mbdae/io/FilePolicy.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace mbdae::io {

namespace {

constexpr char kMagic[8] = {'M', 'B', 'D', 'A', 'E', 'P', 'O', 'S'};
constexpr size_t kLabelOffset = 48, kLabelBytes = 80;

// Little-endian encoding whatever the host's byte order.
template <class U>
void put_le(unsigned char* p, U u) {
  for (size_t i = 0; i < sizeof(U); ++i) p[i] = static_cast<unsigned char>((u >> (8 * i)) & 0xff);
}
template <class U>
U get_le(const unsigned char* p) {
  U u = 0;
  for (size_t i = 0; i < sizeof(U); ++i) u |= static_cast<U>(p[i]) << (8 * i);
  return u;
}
void put_f32(unsigned char* p, float x) { put_le(p, std::bit_cast<std::uint32_t>(x)); }
void put_f64(unsigned char* p, double x) { put_le(p, std::bit_cast<std::uint64_t>(x)); }
float get_f32(const unsigned char* p) { return std::bit_cast<float>(get_le<std::uint32_t>(p)); }
double get_f64(const unsigned char* p) { return std::bit_cast<double>(get_le<std::uint64_t>(p)); }

std::runtime_error write_error(const std::string& path) {
  return std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace

PoseWriter::PoseWriter(const std::string& path, std::uint32_t bodies, PoseKind kind, const std::string& label,
                       double frequency)
    : path_(path), bodies_(bodies) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw write_error(path);
  unsigned char h[kPoseHeaderBytes] = {};
  std::memcpy(h, kMagic, sizeof kMagic);
  put_le<std::uint32_t>(h + 8, kPoseFileVersion);
  put_le<std::uint32_t>(h + 12, kPoseHeaderBytes);
  put_le<std::uint32_t>(h + 16, bodies);
  put_le<std::uint32_t>(h + 20, kPoseValuesPerBody);
  put_le<std::uint32_t>(h + 24, static_cast<std::uint32_t>(kind));
  put_le<std::uint64_t>(h + 32, 0);  // patched by close()
  put_f64(h + 40, frequency);
  std::memcpy(h + kLabelOffset, label.data(), std::min(label.size(), kLabelBytes - 1));
  if (std::fwrite(h, 1, sizeof h, file_) != sizeof h || std::fflush(file_) != 0) {
    const std::runtime_error e = write_error(path);
    std::fclose(file_);
    file_ = nullptr;
    throw e;
  }
  buffer_.resize(pose_frame_bytes(bodies));
}

PoseWriter::~PoseWriter() {
  try {
    close();
  } catch (const std::exception&) {
    // A destructor does not throw; the frames written so far stay readable (count 0 = from size).
  }
}

void PoseWriter::write_frame(double t, std::span<const float> values) {
  if (!file_) throw std::runtime_error("'" + path_ + "': pose file is closed");
  if (values.size() != size_t{kPoseValuesPerBody} * bodies_)
    throw std::runtime_error("pose frame with " + std::to_string(values.size()) + " values, expected " +
                             std::to_string(size_t{kPoseValuesPerBody} * bodies_));
  put_f64(buffer_.data(), t);
  unsigned char* p = buffer_.data() + 8;
  for (float x : values) {
    put_f32(p, x);
    p += 4;
  }
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size() || std::fflush(file_) != 0)
    throw write_error(path_);
  ++frames_;
}

void PoseWriter::close() {
  if (!file_) return;
  std::FILE* f = file_;
  file_ = nullptr;
  unsigned char n[8];
  put_le<std::uint64_t>(n, frames_);
  const bool patched = std::fseek(f, 32, SEEK_SET) == 0 && std::fwrite(n, 1, sizeof n, f) == sizeof n;
  const int patch_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!patched) errno = patch_errno;
  if (!patched || !closed) throw write_error(path_);
}

PoseData read_pose_file(const std::string& path) {
  // Bounded: a FIFO or a device is refused, a file larger than the bound is not read.
  const std::string text = read_bounded(path, kMaxPoseFileBytes, "'" + path + "'");
  const std::span<const unsigned char> bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  auto bad = [&](const std::string& what) { return std::runtime_error("'" + path + "': " + what); };
  if (bytes.size() < 48 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw bad("not a pose file (it does not start with MBDAEPOS)");
  const unsigned char* h = bytes.data();
  const auto version = get_le<std::uint32_t>(h + 8);
  if (version != kPoseFileVersion)
    throw bad("pose file version " + std::to_string(version) + ", this program reads version " +
              std::to_string(kPoseFileVersion));
  const auto header = get_le<std::uint32_t>(h + 12);
  const auto per_body = get_le<std::uint32_t>(h + 20);
  const auto kind = get_le<std::uint32_t>(h + 24);
  if (header < kPoseHeaderBytes || header > bytes.size())
    throw bad("header size " + std::to_string(header) + " is out of range (file of " +
              std::to_string(bytes.size()) + " bytes)");
  if (per_body != kPoseValuesPerBody)
    throw bad(std::to_string(per_body) + " values per body, expected " + std::to_string(kPoseValuesPerBody));
  if (kind > 1) throw bad("unknown kind " + std::to_string(kind) + " (0 motion, 1 mode shape)");
  PoseData d;
  d.bodies = get_le<std::uint32_t>(h + 16);
  d.kind = static_cast<PoseKind>(kind);
  d.frequency = get_f64(h + 40);
  const char* label = reinterpret_cast<const char*>(h + kLabelOffset);
  d.label.assign(label, strnlen(label, kLabelBytes));
  const std::uint64_t frame = pose_frame_bytes(d.bodies);
  const std::uint64_t whole = (bytes.size() - header) / frame;
  const std::uint64_t count = get_le<std::uint64_t>(h + 32);
  std::uint64_t n = count;
  if (count == 0 || count > whole) {
    n = whole;
    d.truncated = true;
  }
  d.times.resize(n);
  d.values.resize(n * d.bodies * kPoseValuesPerBody);
  for (std::uint64_t f = 0; f < n; ++f) {
    const unsigned char* p = h + header + f * frame;
    d.times[f] = get_f64(p);
    p += 8;
    float* out = d.values.data() + f * d.bodies * kPoseValuesPerBody;
    for (std::uint64_t k = 0; k < std::uint64_t{d.bodies} * kPoseValuesPerBody; ++k, p += 4) out[k] = get_f32(p);
  }
  return d;
}

}  // namespace mbdae::io
