/// @file Overrides.cpp
/// `--set key=value`: the value (parsed as YAML) replaces the node at the key path before any
/// check, so an override is checked like the file; problems inside it point at the override.
/// Mappings missing on the way are added (`output.every` on a file without `output`); list items
/// are not: an index past the end of a list is a problem naming the list and its length.

#include "Loader.h"

#include <mbdae/io/Sensitivity.h>

#include <charconv>
#include <cmath>

namespace mbdae::io::loader {

/// One segment of a key path: a key, or an index (key empty).
struct Segment {
  std::string key;
  long index = -1;
};

/// "a.b[2].c" -> {a}, {b}, {[2]}, {c}; std::nullopt if it is not a key path.
std::optional<std::vector<Segment>> split_key_path(const std::string& k) {
  std::vector<Segment> segs;
  size_t p = 0;
  while (p < k.size()) {
    if (k[p] == '[') {
      const size_t q = k.find(']', p);
      long idx = -1;
      if (q == std::string::npos || std::from_chars(k.data() + p + 1, k.data() + q, idx).ptr != k.data() + q ||
          idx < 0)
        return std::nullopt;
      segs.push_back({"", idx});
      p = q + 1;
    } else {
      size_t q = k.find_first_of(".[", p);
      if (q == std::string::npos) q = k.size();
      if (q == p) return std::nullopt;
      segs.push_back({k.substr(p, q - p), -1});
      p = q;
    }
    if (p < k.size() && k[p] == '.') ++p;
  }
  if (segs.empty() || segs[0].index >= 0) return std::nullopt;
  return segs;
}

}  // namespace mbdae::io::loader

namespace mbdae::io {

double model_number(const std::string& file, const std::vector<Override>& overrides, const std::string& key) {
  auto refuse = [&](const std::string& why) {
    Diagnostic d;
    d.file = file;
    d.key_path = key;
    d.message = why;
    throw LoadError({d});
  };
  const std::optional<std::vector<loader::Segment>> segs = loader::split_key_path(key);
  if (!segs) refuse("not a key path (expected e.g. bodies[1].mass or forces[0].stiffness)");
  // The last override of the key wins, as when the overrides are applied in order.
  std::string text;
  bool from_override = false;
  for (auto o = overrides.rbegin(); o != overrides.rend(); ++o)
    if (o->key == key) {
      text = o->value;
      from_override = true;
      break;
    }
  YAML::Node cur;
  try {
    if (from_override) {
      cur = YAML::Load(text);
    } else {
      cur = YAML::LoadFile(file);
      for (const loader::Segment& seg : *segs) {
        if (seg.index >= 0) {
          if (!cur.IsSequence() || static_cast<size_t>(seg.index) >= cur.size())
            refuse("the model file has no value at this key (give it with --set " + key + "=VALUE)");
          cur.reset(cur[static_cast<size_t>(seg.index)]);
        } else {
          if (!cur.IsMap() || !cur[seg.key])
            refuse("the model file has no value at this key (give it with --set " + key + "=VALUE)");
          cur.reset(cur[seg.key]);
        }
      }
    }
  } catch (const YAML::Exception& e) {
    refuse("cannot read the value: " + e.msg);
  }
  double x = 0;
  bool ok = cur.IsScalar();
  if (ok) {
    const std::string s = cur.Scalar();
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, x);
    ok = r.ec == std::errc() && r.ptr == end && std::isfinite(x);
  }
  if (!ok) refuse("a parameter must be a number (an expression, list or mapping cannot be differentiated by its key)");
  return x;
}

}  // namespace mbdae::io

namespace mbdae::io::loader {

void Loader::apply_overrides(YAML::Node& root, const std::vector<Override>& overrides) {
  for (const Override& o : overrides) {
    const std::optional<std::vector<Segment>> segs = split_key_path(o.key);
    if (!segs) {
      override_error(o, 1, "not a key path (expected e.g. solver.type or bodies[1].mass)");
      continue;
    }
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
      // A value is one document: "1\n---\n2" would otherwise give its first and drop the rest.
      if (const std::optional<YAML::Mark> second = second_document(o.value)) {
        override_error(o, second->is_null() ? 0 : second->column + 1,
                       "more than one YAML document in the value (a '---'); a value is one document");
        continue;
      }
    } catch (const YAML::Exception& e) {
      override_error(o, e.mark.is_null() ? 0 : e.mark.column + 1, "YAML syntax error in the value: " + e.msg);
      continue;
    }
    YAML::Node cur(root);  // a handle; reset() moves it without changing the tree
    std::string path;
    std::string created;  // the first mapping the override adds to the tree (all below it is the override's)
    bool ok = true;
    for (size_t s = 0; s < segs->size() && ok; ++s) {
      const bool last = s + 1 == segs->size();
      const Segment& seg = (*segs)[s];
      if (seg.index >= 0) {
        const size_t idx = static_cast<size_t>(seg.index);
        if (!cur.IsSequence() || idx >= cur.size()) {
          override_error(o, 1, "'" + path + "' has no item [" + std::to_string(idx) + "]" +
                                   (cur.IsSequence() ? " (it has " + std::to_string(cur.size()) + ")" : ""));
          ok = false;
          break;
        }
        path = index(path, idx);
        if (last) cur[idx] = value;
        else cur.reset(cur[idx]);
      } else {
        if (!cur.IsDefined() || cur.IsNull()) {
          // A mapping the file does not have (or leaves empty) on the way: the override adds it,
          // as "solver.tolerance.relative" on a solver without tolerance.
          cur = YAML::Node(YAML::NodeType::Map);
          if (created.empty()) created = path;
        } else if (!cur.IsMap()) {
          override_error(o, 1, "'" + path + "' is not a mapping");
          ok = false;
          break;
        }
        path = child(path, seg.key);
        if (last) cur[seg.key] = value;
        else cur.reset(cur[seg.key]);
      }
    }
    if (ok) add_override(created.empty() ? path : created, "--set " + o.key + "=" + o.value);
  }
}

}  // namespace mbdae::io::loader
