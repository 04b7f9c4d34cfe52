/// @file Loader.cpp
/// The whole file: the document, the top-level keys, the sections in order, the model checks.

#include "Loader.h"

#include <sstream>

#include <mbdae/contact/ContactPairs.h>

#include <yaml-cpp/eventhandler.h>

namespace mbdae::io::loader {

namespace {

/// Parser events of one document; only its start is kept.
struct DocumentCounter final : YAML::EventHandler {
  YAML::Mark start = YAML::Mark::null_mark();
  void OnDocumentStart(const YAML::Mark& m) override { start = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// Finds a quoted scalar whose quote is never closed: yaml-cpp ends such a scalar at the end of the
/// file without an error, so `name: "pendulum` swallows the rest of the model into the name, and
/// the problem would be reported as missing keys at 1:1.
struct QuoteChecker final : YAML::EventHandler {
  explicit QuoteChecker(const std::string& t) : text(t) {}
  const std::string& text;
  YAML::Mark unclosed = YAML::Mark::null_mark();
  struct Found {};
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override {
    if (m.is_null() || m.pos < 0 || static_cast<size_t>(m.pos) >= text.size()) return;
    const size_t pos = static_cast<size_t>(m.pos);
    const char q = text[pos];
    if (q != '"' && q != '\'') return;
    for (size_t j = pos + 1; j < text.size(); ++j) {
      if (q == '"' && text[j] == '\\') {
        ++j;
      } else if (text[j] == q) {
        if (q == '\'' && j + 1 < text.size() && text[j + 1] == '\'') {
          ++j;
          continue;
        }
        return;  // closed
      }
    }
    unclosed = m;
    throw Found{};
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

std::optional<YAML::Mark> second_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentCounter skip, second;
  parser.HandleNextDocument(skip);
  if (parser.HandleNextDocument(second)) return second.start;
  return std::nullopt;
}

// ---- the document -------------------------------------------------------------------------------
YAML::Node Loader::read_document() const {
  auto fail_file = [&](int line, int column, const std::string& msg) {
    Diagnostic d;
    d.file = file();
    d.line = line;
    d.column = column;
    d.message = msg;
    throw LoadError({d});
  };
  const std::string& text = this->text();
  // Binary content: NUL bytes or invalid UTF-8 are named with their position.
  {
    int line = 1, col = 1;
    for (size_t i = 0; i < text.size();) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (c == 0) fail_file(line, col, "not a text file (NUL byte); expected a YAML or JSON model");
      size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      if (len == 0 || i + len > text.size())
        fail_file(line, col, "not a text file (invalid UTF-8); expected a YAML or JSON model");
      for (size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2)
          fail_file(line, col, "not a text file (invalid UTF-8); expected a YAML or JSON model");
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
      i += len;
    }
  }
  if (text.find_first_of("\"'") != std::string::npos) {
    // An unclosed quote first: it also explains any syntax error the parser finds after it.
    std::istringstream in(text);
    YAML::Parser parser(in);
    QuoteChecker quotes(text);
    try {
      parser.HandleNextDocument(quotes);
    } catch (const QuoteChecker::Found&) {
      fail_file(quotes.unclosed.line + 1, quotes.unclosed.column + 1,
                std::string("YAML syntax error: the quote ") + text[static_cast<size_t>(quotes.unclosed.pos)] +
                    " opened here is never closed");
    } catch (const YAML::Exception&) {
      // reported below
    }
  }
  YAML::Node root;
  try {
    // YAML::LoadAll loops for ever (and exhausts memory) when a token such as a stray ',' ends
    // a document without being consumed (yaml-cpp 0.7). So: the first document with Load, then
    // at most one more step of the parser to find anything after it.
    root = YAML::Load(text);
    if (const std::optional<YAML::Mark> second = second_document(text)) {
      const YAML::Mark m = *second;
      fail_file(m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1,
                "more than one YAML document in the file (a '---', or a stray ',' or bracket after "
                "the model); a model is one document");
    }
  } catch (const YAML::Exception& e) {
    fail_file(e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1,
              "YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull())
    fail_file(1, 1, "the file is empty; expected a mapping with bodies, joints, solver, ...");
  if (!root.IsMap())
    fail_file(root.Mark().line + 1, root.Mark().column + 1,
              std::string("expected a mapping (name:, bodies:, joints:, ...) at the top, got ") + kind_of(root));
  return root;
}

// ---- the whole file -----------------------------------------------------------------------------
LoadedModel Loader::load(const std::vector<Override>& overrides) {
  m_.file = file();
  YAML::Node root = read_document();
  apply_overrides(root, overrides);

  const Map top(*this, root, "",
                {"name", "description", "gravity", "bodies", "modal_bodies", "joints", "shafts", "shaft_forces", "cables", "couplings", "states",
                 "forces", "contacts", "contact_penalty",
                 "contact_material", "sensors", "solver", "output"});
  if (const Entry* e = top.find("name")) {
    if (auto s = string(e->value, "name")) m_.system.name = *s;
  }
  if (const Entry* e = top.find("description")) {
    if (auto s = string(e->value, "description")) m_.description = *s;
  }
  if (const Entry* e = top.find("gravity")) {
    if (auto g = vec3(e->value, "gravity", acceleration())) m_.system.gravity = *g;
  }
  const Entry* bodies_entry = top.find("bodies");
  if (bodies_entry) {
    bodies(bodies_entry->value);
  } else {
    error(root, "", "missing required key 'bodies'");
  }
  if (const Entry* e = top.find("modal_bodies")) modal_bodies(e->value);
  if (const Entry* e = top.find("joints")) joints(e->value);
  if (const Entry* e = top.find("shafts")) shafts(e->value);
  if (const Entry* e = top.find("shaft_forces")) shaft_forces(e->value);
  if (const Entry* e = top.find("cables")) cables(e->value);
  // An empty body list is a model only with shafts (a drivetrain of 1-D rotors), cables or modal
  // bodies (each modal body's frame is a body of the system).
  if (bodies_entry && bodies_entry->value.IsSequence() && m_.system.bodies().empty() && m_.system.shafts().empty() &&
      m_.system.cables().empty())
    error(bodies_entry->value, "bodies", "the model has no bodies (and no shafts, cables or modal bodies)");
  if (const Entry* e = top.find("couplings")) couplings(e->value);
  if (const Entry* e = top.find("sensors")) sensor_prepass(e->value);
  if (const Entry* e = top.find("states")) states(e->value);
  if (const Entry* e = top.find("forces")) forces(e->value);
  if (const Entry* e = top.find("contacts")) contacts(e->value);
  if (const Entry* e = top.find("contact_penalty")) {
    contact_penalty_given_ = true;
    if (auto pp = penalty(e->value, "contact_penalty")) m_.system.contact_penalty = *pp;
  }
  if (const Entry* e = top.find("contact_material")) contact_material(e->value);
  if (const Entry* e = top.find("solver")) solver(e->value);
  else error(root, "", "missing required key 'solver' (at least solver: {end_time: ...})");
  if (const Entry* e = top.find("output")) output(e->value);
  if (const Entry* e = top.find("sensors")) sensors(e->value);
  m_.settings.output_every = m_.output.every;
  solver_checks();
  modal_body_checks();
  limit_checks();

  model_checks();
  // A follow-on is never the only sign of a problem: its cause was reported (an internal check).
  if (problem_count() > 0 && reported_count() == 0)
    error(root, "", "internal error: " + std::to_string(problem_count()) +
                        " item(s) refer to items with problems, but no problem was reported");
  if (problem_count() == 0) placement();
  if (problem_count() > 0) throw LoadError(take_sorted_problems());
  m_.input_files.push_back(file());
  m_.input_files.insert(m_.input_files.end(), files_read().begin(), files_read().end());
  return std::move(m_);
}

// ---- model-level checks -------------------------------------------------------------------------
void Loader::model_checks() {
  // System::problems() repeats some checks of the sections; keep only what is new, i.e. problems
  // of items that have no diagnostic yet, pointed at the item.
  for (const ModelProblem& p : m_.system.problems())
    if (!items_with_problems_.count(p.item)) report(m_.locate(p));
  // Pairs of shapes the contact geometry does not handle (the registry of pair kinds).
  for (const ModelProblem& p : contact_pair_problems(m_.system))
    if (!items_with_problems_.count(p.item)) report(m_.locate(p));
}

void Loader::add_item(ItemRef::Kind kind, const SourceLocation& where, bool had_problems) {
  LoadedModel::ItemLocations& l = m_.item_locations;
  std::vector<SourceLocation>* list = nullptr;
  switch (kind) {
    case ItemRef::Kind::Body: list = &l.bodies; break;
    case ItemRef::Kind::Joint: list = &l.joints; break;
    case ItemRef::Kind::Load: list = &l.loads; break;
    case ItemRef::Kind::Force: list = &l.forces; break;
    case ItemRef::Kind::Contact: list = &l.contacts; break;
    case ItemRef::Kind::Sensor: list = &l.sensors; break;
    case ItemRef::Kind::Coupling: list = &l.couplings; break;
    case ItemRef::Kind::Shaft: list = &l.shafts; break;
    case ItemRef::Kind::ShaftForce: list = &l.shaft_forces; break;
    case ItemRef::Kind::State: list = &l.states; break;
    case ItemRef::Kind::None: return;
  }
  if (had_problems) items_with_problems_.insert({kind, static_cast<int>(list->size())});
  list->push_back(where);
}

std::vector<std::string> Loader::body_list() const {
  std::vector<std::string> v{"ground"};
  for (const auto& [name, index] : body_names_) v.push_back(name);
  return v;
}

std::vector<std::string> Loader::joint_list() const {
  std::vector<std::string> v;
  for (const auto& [name, index] : joint_names_) v.push_back(name);
  return v;
}

std::vector<std::string> Loader::force_list() const { return {force_names_.begin(), force_names_.end()}; }

std::vector<std::string> Loader::shaft_list() const {
  std::vector<std::string> v;
  for (const Shaft& s : m_.system.shafts()) v.push_back(s.name);
  return v;
}

std::vector<std::string> Loader::coupling_list() const {
  std::vector<std::string> v;
  for (const Coupling& c : m_.system.couplings()) v.push_back(c.name);
  return v;
}

std::vector<std::string> Loader::state_list() const {
  std::vector<std::string> v;
  for (const ControllerState& z : m_.system.controller_states()) v.push_back(z.name);
  return v;
}

}  // namespace mbdae::io::loader
