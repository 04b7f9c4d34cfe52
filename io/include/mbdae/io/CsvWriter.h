#pragma once
/// @file CsvWriter.h
/// Writes results as comma-separated values while a run goes on: the header first, then one row
/// per output time, each row flushed to the file so that a run that fails or is interrupted keeps
/// every row up to that time.

#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace mbdae::io {

/// Appends x in the shortest form that reads back exactly; NaN as "nan", −0 as 0.
void append_csv_number(std::string& out, double x);
/// A CSV field: `s` itself, or in double quotes (inner quotes doubled) if it holds a comma, a
/// quote or a line break.
std::string csv_field(const std::string& s);

class CsvWriter {
 public:
  /// Opens (truncates) `path` and writes the header line. @throws std::runtime_error naming the
  /// file and the system's reason if it cannot be opened or written.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  /// Writes one row (values.size() must equal the number of columns) and flushes it. Numbers are
  /// written in the shortest form that reads back exactly; NaN as "nan". @throws std::runtime_error
  /// on a write error or a wrong number of values. After a write error (a full disk) the file is
  /// cut back to its last whole row, and further rows are refused: a CSV never ends in a torn row.
  void write_row(std::span<const double> values);

  const std::string& path() const { return path_; }
  long rows() const { return rows_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  size_t columns_ = 0;
  long rows_ = 0;
  long bytes_ = 0;      // bytes of the header and the whole rows written
  bool failed_ = false;  // a write failed: the file holds only whole rows, nothing more is written
  std::string line_;  // reused buffer
};

}  // namespace mbdae::io
