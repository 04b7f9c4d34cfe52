#include <mbdae/io/CsvWriter.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace mbdae::io {

namespace {
std::string quote_if_needed(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
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
}  // namespace

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path), columns_(columns.size()) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_)
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) line_.push_back(',');
    line_.append(quote_if_needed(columns[i]));
  }
  line_ += '\n';
  if (std::fputs(line_.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::write_row(std::span<const double> values) {
  if (values.size() != columns_)
    throw std::runtime_error("CSV row with " + std::to_string(values.size()) + " values, expected " +
                             std::to_string(columns_));
  line_.clear();
  char buf[32];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) line_ += ',';
    if (std::isnan(values[i])) {
      line_ += "nan";
      continue;
    }
    const double x = values[i] == 0 ? 0.0 : values[i];  // no "-0"
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    line_.append(buf, r.ptr);
  }
  line_ += '\n';
  if (std::fputs(line_.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  ++rows_;
}

}  // namespace mbdae::io
