#include "calibration/cases_file.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric::calibration {
namespace {

namespace fs = std::filesystem;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Reports every schema mistake as "FILE: FIELD: what is wrong".
class Validator {
 public:
  explicit Validator(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    if (field.empty()) throw CasesError(fmt::format("{}: {}", file_, what));
    throw CasesError(fmt::format("{}: {}: {}", file_, field, what));
  }

  const json::Object& object(const json::Value& v, const std::string& field) const {
    if (!v.is_object()) fail(field, fmt::format("expected an object, found {}", json::kind_name(v)));
    return v.as_object();
  }

  std::string string(const json::Value& v, const std::string& field) const {
    if (!v.is_string()) fail(field, fmt::format("expected a string, found {}", json::kind_name(v)));
    return v.as_string();
  }

  std::string non_empty(const json::Value& v, const std::string& field) const {
    std::string s = string(v, field);
    if (s.empty()) fail(field, "must not be empty");
    return s;
  }

  // Fields other than `known` are mistakes (a misspelt "verdcit" would otherwise pin nothing).
  void only_fields(const json::Object& o, const std::string& field, std::initializer_list<const char*> known) const {
    for (const auto& [key, _] : o) {
      if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; })) {
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(field.empty() ? key : field + "." + key, fmt::format("unknown field (known: {})", list));
      }
    }
  }

  // A folder named relative to the cases file; it must exist.
  std::string folder(const json::Value& v, const std::string& field, const fs::path& base) const {
    const std::string given = non_empty(v, field);
    const fs::path p = fs::path(given).is_absolute() ? fs::path(given) : base / given;
    std::error_code ec;
    if (!fs::exists(p, ec)) fail(field, fmt::format("folder '{}' does not exist", p.lexically_normal().string()));
    if (!fs::is_directory(p, ec)) fail(field, fmt::format("'{}' is not a folder", p.lexically_normal().string()));
    return p.lexically_normal().string();
  }

 private:
  std::string file_;
};

}  // namespace

std::optional<OverallVerdict> parse_overall_verdict(const std::string& name) {
  const std::string n = upper(name);
  if (n == "PASS") return OverallVerdict::pass;
  if (n == "FAIL") return OverallVerdict::fail;
  if (n == "ERROR") return OverallVerdict::error;
  if (n == "INCOMPLETE") return OverallVerdict::incomplete;
  return std::nullopt;
}

std::optional<Verdict> parse_criterion_verdict(const std::string& name) {
  const std::string n = upper(name);
  if (n == "PASS") return Verdict::pass;
  if (n == "FAIL") return Verdict::fail;
  if (n == "ERROR") return Verdict::error;
  if (n == "SKIP") return Verdict::skip;
  if (n == "INCONCLUSIVE") return Verdict::inconclusive;
  return std::nullopt;
}

std::optional<std::string> find_default_cases_file(const std::string& rubric_path) {
  const fs::path rubric(rubric_path);
  const fs::path dir = rubric.parent_path();
  std::error_code ec;
  for (const fs::path& candidate : {dir / (rubric.stem().string() + ".cases.json"), dir / "cases.json"}) {
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

CasesFile read_cases_file(const std::string& path) {
  json::Value doc;
  try {
    doc = json::read_file(path);
  } catch (const OperatorError& e) {
    throw CasesError(e.what());  // already "path:line:col: what" or "cannot read path"
  }
  const Validator v(path);
  const fs::path base = fs::path(path).parent_path();
  const json::Object& top = v.object(doc, "");
  v.only_fields(top, "", {"reference", "cases"});

  std::string default_reference, default_reference_given;
  if (const json::Value* ref = doc.find("reference")) {
    default_reference = v.folder(*ref, "reference", base);
    default_reference_given = ref->as_string();
  }

  const json::Value* cases = doc.find("cases");
  if (cases == nullptr) v.fail("", "no \"cases\" array");
  if (!cases->is_array()) v.fail("cases", fmt::format("expected an array, found {}", json::kind_name(*cases)));
  if (cases->as_array().empty()) v.fail("cases", "no case: a rubric is calibrated on at least one labelled submission");

  CasesFile out;
  out.path = path;
  std::set<std::string> names;
  std::size_t index = 0;
  for (const json::Value& item : cases->as_array()) {
    const std::string at = fmt::format("cases[{}]", index++);
    const json::Object& o = v.object(item, at);
    v.only_fields(o, at, {"name", "submission", "verdict", "criteria", "reference", "why"});
    Case c;
    const json::Value* name = item.find("name");
    if (name == nullptr) v.fail(at, "no \"name\"");
    c.name = v.non_empty(*name, at + ".name");
    const std::string where = fmt::format("{} ('{}')", at, c.name);
    if (!names.insert(c.name).second) v.fail(where + ".name", "a second case with this name");

    const json::Value* submission = item.find("submission");
    if (submission == nullptr) v.fail(where, "no \"submission\" folder");
    c.submission = v.folder(*submission, where + ".submission", base);
    c.submission_given = submission->as_string();

    const json::Value* verdict = item.find("verdict");
    if (verdict == nullptr) v.fail(where, "no expected \"verdict\"");
    const std::string verdict_text = v.string(*verdict, where + ".verdict");
    const auto overall = parse_overall_verdict(verdict_text);
    if (!overall) v.fail(where + ".verdict", fmt::format("'{}' is not PASS, FAIL, ERROR or INCOMPLETE", verdict_text));
    c.verdict = *overall;

    c.reference = default_reference;
    c.reference_given = default_reference_given;
    if (const json::Value* ref = item.find("reference")) {
      c.reference = v.folder(*ref, where + ".reference", base);
      c.reference_given = ref->as_string();
    }
    if (const json::Value* why = item.find("why")) c.why = v.string(*why, where + ".why");

    if (const json::Value* criteria = item.find("criteria")) {
      const json::Object& pins = v.object(*criteria, where + ".criteria");
      for (const auto& [id, value] : pins) {
        const std::string field = fmt::format("{}.criteria.{}", where, id);
        const std::string text = v.string(value, field);
        const auto pinned = parse_criterion_verdict(text);
        if (!pinned) v.fail(field, fmt::format("'{}' is not PASS, FAIL, ERROR, SKIP or INCONCLUSIVE", text));
        c.criteria.push_back({id, *pinned});
      }
    }
    out.cases.push_back(std::move(c));
  }
  return out;
}

}  // namespace rubric::calibration
