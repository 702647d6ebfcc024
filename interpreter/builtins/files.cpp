// Files: json text csv exists files. Every read is confined to its root and hashed into the
// provenance; parsed JSON and CSV are cached by path and options for the whole check run.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include "interpreter/addressed_reader.hpp"
#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/paths.hpp"
#include "operators/error.hpp"
#include "interpreter/builtins/json_value.hpp"
#include "interpreter/builtins/tables.hpp"
#include "operators/tables/profiler_output.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric {

namespace builtins {

std::optional<Value> limit_arg(CallContext& ctx, const std::vector<Value>& a, std::size_t at, std::uint64_t& out) {
  const Value& v = a[at];
  if (!v.is(ValueKind::number) || v.as_quantity().dim != Dimension::of(Dimension::bytes) || !(v.as_number() > 0) ||
      !(v.as_number() < 1.8e19))
    return ctx.error(fmt::format("bad argument 'limit' to '{}' (expected a size such as 64 MiB, got {})",
                                 ctx.function_name(), v.repr(5)));
  out = static_cast<std::uint64_t>(v.as_number());
  return std::nullopt;
}

}  // namespace builtins

namespace {

using builtins::want;

// Whole-file reads are capped so a huge answer is the submission's FAIL, not the grader's memory:
// text 16 MiB (generous for prose), data files (kDataLimit) 64 MiB. A rubric can raise it with `limit =`.
constexpr double kTextLimit = 16 * 1048576.0;
using builtins::kDataLimit;
using builtins::limit_arg;
// files() lists at most this many files; a larger tree is the submission's FAIL (or the rubric's
// ERROR under the reference).
constexpr std::size_t kFilesCap = 100000;

}  // namespace

