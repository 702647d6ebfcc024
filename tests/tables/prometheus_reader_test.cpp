#include <doctest/doctest.h>

#include <cmath>
#include <ctime>
#include <limits>
#include <string>

#include "operators/error.hpp"
#include "operators/tables/prometheus_reader.hpp"

using namespace rubric;
using namespace rubric::tables;

TEST_CASE("families, labels with escapes, special values and timestamps") {
  PromScrape s = parse_prometheus(
      "# HELP http_requests_total The total number of HTTP requests.\n"
      "# TYPE http_requests_total counter\n"
      "http_requests_total{method=\"post\",code=\"200\"} 1027 1395066363000\n"
      "http_requests_total{method=\"post\",code=\"400\"}    3 1395066363000\n"
      "# A free comment\n"
      "msdos_file_access_time_seconds{path=\"C:\\\\DIR\\\\FILE.TXT\",error=\"Cannot find file:\\n\\\"FILE.TXT\\\"\"} 1.458255915e9\n"
      "metric_without_timestamp_and_labels 12.47\n"
      "something_weird{problem=\"division by zero\"} +Inf -3982045\n",
      "m.prom");
  REQUIRE(s.families.size() == 4);
  CHECK(s.families[0].type == "counter");
  CHECK(s.families[0].help == "The total number of HTTP requests.");
  REQUIRE(s.families[0].samples.size() == 2);
  CHECK(s.families[0].samples[1].value == 3);
  CHECK(s.families[0].samples[1].labels[1].second == "400");
  CHECK(s.families[1].samples[0].labels[0].second == "C:\\DIR\\FILE.TXT");
  CHECK(s.families[1].samples[0].labels[1].second == "Cannot find file:\n\"FILE.TXT\"");
  CHECK(s.families[2].type == "untyped");
  CHECK(std::isinf(s.families[3].samples[0].value));
}

TEST_CASE("malformed lines name line and column") {
  CHECK_THROWS_WITH_AS(parse_prometheus("ok 1\nbad{a=\"x\" 2\n", "m.prom"), "m.prom:2:11: expected ',' or '}' after a label",
                       OperatorError);
  CHECK_THROWS_WITH_AS(parse_prometheus("x 1ms\n", "m.prom"), "m.prom:1:3: '1ms' is not a sample value", OperatorError);
  CHECK_THROWS_AS(parse_prometheus("# TYPE x countr\n", "m.prom"), OperatorError);
  CHECK_THROWS_WITH_AS(parse_prometheus("x{a=\"1\",b=\"2\",a=\"3\"} 1\n", "m.prom"), "m.prom:1:20: label a given twice",
                       OperatorError);
  // A sample with many labels is read in linear time (the check for a repeated label is a set).
  std::string many = "x{";
  for (int i = 0; i < 50000; ++i) many += (i ? ",l" : "l") + std::to_string(i) + "=\"v\"";
  PromScrape s = parse_prometheus(many + "} 1\n", "m.prom");
  CHECK(s.families.at(0).samples.at(0).labels.size() == 50000);
}

