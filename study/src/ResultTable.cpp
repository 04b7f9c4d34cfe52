#include <mbdae/study/ResultTable.h>

#include <charconv>
#include <fstream>
#include <stdexcept>

#include <mbdae/io/CsvWriter.h>

namespace mbdae::study {

std::vector<std::string> table_columns(const Study& study) {
  std::vector<std::string> c{"case"};
  for (const Parameter& p : study.parameters) c.push_back(p.name);
  for (const Output& o : study.outputs) c.push_back(o.name);
  for (const char* s : {"status", "t_reached", "wall_time", "message"}) c.emplace_back(s);
  return c;
}

std::string table_header(const Study& study) {
  std::string line;
  for (const std::string& c : table_columns(study)) line += (line.empty() ? "" : ",") + io::csv_field(c);
  return line + "\n";
}

std::string table_row(const Case& c, const CaseResult& r) {
  std::string line = std::to_string(c.id);
  for (const Value& v : c.values) line += "," + io::csv_field(v.text);
  for (double x : r.outputs) {
    line += ',';
    io::append_csv_number(line, x);
  }
  line += ',';
  line += to_string(r.status);
  line += ',';
  io::append_csv_number(line, r.t_reached);
  line += ',';
  io::append_csv_number(line, r.wall_time);
  // One physical line per row, so that a table can be read back line by line.
  std::string message = r.message;
  for (size_t p = message.find_first_of("\r\n"); p != std::string::npos; p = message.find_first_of("\r\n", p))
    message.replace(p, 1, "; ");
  line += "," + io::csv_field(message) + "\n";
  return line;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch != '"') fields.back().push_back(ch);
      else if (i + 1 < line.size() && line[i + 1] == '"') fields.back().push_back(line[++i]);
      else quoted = false;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else {
      fields.back().push_back(ch);
    }
  }
  if (quoted) throw std::runtime_error("unterminated quote");
  return fields;
}

TableContents read_table(const std::string& path, const Study& study, const std::vector<Case>& cases) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the table");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TableContents out;
  const std::string header = table_header(study);
  const size_t np = study.parameters.size(), ncols = table_columns(study).size();
  if (text.compare(0, header.size(), header) != 0)
    throw std::runtime_error(path + ":1: the header is not that of this study (expected " +
                             header.substr(0, header.size() - 1) + ")");
  std::vector<bool> seen(cases.size(), false);
  size_t pos = header.size();
  int line_no = 1;
  while (pos < text.size()) {
    ++line_no;
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) {  // cut short: the case is run again
      out.dropped = 1;
      break;
    }
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    std::vector<std::string> f;
    try {
      f = split_csv_line(line);
    } catch (const std::exception& e) {
      throw std::runtime_error(where + e.what());
    }
    if (f.size() != ncols)
      throw std::runtime_error(where + std::to_string(f.size()) + " fields, expected " + std::to_string(ncols));
    long id = -1;
    const auto r = std::from_chars(f[0].data(), f[0].data() + f[0].size(), id);
    if (r.ec != std::errc() || r.ptr != f[0].data() + f[0].size() || id < 0 || id >= static_cast<long>(cases.size()))
      throw std::runtime_error(where + "case '" + f[0] + "' is not a case of this study (0 to " +
                               std::to_string(cases.size() - 1) + ")");
    const Case& c = cases[static_cast<size_t>(id)];
    for (size_t j = 0; j < np; ++j)
      if (f[1 + j] != c.values[j].text)
        throw std::runtime_error(where + "case " + f[0] + ": " + study.parameters[j].name + " is " + f[1 + j] +
                                 " in the table but " + c.values[j].text +
                                 " in the study (the study changed since the table was written)");
    TableRow row;
    row.id = id;
    if (!parse_status(f[ncols - 4], row.status))
      throw std::runtime_error(where + "unknown status '" + f[ncols - 4] + "'");
    if (seen[static_cast<size_t>(id)]) continue;
    seen[static_cast<size_t>(id)] = true;
    row.line = line + "\n";
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace mbdae::study
