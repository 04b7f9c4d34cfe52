#include <mbdae/io/Expression.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>

#include <muParser.h>

namespace mbdae::io {

// One muParser instance bound to its own variable t. Never copied: a copy of an Expression
// builds a new one, because a parser holds the address of its variables.
struct Expression::Parser {
  double t = 0;
  std::vector<double> q;  // the quantities' values; sized once (the parser holds their addresses)
  mu::Parser parser;

  Parser(const std::string& text, size_t quantities) : q(quantities, 0.0) {
    parser.DefineVar("t", &t);
    for (size_t i = 0; i < q.size(); ++i) parser.DefineVar(variable(i), &q[i]);
    parser.DefineConst("pi", std::numbers::pi);
    parser.SetExpr(text);
  }
  // The muParser variable that stands for quantity i.
  static std::string variable(size_t i) { return "_quantity_" + std::to_string(i) + "_"; }
};

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
}  // namespace

Expression::Expression(const std::string& text) : Expression(text, {}) {}

Expression::Expression(const std::string& text, const std::vector<std::string>& functions) : text_(text) {
  // Each f(name) becomes a variable; `origin` maps every character of the parsed text back to
  // the text's, so that muParser's error positions point into what the user wrote.
  std::vector<int> origin;
  for (size_t i = 0; i < text.size();) {
    if (name_start(text[i]) && (i == 0 || !name_char(text[i - 1]))) {
      size_t e = i;
      while (e < text.size() && name_char(text[e])) ++e;
      const std::string word = text.substr(i, e - i);
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
        size_t k = 0;
        while (k < quantities_.size() && !(quantities_[k].function == word && quantities_[k].argument == arg)) ++k;
        if (k == quantities_.size())
          quantities_.push_back({word, arg, static_cast<int>(i), static_cast<int>(ab)});
        const std::string var = Parser::variable(k);
        parsed_ += var;
        origin.insert(origin.end(), var.size(), static_cast<int>(i));
        i = close + 1;
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
  try {
    parser_ = std::make_unique<Parser>(parsed_, quantities_.size());
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
    throw ExpressionError(e.GetMsg(), at(static_cast<int>(e.GetPos())));
  }
}

Expression::Expression(double value) : text_(std::to_string(value)), constant_(value) {}

Expression::Expression(const Expression& o)
    : text_(o.text_), parsed_(o.parsed_), quantities_(o.quantities_), constant_(o.constant_),
      depends_on_time_(o.depends_on_time_) {
  if (o.parser_) {
    parser_ = std::make_unique<Parser>(parsed_, quantities_.size());
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
