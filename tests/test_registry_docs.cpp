// The model format's reference (docs/model-format.md) documents every element of the registries:
// each joint type, force element type, sensor output and solver has its row, and each key of a
// joint or force type is listed for it. A type or key added to a registry without its docs fails
// here.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/contact/ContactPairs.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;

namespace {

std::vector<std::string> doc_lines() {
  std::ifstream in(std::string(MBDAE_TEST_SOURCE_DIR) + "/docs/model-format.md");
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// Table rows whose first cell is `name` in backquotes.
std::vector<std::string> rows_of(const std::vector<std::string>& lines, const std::string& name) {
  std::vector<std::string> out;
  const std::string cell = "| `" + name + "`";
  for (const std::string& l : lines)
    if (l.rfind(cell, 0) == 0 && (l.size() == cell.size() || l[cell.size()] == ' ' || l[cell.size()] == '|'))
      out.push_back(l);
  return out;
}

/// The rows of the table whose header line starts with `header`, up to the blank line after it.
std::vector<std::string> table(const std::vector<std::string>& lines, const std::string& header) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < lines.size() && lines[i].rfind(header, 0) != 0) ++i;
  REQUIRE(i < lines.size());
  for (i += 2; i < lines.size() && !lines[i].empty(); ++i) out.push_back(lines[i]);
  return out;
}

/// The n-th cell (0-based) of a table row.
std::string cell(const std::string& row, size_t n) {
  std::vector<std::string> cells;
  std::stringstream s(row);
  std::string c;
  std::getline(s, c, '|');  // before the first bar
  while (std::getline(s, c, '|')) cells.push_back(c);
  return n < cells.size() ? cells[n] : "";
}

}  // namespace

TEST_CASE("docs: every joint type and each of its keys is in the model format's tables", "[docs][registry]") {
  const auto lines = doc_lines();
  const auto keys = table(lines, "| key           | type          | for types");
  for (const JointTypeInfo& t : joint_types()) {
    INFO("joint type " << t.name);
    CHECK(!rows_of(lines, t.name).empty());
    for (const JointKey& k : t.keys) {
      INFO("key " << k.key);
      bool listed = false;
      for (const std::string& row : rows_of(keys, k.key)) {
        const std::string types = cell(row, 2);  // | key | type | for types | meaning |
        if (types.find(t.name) == std::string::npos) continue;
        listed = true;
        CHECK(types.find(k.required ? "required" : "optional") != std::string::npos);
      }
      CHECK(listed);
    }
  }
}

TEST_CASE("docs: every force element type of the model file and each of its keys is documented", "[docs][registry]") {
  const auto lines = doc_lines();
  for (const ForceTypeInfo& t : force_types()) {
    if (!t.in_model_file) continue;
    INFO("force type " << t.name);
    const auto rows = rows_of(table(lines, "| type | keys | force |"), t.name);
    REQUIRE(rows.size() == 1);
    for (const ForceKey& k : t.keys) {
      INFO("key " << k.key);
      CHECK(rows[0].find(std::string("`") + k.key) != std::string::npos);
    }
  }
}

TEST_CASE("docs: every sensor output and every solver has its row", "[docs][registry]") {
  const auto lines = doc_lines();
  for (const io::SensorOutputInfo& o : io::sensor_outputs()) {
    INFO("sensor output " << o.name);
    // A row may list several outputs in its first cell ("`velocity`, `velocity_local`").
    bool found = false;
    for (const std::string& row : table(lines, "| output "))
      found = found || cell(row, 0).find(std::string("`") + o.name + "`") != std::string::npos;
    CHECK(found);
  }
  for (const SolverInfo& s : solvers()) {
    INFO("solver " << s.name);
    CHECK(!rows_of(lines, s.name).empty());
  }
}

TEST_CASE("docs: every contact pair kind has its row in docs/contacts.md, with its points and paths",
          "[docs][registry][contact]") {
  std::ifstream in(std::string(MBDAE_TEST_SOURCE_DIR) + "/docs/contacts.md");
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  const auto rows_all = table(lines, "| pair | points | paths |");
  CHECK(rows_all.size() == contact_pair_kinds().size());
  for (const ContactPairKind& k : contact_pair_kinds()) {
    INFO("pair kind " << k.name);
    const auto rows = rows_of(rows_all, k.name);
    REQUIRE(rows.size() == 1);
    const std::string trim = [&] {
      std::string c = cell(rows[0], 1);
      return c.substr(c.find_first_not_of(' '), c.find_last_not_of(' ') - c.find_first_not_of(' ') + 1);
    }();
    CHECK(trim == (k.collide ? std::to_string(k.max_points) : std::string("—")));
    const std::string paths = cell(rows[0], 2);
    CHECK((paths.find("impulse") != std::string::npos) == k.on(ContactPath::Impulse));
    CHECK((paths.find("penalty") != std::string::npos) == k.on(ContactPath::Penalty));
  }
}
