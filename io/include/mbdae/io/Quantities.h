#pragma once
/// @file Quantities.h
/// Named quantities of the state, the one place that turns a name such as `angle(hinge)` or
/// `vz(wheel)` into an evaluator, and an expression bound to the quantities it names.
///
/// Built-in quantities (SI units; world axes; joints measured between markers at the joint
/// point with z along the joint axis, fixed to each body at t0, so every joint quantity is 0 at
/// t0 — the same markers as a joint_motor's):
///
/// | name              | joint types                    | value                                          |
/// |-------------------|--------------------------------|------------------------------------------------|
/// | angle(j)          | revolute, cylindrical          | φ = atan2(x_b·y_a, x_b·x_a), turns counted, rad |
/// | rate(j)           | revolute, cylindrical          | φ̇ = (ω_b − ω_a)·z_a, rad/s                    |
/// | displacement(j)   | prismatic, cylindrical         | s = z_a·d (d from a's marker point to b's), m  |
/// | speed(j)          | prismatic, cylindrical         | ṡ = z_a·ḋ + (ω_a × z_a)·d, m/s                 |
/// | x(b), y(b), z(b)  | body                           | position of the reference point, m             |
/// | vx(b), vy(b), vz(b) | body                         | velocity of the reference point, m/s           |
/// | wx(b), wy(b), wz(b) | body                         | angular velocity, rad/s                        |
///
/// An angle counts turns from its previous evaluation (the value nearest to it with the same
/// remainder modulo 2π), starting from 0 at t0: a quantity carries that memory, so a Quantity
/// (and whatever holds it) belongs to one run.
///
/// More functions may be registered (add_function), e.g. states a caller integrates itself, or
/// sensors read as quantities, sensor(name).x (Sensors.h, sensor_quantity; the model loader
/// registers both).

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <mbdae/io/Expression.h>
#include <mbdae/model/System.h>

namespace mbdae::io {

/// What a quantity is evaluated from: the time, the motions of the caller's bodies and the values
/// of the caller's controller states (System::controller_states()).
struct QuantityInput {
  double t = 0;                          ///< s
  std::span<const BodyMotion> motions;   ///< the caller's bodies' motions
  std::span<const int> index;            ///< motions[index[k]] is the quantity's body k
  std::span<const double> state_values = {};  ///< the caller's controller states' values
  std::span<const int> state_index = {};      ///< state_values[state_index[k]] is the quantity's state k
  /// Motion of the quantity's body k (Quantity::bodies()[k]).
  const BodyMotion& body(size_t k) const { return motions[static_cast<size_t>(index[k])]; }
  /// Value of the quantity's controller state k (Quantity::states()[k]).
  double state(size_t k) const { return state_values[static_cast<size_t>(state_index[k])]; }
};

/// A resolved quantity: the bodies it reads (never ground) and its evaluator.
struct Quantity {
  std::string text;                  ///< "angle(hinge)", for messages
  std::vector<std::string> bodies;   ///< the bodies whose motion it reads (none: not of the bodies)
  /// The value (SI). May keep memory between calls (an angle's turn count).
  std::function<double(const QuantityInput&)> value;
  std::vector<std::string> states = {};  ///< the controller states whose values it reads (state(name))
  /// True if the value counts turns from the previous evaluation (a joint's angle): run state that
  /// state files do not carry.
  bool counts_turns = false;
};

/// Why a name could not be resolved: the 0-based offset in the expression's text and the
/// message ("unknown joint 'hinge'").
struct QuantityProblem {
  int position = 0;
  std::string message;
};

/// Turns f(argument) into a Quantity for one System (its joints and bodies, as at t0).
class QuantityResolver {
 public:
  /// Resolves a registered function: fills `problem` and returns std::nullopt if it cannot.
  using Handler = std::function<std::optional<Quantity>(const ExpressionQuantity& q, QuantityProblem& problem)>;

  /// The built-in quantities of `system`'s joints and bodies. Keeps a reference: `system` must
  /// outlive the resolver (not the quantities it returns, which copy what they need).
  explicit QuantityResolver(const System& system);

  /// Adds (or replaces) a function `name(argument)`, e.g. "state". `unit_and_meaning` is for
  /// listings ("controller state, its own unit"). `takes_components`: the handler gives a meaning
  /// to name(argument).c (e.g. sensor(tip).x); otherwise resolve() refuses a component.
  void add_function(const std::string& name, Handler handler, const std::string& unit_and_meaning,
                    bool takes_components = false);

  /// Every function name it knows (the built-in ones, then the added ones): hand them to
  /// Expression(text, functions).
  std::vector<std::string> functions() const;

  /// f(argument) as parsed by Expression. std::nullopt with `problem` set (its position in the
  /// expression's text) for an unknown function, joint or body, a quantity the joint's type
  /// does not have ("angle() applies to revolute and cylindrical joints; 'slide' is prismatic"),
  /// or a component (f(argument).c) of a function that has none.
  std::optional<Quantity> resolve(const ExpressionQuantity& q, QuantityProblem& problem) const;
  /// The same from text, "angle(hinge)" (position 0-based in `text`).
  std::optional<Quantity> resolve(const std::string& text, QuantityProblem& problem) const;

  /// The built-in functions with their unit and meaning, for docs and messages.
  static const std::vector<std::pair<std::string, std::string>>& builtin();

 private:
  const System& system_;
  struct Added {
    std::string name, meaning;
    Handler handler;
    bool takes_components = false;
  };
  std::vector<Added> added_;
};

/// An expression of t and named quantities, bound to the resolved quantities. Its value is a
/// function of t and of the motions of bodies() (the union of its quantities' bodies, in the
/// order of first use).
class StateExpression {
 public:
  /// `quantities[i]` resolves `expression.quantities()[i]`.
  StateExpression(Expression expression, std::vector<Quantity> quantities);
  /// Parses `text` with `resolver`'s functions (tables named relative to `table_directory`) and
  /// resolves every quantity.
  /// @throws ExpressionError (syntax, or the first quantity that does not resolve, at its position).
  StateExpression(const std::string& text, const QuantityResolver& resolver, const std::string& table_directory = "");

