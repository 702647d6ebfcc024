// The analysed texts of one evaluation: every text operator over the same text (the same string,
// or an equal one read again) shares one analysis; other texts get their own; a text too long to
// keep streams; the least recently used go first when the budget is spent.
#include <doctest/doctest.h>

#include <map>

#include "interpreter/text_analyses.hpp"

using namespace rubric;

namespace {

// What analysed_text needs of a call: the session cache.
class Session final : public CallContext {
 public:
  const std::string& function_name() const override { return name_; }
  SourceLocation location() const override { return {}; }
  std::optional<std::string> root_dir(const std::string&) const override { return std::nullopt; }
  void record_file(FileRecord, std::shared_future<std::string>) override {}
  bool has_file(const PathValue&) const override { return false; }
  void record_run(const RunRecord&) override {}
  std::uint64_t seed() const override { return 0; }
  double confidence() const override { return 0.95; }
  ProgressSink* progress() override { return nullptr; }
  Value call(const Value&, const std::vector<Value>&) override { return Value(); }
  std::shared_ptr<const void> cached(const std::string& key) const override {
    auto it = cache_.find(key);
    return it == cache_.end() ? nullptr : it->second;
  }
  void store(const std::string& key, std::shared_ptr<const void> value) override { cache_[key] = std::move(value); }

 private:
  std::string name_ = "polarity";
  std::map<std::string, std::shared_ptr<const void>> cache_;
};

std::string prose(std::size_t bytes, const std::string& salt) {
  std::string t;
  for (std::size_t i = 0; t.size() < bytes; ++i)
    t += "Sentence " + std::to_string(i) + " of " + salt + " says the prefix cache is not the problem.\n";
  return t;
}

std::size_t read_all(text::AnalysedText& a) {
  text::AnalysedText::Reader r(a);
  std::size_t n = 0;
  while (r.next()) ++n;
  return n;
}

}  // namespace

TEST_CASE("one analysis per text and evaluation, found by the string or by its content") {
  Session ctx;
  Value answer = Value::string(prose(20000, "a"));
  auto first = analysed_text(ctx, answer);
  CHECK(read_all(*first) > 100);
  CHECK(first->complete());
  CHECK(analysed_text(ctx, answer).get() == first.get());                          // the same string
  Value copy = answer;
  CHECK(analysed_text(ctx, copy).get() == first.get());                            // the same value, copied
  Value again = Value::string(prose(20000, "a"));                     // an equal text read again
  CHECK(&again.as_string() != &answer.as_string());
  CHECK(analysed_text(ctx, again).get() == first.get());
  Value other = Value::string(prose(20000, "b"));                     // same length, other words
  auto second = analysed_text(ctx, other);
  CHECK(second.get() != first.get());
  CHECK_FALSE(second->complete());
  CHECK(second->text() == other.as_string());
  Session elsewhere;  // another evaluation has its own
  CHECK(analysed_text(elsewhere, answer).get() != first.get());
}

TEST_CASE("an analysis keeps its text alive and a long text streams") {
  Session ctx;
  std::shared_ptr<text::AnalysedText> held;
  {
    Value answer = Value::string(prose(5000, "gone"));
    held = analysed_text(ctx, answer);
  }
  CHECK(held->text() == prose(5000, "gone"));
  CHECK(read_all(*held) > 10);
  Value huge = Value::string(prose(kTextAnalysisBudget / 16, "huge"));  // past what is ever kept
  auto a = analysed_text(ctx, huge);
  CHECK(read_all(*a) > 1000);
  CHECK_FALSE(a->complete());
  CHECK(a->bytes() == 0);
  CHECK(analysed_text(ctx, huge).get() != a.get());  // nothing kept of it
  std::string dense;  // short, but of so many tokens that they pass the budget: dropped, remembered
  while (dense.size() < kTextAnalysisBudget / 40) dense += "a b c d e f g h. ";  // ~77 bytes kept a byte
  Value d = Value::string(dense);
  auto da = analysed_text(ctx, d);
  CHECK(read_all(*da) > 10000);
  CHECK_FALSE(da->complete());
  CHECK(da->bytes() == 0);
  CHECK(analysed_text(ctx, d).get() == da.get());
}

TEST_CASE("the least recently used texts are dropped when the budget is spent") {
  Session ctx;
  Value kept = Value::string(prose(200000, "kept"));
  auto k = analysed_text(ctx, kept);
  read_all(*k);
  REQUIRE(k->complete());
  std::size_t per_text = k->bytes();
  CHECK(per_text > 200000);
  Value early = Value::string(prose(200000, "early"));
  auto e = analysed_text(ctx, early);
  read_all(*e);
  std::size_t n = kTextAnalysisBudget / per_text + 2;  // more than the budget holds
  for (std::size_t i = 0; i < n; ++i) {
    Value v = Value::string(prose(200000, std::to_string(i)));
    read_all(*analysed_text(ctx, v));
    CHECK(analysed_text(ctx, kept).get() == k.get());  // used each time: never the least recent
  }
  CHECK(analysed_text(ctx, early).get() != e.get());  // dropped, and analysed anew when asked for again
}
