// JSON documents as language values: from a parsed json::Value, or built straight from the fast
// reader (operators/json/json_reader.hpp) without a json::Value tree in between.
#include "interpreter/builtins/json_value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "operators/json/json_reader.hpp"

namespace rubric::builtins {

namespace {

// `origin` names the value in messages; only lists and records keep theirs, so a number's or a
// string's is never spelled out (a file of 200,000 records has a million of them). With `consume`
// each element of `j` is released once converted, so the document and its values are not both
// held whole (a 31 MB file's two trees took 440 MiB).
Value convert_json(json::Value& j, const std::string& origin, bool from_submission, bool consume) {
  Value v;
  auto child = [&](json::Value& c, auto&& name) {
    Value converted = c.is_array() || c.is_object() ? convert_json(c, name(), from_submission, consume)
                                                    : convert_json(c, std::string(), from_submission, consume);
    if (consume) c.data = nullptr;
    return converted;
  };
  switch (j.data.index()) {
    case 0: break;
    case 1: v = Value::boolean(j.as_bool()); break;
    case 2: v = Value::number(j.as_number()); break;
    case 3: v = Value::string(j.as_string()); break;
    case 4: {
      List items;
      auto& arr = std::get<json::Array>(j.data);
      items.reserve(arr.size());
      for (std::size_t i = 0; i < arr.size(); ++i)
        items.push_back(child(arr[i], [&] { return fmt::format("{}[{}]", origin, i); }));
      if (consume) json::Array().swap(arr);
      v = Value::list(std::move(items), origin, fmt::format("{} is an empty list", origin));
      break;
    }
    default: {
      Record r;
      r.origin = origin;
      auto& members = std::get<json::Object>(j.data);
      r.fields.reserve(members.size());
      for (auto& m : members) r.fields.emplace_back(m.first, child(m.second, [&] { return origin + "." + m.first; }));
      v = Value::record(std::move(r));
    }
  }
  if (from_submission) v.mark_from_submission();
  return v;
}

// What the candidate wrote: a submission file, or a program's output.
bool from_submission(const std::string& origin) {
  return origin.rfind("submission/", 0) == 0 || origin.rfind("the program's", 0) == 0;
}

}  // namespace

Value value_from_json(const json::Value& j, const std::string& origin) {
  // Not consumed: nothing is written through the reference.
  return convert_json(const_cast<json::Value&>(j), origin, from_submission(origin), false);
}

Value value_from_json(json::Value&& j, const std::string& origin) {
  json::Value held = std::move(j);
  return convert_json(held, origin, from_submission(origin), true);
}


namespace {

// Builds the language's values as the fast reader hands them over, each list and record with the
// origin convert_json gives it. Equal short strings share one value: a file of 200,000 records
// naming three models holds three strings. A list whose items are all records of the same keys in
// the same order is kept as a table, column by column (RecordTable): its records are made only if
// something needs them whole, and are then what this builder would have made.
class ValueBuilder final : public json::Builder {
 public:
  ValueBuilder(const std::string& origin, bool from_submission) : origin_(origin), from_submission_(from_submission) {}

  Value take() { return std::move(root_); }

  void null() override { place(Value()); }
  void boolean(bool b) override { place(Value::boolean(b)); }
  void number(double x) override { place(Value::number(x)); }
  void string(std::string_view s) override {
    if (s.size() > kSharedStringBytes) return place(Value::string(std::string(s)));
    auto it = strings_.find(s);
    if (it != strings_.end()) return place(Value(it->second));
    Value v = Value::string(std::string(s));
    if (strings_.size() < kSharedStrings) strings_.emplace(v.as_string(), v);
    place(std::move(v));
  }
  void begin_array(std::size_t size) override {
    Frame f;
    f.list_origin = std::make_shared<const std::string>(child_origin());
    f.items.reserve(size);
    open_.push_back(std::move(f));
  }
  void end_array() override {
    Frame f = std::move(open_.back());
    open_.pop_back();
    const std::string& origin = *f.list_origin;
    if (f.table) {
      place(Value::table(std::move(f.table), origin, fmt::format("{} is an empty list", origin)));
    } else {
      place(Value::list(std::move(f.items), origin, fmt::format("{} is an empty list", origin)));
    }
  }
  void begin_object(std::size_t size) override {
    Frame f;
    f.object = true;
    if (!open_.empty() && !open_.back().object) {
      Frame& list = open_.back();
      // An item of a list shares the list's origin; the first record of an empty list starts a table.
      if (list.items.empty() && !list.table && list.tabular) {
        list.table = std::make_shared<RecordTable>();
        list.table->origin = list.list_origin;
        list.table->from_submission = from_submission_;
      }
      f.row = list.table != nullptr;
      f.record.origin = RecordOrigin(list.list_origin, list.table ? list.table->row_count : list.items.size());
    } else {
      f.record.origin = child_origin();
    }
    if (!f.row) f.record.fields.reserve(size);
    open_.push_back(std::move(f));
  }
  void key(std::string_view k) override {
    Frame& top = open_.back();
    if (top.row) {
      RecordTable& t = row_table();
      if (t.row_count == 0 && top.filled == t.keys.size()) {  // the first row names the columns
        t.keys.emplace_back(k);
        // Room for every row, unless the first row's keys times the array's length pass what the
        // reader would read at all (a hostile file's one wide record before a long array).
        const std::size_t rows = open_[open_.size() - 2].items.capacity();
        t.columns.emplace_back().reserve(t.keys.size() * rows <= kReservedValues ? rows : 0);
        return;
      }
      if (top.filled < t.keys.size() && same_key(t.keys[top.filled], k)) return;
      demote(open_.size() - 2);
    }
    top.record.fields.emplace_back(std::string(k), Value());
  }
  void end_object() override {
    if (open_.back().row) {
      RecordTable& t = row_table();
      if (open_.back().filled == t.keys.size()) {
        ++t.row_count;
        open_.pop_back();
        return;
      }
      demote(open_.size() - 2);
    }
    Record r = std::move(open_.back().record);
    open_.pop_back();
    place(Value::record(std::move(r)));
  }

