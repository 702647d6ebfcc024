#include "interpreter/value.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "grammar/suggest.hpp"
#include "interpreter/paths.hpp"
#include "interpreter/verdicts.hpp"
#include "operators/digest/content_digest.hpp"
#include "operators/digest/pass_digest.hpp"
#include "operators/files/safe_open.hpp"

namespace rubric {

const char* kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::null: return "null";
    case ValueKind::boolean: return "bool";
    case ValueKind::number: return "number";
    case ValueKind::string: return "string";
    case ValueKind::list: return "list";
    case ValueKind::record: return "record";
    case ValueKind::path: return "path";
    case ValueKind::tensor: return "tensor";
    case ValueKind::samples: return "samples";
    case ValueKind::function: return "function";
    case ValueKind::error: return "error";
  }
  return "?";
}

const Value* Record::find(const std::string& key) const {
  for (const auto& f : fields)
    if (same_key(f.first, key)) return &f.second;
  return nullptr;
}

std::string Record::key_list() const {
  std::string s;
  std::size_t n = 0;
  for (const auto& f : fields) {
    if (n == 20) {
      s += ", ...";
      break;
    }
    if (n++) s += ", ";
    s += f.first;
  }
  return s.empty() ? "(none)" : s;
}

std::string Record::missing_key(const std::string& key) const {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const auto& f : fields) names.push_back(f.first);
  return fmt::format("no key '{}' in {}{}; keys: {}", key, origin.empty() ? "record" : origin.str(), did_you_mean(key, names), key_list());
}

std::string PathValue::display() const { return relative.empty() ? root : root + "/" + relative; }
std::string PathValue::full() const { return relative.empty() ? root_dir : root_dir + "/" + relative; }

// ---- samples ----

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double hi = v[mid];
  if (v.size() % 2) return hi;
  double lo = *std::max_element(v.begin(), v.begin() + mid);
  return (lo + hi) / 2;
}

void collect_leaves(const SampleExpr& e, std::vector<std::shared_ptr<const SampleSet>>& out) {
  if (e.op == SampleExpr::Op::leaf) {
    if (std::find(out.begin(), out.end(), e.leaf) == out.end()) out.push_back(e.leaf);
    return;
  }
  if (e.lhs) collect_leaves(*e.lhs, out);
  if (e.rhs) collect_leaves(*e.rhs, out);
}

double eval_point(const SampleExpr& e) {
  switch (e.op) {
    case SampleExpr::Op::leaf: return median_of(e.leaf->values);
    case SampleExpr::Op::constant: return e.constant;
    case SampleExpr::Op::add: return eval_point(*e.lhs) + eval_point(*e.rhs);
    case SampleExpr::Op::sub: return eval_point(*e.lhs) - eval_point(*e.rhs);
    case SampleExpr::Op::mul: return eval_point(*e.lhs) * eval_point(*e.rhs);
    case SampleExpr::Op::div: return eval_point(*e.lhs) / eval_point(*e.rhs);
    case SampleExpr::Op::neg: return -eval_point(*e.lhs);
  }
  return 0;
}

}  // namespace

std::shared_ptr<const SampleExpr> sample_expr_of(const Value& v) {
  if (v.is(ValueKind::samples)) return v.as_samples().expr;
  auto c = std::make_shared<SampleExpr>();
  c->op = SampleExpr::Op::constant;
  c->constant = v.as_number();
  c->dim = v.as_quantity().dim;
  return c;
}

std::vector<std::shared_ptr<const SampleSet>> Samples::leaves() const {
  std::vector<std::shared_ptr<const SampleSet>> out;
  collect_leaves(*expr, out);
  return out;
}

double Samples::point_estimate() const { return eval_point(*expr); }

std::string Samples::description() const {
  auto ls = leaves();
  if (ls.size() == 1 && expr->op == SampleExpr::Op::leaf) return ls[0]->description;
  std::string s = "derived from ";
  for (std::size_t i = 0; i < ls.size(); ++i) s += (i ? "; " : "") + ls[i]->description;
  return s;
}

// ---- Value ----

Value Value::boolean(bool b) {
  Value v;
  v.payload_ = b;
  return v;
}
Value Value::number(double x, Dimension d) {
  Value v;
  v.payload_ = Quantity{x, d};
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.payload_ = std::make_shared<const std::string>(std::move(s));
  return v;
}
namespace {

bool any_item_error(const List& items) {
  for (const Value& x : items)
    if (x.is_error() || (x.is(ValueKind::list) && x.holds_error())) return true;
  return false;
}

}  // namespace

