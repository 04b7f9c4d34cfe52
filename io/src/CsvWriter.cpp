#include <mbdae/io/CsvWriter.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace mbdae::io {

void append_csv_number(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "nan";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x == 0 ? 0.0 : x);  // no "-0"
  out.append(buf, r.ptr);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q;
  q.reserve(s.size() + 2);
  q.push_back('"');
  for (char c : s) {
    if (c == '"') q.push_back('"');
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path), columns_(columns.size()) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_)
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) line_.push_back(',');
    line_.append(csv_field(columns[i]));
  }
  line_ += '\n';
  // Unbuffered: each row is one write, so a failed one can be cut off (write_row()).
  std::setvbuf(file_, nullptr, _IONBF, 0);
  if (std::fwrite(line_.data(), 1, line_.size(), file_) != line_.size() || std::fflush(file_) != 0)
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  bytes_ = static_cast<long>(line_.size());
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::write_row(std::span<const double> values) {
  if (values.size() != columns_)
    throw std::runtime_error("CSV row with " + std::to_string(values.size()) + " values, expected " +
                             std::to_string(columns_));
  line_.clear();
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) line_ += ',';
    append_csv_number(line_, values[i]);
  }
  line_ += '\n';
  if (failed_) throw std::runtime_error("cannot write '" + path_ + "': an earlier write failed");
  if (std::fwrite(line_.data(), 1, line_.size(), file_) != line_.size() || std::fflush(file_) != 0) {
    const int err = errno;
    failed_ = true;
    // Part of the row may have been written: cut the file back to its last whole row.
    if (::ftruncate(::fileno(file_), bytes_) != 0) { /* nothing better to do: the error is reported */ }
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(err));
  }
  bytes_ += static_cast<long>(line_.size());
  ++rows_;
}

}  // namespace mbdae::io
