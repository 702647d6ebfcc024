// Tables and profiles that tools write: jsonl, parse_csv, ncu, prometheus, histogram_quantile;
// csv_table serves csv() in files.cpp too. Malformed submission data FAILs naming file, line and
// column; a reference file's or the rubric's mistake is an ERROR.
#include "interpreter/builtins/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/json_value.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/decimal.hpp"
#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/tables/csv_reader.hpp"
#include "operators/tables/ncu_reader.hpp"
#include "operators/tables/nsys_reader.hpp"
#include "operators/tables/prometheus_reader.hpp"
#include "operators/text/utf8.hpp"

namespace rubric {
namespace builtins {

std::optional<Value> csv_options(CallContext& ctx, const std::vector<Value>& a, CsvCall& out) {
  if (a.size() > 1) {
    if (auto e = want(ctx, a, 1, ValueKind::string, "a one-character separator such as \",\" or \"\\t\"")) return e;
    const std::string& sep = a[1].as_string();
    if (sep.size() != 1 || sep[0] == '"' || sep[0] == '\n' || sep[0] == '\r')
      return ctx.error(fmt::format("bad argument #2 to '{}' (the separator must be one character other than a quote or "
                                   "a line break, got \"{}\")", ctx.function_name(), sep));
    out.separator = sep[0];
  }
  if (a.size() > 2) {
    if (auto e = want(ctx, a, 2, ValueKind::boolean, "true or false (skip a preamble before the header)")) return e;
    out.preamble = a[2].as_bool();
  }
  if (a.size() > 3) {
    if (auto e = want(ctx, a, 3, ValueKind::boolean, "true or false (numbers with thousands separators)")) return e;
    out.thousands = a[3].as_bool();
  }
  return std::nullopt;
}

// csv() and parse_csv() read at most this many fields: each costs 200-370 bytes as records
// (a row's record, origin and key per field), so a CSV read stays under about 750 MB.
constexpr std::size_t kCsvCellCap = 2'000'000;
// prometheus() and parse_prometheus() read at most this many samples: a sample costs about 1.4 KB
// as values (its record, labels record and a histogram bucket's record), so a read stays under
// about 350 MB.
constexpr std::size_t kPromSampleCap = 250'000;

Value csv_table(CallContext& ctx, std::string_view text, const std::string& name, bool sub, const CsvCall& options,
                const std::function<Value(const std::string&)>& fail) {
  std::vector<tables::CsvRow> rows;
  tables::CsvOptions o;
  o.separator = options.separator;
  o.preamble = options.preamble;
  o.max_cells = kCsvCellCap;
  try {
    rows = tables::split_rows(text, name, o);
  } catch (const OperatorError& e) {
    return fail(fmt::format("malformed CSV: {}", e.what()));
  } catch (const tables::ReadLimitExceeded& e) {
    return fail(e.what());
  }
  ctx.charge_steps(rows.size());
  if (rows.empty()) return fail(fmt::format("{}: empty CSV (no header row)", name));
  std::size_t h = options.preamble ? tables::header_index(rows) : 0;
  const auto& header = rows[h];
  std::unordered_set<std::string_view> columns;  // a set: a header of 200,000 columns took 33 s pairwise
  for (const auto& column : header.fields)
    if (!columns.insert(column.text).second)
      return fail(fmt::format("{}:{}: the header names column \"{}\" twice", name, header.line, column.text));
  auto mark = [sub](Value v) {
    if (sub) v.mark_from_submission();
    return v;
  };
  List out;
  for (std::size_t i = h + 1; i < rows.size(); ++i) {
    if (rows[i].fields.size() != header.fields.size())
      return fail(fmt::format("{}:{}: row has {} fields, the header (line {}) has {}", name, rows[i].line,
                              rows[i].fields.size(), header.line, header.fields.size()));
    Record rec;
    rec.origin = fmt::format("{} line {}", name, rows[i].line);
    for (std::size_t c = 0; c < header.fields.size(); ++c) {
      const tables::CsvField& f = rows[i].fields[c];
      // A quoted field stays text unless thousands separators are on: tools that group digits
      // (ncu) must quote such numbers, and quote every field alike.
      // Only a finite number becomes a number: "NaN", "inf" or "1e999" stay text, so a
      // submission cannot slip a NaN past a comparison such as 'not (x > bound)'.
      std::optional<double> n;
      if (!f.quoted || options.thousands) n = tables::parse_number(f.text, options.thousands);
      if (n && !std::isfinite(*n)) n.reset();
      rec.fields.emplace_back(header.fields[c].text, mark(n ? Value::number(*n) : Value::string(f.text)));
    }
    out.push_back(mark(Value::record(std::move(rec))));
  }
  return mark(Value::list(std::move(out), fmt::format("the data rows of {}", name), fmt::format("{} has no data rows", name)));
}

namespace {

// ncu's unit text as a quantity: time, bytes and rates of either are dimensioned; "%" is a
// fraction (85 % → 0.85, as the language's 85% literal); counts (cycle, inst, warp, sector,
// register/thread, ...) are plain numbers. nullopt for a unit this table does not know.
std::optional<std::pair<double, Dimension>> ncu_unit(const std::string& unit) {
  if (unit.empty() || unit == "%") return std::make_pair(unit.empty() ? 1.0 : 0.01, Dimension{});
  auto atom = [](std::string_view a) -> std::optional<std::pair<double, Dimension>> {
    struct A { const char* name; double scale; int base; };  // base -1: a count
    static const A atoms[] = {
        {"nsecond", 1e-9, Dimension::time}, {"usecond", 1e-6, Dimension::time}, {"msecond", 1e-3, Dimension::time},
        {"second", 1, Dimension::time},     {"byte", 1, Dimension::bytes},     {"Kbyte", 1e3, Dimension::bytes},
        {"Mbyte", 1e6, Dimension::bytes},   {"Gbyte", 1e9, Dimension::bytes},  {"Tbyte", 1e12, Dimension::bytes},
        {"Kibyte", 1024.0, Dimension::bytes}, {"Mibyte", 1048576.0, Dimension::bytes},
        {"Gibyte", 1073741824.0, Dimension::bytes}, {"hz", 1, -2}, {"Khz", 1e3, -2}, {"Mhz", 1e6, -2}, {"Ghz", 1e9, -2},
        {"cycle", 1, -1}, {"Kcycle", 1e3, -1}, {"Mcycle", 1e6, -1}, {"inst", 1, -1}, {"Kinst", 1e3, -1}, {"Minst", 1e6, -1},
        {"warp", 1, -1}, {"thread", 1, -1}, {"block", 1, -1}, {"sector", 1, -1}, {"Ksector", 1e3, -1},
        {"Msector", 1e6, -1}, {"request", 1, -1}, {"Krequest", 1e3, -1}, {"register", 1, -1}, {"SM", 1, -1},
        {"wavefront", 1, -1}, {"Kwavefront", 1e3, -1}, {"transaction", 1, -1}, {"instance", 1, -1}, {"pixel", 1, -1},
        {"cta", 1, -1}, {"launch", 1, -1},
        // Recent ncu versions abbreviate: "ns", "us", "ms", "Gbyte/s".
        {"ns", 1e-9, Dimension::time}, {"us", 1e-6, Dimension::time}, {"ms", 1e-3, Dimension::time},
        {"s", 1, Dimension::time}};
    for (const A& x : atoms)
      if (a == x.name) {
        if (x.base == -1) return std::make_pair(x.scale, Dimension{});
        if (x.base == -2) return std::make_pair(x.scale, Dimension::of(Dimension::time, -1));  // a frequency
        return std::make_pair(x.scale, Dimension::of(static_cast<Dimension::Base>(x.base)));
      }
    return std::nullopt;
  };
  std::size_t slash = unit.find('/');
  auto num = atom(std::string_view(unit).substr(0, slash));
  if (!num) return std::nullopt;
  if (slash == std::string::npos) return num;
  auto den = atom(std::string_view(unit).substr(slash + 1));
  if (!den || unit.find('/', slash + 1) != std::string::npos) return std::nullopt;
  return std::make_pair(decimal::div(num->first, den->first), num->second / den->second);
}

// The launches as values. The report is consumed: its strings move into the values, and a kernel
// name is held once however long (the origins name a cut form of it), so memory stays near the
// file's size; lookups are hashed, so a launch of many metrics or sections stays linear.
Value ncu_value(tables::NcuReport report, const std::string& name, bool sub) {
  auto mark = [sub](Value v) {
    if (sub) v.mark_from_submission();
    return v;
  };
  // A value with its unit attached; a unit this table does not know leaves the number as written.
  auto quantity = [](const std::optional<double>& value, const std::string& text, const std::string& unit) {
    auto u = ncu_unit(unit);
    if (value && u) return Value::number(decimal::mul(*value, u->first), u->second);
    if (value) return Value::number(*value);
    return Value::string(text);
  };
  List launches;
  for (tables::NcuLaunch& l : report.launches) {
    Record metrics, units, sections, by_section, minimum, maximum;
    const std::string kernel = tables::short_kernel_name(l.kernel_name);
    const std::string shown = rubric::text::truncate_to_width(kernel, 120);
    std::string origin = report.summary ? fmt::format("{} summary of {} launches of {}", name, l.invocations, shown)
                                        : fmt::format("{} launch {} ({})", name, l.id, shown);
    metrics.origin = units.origin = sections.origin = by_section.origin = minimum.origin = maximum.origin = origin;
    std::vector<std::pair<std::string, Record>> section_records;
    std::unordered_map<std::string_view, std::size_t> section_at;  // views into l.metrics, which stays put
    std::unordered_set<std::string_view> named;
    for (tables::NcuMetric& m : l.metrics) {
      Value v = quantity(m.value, m.text, m.unit);
      if (!report.raw_page) {
        auto [at, added] = section_at.try_emplace(m.section, section_records.size());
        if (added) {
          section_records.emplace_back(m.section, Record{});
          section_records.back().second.origin =
              fmt::format("{} section \"{}\"", origin, rubric::text::truncate_to_width(m.section, 120));
        }
        // The reader keeps one metric of a name in a section.
        section_records[at->second].second.fields.emplace_back(m.name, mark(v));
      }
      if (!named.insert(m.name).second) continue;  // the details page repeats a name in another section: the first holds
      metrics.fields.emplace_back(m.name, mark(v));
      units.fields.emplace_back(m.name, mark(Value::string(m.unit)));
      sections.fields.emplace_back(m.name, mark(Value::string(m.section)));
      if (report.summary) {
        minimum.fields.emplace_back(m.name, mark(quantity(m.minimum, m.minimum_text, m.unit)));
        maximum.fields.emplace_back(m.name, mark(quantity(m.maximum, m.maximum_text, m.unit)));
      }
    }
    Record r;
    r.origin = origin;
    if (!report.summary)  // a summary has no launch ID
      r.fields.emplace_back("id", mark(tables::parse_number(l.id, false) ? Value::number(*tables::parse_number(l.id, false))
                                                                          : Value::string(l.id)));
    // The three forms of the name share one string where they are equal (a name without
    // parameters, namespaces or a return type).
    std::string function = tables::kernel_function_name(l.kernel_name);
    Value full = mark(Value::string(std::move(l.kernel_name)));
    Value short_name = kernel == full.as_string() ? full : mark(Value::string(kernel));
    Value function_name = function == kernel ? short_name : mark(Value::string(std::move(function)));
    r.fields.emplace_back("kernel", short_name);
    r.fields.emplace_back("function", function_name);
    r.fields.emplace_back("name", full);
    for (auto& [k, v] : l.attributes) r.fields.emplace_back(k, mark(Value::string(std::move(v))));
    List ranges;
    for (const std::string& range : l.nvtx) ranges.push_back(mark(Value::string(range)));
    r.fields.emplace_back("nvtx", mark(Value::list(std::move(ranges), fmt::format("the NVTX ranges of {}", origin),
                                                   fmt::format("{} ran in no NVTX range (or was profiled without --nvtx)", origin))));
    r.fields.emplace_back("metrics", mark(Value::record(std::move(metrics))));
    r.fields.emplace_back("units", mark(Value::record(std::move(units))));
    if (!report.raw_page) {
      r.fields.emplace_back("sections", mark(Value::record(std::move(sections))));
      for (auto& [section, rec] : section_records) by_section.fields.emplace_back(section, mark(Value::record(std::move(rec))));
      r.fields.emplace_back("by_section", mark(Value::record(std::move(by_section))));
    }
    if (report.summary) {
      const auto invocations = tables::parse_number(l.invocations, true);
      r.fields.emplace_back("invocations", mark(invocations ? Value::number(*invocations) : Value::string(l.invocations)));
      r.fields.emplace_back("minimum", mark(Value::record(std::move(minimum))));
      r.fields.emplace_back("maximum", mark(Value::record(std::move(maximum))));
    }
    launches.push_back(mark(Value::record(std::move(r))));
  }
  return mark(Value::list(std::move(launches), fmt::format("the kernel launches in {}", name),
                          fmt::format("{} profiles no kernel launch", name)));
}

Value labels_value(const tables::Labels& labels, const std::string& origin, bool sub) {
  Record r;
  r.origin = origin;
  for (const auto& [k, v] : labels) {
    Value s = Value::string(v);
    if (sub) s.mark_from_submission();
    r.fields.emplace_back(k, s);
  }
  Value out = Value::record(std::move(r));
  if (sub) out.mark_from_submission();
  return out;
}

Value histogram_value(const tables::PromHistogram& h, const std::string& origin, bool sub) {
  auto mark = [sub](Value v) {
    if (sub) v.mark_from_submission();
    return v;
  };
  Record r;
  r.origin = origin;
  r.fields.emplace_back("labels", labels_value(h.labels, origin + " labels", sub));
  List buckets;
  for (const tables::PromBucket& b : h.buckets) {
    Record br;
    br.origin = origin + " bucket";
    br.fields.emplace_back("le", mark(Value::number(b.le)));
    br.fields.emplace_back("count", mark(Value::number(b.count)));
    buckets.push_back(mark(Value::record(std::move(br))));
  }
  r.fields.emplace_back("buckets", mark(Value::list(std::move(buckets), origin + " buckets", origin + " has no buckets")));
  r.fields.emplace_back("sum", mark(h.has_sum ? Value::number(h.sum) : Value::null()));
  r.fields.emplace_back("count", mark(h.has_count ? Value::number(h.count) : Value::null()));
  for (double q : {0.5, 0.9, 0.95, 0.99})
    r.fields.emplace_back(fmt::format("p{}", static_cast<int>(std::lround(q * 100))),
                          mark(Value::number(tables::histogram_quantile(q, h))));
  return mark(Value::record(std::move(r)));
}

Value prometheus_value(tables::PromScrape scrape, const std::string& name, bool sub) {
  auto mark = [sub](Value v) {
    if (sub) v.mark_from_submission();
    return v;
  };
  Record top;
  top.origin = name;
  for (tables::PromFamily& f : scrape.families) {
    std::string origin = fmt::format("{} {}", name, f.name);
    Record fam;
    fam.origin = origin;
    fam.fields.emplace_back("name", mark(Value::string(f.name)));
    fam.fields.emplace_back("type", mark(Value::string(f.type)));
    fam.fields.emplace_back("help", mark(Value::string(f.help)));
    fam.fields.emplace_back("unit", mark(Value::string(f.unit)));
    List samples;
    // Histogram series first: they read the samples, whose strings then move into the values.
    List series;
    if (f.type == "histogram" || f.type == "gaugehistogram")
      for (const tables::PromHistogram& h : tables::histogram_series(f)) series.push_back(histogram_value(h, origin, sub));
    for (tables::PromSample& s : f.samples) {
      Record sr;
      sr.origin = fmt::format("{} line {}", name, s.line);
      sr.fields.emplace_back("name", mark(Value::string(std::move(s.name))));
      sr.fields.emplace_back("labels", labels_value(s.labels, sr.origin.str() + " labels", sub));
      sr.fields.emplace_back("value", mark(Value::number(s.value)));
      samples.push_back(mark(Value::record(std::move(sr))));
    }
    fam.fields.emplace_back("samples", mark(Value::list(std::move(samples), "the samples of " + f.name, f.name + " has no samples")));
    if (f.type == "histogram" || f.type == "gaugehistogram")
      fam.fields.emplace_back("series", mark(Value::list(std::move(series), "the series of " + f.name, f.name + " has no series")));
    top.fields.emplace_back(f.name, mark(Value::record(std::move(fam))));
  }
  return mark(Value::record(std::move(top)));
}

}  // namespace

Value cached_parse(CallContext& ctx, const std::string& key, const std::function<Value()>& parse) {
  if (auto hit = ctx.cached(key)) return *std::static_pointer_cast<const Value>(hit);
  Value v = parse();
  if (!v.is_error()) ctx.store(key, std::make_shared<const Value>(v));
  return v;
}

namespace {

// A reader of the file named by the first argument: reads its text whole and hands it to `parse`;
// a parse error is the file's ("malformed WHAT: line:col ..."), a FAIL under `submission`, and so
// is a file past its size cap (the `limit` argument #limit_at, when the reader has one) or past
// the reader's bound on what it builds. The value is parsed once per run (cached_parse): a rubric
// may call ncu(p) in every criterion.
template <class Parse>
Value read_and_parse(CallContext& ctx, const std::vector<Value>& a, const char* what, std::optional<std::size_t> limit_at,
                     Parse parse) {
  if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
  std::uint64_t cap = CallContext::kDefaultReadCap;
  if (limit_at)
    if (auto e = limit_arg(ctx, a, *limit_at, cap)) return *e;
  const PathValue& p = a[0].as_path();
  return cached_parse(ctx, fmt::format("{}:{}:{}", ctx.function_name(), cap, p.full()), [&]() -> Value {
    Value err;
    auto text = limit_at ? ctx.read_file(p, &err, cap, fmt::format("{} ({}(p, limit = ...) raises it)", what,
                                                                      ctx.function_name()))
                         : ctx.read_file(p, &err);
    if (!text) return err;
    try {
      return parse(std::move(*text), p);  // a parser may let the text go before building values
    } catch (const OperatorError& e) {
      return ctx.file_error(p, fmt::format("malformed {}: {}", what, e.what()));
    } catch (const tables::ReadLimitExceeded& e) {
      return ctx.file_error(p, e.what());
    }
  });
}

}  // namespace

}  // namespace builtins

void open_tables(Registry& r) {
  using builtins::want;
  const std::string fam = "files";
  r.add("jsonl", {P("p")}, false,
        "The JSON Lines file at p (one JSON value per line, as SGLang's bench_serving writes) as a list; blank lines "
        "are skipped. Like json(), it takes Python's NaN, Infinity and -Infinity. A malformed line FAILs naming its "
        "line and column (an ERROR under `reference`).",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          return builtins::read_and_parse(ctx, a, "JSON Lines", std::nullopt, [](const std::string& text, const PathValue& p) {
            json::Array docs = json::parse_lines(text, p.display(), builtins::kJsonValueCap);
            List items;
            for (std::size_t i = 0; i < docs.size(); ++i)
              items.push_back(builtins::value_from_json(docs[i], fmt::format("{}[{}]", p.display(), i)));
            Value v = Value::list(std::move(items), fmt::format("the records of {}", p.display()),
                                  fmt::format("{} holds no records", p.display()));
            if (p.root == "submission") v.mark_from_submission();
            return v;
          });
        });
  r.add("parse_csv", {P("text"), P("sep", Value::string(",")), P("preamble", Value::boolean(false)),
                      P("thousands", Value::boolean(false))},
        false,
        "CSV held in a string (a program's output) as csv() reads a file: a list of records keyed by the header.", fam,
        [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
          builtins::CsvCall o;
          if (auto e = builtins::csv_options(ctx, a, o)) return *e;
          const Value& text = a[0];
          return builtins::csv_table(ctx, text.as_string(), "the CSV text", text.from_submission(), o,
                                     [&](const std::string& m) { return ctx.data_error(m, text); });
        });
  const Value data_limit = Value::number(builtins::kDataLimit, Dimension::of(Dimension::bytes));
  r.add("ncu", {P("p"), P("limit", data_limit)}, false,
        "Nsight Compute's CSV (`ncu --csv ... > p`, the details page or `--page raw`), ==PROF== lines and the "
        "program's output before the header skipped, as a list of kernel launches: {id, kernel (the name without "
        "return type or parameters), function (without namespaces and template arguments too), name (as written), "
        "the identity columns (\"Block Size\", \"Grid Size\", \"Device\", ...), nvtx (the NVTX ranges open at the "
        "launch, outermost first, with --nvtx), metrics (by metric name, with "
        "units: usecond → s, Kbyte → B, byte/second → B/s, Ghz → GHz, % → a fraction; counts plain), units (the unit text by metric name), sections (details page: the section by metric name)}. "
        "`ncu --csv --print-summary per-kernel` gives one entry per kernel and launch shape, without id: metrics "
        "are the Averages, with minimum, maximum (by metric name) and invocations. "
        "A file larger than `limit` (default 64 MiB) or of more than 2,000,000 fields FAILs under `submission`.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          return builtins::read_and_parse(ctx, a, "ncu CSV", 1, [](std::string text, const PathValue& p) {
            tables::NcuReport report = tables::parse_ncu_csv(text, p.display(), builtins::kCsvCellCap);
            std::string().swap(text);  // freed before the values are built
            return builtins::ncu_value(std::move(report), p.display(), p.root == "submission");
          });
        });
  r.add("nsys", {P("p"), P("report", Value::null())}, false,
        "A report that `nsys stats --format csv` wrote (to a file through `> p`, or with `-o`) as a list of records "
        "keyed by its header, numbers with thousands separators read: the report named `report` "
        "(\"cuda_gpu_kern_sum\", \"cuda_api_sum\", ...) among those the file holds, or its only one. A report nsys "
        "SKIPPED (no data of that kind) is an empty list; one the file lacks FAILs naming those it holds.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::path, "a path")) return *e;
          if (!a[1].is(ValueKind::null))
            if (auto e = want(ctx, a, 1, ValueKind::string, "a report name such as \"cuda_gpu_kern_sum\"")) return *e;
          const PathValue& p = a[0].as_path();
          const std::string wanted = a[1].is(ValueKind::null) ? std::string() : a[1].as_string();
          return builtins::cached_parse(ctx, fmt::format("nsys:{}:{}", wanted, p.full()), [&]() -> Value {
            Value err;
            auto text = ctx.read_file(p, &err);
            if (!text) return err;
            const bool sub = p.root == "submission";
            std::vector<tables::NsysReport> reports = tables::split_nsys_stats(*text);
            auto names = [&] {
              std::string out;
              for (const auto& r : reports)
                out += fmt::format("{}{}{}", out.empty() ? "" : ", ", r.name.empty() ? "(a table without a heading)" : r.name,
                                   r.skipped ? " (skipped)" : "");
              return out;
            };
            const tables::NsysReport* found = nullptr;
            for (const auto& r : reports)
              if (!found && !wanted.empty() && !r.name.empty() && tables::nsys_report_is(r, wanted)) found = &r;
            // A lone table without a heading (`nsys stats -o prefix` writes one per file) is whatever was asked for.
            if (!found && reports.size() == 1 && (wanted.empty() || reports[0].name.empty())) found = &reports[0];
            if (!found && wanted.empty()) {
              std::string example = reports.back().name;
              for (const auto& r : reports)
                if (!r.skipped && !r.name.empty()) example = r.name;
              return ctx.file_error(p, fmt::format("{} holds {} nsys reports ({}): name one, as in nsys(p, \"{}\")",
                                                   p.display(), reports.size(), names(), example));
            }
            if (!found)
              return ctx.file_error(p, fmt::format("{} holds no {} report; it holds: {}", p.display(), wanted, names()));
            if (found->skipped) {
              Value v = Value::list(List{}, fmt::format("the rows of {} in {}", found->name, p.display()),
                                    fmt::format("nsys skipped {} in {}: {}", found->name, p.display(), found->note));
              if (sub) v.mark_from_submission();
              return v;
            }
            builtins::CsvCall o;
            o.preamble = found->name.empty();
            o.thousands = true;
            return builtins::csv_table(ctx, found->table, p.display(), sub, o,
                                       [&](const std::string& m) { return ctx.file_error(p, m); });
          });
        });
  r.add("kernel_name", {P("name"), P("base", Value::string("function"))}, false,
        "A kernel's name as a profiler prints it (ncu's \"Kernel Name\", nsys's \"Name\") cut to a base: "
        "\"function\" (ncu's kernel-name base and its ==PROF== Profiling lines: no namespaces, template arguments "
        "or parameters, \"void ns::gemm<float>(float *)\" → \"gemm\") or \"short\" (no return type or parameters: "
        "\"ns::gemm<float>\").",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::string, "a kernel name")) return *e;
          if (auto e = want(ctx, a, 1, ValueKind::string, "\"function\" or \"short\"")) return *e;
          const std::string& base = a[1].as_string();
          if (base != "function" && base != "short")
            return ctx.error(fmt::format("bad argument #2 to 'kernel_name' (base \"function\" or \"short\", got \"{}\")", base));
          Value v = Value::string(base == "short" ? tables::short_kernel_name(a[0].as_string())
                                                  : tables::kernel_function_name(a[0].as_string()));
          if (a[0].from_submission()) v.mark_from_submission();
          return v;
        });
  r.add("prometheus", {P("p"), P("limit", data_limit)}, false,
        "A Prometheus text exposition (a /metrics scrape of vLLM or SGLang) as a record by metric family name: "
        "{name, type, help, samples: [{name, labels, value}], and for histograms series: [{labels, buckets: "
        "[{le, count}], sum, count, p50, p90, p95, p99}]} (quantiles as PromQL's histogram_quantile estimates them). "
        "A file larger than `limit` (default 64 MiB) or of more than 250,000 samples FAILs under `submission`.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          return builtins::read_and_parse(ctx, a, "Prometheus exposition", 1, [](std::string text, const PathValue& p) {
            tables::PromScrape scrape = tables::parse_prometheus(text, p.display(), builtins::kPromSampleCap);
            std::string().swap(text);  // freed before the values are built
            return builtins::prometheus_value(std::move(scrape), p.display(), p.root == "submission");
          });
        });
  r.add("parse_prometheus", {P("text")}, false, "A Prometheus text exposition held in a string, as prometheus() reads a file.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = want(ctx, a, 0, ValueKind::string, "a string")) return *e;
          try {
            return builtins::prometheus_value(
                tables::parse_prometheus(a[0].as_string(), "the exposition text", builtins::kPromSampleCap),
                "the exposition text", a[0].from_submission());
          } catch (const OperatorError& e) {
            return ctx.data_error(fmt::format("malformed Prometheus exposition: {}", e.what()), a[0]);
          } catch (const tables::ReadLimitExceeded& e) {
            return ctx.data_error(e.what(), a[0]);
          }
        });
  r.add("histogram_quantile", {P("q"), P("h")}, false,
        "The q-quantile (0..1) of a histogram series from prometheus() (its buckets), as PromQL's histogram_quantile: "
        "linear interpolation inside the bucket, the highest finite bound for ranks in the +Inf bucket.",
        fam, [](CallContext& ctx, const std::vector<Value>& a) {
          if (auto e = builtins::want_plain(ctx, a, 0)) return *e;
          if (auto e = want(ctx, a, 1, ValueKind::record, "a histogram series (from prometheus(p).NAME.series)")) return *e;
          const Value* buckets = a[1].as_record().find("buckets");
          if (!buckets || !buckets->is(ValueKind::list))
            return ctx.data_error("bad argument #2 to 'histogram_quantile' (a record with no buckets list)", a[1]);
          tables::PromHistogram h;
          for (const Value& b : buckets->as_list()) {
            const Value* le = b.is(ValueKind::record) ? b.as_record().find("le") : nullptr;
            const Value* count = b.is(ValueKind::record) ? b.as_record().find("count") : nullptr;
            if (!le || !count || !le->is(ValueKind::number) || !count->is(ValueKind::number))
              return ctx.data_error("bad argument #2 to 'histogram_quantile' (a bucket without numeric le and count)", a[1]);
            h.buckets.push_back(tables::PromBucket{le->as_number(), count->as_number()});
          }
          std::stable_sort(h.buckets.begin(), h.buckets.end(),
                           [](const tables::PromBucket& x, const tables::PromBucket& y) { return x.le < y.le; });
          Value v = Value::number(tables::histogram_quantile(a[0].as_number(), h));
          if (a[1].from_submission()) v.mark_from_submission();
          return v;
        });
}

}  // namespace rubric
