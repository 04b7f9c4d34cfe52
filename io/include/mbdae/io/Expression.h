#pragma once
/// @file Expression.h
/// A scalar function of time written in muParser syntax ("0.1*sin(10*t)", "t > 0.5 ? 1 : 0").
/// The variable is t [s]; the constants pi and e (Euler's number, as _e) are defined.
/// An expression may also name quantities of the state as f(name), with f one of the functions
/// its reader allows (the model loader: Quantities.h); their values are given at each
/// evaluation. table(x, rows) interpolates a table linearly (see the constructors).
///
/// Thread safety: every Expression object owns its own parser; copying an Expression builds a
/// new parser from the text. Distinct objects may be evaluated concurrently, one object may not.

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

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

/// A quantity of the state an expression names, e.g. angle(hinge).
struct ExpressionQuantity {
  std::string function;   ///< "angle"
  std::string argument;   ///< "hinge" (the text between the parentheses, trimmed; may be empty: f())
  int position = 0;       ///< 0-based offset of the function's name in the text (first use)
  int argument_position = 0;  ///< 0-based offset of the argument in the text (first use)
  /// The component after the parentheses, f(name).c (e.g. "x" of sensor(tip).x); empty if none.
  std::string component;
  int component_position = -1;  ///< 0-based offset of the '.' before the component (-1: none)
};

class Expression {
 public:
  /// Parses `text` and evaluates it once at t = 0 to find every syntax error now rather than
  /// during a run. @throws ExpressionError (unknown name, unbalanced parenthesis, ...).
  explicit Expression(const std::string& text);
  /// Parses `text` in which each f(name) with f one of `functions` is a quantity whose value is
  /// given at evaluation (quantities(): the distinct ones, in the order of their first use).
  /// @throws ExpressionError as above, and for f without parentheses. f() (nothing between them)
  /// is a quantity with an empty argument, for the reader to give a meaning or refuse. A name
  /// right after the closing parenthesis, f(name).c, is the quantity's component c (f(name).x
  /// and f(name).y are two quantities), for the reader to give a meaning or refuse.
  Expression(const std::string& text, const std::vector<std::string>& functions);
  /// The same, where table(x, rows) is the linear interpolation of a table of rows (x_i, y_i),
  /// x_i increasing: rows inline, "[x0, y0; x1, y1; ...]", or a CSV file of two columns (one
  /// header line, blank lines and '#' comment lines skipped) named relative to
  /// `table_directory` (the current directory if empty). Outside [x_0, x_n] a table has no value
  /// (NaN: a run stops there, naming the time). @throws ExpressionError also for a table file
  /// that cannot be read or rows that are not two finite numbers with x increasing.
  Expression(const std::string& text, const std::vector<std::string>& functions, const std::string& table_directory);
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
  /// Value at time t [s] with the quantities' values q (q[i] for quantities()[i]; missing ones
  /// are 0). Never throws; NaN for an evaluation error.
  double operator()(double t, std::span<const double> q) const;

  /// The quantities the text names (empty for an expression of t only).
  const std::vector<ExpressionQuantity>& quantities() const { return quantities_; }

  /// True if the text uses the variable t.
  bool depends_on_time() const { return depends_on_time_; }
  const std::string& text() const { return text_; }
  /// The table files the text reads, as opened (for the output checks: no output replaces them).
  std::vector<std::string> table_files() const;

 private:
  struct Parser;
  struct Table {  // read-only once built: shared by copies
    std::vector<double> x, y;
    std::string source;  // "inline" or the file name as written
    std::string path;    // the file read (empty for inline rows)
    static double evaluate(void* self, double x);
  };
  std::string text_;
  std::string parsed_;  // text_ with each quantity replaced by its variable
  std::vector<ExpressionQuantity> quantities_;
  std::vector<std::shared_ptr<const Table>> tables_;
  double constant_ = 0;
  bool depends_on_time_ = false;
  std::unique_ptr<Parser> parser_;  // null for a constant
};

}  // namespace mbdae::io
