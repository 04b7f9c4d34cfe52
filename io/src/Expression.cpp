#include <mbdae/io/Expression.h>
#include <mbdae/io/FilePolicy.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <limits>
#include <numbers>

#include <muParser.h>

#include <mbdae/io/Suggest.h>

namespace mbdae::io {

// One muParser instance bound to its own variable t. Never copied: a copy of an Expression
// builds a new one, because a parser holds the address of its variables.
struct Expression::Parser {
  double t = 0;
  std::vector<double> q;  // the quantities' values; sized once (the parser holds their addresses)
  mu::Parser parser;

  Parser(const std::string& text, size_t quantities, const std::vector<std::shared_ptr<const Table>>& tables)
      : q(quantities, 0.0) {
    parser.DefineVar("t", &t);
    for (size_t i = 0; i < q.size(); ++i) parser.DefineVar(variable(i), &q[i]);
    for (size_t i = 0; i < tables.size(); ++i)
      parser.DefineFunUserData(table_function(i), &Table::evaluate, const_cast<Table*>(tables[i].get()));
    parser.DefineConst("pi", std::numbers::pi);
    parser.SetExpr(text);
  }
  // The muParser variable that stands for quantity i.
  static std::string variable(size_t i) { return "_quantity_" + std::to_string(i) + "_"; }
  // The muParser function that stands for table i.
  static std::string table_function(size_t i) { return "_table_" + std::to_string(i) + "_"; }
};

double Expression::Table::evaluate(void* self, double x) {
  const Table& tb = *static_cast<const Table*>(self);
  // Outside [x_0, x_n] (or NaN): no value; a run stops there, naming the time. Within 1e-6 of
  // the range's width beyond an end, the end segment is extended, so that the central
  // differences of the implicit solvers' tangents work at a state on the end row.
  const double margin = 1e-6 * (tb.x.back() - tb.x.front());
  if (!(x >= tb.x.front() - margin && x <= tb.x.back() + margin)) return std::numeric_limits<double>::quiet_NaN();
  const size_t k = std::clamp<size_t>(static_cast<size_t>(std::upper_bound(tb.x.begin(), tb.x.end(), x) - tb.x.begin()),
                                      1, tb.x.size() - 1);
  const double x0 = tb.x[k - 1], x1 = tb.x[k];
  const double w = (x - x0) / (x1 - x0);
  return (1 - w) * tb.y[k - 1] + w * tb.y[k];
}

namespace {
// The rows "x, y" of a table: inline "[x0, y0; x1, y1; ...]" or the lines of a CSV file (blank
// lines, lines starting with '#' and one header line of text skipped). Throws a message.
void parse_rows(const std::string& body, char row_sep, std::vector<double>& x, std::vector<double>& y,
                const std::string& what) {
  size_t row = 0, start = 0;
  bool header_skipped = false;
  while (start <= body.size()) {
    size_t end = body.find(row_sep, start);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(start, end - start);
    start = end + 1;
    ++row;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    std::vector<double> v;
    size_t pos = b;
    bool number_row = true;
    while (pos < line.size()) {
      const size_t comma = std::min(line.find(',', pos), line.size());
      std::string cell = line.substr(pos, comma - pos);
      const size_t cb = cell.find_first_not_of(" \t"), ce = cell.find_last_not_of(" \t");
      cell = cb == std::string::npos ? "" : cell.substr(cb, ce - cb + 1);
      double val = 0;
      const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), val);
      if (cell.empty() || r.ec != std::errc() || r.ptr != cell.data() + cell.size() || !std::isfinite(val)) {
        number_row = false;
        break;
      }
      v.push_back(val);
      pos = comma + 1;
    }
    if (!number_row) {
      if (row_sep == '\n' && !header_skipped && x.empty()) {
        header_skipped = true;  // a header line of column names
        continue;
      }
      // Not the row itself: the file may be one the model should not show (its contents stay out).
      throw std::string(what + ": row " + std::to_string(row) + " is not two finite numbers");
    }
    if (v.size() != 2)
      throw std::string(what + ": row " + std::to_string(row) + " has " + std::to_string(v.size()) +
                        " numbers; a table has two columns, x and y");
    if (!x.empty() && !(v[0] > x.back()))
      throw std::string(what + ": x must increase from row to row, got " + std::to_string(v[0]) + " after " +
                        std::to_string(x.back()));
    x.push_back(v[0]);
    y.push_back(v[1]);
  }
  if (x.size() < 2) throw std::string(what + ": a table needs at least two rows, got " + std::to_string(x.size()));
}
}  // namespace

