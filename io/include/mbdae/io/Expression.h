#pragma once
/// @file Expression.h
/// A scalar function of time written in muParser syntax ("0.1*sin(10*t)", "t > 0.5 ? 1 : 0").
/// The only variable is t [s]; the constants pi and e (Euler's number, as _e) are defined.
///
/// Thread safety: every Expression object owns its own parser; copying an Expression builds a
/// new parser from the text. Distinct objects may be evaluated concurrently, one object may not.

#include <memory>
#include <stdexcept>
#include <string>

namespace mbdae::io {

/// A syntax error in an expression. position() is the 0-based character offset in the text.
class ExpressionError : public std::invalid_argument {
 public:
  ExpressionError(const std::string& message, int position)
      : std::invalid_argument(message), position_(position) {}
  int position() const { return position_; }

 private:
  int position_;
};

class Expression {
 public:
  /// Parses `text` and evaluates it once at t = 0 to find every syntax error now rather than
  /// during a run. @throws ExpressionError (unknown name, unbalanced parenthesis, ...).
  explicit Expression(const std::string& text);
  /// A constant (no parser).
  explicit Expression(double value);
  Expression(const Expression& other);
  Expression& operator=(const Expression& other);
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;
  ~Expression();

  /// Value at time t [s]. Never throws: an evaluation error gives NaN (which the solvers report
  /// as a residual failure, naming the time).
  double operator()(double t) const;

  /// True if the text uses the variable t.
  bool depends_on_time() const { return depends_on_time_; }
  const std::string& text() const { return text_; }

 private:
  struct Parser;
  std::string text_;
  double constant_ = 0;
  bool depends_on_time_ = false;
  std::unique_ptr<Parser> parser_;  // null for a constant
};

}  // namespace mbdae::io
