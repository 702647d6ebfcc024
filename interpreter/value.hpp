#pragma once
// The language's values (language.md §4): immutable and cheap to copy (heavy payloads are
// shared). Errors are values too: an operation on an error yields that error, so a failed
// `let` fails only the checks that use it.
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "interpreter/report_model.hpp"
#include "interpreter/units.hpp"

namespace rubric::tensor {
class Tensor;
}
namespace rubric::digest {
class PassDigest;
}
namespace rubric::ast {
struct Lambda;
struct Def;
}  // namespace rubric::ast

namespace rubric {

class Value;
class Environment;  // the evaluator's scopes (closures of lambdas and defs)
struct Builtin;     // a registered builtin (interpreter/builtins/registry.hpp)
class CallContext;

enum class ValueKind { null, boolean, number, string, list, record, path, tensor, samples, function, error };
// "null", "bool", "number", "string", "list", "record", "path", "tensor", "samples", "function", "error"
const char* kind_name(ValueKind k);

struct Quantity {
  double value = 0;  // in base units (s, B, tok, req, FLOP)
  Dimension dim;
};

using List = std::vector<Value>;
struct ListPayload;

// The largest string and list the language builds by concatenation, interpolation or `join`. A
// rubric doubling a string in a recursion would otherwise take all the machine's memory before
// any step budget ran out; past these it is an ERROR naming the limit.
constexpr std::size_t max_string_bytes = std::size_t{256} << 20;
constexpr std::size_t max_list_items = 10'000'000;

// Where a record came from, for "no key" messages ("submission/bench.json"); may be empty. The
// records of a list read from a file share the list's origin and add their index only when a
// message spells it out ("submission/bench.json.runs[3]"), so 200,000 records hold no text of their own.
class RecordOrigin {
 public:
  RecordOrigin() = default;
  RecordOrigin(std::string text)
      : text_(text.empty() ? nullptr : std::make_shared<const std::string>(std::move(text))) {}
  RecordOrigin(const char* text) : RecordOrigin(std::string(text)) {}
  // Item `index` of the list whose origin is `list`: "LIST[index]".
  RecordOrigin(std::shared_ptr<const std::string> list, std::size_t index) : text_(std::move(list)), index_(index) {}

  bool empty() const { return !text_; }
  std::string str() const {
    if (!text_) return std::string();
    if (index_ == kWhole) return *text_;
    return *text_ + "[" + std::to_string(index_) + "]";
  }
  bool starts_with(std::string_view prefix) const {
    if (!text_) return prefix.empty();
    if (text_->size() >= prefix.size()) return std::string_view(*text_).substr(0, prefix.size()) == prefix;
    return str().rfind(prefix, 0) == 0;
  }
  operator std::string() const { return str(); }
  bool operator==(const std::string& other) const { return str() == other; }
  bool operator==(const char* other) const { return str() == other; }

