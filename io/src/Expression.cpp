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
  mu::Parser parser;

  explicit Parser(const std::string& text) {
    parser.DefineVar("t", &t);
    parser.DefineConst("pi", std::numbers::pi);
    parser.SetExpr(text);
  }
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

Expression::Expression(const std::string& text) : text_(text) {
  try {
    parser_ = std::make_unique<Parser>(text);
    parser_->parser.Eval();  // parses; throws on every syntax error
    // muParser reads "a,b" at the top level as a list of results and Eval() returns the last:
    // "0,5" would silently become 5. One expression is one number.
    if (parser_->parser.GetNumResults() != 1) throw ExpressionError(list_message(text), top_level_comma(text));
    const mu::varmap_type used = parser_->parser.GetUsedVar();
    depends_on_time_ = used.count("t") > 0;
    if (!depends_on_time_) {
      constant_ = parser_->parser.Eval();
      parser_.reset();
    }
  } catch (const mu::Parser::exception_type& e) {
    const int pos = static_cast<int>(e.GetPos());
    throw ExpressionError(e.GetMsg(), pos < 0 ? 0 : pos);
  }
}

Expression::Expression(double value) : text_(std::to_string(value)), constant_(value) {}

Expression::Expression(const Expression& o)
    : text_(o.text_), constant_(o.constant_), depends_on_time_(o.depends_on_time_) {
  if (o.parser_) {
    parser_ = std::make_unique<Parser>(text_);
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

double Expression::operator()(double t) const {
  if (!parser_) return constant_;
  parser_->t = t;
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace mbdae::io