  /// The bodies whose motions operator() takes, in that order.
  const std::vector<std::string>& bodies() const { return bodies_; }
  /// The controller states whose values operator() takes, in that order (first use).
  const std::vector<std::string>& states() const { return states_; }
  /// True if the value depends on a body's motion or a controller state (else it is a function
  /// of t only).
  bool depends_on_state() const { return !quantities_.empty(); }
  const Expression& expression() const { return expression_; }

  /// Makes operator() take the motions of `bodies` (a caller's list, e.g. a force element's,
  /// that holds every one of bodies()): bodies() becomes `bodies`.
  /// @throws std::invalid_argument naming a body of bodies() that `bodies` lacks.
  void bind(const std::vector<std::string>& bodies);

  /// Value at t [s] with `motions[k]` the motion of bodies()[k]. NaN for an evaluation error.
  double operator()(double t, std::span<const BodyMotion> motions) const;
  /// The same with `state_values[k]` the value of states()[k].
  double operator()(double t, std::span<const BodyMotion> motions, std::span<const double> state_values) const;

 private:
  Expression expression_;
  std::vector<Quantity> quantities_;
  std::vector<std::string> bodies_;
  std::vector<std::string> states_;
  std::vector<int> state_index_;  // quantity i's states: state_index_[state_first_[i] .. state_first_[i+1])
  std::vector<size_t> state_first_;
  std::vector<int> index_;        // quantity i's bodies: index_[first_[i] .. first_[i+1])
  std::vector<size_t> first_;
};

/// Calls f(double* v) with room for n doubles: on the stack for up to 16 (every evaluation of a
/// law of a few quantities, without allocation), on the heap beyond.
template <class F>
decltype(auto) with_doubles(size_t n, F&& f) {
  constexpr size_t kInline = 16;
  if (n <= kInline) {
    std::array<double, kInline> small{};
    return f(small.data());
  }
  std::vector<double> large(n);
  return f(large.data());
}

/// Quantities bound to a caller's list of bodies (a force element's): quantity i reads
/// motions[index[first[i] .. first[i+1])] of the motions of that list, and the values of the
/// controller states it names (state(name)) from the list states() of them all.
class BoundQuantities {
 public:
  /// Binds `quantities` to `bodies`, appending to `bodies` each body a quantity reads that is not
  /// in it yet.
  BoundQuantities(std::vector<Quantity> quantities, std::vector<std::string>& bodies);
  size_t size() const { return quantities_.size(); }
  /// True if a quantity counts turns (Quantity::counts_turns: run state, not in state files).
  bool reads_angle() const { return reads_angle_; }
  /// The controller states the quantities read (in the order of first use): the order of
  /// with_values()' `state_values`.
  const std::vector<std::string>& states() const { return states_; }
  /// Calls f(std::span<const double> q) with q[i] the value of quantity i at t, `motions[k]`
  /// the motion of the list's body k and `state_values[k]` the value of states()[k]; returns what
  /// f returns.
  /// @throws std::invalid_argument if state_values has fewer values than states().
  template <class F>
  decltype(auto) with_values(double t, std::span<const BodyMotion> motions, std::span<const double> state_values,
                             F&& f) const {
    if (state_values.size() < states_.size())
      throw std::invalid_argument("BoundQuantities: " + std::to_string(states_.size()) + " controller states read, " +
                                  std::to_string(state_values.size()) + " values given");
    return with_doubles(quantities_.size(), [&](double* q) -> decltype(auto) {
      for (size_t i = 0; i < quantities_.size(); ++i)
        q[i] = quantities_[i].value(QuantityInput{
            t, motions, std::span<const int>(index_.data() + first_[i], first_[i + 1] - first_[i]), state_values,
            std::span<const int>(state_index_.data() + state_first_[i], state_first_[i + 1] - state_first_[i])});
      return f(std::span<const double>(q, quantities_.size()));
    });
  }
  /// The same for quantities that read no controller state.
  template <class F>
  decltype(auto) with_values(double t, std::span<const BodyMotion> motions, F&& f) const {
    return with_values(t, motions, std::span<const double>(), std::forward<F>(f));
  }

 private:
  std::vector<Quantity> quantities_;
  std::vector<int> index_;
  std::vector<size_t> first_ = {0};
  std::vector<std::string> states_;
  std::vector<int> state_index_;  // quantity i's states: state_index_[state_first_[i] .. state_first_[i+1])
  std::vector<size_t> state_first_ = {0};
  bool reads_angle_ = false;
};

/// The value of a load as a function of t [s] and the quantities' values q (q[i] of
/// quantities[i]): N or N m, in the load's frame.
using StateLoadValue = std::function<Vec3(double t, std::span<const double> q)>;

/// A user force element that applies load `l` (its name, body, kind, point and frame; not its
/// value) with the value value(t, q): its bodies are l.body and those the quantities read, so
/// the implicit solvers form its tangent over all of them (central differences). It is a
/// user_of_states force over the controller states its quantities read (state(name);
/// ForceElement::states, none if they read none; the implicit solvers' tangent then has their
/// columns too). Marked
/// effort_uses_angle if a quantity is a joint's angle (its turn count is not in state files).
/// @throws std::invalid_argument if l.body is ground or empty.
ForceElement state_load(const Load& l, std::vector<Quantity> quantities, StateLoadValue value);

}  // namespace mbdae::io