void open_files(Registry& r) {
  const std::string fam = "files";
  const Value text_limit = Value::number(kTextLimit, Dimension::of(Dimension::bytes));
  const Value data_limit = Value::number(kDataLimit, Dimension::of(Dimension::bytes));
  r.add("json", {P("p"), P("limit", data_limit)}, false,
         "The JSON file at p: objects become records (keys in file order), arrays lists, numbers plain numbers. "
         "A missing or malformed file, or one that is not a regular file or is larger than `limit`, under "
         "`submission` FAILs the check; under `reference`, it is an ERROR.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           std::uint64_t cap = 0;
           if (auto e = limit_arg(ctx, a, 1, cap)) return *e;
           const PathValue& p = a[0].as_path();
           std::string key = fmt::format("json:{}:{}", cap, p.full());
           if (auto hit = ctx.cached(key)) return *std::static_pointer_cast<const Value>(hit);
           Value err;
           auto text = ctx.read_file(p, &err, cap, "a JSON file (json(p, limit = ...) raises it)");
           if (!text) return err;
           // The parser's buffers serve every JSON file of the check, and go with its cache.
           if (!ctx.cached("json:parser buffers")) ctx.store("json:parser buffers", json::keep_parser_buffers());
           Value v;
           try {
             const std::string origin = p.display();
             if (auto fast = builtins::value_from_json_text(*text, origin, builtins::kJsonValueCap)) v = std::move(*fast);
             else v = builtins::value_from_json(json::parse(*text, origin, builtins::kJsonValueCap), origin);
           } catch (const OperatorError& e) {
             // JSON Lines (SGLang's bench_serving appends one result a line) read as one JSON value:
             // the rubric chose the wrong reader.
             std::size_t lines = 0;
             try {
               lines = json::parse_lines(*text, p.display(), builtins::kJsonValueCap).size();
             } catch (const OperatorError&) {
             }
             if (lines > 1)
               return ctx.error(fmt::format("{} is JSON Lines ({} JSON values, one a line), which json() does not read: read it "
                                            "with jsonl(p) (std.serving.sglang_bench(p) for SGLang's bench_serving results)",
                                            p.display(), lines));
             return ctx.file_error(p, fmt::format("malformed JSON: {}", e.what()));
           }
           ctx.store(key, std::make_shared<const Value>(v));
           return v;
         });
  r.add("text", {P("p"), P("limit", text_limit)}, false,
         "The file at p as a string. A file larger than `limit` (default 16 MiB), or one that is not a regular file, "
         "FAILs the check under `submission` and is an ERROR under `reference`.",
         fam, [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           std::uint64_t cap = 0;
           if (auto e = limit_arg(ctx, a, 1, cap)) return *e;
           Value err;
           auto text = ctx.read_file(a[0].as_path(), &err, cap, "text (text(p, limit = ...) raises it)");
           if (!text) return err;
           Value v = Value::string(std::move(*text));
           if (a[0].as_path().root == "submission") {
             v.mark_from_submission();
             remember_submission_text(ctx, a[0].as_path().display(), v);
           }
           return v;
         });
  r.add("csv", {P("p"), P("sep", Value::string(",")), P("preamble", Value::boolean(false)),
                P("thousands", Value::boolean(false)), P("limit", data_limit)},
        false,
        "The CSV file at p as a list of records keyed by the header row (RFC 4180 quoting; `sep` another "
        "separator such as \"\\t\" or \";\"). A field that is wholly a number and unquoted becomes a number. "
        "`preamble = true` skips what a tool writes before the header (==PROF== lines anywhere, and rows before "
        "the last run of rows of one width); `thousands = true` also reads quoted numbers and \"1,234.5\". A file "
        "larger than `limit` (default 64 MiB) FAILs under `submission`.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
          builtins::CsvCall o;
          if (auto e = builtins::csv_options(ctx, a, o)) return *e;
          std::uint64_t cap = 0;
          if (auto e = limit_arg(ctx, a, 4, cap)) return *e;
          const PathValue& p = a[0].as_path();
          const std::string key = fmt::format("csv:{:d}:{}:{}:{}:{}", o.separator, o.preamble, o.thousands, cap, p.full());
          return builtins::cached_parse(ctx, key, [&]() -> Value {
            Value err;
            auto text = ctx.read_file(p, &err, cap, "a CSV file (csv(p, limit = ...) raises it)");
            if (!text) return err;
            // A profiler's output that csv() cannot read was handed to the wrong reader: the
            // rubric's error, naming the reader that takes it.
            return builtins::csv_table(ctx, *text, p.display(), p.root == "submission", o, [&](const std::string& m) {
              if (auto tool = tables::recognise_profiler_output(*text))
                return ctx.error(fmt::format("{} is {}, which csv() does not read ({}): read it with {}", p.display(),
                                             tool->what, m, tool->reader));
              return ctx.file_error(p, m);
            });
          });
        });
  r.add("exists", {P("p")}, false, "True when a file or folder exists at p (inside its root).", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           ResolvedPath rp = resolve_confined(a[0].as_path());
           if (rp.status == PathStatus::escapes) return ctx.file_error(a[0].as_path(), rp.message);
           return Value::boolean(rp.status == PathStatus::ok);
         });
  r.add("basename", {P("p")}, false, "The last part of a path (`submission / \"runs/a.json\"` gives \"a.json\"); \"\" for a root.", fam,
         [](CallContext& ctx, const std::vector<Value>& a) {
           if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
           const std::string& rel = a[0].as_path().relative;
           Value name = Value::string(rel.substr(rel.rfind('/') == std::string::npos ? 0 : rel.rfind('/') + 1));
           if (a[0].from_submission()) name.mark_from_submission();
           return name;
         });
  r.add("files", {P("p"), P("pattern", Value::string("*"))}, false,
         "The files under the folder p (recursively) whose path relative to p matches the glob pattern, sorted. "
         "More than 100,000 files under p FAILs the check for a submission folder (an ERROR for the reference).", fam,
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
           std::size_t scanned = 0;  // every entry walked, matched or not: the walk itself is bounded
           for (auto it = fs::recursive_directory_iterator(rp.real, fs::directory_options::skip_permission_denied, ec);
                !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
             if (++scanned > kFilesCap)
               return ctx.file_error(p, fmt::format("{}: more than {} files and folders (the limit for files())",
                                                    p.display(), kFilesCap));
             if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
             std::string rel = fs::relative(it->path(), rp.real, ec).generic_string();
             if (::fnmatch(a[1].as_string().c_str(), rel.c_str(), 0) == 0) rels.push_back(rel);
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
