#include "interpreter/builtins/tensor_compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <memory>

#include "operators/digest/pass_digest.hpp"
#include "operators/numerics/compare.hpp"
#include "operators/numerics/compare_metrics.hpp"
#include "operators/numerics/evidence.hpp"
#include "operators/numerics/mismatch_grid.hpp"
#include "operators/numerics/tolerance.hpp"
#include "operators/tensor/mapped_file.hpp"

namespace rubric {

namespace {

// The comparison takes on the provenance digests of the large files the tensors fill (recorded
// when they were loaded): each stripe is hashed right after it is compared, while it is in cache,
// so each file is read from memory once. A digest taken on is finished whatever the pass meets.
numerics::CompareStats compare_reading_once(CallContext& ctx, const tensor::Tensor& a, const tensor::Tensor& b,
                                            const numerics::Tolerance& tol, numerics::Figures figures) {
  auto take = [&](const tensor::Tensor& t) -> std::shared_ptr<digest::PassDigest> {
    if (!t.mapped_file() || !t.is_contiguous()) return nullptr;
    auto job = ctx.pass_digest_for(t.mapped_file()->data());
    return job && job->claim() ? job : nullptr;
  };
  struct Finished {
    std::shared_ptr<digest::PassDigest> job;
    ~Finished() {
      if (job) job->finish();
    }
  };
  const Finished da{take(a)}, db{take(b)};
  if (!da.job && !db.job) return numerics::compare(a, b, tol, 0, figures);
  numerics::PassFeeds feeds;
  if (da.job) {
    feeds.a = [job = da.job.get()](std::size_t offset, const std::byte* bytes, std::size_t count) {
      job->feed(offset, bytes, count);
    };
    feeds.a_base = static_cast<std::size_t>(a.data() - da.job->data());
  }
  if (db.job) {
    feeds.b = [job = db.job.get()](std::size_t offset, const std::byte* bytes, std::size_t count) {
      job->feed(offset, bytes, count);
    };
    feeds.b_base = static_cast<std::size_t>(b.data() - db.job->data());
  }
  return numerics::compare_striped(a, b, tol, feeds, 0, figures);
}

}  // namespace

numerics::CompareStats compare_tensors(CallContext& ctx, const tensor::Tensor& a, const tensor::Tensor& b,
                                       const numerics::Tolerance& tol, numerics::Figures figures) {
  // Only tensors loaded from files have a stable identity (their source) to cache by.
  auto from_file = [](const tensor::Tensor& t) {
    return t.source().rfind("submission/", 0) == 0 || t.source().rfind("reference/", 0) == 0;
  };
  std::string key;
  if (from_file(a) && from_file(b)) {
    auto key_for = [&](numerics::Figures f) {
      return fmt::format("compare:{}:{}:{}:{}:{}:{}", a.source(), b.source(), tol.rtol, tol.atol, tol.ulp,
                         f == numerics::Figures::all ? "all" : "shown");
    };
    key = key_for(figures);
    auto hit = ctx.cached(key);
    if (!hit && figures == numerics::Figures::shown) hit = ctx.cached(key_for(numerics::Figures::all));
    if (hit) return *std::static_pointer_cast<const numerics::CompareStats>(hit);
  }
  if (ProgressSink* p = ctx.progress(); p && a.size() > (1 << 24))
    p->activity(fmt::format("comparing {} elements", a.size()));
  auto stats = std::make_shared<const numerics::CompareStats>(compare_reading_once(ctx, a, b, tol, figures));
  if (!key.empty()) ctx.store(key, stats);
  return *stats;
}

numerics::Tolerance tolerance_for(const tensor::Tensor& a, const tensor::Tensor& b, const MatchTolerance& t) {
  numerics::Tolerance tol;
  switch (t.form) {
    case ast::ToleranceForm::dtype_default: tol = numerics::default_tolerance(a.dtype(), b.dtype()); break;
    case ast::ToleranceForm::both: tol.rtol = tol.atol = t.both; break;
    case ast::ToleranceForm::explicit_rtol_atol:
      tol.rtol = t.rtol.value_or(0);
      tol.atol = t.atol.value_or(0);
      break;
    case ast::ToleranceForm::ulp:
      // llround of a count past int64 is undefined (it gave INT64_MIN, then "must be non-negative");
      // a count that large already admits every finite pair, so it is clamped.
      tol.ulp = t.ulp >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(std::llround(t.ulp));
      break;
  }
  return tol;
}

CheckOutcome comparison_outcome(const numerics::CompareStats& s, const tensor::Tensor& a, const tensor::Tensor& b,
                                const numerics::Tolerance& tol, const MatchTolerance& form) {
  CheckOutcome o;
  o.verdict = numerics::all_close(s) ? Verdict::pass : Verdict::fail;
  o.evidence = numerics::comparison_evidence(s, a.shape(), tol);
  if (form.form == ast::ToleranceForm::dtype_default)
    o.evidence.push_back(fmt::format("Tolerance: the default for {} against {} (rtol {}, atol {})", tensor::dtype_name(a.dtype()), tensor::dtype_name(b.dtype()),
                                     tol.rtol, tol.atol));
  o.explanation = o.verdict == Verdict::pass ? fmt::format("all {} elements within tolerance", s.count)
                                             : fmt::format("{} of {} elements outside tolerance", s.mismatches, s.count);
  // Where the mismatches lie, for the HTML report's map (one more pass, only when something failed).
  if (o.verdict == Verdict::fail && s.mismatches > 0) {
    if (auto g = numerics::mismatch_grid(a, b, tol)) {
      o.mismatch_map = MismatchMap{static_cast<std::uint64_t>(g->rows), static_cast<std::uint64_t>(g->cols), g->grid_rows,
                                   g->grid_cols, std::move(g->mismatches), std::move(g->elements)};
    }
  }
  return o;
}

}  // namespace rubric