Value Value::list(List items) {
  Value v;
  const bool held = any_item_error(items);
  v.payload_ = std::make_shared<const ListPayload>(std::move(items), std::string(), std::string(), held);
  return v;
}
Value Value::record(Record r) {
  Value v;
  v.payload_ = std::make_shared<const Record>(std::move(r));
  return v;
}
Value Value::path(PathValue p) {
  Value v;
  v.payload_ = std::make_shared<const PathValue>(std::move(p));
  return v;
}
Value Value::tensor(std::shared_ptr<const tensor::Tensor> t) {
  Value v;
  v.payload_ = std::move(t);
  return v;
}
Value Value::samples(std::shared_ptr<const SampleExpr> e) {
  Value v;
  v.payload_ = std::make_shared<const Samples>(Samples{std::move(e)});
  return v;
}
Value Value::named_samples(const std::string& name) const {
  if (!is(ValueKind::samples)) return *this;
  const SampleExpr& e = *as_samples().expr;
  if (e.op != SampleExpr::Op::leaf || e.leaf->description.rfind(name + ":", 0) == 0) return *this;
  SampleSet named = *e.leaf;
  named.description = name + ": " + named.description;
  Value v = samples_of(std::move(named));
  if (from_submission()) v.mark_from_submission();
  return v;
}

Value Value::samples_of(SampleSet s) {
  auto e = std::make_shared<SampleExpr>();
  e->op = SampleExpr::Op::leaf;
  e->dim = s.dim;
  e->leaf = std::make_shared<const SampleSet>(std::move(s));
  return samples(std::move(e));
}
Value Value::function(Function f) {
  Value v;
  v.payload_ = std::make_shared<const Function>(std::move(f));
  return v;
}
Value Value::error(std::string message, Blame blame, SourceLocation where) {
  Value v;
  v.payload_ = std::make_shared<const ErrorInfo>(ErrorInfo{std::move(message), blame, std::move(where), Verdict::error});
  return v;
}
Value Value::undecided(std::string message, Verdict verdict, Blame blame, SourceLocation where) {
  Value v;
  v.payload_ = std::make_shared<const ErrorInfo>(ErrorInfo{std::move(message), blame, std::move(where), verdict});
  return v;
}


bool Value::as_bool() const { return std::get<bool>(payload_); }
const Quantity& Value::as_quantity() const { return std::get<Quantity>(payload_); }
const std::string& Value::as_string() const { return *std::get<std::shared_ptr<const std::string>>(payload_); }
const List& Value::as_list() const {
  const ListPayload& p = *std::get<std::shared_ptr<const ListPayload>>(payload_);
  if (const TableView view = table_view())
    std::call_once(p.items_made, [&p, view] {
      p.items.reserve(view.size());
      for (std::size_t i = 0; i < view.size(); ++i) p.items.push_back(view.table->record(view.row(i)));
    });
  return p.items;
}
std::size_t Value::list_size() const {
  if (const TableView view = table_view()) return view.size();
  return as_list().size();
}
TableView Value::table_view() const {
  const auto* p = std::get_if<std::shared_ptr<const ListPayload>>(&payload_);
  if (!p || !(*p)->table) return {};
  return {(*p)->table.get(), (*p)->selection.get()};
}

namespace {

// The payload of a list of a table's rows (`selection`, or all when null).
std::shared_ptr<const ListPayload> table_payload(std::shared_ptr<const RecordTable> t,
                                                 std::shared_ptr<const std::vector<std::uint32_t>> selection,
                                                 std::string what, std::string none) {
  auto p = std::make_shared<ListPayload>(List{}, std::move(what), std::move(none), false);
  p->table = std::move(t);
  p->selection = std::move(selection);
  return p;
}

}  // namespace

Value Value::table(std::shared_ptr<const RecordTable> t, std::string what, std::string none) {
  Value v;
  v.payload_ = table_payload(std::move(t), nullptr, std::move(what), std::move(none));
  return v;
}
Value Value::table_rows(const Value& table_list, std::vector<std::uint32_t> selection) {
  Value v;
  v.payload_ = table_payload(std::get<std::shared_ptr<const ListPayload>>(table_list.payload_)->table,
                             std::make_shared<const std::vector<std::uint32_t>>(std::move(selection)), {}, {});
  return v;
}
Value Value::described(std::string what, std::string none) const {
  const ListPayload& of = *std::get<std::shared_ptr<const ListPayload>>(payload_);
  Value v = *this;  // keeps its marks
  v.payload_ = of.table ? table_payload(of.table, of.selection, std::move(what), std::move(none))
                        : std::make_shared<const ListPayload>(of.items, std::move(what), std::move(none), of.holds_error);
  return v;
}