namespace {
// The 0-based offset of the first comma outside parentheses (0 if there is none).
int top_level_comma(const std::string& s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    else if (s[i] == ')') --depth;
    else if (s[i] == ',' && depth == 0) return static_cast<int>(i);
  }
  return 0;
}

std::string list_message(const std::string& s) {
  const size_t c = static_cast<size_t>(top_level_comma(s));
  const bool digits_around = std::count(s.begin(), s.end(), ',') == 1 && c > 0 && c + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[c - 1])) &&
                             std::isdigit(static_cast<unsigned char>(s[c + 1]));
  return std::string("a list of values where one number is expected") +
         (digits_around ? " (a decimal comma? write '" + s.substr(0, c) + "." + s.substr(c + 1) + "')" : "");
}
}  // namespace

namespace {
bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// muParser's error, said in the terms of the text the user wrote (muParser's own message names
// internal variables and a position counted in its rewritten text; the caller adds the place).
// `at`: 0-based offset in `text`; `functions`: the named quantities this expression may use.
std::string parser_message(const mu::Parser::exception_type& e, const std::string& text, int at,
                           const std::vector<std::string>& functions) {
  const size_t p = static_cast<size_t>(std::clamp(at, 0, static_cast<int>(text.size())));
  size_t end = p;
  while (end < text.size() && name_char(text[end])) ++end;
  const std::string word = text.substr(p, end - p);
  const std::string here = p < text.size() ? "'" + text.substr(p, std::max<size_t>(end - p, 1)) + "'" : "the end";
  switch (e.GetCode()) {
    case mu::ecUNASSIGNABLE_TOKEN:
      if (!word.empty() && name_start(word[0])) {
        // The names an expression knows: t, pi, muParser's functions and the named quantities.
        std::vector<std::string> known = {"t", "pi", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                                          "tanh", "asinh", "acosh", "atanh", "log2", "log10", "log", "ln", "exp",
                                          "sqrt", "sign", "rint", "abs", "min", "max", "sum", "avg", "table"};
        known.insert(known.end(), functions.begin(), functions.end());
        const std::optional<std::string> close = closest_name(word, known);
        std::string functions_text;
        for (const std::string& f : functions) functions_text += ", " + f + "()";
        return "unknown name '" + word + "' (" + (close ? "did you mean '" + *close + "'? " : "") +
               "an expression knows t, pi and functions such as sin(), sqrt(), abs(), min(), table()" +
               functions_text + ")";
      }
      return "unexpected character " + here;
    case mu::ecMISSING_PARENS: return "a '(' is not closed";
    case mu::ecUNEXPECTED_PARENS: return "unexpected parenthesis " + here;
    case mu::ecUNEXPECTED_EOF: return "the expression ends before it is complete";
    case mu::ecUNEXPECTED_OPERATOR: return "unexpected operator " + here;
    case mu::ecUNEXPECTED_ARG_SEP: return "unexpected comma";
    case mu::ecUNEXPECTED_VAL:
    case mu::ecUNEXPECTED_VAR:
    case mu::ecUNEXPECTED_FUN:
    case mu::ecUNEXPECTED_ARG:
      return "unexpected " + here + " (an operator such as '*' missing before it?)";
    case mu::ecTOO_MANY_PARAMS: return "too many arguments for the function " + here;
    case mu::ecTOO_FEW_PARAMS: return "too few arguments for the function " + here;
    case mu::ecEMPTY_EXPRESSION: return "the expression is empty";
    case mu::ecUNEXPECTED_CONDITIONAL:
    case mu::ecMISSING_ELSE_CLAUSE:
    case mu::ecMISPLACED_COLON: return "an incomplete condition 'a ? b : c' at " + here;
    case mu::ecINVALID_CHARACTERS_FOUND: return "characters an expression cannot hold";
    default: break;
  }
  // Other codes: muParser's text without its position (the place is given by the caller).
  std::string m = e.GetMsg();
  if (const size_t k = m.find(" at position "); k != std::string::npos) m.erase(k);
  while (!m.empty() && (m.back() == '.' || m.back() == ' ')) m.pop_back();
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return m;
}
}  // namespace

Expression::Expression(const std::string& text) : Expression(text, {}) {}

std::vector<std::string> Expression::table_files() const {
  std::vector<std::string> files;
  for (const auto& t : tables_)
    if (!t->path.empty()) files.push_back(t->path);
  return files;
}

Expression::Expression(const std::string& text, const std::vector<std::string>& functions)
    : Expression(text, functions, "") {}