 private:
  static constexpr std::size_t kSharedStringBytes = 32;
  static constexpr std::size_t kSharedStrings = 4096;
  static constexpr std::size_t kReservedValues = 8'000'000;  // json()'s value limit (docs/inputs.md)

  struct Frame {
    bool object = false;
    std::shared_ptr<const std::string> list_origin;  // an array's (an object's is its record's)
    List items;
    Record record;
    // An array: its records so far, as a table, while every item is a record of the first's keys.
    std::shared_ptr<RecordTable> table;
    bool tabular = true;  // false once an item broke the shape
    // An object that is a row of its array's table: how many of its fields are in the columns.
    bool row = false;
    std::size_t filled = 0;
  };

  // The table of the array whose row is the innermost open frame.
  RecordTable& row_table() const { return *open_[open_.size() - 2].table; }

  // The array open at `at` gives up its table: its rows become the records they stand for, and a
  // row being read (the frame above it) becomes a record with the fields it has so far.
  void demote(std::size_t at) {
    Frame& list = open_[at];
    std::shared_ptr<RecordTable> t = std::move(list.table);
    list.tabular = false;
    const std::size_t rows = t->row_count;
    list.items.reserve(std::max(list.items.capacity(), rows + 1));
    for (std::size_t i = 0; i < rows; ++i) list.items.push_back(t->record(i));
    if (at + 1 < open_.size() && open_[at + 1].row) {
      Frame& row = open_[at + 1];
      row.row = false;
      row.record.origin = RecordOrigin(list.list_origin, rows);
      for (std::size_t k = 0; k < row.filled; ++k) row.record.fields.emplace_back(t->keys[k], t->columns[k][rows]);
    }
  }

  // The origin of a list or record starting now: "FILE", "FILE[3]", "FILE[3].key".
  std::string child_origin() const {
    if (open_.empty()) return origin_;
    const Frame& top = open_.back();
    if (top.row) return top.record.origin.str() + "." + row_table().keys[top.filled];
    if (top.object) return top.record.origin.str() + "." + top.record.fields.back().first;
    return fmt::format("{}[{}]", *top.list_origin, top.table ? top.table->row_count : top.items.size());
  }

  void place(Value v) {
    if (from_submission_) v.mark_from_submission();
    if (open_.empty()) {
      root_ = std::move(v);
      return;
    }
    Frame& top = open_.back();
    if (top.row) {
      row_table().columns[top.filled++].push_back(std::move(v));
    } else if (top.object) {
      top.record.fields.back().second = std::move(v);
    } else {
      if (top.table) demote(open_.size() - 1);  // an item that is no record of the table's shape
      top.tabular = false;
      top.items.push_back(std::move(v));
    }
  }

  const std::string& origin_;
  const bool from_submission_;
  Value root_;
  std::vector<Frame> open_;  // the arrays and objects being filled, innermost last
  std::unordered_map<std::string_view, Value> strings_;  // keyed by the shared strings themselves
};

}  // namespace

std::optional<Value> value_from_json_text(const std::string& text, const std::string& origin, std::size_t max_values) {
  ValueBuilder builder(origin, from_submission(origin));
  if (!json::parse_into(text, max_values, builder)) return std::nullopt;
  return builder.take();
}

}  // namespace rubric::builtins