const Value* RecordTable::find(std::size_t row, const std::string& key) const {
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (same_key(keys[k], key)) return &columns[k][row];
  return nullptr;
}

Value RecordTable::record(std::size_t row) const {
  Record r;
  r.origin = RecordOrigin(origin, row);
  r.fields.reserve(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) r.fields.emplace_back(keys[k], columns[k][row]);
  Value v = Value::record(std::move(r));
  if (from_submission) v.mark_from_submission();
  return v;
}
const std::string& Value::list_what() const { return std::get<std::shared_ptr<const ListPayload>>(payload_)->what; }
const std::string& Value::list_none() const { return std::get<std::shared_ptr<const ListPayload>>(payload_)->none; }
Value Value::list(List items, std::string what, std::string none) {
  Value v;
  const bool held = any_item_error(items);
  v.payload_ = std::make_shared<const ListPayload>(std::move(items), std::move(what), std::move(none), held);
  return v;
}

bool Value::holds_error() const {
  const auto* p = std::get_if<std::shared_ptr<const ListPayload>>(&payload_);
  return p && (*p)->holds_error;
}

std::optional<Value> Value::held_error() const {
  if (!holds_error()) return std::nullopt;
  std::optional<Value> best;
  for (const Value& x : as_list()) {
    std::optional<Value> e = x.is_error() ? std::optional<Value>(x) : x.held_error();
    if (e && (!best || undecided_rank(truth_of(e->as_error())) > undecided_rank(truth_of(best->as_error())))) best = std::move(e);
  }
  return best;
}

const Record& Value::as_record() const { return *std::get<std::shared_ptr<const Record>>(payload_); }
const PathValue& Value::as_path() const { return *std::get<std::shared_ptr<const PathValue>>(payload_); }
const std::shared_ptr<const tensor::Tensor>& Value::as_tensor() const {
  return std::get<std::shared_ptr<const tensor::Tensor>>(payload_);
}
const Samples& Value::as_samples() const { return *std::get<std::shared_ptr<const Samples>>(payload_); }
const Function& Value::as_function() const { return *std::get<std::shared_ptr<const Function>>(payload_); }
const ErrorInfo& Value::as_error() const { return *std::get<std::shared_ptr<const ErrorInfo>>(payload_); }

namespace {

// As the language writes the string: escapes for quotes, backslashes and control characters.
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else out += c;
    }
  }
  return out + "\"";
}

std::string render(const Value& v, std::size_t max_items, bool top);

std::string render_items(const List& items, std::size_t max_items) {
  std::string s = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i == max_items) {
      s += fmt::format(", ... ({} items)", items.size());
      break;
    }
    if (i) s += ", ";
    s += render(items[i], max_items, false);
  }
  return s + "]";
}

std::string render(const Value& v, std::size_t max_items, bool top) {
  switch (v.kind()) {
    case ValueKind::null: return "null";
    case ValueKind::boolean: return v.as_bool() ? "true" : "false";
    case ValueKind::number: return format_quantity(v.as_quantity().value, v.as_quantity().dim);
    case ValueKind::string: return top ? v.as_string() : quote(v.as_string());
    case ValueKind::list: return render_items(v.as_list(), max_items);
    case ValueKind::record: {
      const Record& r = v.as_record();
      std::string s = "{";
      std::size_t n = 0;
      for (const auto& f : r.fields) {
        if (n == max_items) {
          s += fmt::format(", ... ({} fields)", r.fields.size());
          break;
        }
        if (n++) s += ", ";
        s += f.first + ": " + render(f.second, max_items, false);
      }
      return s + "}";
    }
    case ValueKind::path: return v.as_path().display();
    case ValueKind::tensor: return "tensor";
    case ValueKind::samples: {
      const Samples& s = v.as_samples();
      auto leaves = s.leaves();
      std::size_t n = leaves.empty() ? 0 : leaves.front()->values.size();
      for (const auto& l : leaves) n = std::min(n, l->values.size());
      return fmt::format("samples(median {}, n={})", format_quantity(s.point_estimate(), s.dim()), n);
    }
    case ValueKind::function: {
      const Function& f = v.as_function();
      return f.kind == Function::Kind::lambda ? std::string("<lambda>") : fmt::format("<function {}>", f.name);
    }
    case ValueKind::error: return "error: " + v.as_error().message;
  }
  return "?";
}

}  // namespace