Expression::Expression(const std::string& text, const std::vector<std::string>& functions,
                       const std::string& table_directory)
    : text_(text) {
  // Each f(name) becomes a variable and each table(x, rows) a function of x; `origin` maps every
  // character of the parsed text back to the text's, so that muParser's error positions point
  // into what the user wrote.
  std::vector<int> origin;
  std::vector<std::pair<size_t, size_t>> skips;  // a table's ", rows" (from the comma to before ')')
  for (size_t i = 0; i < text.size();) {
    if (!skips.empty() && i == skips.back().first) {
      i = skips.back().second;
      skips.pop_back();
      continue;
    }
    if (name_start(text[i]) && (i == 0 || !name_char(text[i - 1]))) {
      size_t e = i;
      while (e < text.size() && name_char(text[e])) ++e;
      const std::string word = text.substr(i, e - i);
      if (word == "table") {
        size_t open = e;
        while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
        if (open >= text.size() || text[open] != '(')
          throw ExpressionError("table() takes a value and its rows: table(x, file.csv) or table(x, [x0, y0; x1, y1])",
                                static_cast<int>(i));
        // The matching ')' and the last comma at the table's own depth (brackets hold the rows).
        int depth = 0;
        size_t close = std::string::npos, comma = std::string::npos;
        for (size_t c = open; c < text.size(); ++c) {
          if (text[c] == '(' || text[c] == '[') ++depth;
          else if (text[c] == ')' || text[c] == ']') --depth;
          else if (text[c] == ',' && depth == 1) comma = c;
          if (depth == 0) {
            close = c;
            break;
          }
        }
        if (close == std::string::npos || text[close] != ')')
          throw ExpressionError("table(): unbalanced parentheses", static_cast<int>(open));
        if (comma == std::string::npos)
          throw ExpressionError("table() takes a value and its rows: table(x, file.csv) or table(x, [x0, y0; x1, y1])",
                                static_cast<int>(open));
        size_t sb = comma + 1, se = close;
        while (sb < se && std::isspace(static_cast<unsigned char>(text[sb]))) ++sb;
        while (se > sb && std::isspace(static_cast<unsigned char>(text[se - 1]))) --se;
        const std::string source = text.substr(sb, se - sb);
        auto tb = std::make_shared<Table>();
        try {
          if (!source.empty() && source.front() == '[') {
            if (source.back() != ']') throw std::string("inline rows: expected '[x0, y0; x1, y1; ...]'");
            parse_rows(source.substr(1, source.size() - 2), ';', tb->x, tb->y, "inline rows");
            tb->source = "inline";
          } else {
            if (source.empty()) throw std::string("table(): no rows (a CSV file name or [x0, y0; x1, y1; ...])");
            const std::filesystem::path file = table_directory.empty()
                                                   ? std::filesystem::path(source)
                                                   : std::filesystem::path(table_directory) / source;
            if (!table_directory.empty())
              if (std::string why = input_refusal(file.string(), table_directory, source); !why.empty())
                throw std::string("table file " + why);
            constexpr std::size_t kMaxBytes = std::size_t{64} << 20;  // as a model file
            std::string contents;
            try {
              contents = read_bounded(file.string(), kMaxBytes, "table file '" + source + "'");
            } catch (const std::runtime_error& e) {
              throw std::string(e.what());
            }
            parse_rows(contents, '\n', tb->x, tb->y, "table file '" + source + "'");
            tb->source = source;
            tb->path = file.string();
          }
        } catch (const std::string& message) {
          throw ExpressionError(message, static_cast<int>(sb));
        }
        tables_.push_back(std::move(tb));
        const std::string fn = Parser::table_function(tables_.size() - 1);
        parsed_ += fn;
        origin.insert(origin.end(), fn.size(), static_cast<int>(i));
        skips.push_back({comma, close});
        i = open;  // the '(' and the value follow as usual; the rows are skipped
        continue;
      }
      if (std::find(functions.begin(), functions.end(), word) != functions.end()) {
        size_t open = e;
        while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
        const size_t close = open < text.size() && text[open] == '(' ? text.find_first_of("()", open + 1) : std::string::npos;
        if (close == std::string::npos || text[close] != ')')
          throw ExpressionError(word + "() takes the name of one item in parentheses, e.g. " + word + "(hinge)",
                                static_cast<int>(i));
        size_t ab = open + 1, ae = close;
        while (ab < ae && std::isspace(static_cast<unsigned char>(text[ab]))) ++ab;
        while (ae > ab && std::isspace(static_cast<unsigned char>(text[ae - 1]))) --ae;
        const std::string arg = text.substr(ab, ae - ab);
        // A component right after the parenthesis: f(name).c (letters, digits, '_').
        size_t end = close + 1;
        std::string component;
        int component_position = -1;
        if (end + 1 < text.size() && text[end] == '.' && name_start(text[end + 1])) {
          size_t ce = end + 1;
          while (ce < text.size() && (std::isalnum(static_cast<unsigned char>(text[ce])) || text[ce] == '_')) ++ce;
          component = text.substr(end + 1, ce - end - 1);
          component_position = static_cast<int>(end);
          end = ce;
        }
        size_t k = 0;
        while (k < quantities_.size() && !(quantities_[k].function == word && quantities_[k].argument == arg &&
                                           quantities_[k].component == component))
          ++k;
        if (k == quantities_.size())
          quantities_.push_back({word, arg, static_cast<int>(i), static_cast<int>(ab), component, component_position});
        const std::string var = Parser::variable(k);
        parsed_ += var;
        origin.insert(origin.end(), var.size(), static_cast<int>(i));
        i = end;
        continue;
      }
      parsed_ += word;
      for (size_t c = i; c < e; ++c) origin.push_back(static_cast<int>(c));
      i = e;
      continue;
    }
    parsed_ += text[i];
    origin.push_back(static_cast<int>(i));
    ++i;
  }
  auto at = [&](int pos) {
    if (pos < 0) return 0;
    if (static_cast<size_t>(pos) < origin.size()) return origin[static_cast<size_t>(pos)];
    return static_cast<int>(text.size() + (static_cast<size_t>(pos) - origin.size()));  // past the end, as muParser says
  };
  // muParser takes "=" (and "+=", "-=", "*=", "/=") as an assignment to a variable: "(t=0.5)*0+t"
  // would set t at every evaluation. An expression is a value, not a statement: only the
  // comparisons "==", "!=", "<=", ">=" may hold an '='.
  for (size_t k = 0; k < parsed_.size(); ++k) {
    if (parsed_[k] != '=') continue;
    if (k + 1 < parsed_.size() && parsed_[k + 1] == '=') {
      ++k;
      continue;
    }
    const char before = k > 0 ? parsed_[k - 1] : ' ';
    if (before == '<' || before == '>' || before == '!') continue;
    const bool compound = before == '+' || before == '-' || before == '*' || before == '/';
    throw ExpressionError("'" + std::string(compound ? std::string(1, before) + "=" : "=") +
                              "' is an assignment, which an expression may not contain (compare with '==')",
                          at(static_cast<int>(compound ? k - 1 : k)));
  }
  try {
    parser_ = std::make_unique<Parser>(parsed_, quantities_.size(), tables_);
    parser_->parser.Eval();  // parses; throws on every syntax error
    // muParser reads "a,b" at the top level as a list of results and Eval() returns the last:
    // "0,5" would silently become 5. One expression is one number.
    if (parser_->parser.GetNumResults() != 1) throw ExpressionError(list_message(text), top_level_comma(text));
    const mu::varmap_type used = parser_->parser.GetUsedVar();
    depends_on_time_ = used.count("t") > 0;
    if (!depends_on_time_ && quantities_.empty()) {
      constant_ = parser_->parser.Eval();
      parser_.reset();
    }
  } catch (const mu::Parser::exception_type& e) {
    const int position = at(static_cast<int>(e.GetPos()));
    throw ExpressionError(parser_message(e, text, position, functions), position);
  }
}

Expression::Expression(double value) : text_(std::to_string(value)), constant_(value) {}

Expression::Expression(const Expression& o)
    : text_(o.text_), parsed_(o.parsed_), quantities_(o.quantities_), tables_(o.tables_), constant_(o.constant_),
      depends_on_time_(o.depends_on_time_) {
  if (o.parser_) {
    parser_ = std::make_unique<Parser>(parsed_, quantities_.size(), tables_);
    parser_->parser.Eval();  // cannot fail: the text parsed before
  }
}

Expression& Expression::operator=(const Expression& o) {
  if (this != &o) {
    Expression copy(o);
    *this = std::move(copy);
  }
  return *this;
}

Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::~Expression() = default;

double Expression::operator()(double t) const { return (*this)(t, {}); }

double Expression::operator()(double t, std::span<const double> q) const {
  if (!parser_) return constant_;
  parser_->t = t;
  for (size_t i = 0; i < parser_->q.size(); ++i) parser_->q[i] = i < q.size() ? q[i] : 0.0;
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace mbdae::io