 private:
  static constexpr std::size_t kWhole = static_cast<std::size_t>(-1);
  std::shared_ptr<const std::string> text_;
  std::size_t index_ = kWhole;
};

// Whether two keys or names are equal, compared inline: they are short, and a call to memcmp per
// field of 200,000 records cost more than the comparison.
inline bool same_key(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.size() > 24) return a == b;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

struct Record {
  std::vector<std::pair<std::string, Value>> fields;  // in insertion (file) order
  RecordOrigin origin;
  // Lines every check that reads a field of this record shows (a run's status and stderr tail).
  std::shared_ptr<const std::vector<std::string>> evidence;
  // Set when what the record describes went wrong (a run that timed out or was killed): a check
  // failing on it gives this as the reason before its own explanation.
  std::string abnormal;
  const Value* find(const std::string& key) const;
  std::string key_list() const;  // "a, b, c" (the first 20, then "...")
  // "no key 'triton_msec' in submission/bench.json (did you mean 'triton_ms'?); keys: torch_ms, triton_ms"
  std::string missing_key(const std::string& key) const;
};

// A list of records of one shape read from a file, held column by column: a file of 200,000
// requests is seven columns, not 200,000 records. A lambda reading a row's fields reads the
// columns (Evaluator::call_on_row); the records are made only where something needs them whole.
struct RecordTable {
  std::vector<std::string> keys;              // in file order
  std::vector<List> columns;                  // columns[key][row]
  std::size_t row_count = 0;                  // rows of `{}` have no columns
  std::shared_ptr<const std::string> origin;  // the list's: row i is "ORIGIN[i]"
  bool from_submission = false;               // the records are marked as the file's values are
  // The field of a row, as Record::find finds it (the first key equal), or null.
  const Value* find(std::size_t row, const std::string& key) const;
  // The row as the record the file's reader would have made.
  Value record(std::size_t row) const;
};

// The rows of a table a list holds (Value::table_view): all of them, or a selection in order.
struct TableView {
  const RecordTable* table = nullptr;
  const std::vector<std::uint32_t>* selection = nullptr;  // null: every row
  explicit operator bool() const { return table != nullptr; }
  std::size_t size() const { return selection ? selection->size() : table->row_count; }
  std::size_t row(std::size_t i) const { return selection ? (*selection)[i] : i; }
};

// A path confined to a root: `submission / "out" / "y.npy"`.
struct PathValue {
  std::string root;      // "submission", "reference", ...
  std::string root_dir;  // the root's directory on disk (absolute)
  std::string relative;  // normalised, '/'-separated, no "..", "" for the root itself
  // How the root's folder was chosen ("`reference` is the rubric's own folder, as no --reference
  // was given"), said when a file under it is missing; null when there is nothing to say.
  std::shared_ptr<const std::string> root_origin;
  std::string display() const;  // "submission/out/y.npy"
  std::string full() const;     // root_dir + "/" + relative
};

// Repeated measurements of one quantity.
struct SampleSet {
  std::vector<double> values;  // in base units
  Dimension dim;
  std::string description;  // how they were measured ("bench: 10 runs of ./serve", "samples([...])")
};

// Arithmetic over samples builds an expression over the leaf sets, so a comparison can be decided
// by bootstrapping the leaves (resample each leaf, take its median, evaluate the expression).
struct SampleExpr {
  enum class Op { leaf, constant, add, sub, mul, div, neg };
  Op op = Op::leaf;
  std::shared_ptr<const SampleSet> leaf;  // op == leaf
  double constant = 0;                    // op == constant
  std::shared_ptr<const SampleExpr> lhs, rhs;
  Dimension dim;
};

// The expression of a samples value, or a constant leaf for a number mixed with samples.
std::shared_ptr<const SampleExpr> sample_expr_of(const Value& v);

struct Samples {
  std::shared_ptr<const SampleExpr> expr;
  Dimension dim() const { return expr->dim; }
  // Every leaf set in the expression (deduplicated, in first-seen order).
  std::vector<std::shared_ptr<const SampleSet>> leaves() const;
  // The expression evaluated with each leaf replaced by its median.
  double point_estimate() const;
  std::string description() const;
};

struct Function {
  enum class Kind { lambda, def, builtin };
  Kind kind = Kind::lambda;
  std::string name;                        // "f" for defs and builtins, "lambda" otherwise
  const ast::Lambda* lambda = nullptr;     // kind == lambda
  const ast::Def* def = nullptr;           // kind == def
  std::shared_ptr<Environment> closure;    // lambda and def
  std::shared_ptr<const Builtin> builtin;  // kind == builtin
};

// A value that could not be computed. What a check using it shows (docs/semantics.md, "Blame
// algebra"): blamed on the submission → FAIL; otherwise `verdict`: ERROR (the rubric's mistake or
// the grading machine's fault), SKIP (the grader lacks what it needs, e.g. a GPU) or INCONCLUSIVE
// (a statistical comparison that did not settle).
struct ErrorInfo {
  std::string message;
  Blame blame = Blame::rubric;
  SourceLocation location;  // where it arose, when known
  Verdict verdict = Verdict::error;
};

class Value {
 public:
  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b);
  static Value number(double v, Dimension d = {});
  static Value string(std::string s);
  static Value list(List items);
  // A list that says what it lists, for "index past the end" messages: `none` when it is empty
  // ("no file matches *.json in submission/"), `what` otherwise ("the files matching *.json in submission/").
  static Value list(List items, std::string what, std::string none);
  // A list of a table's records (all rows, or the rows `selection` names, in order), made one by
  // one only when the list is used as items (as_list).
  static Value table(std::shared_ptr<const RecordTable> t, std::string what, std::string none);
  static Value table_rows(const Value& table_list, std::vector<std::uint32_t> selection);
  // The same list described anew (see list(items, what, none)), its items not copied.
  Value described(std::string what, std::string none) const;
  static Value record(Record r);
  static Value path(PathValue p);
  static Value tensor(std::shared_ptr<const tensor::Tensor> t);
  static Value samples(std::shared_ptr<const SampleExpr> e);
  static Value samples_of(SampleSet s);  // a leaf
  // A leaf set bound to a name (`let base_runs = samples(...)`) is described by that name first
  // ("base_runs: 10 recorded values"), so evidence and plots tell two sets apart. Anything else
  // is returned as it is.
  Value named_samples(const std::string& name) const;
  static Value function(Function f);
  static Value error(std::string message, Blame blame = Blame::rubric, SourceLocation where = {});
  // An undecided value that SKIPs or is INCONCLUSIVE where a check uses it (not an ERROR).
  static Value undecided(std::string message, Verdict verdict, Blame blame, SourceLocation where = {});