std::string Value::to_string(std::size_t max_items) const { return render(*this, max_items, true); }
std::string Value::repr(std::size_t max_items) const { return render(*this, max_items, false); }

namespace {

// A record's fields by key for many lookups: a record read from a submission's JSON may hold
// hundreds of thousands of keys, and a lookup per field of the other side (Record::find, a scan)
// made comparing two records of 100,000 keys take 37 s. Small records keep the scan. The first
// field of a key wins, as in Record::find.
class KeyIndex {
 public:
  explicit KeyIndex(const Record& r) : r_(r) {
    if (r.fields.size() <= 16) return;
    sorted_.reserve(r.fields.size());
    for (const auto& f : r.fields) sorted_.push_back(&f);
    std::stable_sort(sorted_.begin(), sorted_.end(), [](auto* p, auto* q) { return p->first < q->first; });
  }
  const Value* find(const std::string& key) const {
    if (sorted_.empty()) return r_.find(key);
    auto it = std::lower_bound(sorted_.begin(), sorted_.end(), key, [](auto* p, const std::string& k) { return p->first < k; });
    return it != sorted_.end() && (*it)->first == key ? &(*it)->second : nullptr;
  }

 private:
  const Record& r_;
  std::vector<const std::pair<std::string, Value>*> sorted_;
};

}  // namespace

std::optional<std::string> first_difference(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return fmt::format("{} is a {}, {} is a {}", a.repr(5), a.kind_name(), b.repr(5), b.kind_name());
  switch (a.kind()) {
    case ValueKind::null: return std::nullopt;
    case ValueKind::boolean:
      if (a.as_bool() == b.as_bool()) return std::nullopt;
      break;
    case ValueKind::number: {
      const auto &x = a.as_quantity(), &y = b.as_quantity();
      if (x.dim != y.dim)
        return fmt::format("{} and {} have different dimensions ({} vs {})", a.repr(), b.repr(), dimension_description(x.dim),
                           dimension_description(y.dim));
      if (x.value == y.value) return std::nullopt;
      break;
    }
    case ValueKind::string:
      if (a.as_string() == b.as_string()) return std::nullopt;
      break;
    case ValueKind::list: {
      const List &x = a.as_list(), &y = b.as_list();
      for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
        if (auto d = first_difference(x[i], y[i])) return fmt::format("at [{}]: {}", i, *d);
      if (x.size() != y.size()) return fmt::format("lengths differ: {} vs {}", x.size(), y.size());
      return std::nullopt;
    }
    case ValueKind::record: {
      const Record &x = a.as_record(), &y = b.as_record();
      const KeyIndex in_x(x), in_y(y);
      for (const auto& f : x.fields) {
        const Value* o = in_y.find(f.first);
        if (!o) return fmt::format("key '{}' only on the left", f.first);
        if (auto d = first_difference(f.second, *o)) return fmt::format("at .{}: {}", f.first, *d);
      }
      for (const auto& f : y.fields)
        if (!in_x.find(f.first)) return fmt::format("key '{}' only on the right", f.first);
      return std::nullopt;
    }
    case ValueKind::path:
      if (a.as_path().display() == b.as_path().display()) return std::nullopt;
      break;
    case ValueKind::tensor:
      if (a.as_tensor() == b.as_tensor()) return std::nullopt;
      return std::string("tensors compare with 'matches', not '=='");
    case ValueKind::function: return std::string("functions cannot be compared");
    case ValueKind::samples: return std::string("samples compare by statistics, not '=='");
    case ValueKind::error: return a.as_error().message;
  }
  return fmt::format("{} != {}", a.repr(5), b.repr(5));
}

bool structurally_equal(const Value& a, const Value& b) { return !first_difference(a, b).has_value(); }

// ---- CallContext helpers ----

Value CallContext::error(std::string message, Blame blame) const { return Value::error(std::move(message), blame, location()); }

Value CallContext::bad_argument(int index, const std::string& expected, const Value& got) const {
  std::string what = got.is_error() ? fmt::format("got error: {}", got.as_error().message) : fmt::format("got {}", got.kind_name());
  return error(fmt::format("bad argument #{} to '{}' (expected {}, {})", index, function_name(), expected, what),
               carries_submission_data(got) ? Blame::submission : Blame::rubric);
}

Value CallContext::data_error(std::string message, const Value& data) const {
  return error(std::move(message), carries_submission_data(data) ? Blame::submission : Blame::rubric);
}

