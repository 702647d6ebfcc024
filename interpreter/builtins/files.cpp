// Files: json text csv exists files. Every read is confined to its root and hashed into the
// provenance; parsed JSON is cached by real path for the whole check run.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/paths.hpp"
#include "operators/error.hpp"
#include "interpreter/builtins/json_value.hpp"
#include "interpreter/builtins/tables.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric {

namespace builtins {

Value value_from_json(const json::Value& j, const std::string& origin) {
  Value v;
  switch (j.data.index()) {
    case 0: break;
    case 1: v = Value::boolean(j.as_bool()); break;
    case 2: v = Value::number(j.as_number()); break;
    case 3: v = Value::string(j.as_string()); break;
    case 4: {
      List items;
      const auto& arr = j.as_array();
      items.reserve(arr.size());
      for (std::size_t i = 0; i < arr.size(); ++i) items.push_back(value_from_json(arr[i], fmt::format("{}[{}]", origin, i)));
      v = Value::list(std::move(items), origin, fmt::format("{} is an empty list", origin));
      break;
    }
    default: {
      Record r;
      r.origin = origin;
      for (const auto& m : j.as_object()) r.fields.emplace_back(m.first, value_from_json(m.second, origin + "." + m.first));
      v = Value::record(std::move(r));
    }
  }
  // What the candidate wrote: a submission file, or a program's output.
  if (origin.rfind("submission/", 0) == 0 || origin.rfind("the program's", 0) == 0) v.mark_from_submission();
  return v;
}

}  // namespace builtins

namespace {

using builtins::want;

}  // namespace

void open_files(Registry& r) {
  const std::string fam = "files";
  r.add("json", {P("p")}, false,
         "The JSON file at p: objects become records (keys in file order), arrays lists, numbers plain numbers. "
         "A missing or malformed file under `submission` FAILs the check; under `reference`, it is an ERROR.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           const PathValue& p = a[0].as_path();
           std::string key = "json:" + p.full();
           if (auto hit = ctx.cached(key)) return *std::static_pointer_cast<const Value>(hit);
           Value err;
           auto text = ctx.read_file(p, &err);
           if (!text) return err;
           Value v;
           try {
             v = builtins::value_from_json(json::parse(*text, p.display()), p.display());
           } catch (const OperatorError& e) {
             return ctx.file_error(p, fmt::format("malformed JSON: {}", e.what()));
           }
           ctx.store(key, std::make_shared<const Value>(v));
           return v;
         });
  r.add("text", {P("p")}, false, "The file at p as a string.", fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           Value err;
           auto text = ctx.read_file(a[0].as_path(), &err);
           if (!text) return err;
           Value v = Value::string(std::move(*text));
           if (a[0].as_path().root == "submission") v.mark_from_submission();
           return v;
         });
  r.add("csv", {P("p"), P("sep", Value::string(",")), P("preamble", Value::boolean(false)),
                P("thousands", Value::boolean(false))},
        false,
        "The CSV file at p as a list of records keyed by the header row (RFC 4180 quoting; `sep` another "
        "separator such as \"\\t\" or \";\"). A field that is wholly a number and unquoted becomes a number. "
        "`preamble = true` skips what a tool writes before the header (==PROF== lines anywhere, and rows before "
        "the last run of rows of one width); `thousands = true` also reads quoted numbers and \"1,234.5\".",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
          builtins::CsvCall o;
          if (auto e = builtins::csv_options(ctx, a, o)) return *e;
          const PathValue& p = a[0].as_path();
          Value err;
          auto text = ctx.read_file(p, &err);
          if (!text) return err;
          return builtins::csv_table(ctx, *text, p.display(), p.root == "submission", o,
                                     [&](const std::string& m) { return ctx.file_error(p, m); });
        });
  r.add("exists", {P("p")}, false, "True when a file or folder exists at p (inside its root).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           ResolvedPath rp = resolve_confined(a[0].as_path());
           if (rp.status == PathStatus::escapes) return ctx.file_error(a[0].as_path(), rp.message);
           return Value::boolean(rp.status == PathStatus::ok);
         });
  r.add("files", {P("p"), P("pattern", Value::string("*"))}, false,
         "The files under the folder p (recursively) whose path relative to p matches the glob pattern, sorted.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           if (auto e = want(ctx, a, 1, ValueKind::string, "a string (a glob such as \"*.cu\")")) return *e;
           const PathValue& p = a[0].as_path();
           ResolvedPath rp = resolve_confined(p);
           if (rp.status != PathStatus::ok) return ctx.file_error(p, rp.message);
           namespace fs = std::filesystem;
           std::error_code ec;
           if (!fs::is_directory(rp.real, ec)) return ctx.file_error(p, fmt::format("{}: not a folder", p.display()));
           std::vector<std::string> rels;
           for (auto it = fs::recursive_directory_iterator(rp.real, fs::directory_options::skip_permission_denied, ec);
                !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
             if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
             std::string rel = fs::relative(it->path(), rp.real, ec).generic_string();
             if (::fnmatch(a[1].as_string().c_str(), rel.c_str(), 0) == 0) rels.push_back(rel);
             if (rels.size() > 100000) return ctx.error(fmt::format("'files': more than 100000 files under {}", p.display()));
           }
           std::sort(rels.begin(), rels.end());
           List out;
           for (const auto& rel : rels) {
             std::string why;
             auto joined = join_path(p, rel, &why);
             if (joined) out.push_back(Value::path(*joined));
           }
           const std::string folder = p.display() + "/";
           return Value::list(std::move(out), fmt::format("the files matching {} in {}", a[1].as_string(), folder),
                              fmt::format("no file matches {} in {}", a[1].as_string(), folder));
         });
}

}  // namespace rubric