  // The payload's alternatives are in ValueKind's order.
  ValueKind kind() const { return static_cast<ValueKind>(payload_.index()); }

  // Read from a file under `submission` (or printed by the candidate's program). A type or unit
  // error on such a value is the submission's fault (FAIL), not the rubric's (ERROR).
  bool from_submission() const { return from_submission_; }
  Value& mark_from_submission() {
    from_submission_ = true;
    return *this;
  }
  // A quantity the submission wrote in its prose with a unit of its own choosing (`claims`): a
  // comparison with a quantity of another dimension is false (the claim is about something else,
  // "2.3x" is no bandwidth), never the rubric's error.
  bool claimed() const { return claimed_; }
  Value& mark_claimed() {
    claimed_ = true;
    return *this;
  }
  // A fraction the rubric wrote as a percentage (`min = 70%`): a comparison with it shows both
  // sides as percentages (`86.4% >= 70%`). Arithmetic makes a new value without it.
  bool percent() const { return percent_; }
  Value& mark_percent() {
    percent_ = true;
    return *this;
  }
  const char* kind_name() const { return rubric::kind_name(kind()); }
  bool is(ValueKind k) const { return kind() == k; }
  bool is_null() const { return kind() == ValueKind::null; }
  bool is_error() const { return kind() == ValueKind::error; }

  // Accessors: the caller checks the kind first (they throw std::bad_variant_access otherwise).
  bool as_bool() const;
  const Quantity& as_quantity() const;
  double as_number() const { return as_quantity().value; }
  const std::string& as_string() const;
  const List& as_list() const;
  // The number of items of a list, without making a table's records.
  std::size_t list_size() const;
  // The table a list of records holds its items in, if it does (see RecordTable).
  TableView table_view() const;
  // What a list lists and what its emptiness means (both empty unless given; see list()).
  const std::string& list_what() const;
  // A list keeps an item that could not be computed in its slot (a list literal, `map`), as a
  // record keeps a field's error, so `any`/`all` can apply the blame algebra item by item. Any
  // other use of such a list yields the strongest of those errors (held_error), nested lists included.
  bool holds_error() const;
  std::optional<Value> held_error() const;
  const std::string& list_none() const;
  const Record& as_record() const;
  const PathValue& as_path() const;
  const std::shared_ptr<const tensor::Tensor>& as_tensor() const;
  const Samples& as_samples() const;
  const Function& as_function() const;
  const ErrorInfo& as_error() const;

