#pragma once
// The Prometheus text exposition format (version 0.0.4, what vLLM's and SGLang's /metrics
// serve): # HELP and # TYPE lines, samples `name{label="value",...} value [timestamp]`, and
// histograms as cumulative `_bucket{le="..."}` samples with `_sum` and `_count`. OpenMetrics
// 1.0 (the same endpoints asked for application/openmetrics-text) is read too: # UNIT lines,
// info, stateset, gaugehistogram and unknown families whose samples carry suffixes (a counter
// `foo` has `foo_total` and `foo_created`), timestamps in seconds, exemplars, and # EOF.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "operators/tables/read_limit.hpp"

namespace rubric::tables {

using Labels = std::vector<std::pair<std::string, std::string>>;  // in the order written

struct PromSample {
  std::string name;  // the sample's own name ("vllm:e2e_request_latency_seconds_bucket")
  Labels labels;
  double value = 0;
  std::size_t line = 0;
};

struct PromFamily {
  std::string name;
  std::string type = "untyped";  // counter, gauge, histogram, summary, untyped; OpenMetrics adds
                                 // info, stateset, gaugehistogram, unknown
  std::string help;
  std::string unit;  // OpenMetrics # UNIT ("seconds"); empty otherwise
  std::vector<PromSample> samples;  // file order
};

struct PromBucket {
  double le = 0;     // upper bound (+Inf for the last)
  double count = 0;  // cumulative
};

// One histogram series: the samples of a histogram family sharing labels other than `le`.
struct PromHistogram {
  Labels labels;  // without le
  std::vector<PromBucket> buckets;  // sorted by le
  double sum = 0, count = 0;
  bool has_sum = false, has_count = false;
};

struct PromScrape {
  std::vector<PromFamily> families;  // in order of first appearance
};

// Throws OperatorError "name:line:col: ..." for a malformed line, and ReadLimitExceeded past
// `max_samples` samples (0: no limit).
PromScrape parse_prometheus(std::string_view text, std::string_view name, std::size_t max_samples = 0);

// The series of a histogram family; throws OperatorError for a bucket without a valid le.
std::vector<PromHistogram> histogram_series(const PromFamily& family);

// The q-quantile as PromQL's histogram_quantile estimates it: linear interpolation inside the
// bucket holding rank q·count (the first bucket's lower bound 0 when its upper bound is
// positive), the highest finite bound when the rank falls in the +Inf bucket, NaN with fewer
// than two buckets, no +Inf bucket or no observations; -Inf/+Inf for q < 0 / q > 1.
double histogram_quantile(double q, const PromHistogram& h);

}  // namespace rubric::tables
