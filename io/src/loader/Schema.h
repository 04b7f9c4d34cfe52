#pragma once
/// @file Schema.h
/// The model loader's schema layer (internal to mbdae::io): where a problem is (file, line,
/// column, key path, or the --set override that put the value there), mappings with a fixed set
/// of keys (the unknown-key and duplicate-key checks), and typed reads with ranges. Every read
/// records its own problem and returns std::nullopt, so a section reads on and reports every
/// problem of a file at once. Only the loader's sources include yaml-cpp.

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include <mbdae/io/Diagnostics.h>
#include <mbdae/io/Expression.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/model/ElementKeys.h>

namespace mbdae::io::loader {

std::string join(const std::vector<std::string>& v, const char* sep = ", ");
/// A number as messages write it (6 significant digits).
std::string fmt_num(double x);
/// "unknown body 'rood' (did you mean 'rod'? bodies: ground, rod)": `what` and the name, the
/// closest of `known` if one is a likely typo (Suggest.h), then `label` ("bodies:") and the names
/// `listed` after it; the parenthesis is left out when it would be empty.
std::string unknown_name(const std::string& what, const std::string& given, const std::vector<std::string>& known,
                         const std::string& label = "", const std::vector<std::string>& listed = {});
/// "a scalar", "a list", "a mapping", "nothing (null)".
const char* kind_of(const YAML::Node& n);
/// "solver" + "step" -> "solver.step"; "" + "name" -> "name".
std::string child(const std::string& path, const std::string& key);
/// "bodies" + 2 -> "bodies[2]".
std::string index(const std::string& path, size_t i);

/// The largest magnitude of any number of the model format (docs/model-format.md, "Numbers"):
/// beyond it, sums of squares and products of two values leave the range of a double.
inline constexpr double max_magnitude = 1e15;
/// The range of positions and points [m] and of gravity [m/s^2].
inline constexpr double max_coordinate = 1e6;

/// The allowed values of a number; `text` is how messages state it ("> 0"). Every range is
/// also bounded by +-max_magnitude, except a direction's components (`direction()`), which
/// only need to be finite: a direction is scaled before it is normalized.
struct Range {
  double min = -HUGE_VAL, max = HUGE_VAL;
  bool min_open = false, max_open = false;
  std::string text;
  bool scale_free = false;
};
inline Range positive() { return {0, HUGE_VAL, true, false, "> 0"}; }
inline Range non_negative() { return {0, HUGE_VAL, false, false, ">= 0"}; }
inline Range any() { return {}; }
/// A position or a point [m].
inline Range coordinate() { return {-max_coordinate, max_coordinate, false, false, "in [-1e6, 1e6] m"}; }
/// A component of gravity [m/s^2].
inline Range acceleration() { return {-max_coordinate, max_coordinate, false, false, "in [-1e6, 1e6] m/s^2"}; }
/// A component of a direction (any finite number).
inline Range direction() { return {-HUGE_VAL, HUGE_VAL, false, false, "", true}; }

class Map;
struct Entry;

/// What an expression may name besides t (Expression.h): f(name) for f in `functions`, each
/// quantity checked by `check`, which returns the 0-based offset in the text of a problem and its
/// message, or std::nullopt.
struct QuantityRules {
  std::vector<std::string> functions;
  /// A problem of the quantity (its column and message); a negative column: a follow-on of a
  /// problem already reported at the item the quantity reads (no message, Reader::follow_on()).
  std::function<std::optional<std::pair<int, std::string>>(const ExpressionQuantity&)> check;
  std::string what;  ///< "an expression of t and the joint's coordinates", for messages
};

/// Records problems with their place and reads typed values. The sections of the loader
/// (Loader.h) build on it.
class Reader {
 public:
  Reader(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}

  // ---- where a problem is ---------------------------------------------------------------------
  /// The place of the node at `m` with key path `path` (the --set override if one set it).
  Diagnostic at(const YAML::Mark& m, const std::string& path) const;
  void error(const YAML::Mark& m, const std::string& path, const std::string& msg);
  void error(const YAML::Node& n, const std::string& path, const std::string& msg) { error(n.Mark(), path, msg); }
  /// A problem of a --set override itself (bad key path, bad value): placed at the override.
  void override_error(const Override& o, int column, const std::string& msg);
  /// A problem whose place is already known (a model-level check pointed at its item).
  void report(Diagnostic d) { diags_.push_back(std::move(d)); }
  /// Values under `path` came from the override `label` ("--set key=value").
  void add_override(const std::string& path, const std::string& label) { overrides_.push_back({path, label}); }
  /// The label of the override that set `path` (or a mapping above it); nullptr if none did.
  const std::string* override_of(const std::string& path) const;
  /// Where the item at `n` is, for LoadedModel's location tables.
  SourceLocation location(const YAML::Node& n, const std::string& path, const std::string& name) const;
  const std::string& file() const { return file_; }
  /// Every file the model's items read (tables, meshes), as opened.
  const std::vector<std::string>& files_read() const { return files_read_; }
  void note_file_read(const std::string& path) { files_read_.push_back(path); }
  const std::string& text() const { return text_; }
  /// Problems and follow-ons so far (sections compare counts to know whether an item had any).
  size_t problem_count() const { return diags_.size() + follow_ons_; }
  /// An item that fails only because it references an item whose problems are already reported
  /// (a joint with an unknown body, a force element with a bad key): counted by problem_count(),
  /// but no message of its own, so that one mistake gives one message.
  void follow_on() { ++follow_ons_; }
  /// The problems with a message (problem_count() less the follow-ons).
  size_t reported_count() const { return diags_.size(); }