std::string CallContext::data_name(int argno, const Value& argument, const std::string& shown) const {
  if (!carries_submission_data(argument)) return shown;
  // A list or record read from a file says where it came from; a number is described by the call.
  std::string where = argument.is(ValueKind::list)     ? argument.list_what()
                      : argument.is(ValueKind::record) ? argument.as_record().origin.str()
                                                       : "";
  if (where.empty()) where = describe_argument(argno);
  return where.empty() ? shown : fmt::format("{} from {}", shown, where);
}

bool carries_submission_data(const Value& v) {
  if (v.from_submission()) return true;
  if (v.is(ValueKind::path)) return v.as_path().root == "submission";
  if (v.is(ValueKind::record)) {
    const RecordOrigin& o = v.as_record().origin;
    return o.starts_with("submission") || o.starts_with("the program's");
  }
  return false;
}

Blame owner_of(const Value& v) { return carries_submission_data(v) ? Blame::submission : Blame::rubric; }

Dimension dimension_of(const Value& v) { return v.is(ValueKind::samples) ? v.as_samples().dim() : v.as_quantity().dim; }

Value CallContext::file_error(const PathValue& p, const std::string& message) const {
  return error(message, p.root == "submission" ? Blame::submission : Blame::rubric);
}

std::optional<std::string> CallContext::resolve_file(const PathValue& p, Value* err) const {
  ResolvedPath r = resolve_confined(p);
  if (r.status != PathStatus::ok) {
    // Escaping the root is the rubric's or the candidate's doing depending on the root, like a missing file.
    if (err) *err = file_error(p, r.message);
    return std::nullopt;
  }
  try {
    // Before anything opens it for reading: a FIFO would block forever.
    files::check_regular(r.real, p.display());
  } catch (const files::FileError& e) {
    if (err) *err = file_error(p, e.what());
    return std::nullopt;
  }
  return r.real;
}

std::optional<std::string> CallContext::open_file(const PathValue& p, Value* err) {
  auto text = read_file(p, err);
  if (!text) return std::nullopt;
  return resolve_file(p, nullptr);
}

std::optional<std::string> CallContext::read_file(const PathValue& p, Value* err, std::uint64_t cap,
                                                  const std::string& purpose) {
  auto real = resolve_file(p, err);
  if (!real) return std::nullopt;
  std::string text;
  try {
    // Type and size first (check_cap before a byte is read): nothing of a refused file is read or hashed.
    files::OpenFile f = files::open_regular(*real, p.display());
    files::check_cap(f, p.display(), cap, purpose);
    text = files::read_capped(f, p.display(), cap, purpose);
  } catch (const files::FileError& e) {
    if (err) *err = file_error(p, e.what());
    return std::nullopt;
  }
  // Hashed from the bytes just read, while they are in cache: the provenance names what was graded.
  if (!has_file(p)) {
    std::promise<std::string> hashed;
    hashed.set_value(digest::content_digest_hex(text));
    record_file(FileRecord{p.relative, p.root, "", text.size()}, hashed.get_future().share());
  }
  return text;
}

namespace {
std::string pass_digest_key(const std::byte* mapping) {
  return fmt::format("pass-digest:{}", static_cast<const void*>(mapping));
}
}  // namespace

void CallContext::record_mapped_file(const PathValue& p, std::shared_ptr<const void> keep_alive, const std::byte* data,
                                     std::size_t size, std::function<bool()> whole, int fd) {
  if (has_file(p)) return;
  // A large file's digest waits for a pass that reads it anyway (the comparison hashes what it
  // compares while it is in cache, pass_digest_for); otherwise the report computes it.
  if (size >= kPassDigestFrom) {
    auto job = std::make_shared<digest::PassDigest>(std::move(keep_alive), data, size, std::move(whole), fd);
    record_file(FileRecord{p.relative, p.root, "", size}, job->future(job));
    store(pass_digest_key(data), std::shared_ptr<const void>(job));
    return;
  }
  record_file(FileRecord{p.relative, p.root, "", size},
              digest::digest_in_background(std::move(keep_alive), data, size, std::move(whole), fd));
}

std::shared_ptr<digest::PassDigest> CallContext::pass_digest_for(const std::byte* mapping) {
  auto hit = cached(pass_digest_key(mapping));
  return hit ? std::const_pointer_cast<digest::PassDigest>(std::static_pointer_cast<const digest::PassDigest>(hit)) : nullptr;
}

}  // namespace rubric