  // As printed in reports and string interpolation: numbers with units, strings unquoted at top
  // level (quoted inside lists and records), lists and records abbreviated past `max_items`.
  std::string to_string(std::size_t max_items = 20) const;
  // Strings quoted: how a value is shown as an operand in evidence.
  std::string repr(std::size_t max_items = 20) const;

 private:
  using Payload = std::variant<std::monostate, bool, Quantity, std::shared_ptr<const std::string>,
                               std::shared_ptr<const ListPayload>, std::shared_ptr<const Record>,
                               std::shared_ptr<const PathValue>, std::shared_ptr<const tensor::Tensor>,
                               std::shared_ptr<const Samples>, std::shared_ptr<const Function>,
                               std::shared_ptr<const ErrorInfo>>;
  static_assert(std::variant_size_v<Payload> == static_cast<std::size_t>(ValueKind::error) + 1,
                "one alternative for each ValueKind, in its order (kind())");
  Payload payload_;
  bool from_submission_ = false;
  bool claimed_ = false;
  bool percent_ = false;
};

struct ListPayload {
  ListPayload(List i, std::string w, std::string n, bool held)
      : items(std::move(i)), what(std::move(w)), none(std::move(n)), holds_error(held) {}
  mutable List items;      // a table's are made on first use (items_made)
  std::string what, none;  // see Value::list
  bool holds_error = false;  // an item is an error, or a list that holds one
  std::shared_ptr<const RecordTable> table;  // set: the items are rows of this table
  std::shared_ptr<const std::vector<std::uint32_t>> selection;  // which rows (null: all)
  mutable std::once_flag items_made;
};

// Whether a value holds what the candidate wrote: read from (or a path under) `submission`, or
// printed by the candidate's program. Builtins deriving values from such data pass the fact on.
bool carries_submission_data(const Value& v);
// Who answers for a value of the wrong kind or outside its domain where an operator needs it: the
// submission for what the candidate wrote (and what was derived from it), the rubric otherwise.
Blame owner_of(const Value& v);

// The dimension of a number or of samples.
Dimension dimension_of(const Value& v);

// Structural equality (records by keys and values in any order, lists in order, numbers by value
// and dimension). Returns a description of the first difference, or nullopt when equal.
std::optional<std::string> first_difference(const Value& a, const Value& b);
bool structurally_equal(const Value& a, const Value& b);

// What a builtin sees of the evaluator while it runs: where it is called, the roots, the
// provenance, the rubric's seed and confidence, progress, and how to call back into the language.
class CallContext {
 public:
  virtual ~CallContext() = default;

  virtual const std::string& function_name() const = 0;  // the builtin being called
  virtual SourceLocation location() const = 0;           // of the call
  // The directory of a root ("submission", "reference"); nullopt when not set.
  virtual std::optional<std::string> root_dir(const std::string& root) const = 0;
  // Records a file read into the provenance, its digest (`record.digest` is filled from it when
  // the report is made) possibly still being computed. Deduplicated by root and path.
  virtual void record_file(FileRecord record, std::shared_future<std::string> digest) = 0;
  virtual bool has_file(const PathValue& p) const = 0;
  virtual void record_run(const RunRecord& record) = 0;
  virtual std::uint64_t seed() const = 0;
  virtual double confidence() const = 0;
  virtual ProgressSink* progress() = 0;  // may be null
  // Calls a function value (lambda, def or builtin) with positional arguments.
  virtual Value call(const Value& function, const std::vector<Value>& args) = 0;
  // call with one argument, an item of a list (map, filter, count...): no argument list is built.
  virtual Value call_on(const Value& function, const Value& arg) { return call(function, std::vector<Value>{arg}); }
  // call_on with row `row` of a table (TableView): a lambda reads the row's fields without its record being made.
  virtual Value call_on_row(const Value& function, const RecordTable& t, std::size_t row) {
    return call_on(function, t.record(row));
  }
  // call_on with item `i` of a list, a table's row read in place.
  Value call_on_item(const Value& function, const Value& list, std::size_t i) {
    if (TableView view = list.table_view()) return call_on_row(function, *view.table, view.row(i));
    return call_on(function, list.as_list()[i]);
  }
  // A cache shared by all calls of one check run (e.g. parsed JSON by path), keyed by string.
  virtual std::shared_ptr<const void> cached(const std::string& key) const = 0;
  virtual void store(const std::string& key, std::shared_ptr<const void> value) = 0;
  // Counts work done inside a builtin against the criterion's step budget (a builtin walking a
  // long text charges for it), throwing LimitExceeded past the budget like an expression would.
  virtual void charge_steps(std::uint64_t steps) { (void)steps; }
  // Adds a line to the evidence of the check being decided (once per check; e.g. the worst row
  // of a per-axis metric). Outside a check it is dropped.
  virtual void note_evidence(const std::string& line) { (void)line; }
  // Marks the check being decided for review: its verdict rests on an ambiguous reading of the
  // prose (docs/text.md, "Doubt made visible"); `reason` says which. Outside a check it is dropped.
  virtual void note_review(const std::string& reason) { (void)reason; }

