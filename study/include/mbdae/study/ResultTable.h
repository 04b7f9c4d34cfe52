#pragma once
/// @file ResultTable.h
/// The result table of a study: CSV, one row per case, written as cases finish.
///
///     case, <parameters...>, <outputs...>, status, t_reached, wall_time, message
///
/// Numbers in the shortest form that reads back exactly (the same double as the CSV of
/// `mbdae run`), NaN as "nan"; parameters that are not numbers as their YAML text; the message
/// on one line (CSV-quoted where needed). A table is read back to resume its study: each row's
/// parameters must be those the study gives the case now.

#include <string>
#include <vector>

#include <mbdae/study/CaseRun.h>
#include <mbdae/study/Study.h>

namespace mbdae::study {

/// The column names of the study's table.
std::vector<std::string> table_columns(const Study& study);
/// The header line (with its line break).
std::string table_header(const Study& study);
/// One row of the table (with its line break).
std::string table_row(const Case& c, const CaseResult& r);

/// A finished row read back from a table.
struct TableRow {
  long id = 0;
  CaseStatus status = CaseStatus::Ok;
  std::string line;  ///< as in the file, with its line break
};

/// What read_table() found.
struct TableContents {
  std::vector<TableRow> rows;  ///< finished cases, in file order, each id once
  int dropped = 0;             ///< a last line cut short (the writer was killed while writing it)
};

/// Reads a table written for `study` (whose cases are `cases`).
/// @throws std::runtime_error "FILE:LINE: ..." if the header is not this study's, a row does not
///         parse, names a case the study does not have, or holds other parameter values than the
///         study gives that case now (the study file changed).
TableContents read_table(const std::string& path, const Study& study, const std::vector<Case>& cases);

/// Splits one CSV line (no line break) into its fields, undoing the quoting of csv_field().
/// @throws std::runtime_error on an unterminated quote.
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace mbdae::study