namespace {
PromHistogram hist(std::vector<std::pair<double, double>> b) {
  PromHistogram h;
  for (auto [le, c] : b) h.buckets.push_back(PromBucket{le, c});
  return h;
}
const double inf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("histogram_quantile interpolates as PromQL does") {
  // Buckets 0.1, 0.2, 0.5, +Inf with cumulative 10, 30, 90, 100 (PromQL's own examples' shape).
  PromHistogram h = hist({{0.1, 10}, {0.2, 30}, {0.5, 90}, {inf, 100}});
  CHECK(histogram_quantile(0.05, h) == doctest::Approx(0.05));      // in the first bucket, from 0
  CHECK(histogram_quantile(0.2, h) == doctest::Approx(0.15));       // rank 20 of bucket (10, 30]
  CHECK(histogram_quantile(0.5, h) == doctest::Approx(0.2 + 0.3 * 20.0 / 60.0));
  CHECK(histogram_quantile(0.95, h) == 0.5);                        // +Inf bucket: the highest finite bound
  CHECK(histogram_quantile(-0.1, h) == -inf);
  CHECK(histogram_quantile(1.1, h) == inf);
  CHECK(std::isnan(histogram_quantile(0.5, hist({{inf, 10}}))));              // one bucket
  CHECK(std::isnan(histogram_quantile(0.5, hist({{0.1, 1}, {0.2, 2}}))));     // no +Inf bucket
  CHECK(std::isnan(histogram_quantile(0.5, hist({{0.1, 0}, {inf, 0}}))));     // no observations
  CHECK(histogram_quantile(0.5, hist({{-1, 5}, {0, 10}, {inf, 10}})) == -1);  // first bound not positive
  // A count that dips (scraped mid-update) is made monotonic first.
  CHECK(histogram_quantile(0.75, hist({{1, 10}, {2, 8}, {3, 20}, {inf, 20}})) == doctest::Approx(2.5));
}

TEST_CASE("histogram series group buckets by labels other than le") {
  PromScrape s = parse_prometheus(
      "# TYPE lat histogram\n"
      "lat_bucket{le=\"1\",m=\"a\"} 1\nlat_bucket{le=\"+Inf\",m=\"a\"} 2\nlat_count{m=\"a\"} 2\nlat_sum{m=\"a\"} 3.5\n"
      "lat_bucket{m=\"b\",le=\"1\"} 0\nlat_bucket{m=\"b\",le=\"+Inf\"} 4\n"
      "# TYPE lat_created gauge\nlat_created{m=\"a\"} 1.7e9\n",
      "h.prom");
  REQUIRE(s.families.size() == 2);
  auto series = histogram_series(s.families[0]);
  REQUIRE(series.size() == 2);
  CHECK(series[0].sum == 3.5);
  CHECK(series[0].count == 2);
  CHECK(series[1].buckets.size() == 2);
  CHECK(s.families[1].name == "lat_created");
}

TEST_CASE("OpenMetrics: suffixed samples join their family; # UNIT, timestamps in seconds, exemplars, # EOF") {
  PromScrape s = parse_prometheus(
      "# HELP vllm:num_preemptions Preemptions.\n"
      "# TYPE vllm:num_preemptions counter\n"
      "vllm:num_preemptions_total{model_name=\"m\"} 3.0\n"
      "vllm:num_preemptions_created{model_name=\"m\"} 1.7e+09\n"
      "# TYPE build info\n"
      "build_info{version=\"0.8.1\"} 1.0\n"
      "# TYPE state stateset\n"
      "state{state=\"running\"} 1.0\n"
      "# TYPE lat_seconds histogram\n"
      "# UNIT lat_seconds seconds\n"
      "lat_seconds_bucket{le=\"0.1\"} 1.0 # {trace_id=\"abc\"} 0.05 1700000000.1\n"
      "lat_seconds_bucket{le=\"+Inf\"} 2.0\n"
      "lat_seconds_count 2.0\n"
      "lat_seconds_sum 0.5\n"
      "# TYPE q gaugehistogram\n"
      "q_bucket{le=\"1\"} 1\nq_bucket{le=\"+Inf\"} 4\nq_gcount 4\nq_gsum 9\n"
      "ts_gauge 3.5 1700000000.123\n"
      "# EOF\n",
      "m.prom");
  REQUIRE(s.families.size() == 6);
  CHECK(s.families[0].name == "vllm:num_preemptions");
  CHECK(s.families[0].samples.size() == 2);
  CHECK(s.families[0].samples[0].name == "vllm:num_preemptions_total");
  CHECK(s.families[1].type == "info");
  CHECK(s.families[1].samples.at(0).name == "build_info");
  CHECK(s.families[2].type == "stateset");
  CHECK(s.families[3].unit == "seconds");
  CHECK(histogram_series(s.families[3]).at(0).count == 2);
  auto g = histogram_series(s.families[4]);
  CHECK(g.at(0).count == 4);
  CHECK(g.at(0).sum == 9);
  CHECK(s.families[5].samples.at(0).value == 3.5);
  // A 0.0.4 timestamp (milliseconds) still reads; text after it does not.
  CHECK(parse_prometheus("x 1 1700000000123\n", "m.prom").families.at(0).samples.at(0).value == 1);
  CHECK_THROWS_WITH_AS(parse_prometheus("x 1 17 junk\n", "m.prom"), "m.prom:1:8: text after the timestamp", OperatorError);
  CHECK_THROWS_WITH_AS(parse_prometheus("x 1 1.2.3\n", "m.prom"), "m.prom:1:5: expected a timestamp or the line's end",
                       OperatorError);
}

TEST_CASE("bucket bounds equal as numbers are one bucket, counts summed, as PromQL coalesces them") {
  // Prometheus's promql testdata (histograms.test, mixed_bucket at 50m): PromQL answers 0.15.
  PromScrape s = parse_prometheus(
      "# TYPE mixed histogram\n"
      "mixed_bucket{le=\"0.1\"} 10\nmixed_bucket{le=\"0.2\"} 10\nmixed_bucket{le=\"2e-1\"} 10\n"
      "mixed_bucket{le=\"2.0e-1\"} 10\nmixed_bucket{le=\"+Inf\"} 40\n",
      "m.prom");
  auto series = histogram_series(s.families.at(0));
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].buckets.size() == 3);
  CHECK(series[0].buckets[1].count == 30);
  CHECK(histogram_quantile(0.5, series[0]) == doctest::Approx(0.15));
  CHECK(histogram_quantile(0.75, series[0]) == 0.2);
  PromScrape inf = parse_prometheus("# TYPE e histogram\ne_bucket{le=\"+inf\"} 0\ne_bucket{le=\"+Inf\"} 0\n", "e.prom");
  CHECK(histogram_series(inf.families.at(0))[0].buckets.size() == 1);
  CHECK_THROWS_AS(histogram_series(parse_prometheus("# TYPE b histogram\nb_bucket{le=\"fast\"} 1\n", "b.prom").families.at(0)),
                  OperatorError);
}

TEST_CASE("many histogram series are grouped in n log n; a sample bound stops the reader") {
  // 100,000 series of one bucket each: every sample was compared with every series found before.
  std::string text = "# TYPE h histogram\n";
  for (int i = 0; i < 100'000; ++i) text += "h_bucket{le=\"+Inf\",pod=\"p" + std::to_string(i) + "\"} 1\n";
  const std::clock_t start = std::clock();
  PromScrape s = parse_prometheus(text, "m.txt");
  std::vector<PromHistogram> series = histogram_series(s.families.at(0));
  CHECK(double(std::clock() - start) / CLOCKS_PER_SEC < 5.0);
  REQUIRE(series.size() == 100'000);
  CHECK(series.back().labels == Labels{{"pod", "p99999"}});
  CHECK_THROWS_WITH_AS(parse_prometheus(text, "m.txt", 99'999),
                       "m.txt:100001: more than 99999 samples (the limit for reading a Prometheus exposition)",
                       ReadLimitExceeded);
}