  // ---- helpers for builtins ----
  // An error value at the call, blamed as given.
  Value error(std::string message, Blame blame = Blame::rubric) const;
  // Lua-style: "bad argument #2 to 'load' (expected a path, got number)".
  // Blamed on the submission when `got` carries submission data (a string where the rubric expects
  // a number, read from a submission file, is the candidate's mistake).
  Value bad_argument(int index, const std::string& expected, const Value& got) const;
  // An error about the content of `data` (an empty list, a negative number under a square root):
  // the submission's when `data` carries submission data, the rubric's otherwise.
  Value data_error(std::string message, const Value& data) const;
  // Where argument #argno (1-based) of this call came from, when that can be told without
  // evaluating anything again: "submission/result.json: z" for `j.z`, the list's origin for a list
  // read from a file, else the argument's text in backquotes; empty when unknown.
  virtual std::string describe_argument(int argno) const {
    (void)argno;
    return "";
  }
  // How a message names a value the builtin refuses: "-3", or "-3 from submission/result.json: z"
  // when the value is the submission's (`value` is argument #argno, or an item of it).
  std::string data_name(int argno, const Value& argument, const std::string& shown) const;
  // An error about a file: blamed on the submission when the path is under `submission`
  // (→ FAIL), otherwise on the rubric/reference side (→ ERROR).
  Value file_error(const PathValue& p, const std::string& message) const;
  // Checks confinement; nothing is read. Returns the real path, or nullopt with `*error` set.
  std::optional<std::string> resolve_file(const PathValue& p, Value* error) const;
  // Checks confinement, reads the whole file, hashes it into the provenance. On failure returns
  // nullopt and sets `*error` to an error value (missing, escaping its root, not a regular file,
  // unreadable, or larger than `cap` bytes: `purpose` names the limit, "text").
  std::optional<std::string> read_file(const PathValue& p, Value* error, std::uint64_t cap = kDefaultReadCap,
                                       const std::string& purpose = "a file read whole");
  static constexpr std::uint64_t kDefaultReadCap = 256ull << 20;
  // read_file without keeping the bytes (for a file an operator then reads itself, such as a CUDA
  // source). Returns the real path, or nullopt with `*error` set.
  std::optional<std::string> open_file(const PathValue& p, Value* error);
  // Records a file an operator has mapped and validated (header checked) into the provenance; a
  // small file is hashed at once, a large one by the pass that reads it (else when the report asks
  // for its digest). `keep_alive` owns the mapping;
  // `whole` says after the hash whether the file is still whole (no digest is given of a file that
  // shrank while it was hashed).
  void record_mapped_file(const PathValue& p, std::shared_ptr<const void> keep_alive, const std::byte* data,
                          std::size_t size, std::function<bool()> whole = {}, int fd = -1);
  // The digest of a recorded mapped file (by the mapping's start) that a pass reading the whole
  // file may compute as it goes (operators/digest/pass_digest.hpp); null for small files.
  std::shared_ptr<digest::PassDigest> pass_digest_for(const std::byte* mapping);
  static constexpr std::size_t kPassDigestFrom = 4u << 20;  // below it a file is hashed at once
};

}  // namespace rubric