  // ---- typed reads ----------------------------------------------------------------------------
  /// A finite number in `r`; strings that are not plain numbers are read as constant expressions.
  std::optional<double> number(const YAML::Node& n, const std::string& path, const Range& r = any());
  /// `x` if it is finite and in `r`, else a problem at `n`.
  std::optional<double> check_range(const YAML::Node& n, const std::string& path, double x, const Range& r);
  /// A number or an expression (of t if allow_t). Plain numbers give a constant Expression; NaN
  /// and infinite values are rejected (YAML's .nan, .inf, and "nan", "inf").
  std::optional<Expression> expression(const YAML::Node& n, const std::string& path, bool allow_t);
  /// The same, also naming the quantities of `rules` (allow_t is implied); each problem of a
  /// quantity is reported at its column.
  std::optional<Expression> expression(const YAML::Node& n, const std::string& path, const QuantityRules& rules);
  std::optional<std::string> string(const YAML::Node& n, const std::string& path);
  /// A non-empty string of at most 200 characters.
  std::optional<std::string> name(const YAML::Node& n, const std::string& path);
  /// One of `choices`; `unsupported` are known words of the format not implemented yet; `what`
  /// names the value in that message ("joint type").
  std::optional<std::string> choice(const YAML::Node& n, const std::string& path,
                                    const std::vector<std::string>& choices,
                                    const std::vector<std::string>& unsupported = {},
                                    const std::string& what = "");
  /// 0, 1, true or false.
  std::optional<bool> flag(const YAML::Node& n, const std::string& path);
  /// True if `n` is a list of exactly `size` items (`what`: "a list of 3 numbers").
  bool list(const YAML::Node& n, const std::string& path, size_t size, const char* what);
  std::optional<Vec3> vec3(const YAML::Node& n, const std::string& path, const Range& r = any());
  /// A direction (an axis or a normal): a Vec3 of finite components, not all zero, scaled so that
  /// its largest component is +-1 (so that [1e200, 1e200, 0] is the diagonal, not an overflow).
  std::optional<Vec3> nonzero_vec3(const YAML::Node& n, const std::string& path);
  /// {axis, angle} | {quaternion} | {rxyz} | {matrix}: a rotation matrix.
  std::optional<Mat3> orientation(const YAML::Node& n, const std::string& path);
  /// The value of an element type's key (ElementKeys.h), read by its kind; `choices` for
  /// KeyKind::Choice. std::nullopt (and a problem) if it is not one.
  std::optional<KeyValue> key_value(const YAML::Node& n, const std::string& path, KeyKind kind, KeyRange range,
                                    const std::vector<std::string>& choices);
  /// Every key of `keys` that `m` has, stored into `item` by the key's setter; a required key that
  /// is missing is a problem. False if any key had a problem.
  template <class Item>
  bool element_keys(Map& m, const std::vector<ElementKey<Item>>& keys, Item& item);
  /// An element type's check's problems, each at its key's value (or at the element).
  void key_problems(const Map& m, const std::vector<KeyProblem>& problems);
  /// True if `n` is a list section with items; false (and a problem unless null) otherwise.
  bool section_list(const YAML::Node& n, const std::string& path);

  /// Every problem, sorted: the file's in file order, the overrides' after them.
  std::vector<Diagnostic> take_sorted_problems();

 private:
  struct OverrideInfo {
    std::string key, label;
  };
  std::optional<Expression> expression(const YAML::Node& n, const std::string& path, bool allow_t,
                                       const QuantityRules* rules);
  /// 1 if the scalar at n starts with a quote in the source (expression error columns).
  int quote_offset(const YAML::Node& n, const std::string& path) const;

  std::string file_, text_;
  std::vector<std::string> files_read_;
  std::vector<Diagnostic> diags_;
  size_t follow_ons_ = 0;
  std::vector<OverrideInfo> overrides_;
};

/// One key of a mapping and its value.
struct Entry {
  std::string key;
  YAML::Node key_node, value;
};

/// A mapping with a fixed set of keys: an unknown key, a duplicate key or a key that is not a
/// plain name is a problem at that key; the other entries are looked up by name.
class Map {
 public:
  /// `allowed`: keys this mapping may have; `unsupported`: keys of the format that mbdae does
  /// not implement yet (with the message to give).
  Map(Reader& r, const YAML::Node& node, std::string path, std::vector<std::string> allowed,
      std::map<std::string, std::string> unsupported = {});
  /// False if the node is not a mapping (a problem has been recorded).
  bool valid() const { return valid_; }
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  std::string path(const std::string& key) const { return child(path_, key); }
  const Entry* find(const std::string& key) const;
  bool has(const std::string& key) const { return find(key) != nullptr; }
  /// The entry, or a problem "missing required key" at the mapping (`what` says what it holds).
  const Entry* require(const std::string& key, const std::string& what = "");

 private:
  Reader& r_;
  YAML::Node node_;
  std::string path_;
  std::vector<Entry> entries_;
  bool valid_ = true;
};

template <class Item>
bool Reader::element_keys(Map& m, const std::vector<ElementKey<Item>>& keys, Item& item) {
  bool ok = true;
  for (const ElementKey<Item>& k : keys) {
    const Entry* e = k.required ? m.require(k.key, k.meaning) : m.find(k.key);
    if (!e) {
      if (k.required) ok = false;
      continue;
    }
    if (auto v = key_value(e->value, m.path(k.key), k.kind, k.range, k.choices)) k.set(item, *v);
    else ok = false;
  }
  return ok;
}

}  // namespace mbdae::io::loader
