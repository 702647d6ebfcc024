#include <doctest/doctest.h>

#include <algorithm>
#include <ctime>

#include "fixture.hpp"
#include "operators/error.hpp"
#include "operators/tables/ncu_reader.hpp"

using namespace rubric;
using namespace rubric::tables;

TEST_CASE("short kernel names drop the return type and parameters, keep template arguments") {
  CHECK(short_kernel_name("void softmax_kernel<float, 256>(const float *, float *, int, int)") == "softmax_kernel<float, 256>");
  CHECK(short_kernel_name("scale_kernel(float *, float, int)") == "scale_kernel");
  CHECK(short_kernel_name("vecAdd") == "vecAdd");
  CHECK(short_kernel_name("void ns::k<(int)1>(float*)") == "ns::k<(int)1>");
}

TEST_CASE("the details page: launches by ID, metrics with units, rule rows skipped") {
  std::string text = fixture("ncu_details.csv");
  REQUIRE_FALSE(text.empty());
  NcuReport r = parse_ncu_csv(text, "ncu_details.csv");
  CHECK_FALSE(r.raw_page);
  REQUIRE(r.launches.size() == 2);
  const NcuLaunch& k = r.launches[0];
  CHECK(k.id == "0");
  CHECK(short_kernel_name(k.kernel_name) == "softmax_kernel<float, 256>");
  auto find = [&](const std::string& section, const std::string& name) -> const NcuMetric* {
    for (const auto& m : k.metrics)
      if (m.name == name && (section.empty() || m.section == section)) return &m;
    return nullptr;
  };
  REQUIRE(find("", "SM Frequency"));
  CHECK(*find("", "SM Frequency")->value == 1755.21);
  CHECK(find("", "SM Frequency")->unit == "cycle/usecond");
  CHECK(*find("", "Elapsed Cycles")->value == 168449);
  CHECK(find("Memory Workload Analysis", "Memory Throughput")->unit == "Tbyte/second");
  CHECK(find("GPU Speed Of Light Throughput", "Memory Throughput")->unit == "%");
  CHECK(find("", "Waves Per SM")->unit.empty());
  for (const auto& m : k.metrics) CHECK_FALSE(m.name.empty());
  CHECK(*r.launches[1].metrics[0].value == 1212.42);
}

TEST_CASE("the raw page: units from the row under the header") {
  NcuReport r = parse_ncu_csv(fixture("ncu_raw.csv"), "ncu_raw.csv");
  CHECK(r.raw_page);
  REQUIRE(r.launches.size() == 1);
  const auto& ms = r.launches[0].metrics;
  REQUIRE(ms.size() == 7);
  CHECK(ms[0].name == "gpu__time_duration.sum");
  CHECK(ms[0].unit == "usecond");
  CHECK(*ms[0].value == 95.97);
}

TEST_CASE("no header, or a short row, is an error naming the file and line") {
  CHECK_THROWS_AS(parse_ncu_csv("==PROF== Connected\nhello\n", "p.csv"), OperatorError);
  CHECK_THROWS_WITH_AS(parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                                     "\"0\",\"k\",\"Duration\",\"usecond\"\n", "p.csv"),
                       "p.csv:2: row has 4 fields, the header (line 1) has 5", OperatorError);
}

TEST_CASE("details page: rows of another process or kernel under the same ID are another launch") {
  std::string text =
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"100\",\"k(int)\",\"S\",\"Duration\",\"us\",\"1.00\"\n"
      "\"0\",\"100\",\"k(int)\",\"S\",\"DRAM Throughput\",\"%\",\"50\"\n"
      "\"0\",\"200\",\"k(int)\",\"S\",\"Duration\",\"us\",\"2.00\"\n"
      "\"0\",\"200\",\"j(int)\",\"S\",\"Duration\",\"us\",\"3.00\"\n";
  NcuReport r = parse_ncu_csv(text, "two.csv");
  REQUIRE(r.launches.size() == 3);
  CHECK(r.launches[0].metrics.size() == 2);
  CHECK(r.launches[1].process == "200");
  CHECK(r.launches[1].metrics.at(0).text == "2.00");
  CHECK(r.launches[2].kernel_name == "j(int)");
}

TEST_CASE("ncu 2025: a metric row stops after its value, short of the rule columns (a B200's profile)") {
  NcuReport r = parse_ncu_csv(fixture("ncu_2025_b200_details.csv", "wild"), "ncu_2025_b200_details.csv");
  CHECK_FALSE(r.raw_page);
  REQUIRE(r.launches.size() == 1);
  const NcuLaunch& l = r.launches[0];
  CHECK(l.process == "371693");
  auto metric = [&](const std::string& name) -> const NcuMetric& {
    for (const auto& m : l.metrics)
      if (m.name == name) return m;
    FAIL("no metric " << name);
    return l.metrics.front();
  };
  CHECK(metric("Duration").unit == "ns");
  CHECK(*metric("Duration").value == 406240);
  CHECK(*metric("Achieved Occupancy").value == 15.53);
  CHECK(metric("Cluster Scheduling Policy").text == "PolicySpread");
  for (const auto& m : l.metrics) CHECK_FALSE(m.name.empty());  // the rule rows hold no metric
  CHECK(std::find_if(l.attributes.begin(), l.attributes.end(), [](const auto& a) { return a.first == "CC"; })->second == "10.0");
}

TEST_CASE("a short row is accepted only when what it lacks is rule columns") {
  const std::string header =
      "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\","
      "\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n";
  NcuReport r = parse_ncu_csv(header + "\"0\",\"k\",\"S\",\"Duration\",\"ns\",\"5\"\n", "p.csv");
  REQUIRE(r.launches.size() == 1);
  CHECK(r.launches[0].metrics.at(0).text == "5");
  CHECK_THROWS_WITH_AS(parse_ncu_csv(header + "\"0\",\"k\",\"S\",\"Duration\",\"ns\"\n", "p.csv"),
                       "p.csv:2: row has 5 fields, the header (line 1) has 11", OperatorError);
}

TEST_CASE("NVTX columns are the launch's ranges on both pages, never metrics") {
  const std::string nvtx = "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg";
  std::string raw = "\"ID\",\"Process ID\",\"" + nvtx + "\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                    "\"\",\"\",\"\",\"\",\"nsecond\"\n"
                    "\"0\",\"7\",\"183740  \"\"<default domain>:decode:none:none:none:none:none:none\"\" "
                    "\"\"<default domain>:layer 3: attn:none:none:none:none:none:none\"\"\",\"k\",\"2,048\"\n";
  NcuReport r = parse_ncu_csv(raw, "raw.csv");
  REQUIRE(r.launches.size() == 1);
  REQUIRE(r.launches[0].metrics.size() == 1);
  CHECK(r.launches[0].metrics[0].name == "gpu__time_duration.sum");
  CHECK(r.launches[0].nvtx == std::vector<std::string>{"decode", "layer 3: attn"});
  std::string details = "\"ID\",\"" + nvtx + "\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                        "\"0\",\"9  \"\"<default domain>:prefill:none:none:none:none:none:none\"\"\",\"k\",\"Duration\",\"ns\",\"5\"\n";
  r = parse_ncu_csv(details, "details.csv");
  CHECK(r.launches.at(0).nvtx == std::vector<std::string>{"prefill"});
  CHECK(r.launches[0].attributes.at(0).first == nvtx);
}

TEST_CASE("a launch of many metrics is read in linear time") {
  // A raw page of 100,000 metric columns: each metric was checked against every one before it
  // (5e9 comparisons). A bound on CPU time, not wall time.
  std::string header = "\"ID\",\"Kernel Name\"", values = "\"0\",\"k\"";
  for (int i = 0; i < 100'000; ++i) {
    header += ",\"m" + std::to_string(i) + "\"";
    values += ",\"" + std::to_string(i) + "\"";
  }
  const std::clock_t start = std::clock();
  NcuReport r = parse_ncu_csv(header + "\n" + values + "\n", "wide.csv");
  CHECK(double(std::clock() - start) / CLOCKS_PER_SEC < 5.0);
  REQUIRE(r.launches.size() == 1);
  CHECK(r.launches[0].metrics.size() == 100'000);
  CHECK(r.launches[0].metrics.back().name == "m99999");
  CHECK_THROWS_AS(parse_ncu_csv(header + "\n" + values + "\n", "wide.csv", 1000), ReadLimitExceeded);
}

TEST_CASE("--print-summary per-kernel (ncu 2025): an entry per kernel and launch shape, Average with its range") {
  NcuReport r = parse_ncu_csv(fixture("ncu_2025_per_kernel_summary.csv", "wild"), "summary.csv");
  CHECK(r.summary);
  CHECK_FALSE(r.raw_page);
  REQUIRE(r.launches.size() == 2);  // one kernel, launched with two shapes, 14 times each
  for (const NcuLaunch& l : r.launches) {
    CHECK(l.id.empty());
    CHECK(l.invocations == "14");
    CHECK(l.process == "93269");
    CHECK(kernel_function_name(l.kernel_name) == "saxpyKernel");
    CHECK(l.metrics.size() == 44);
  }
  auto attribute = [](const NcuLaunch& l, const std::string& name) {
    for (const auto& [k, v] : l.attributes)
      if (k == name) return v;
    return std::string("(none)");
  };
  CHECK(attribute(r.launches[0], "Block Size") == "(256, 1, 1)");
  CHECK(attribute(r.launches[1], "Grid Size") == "(1048576, 1, 1)");
  CHECK(attribute(r.launches[0], "Invocations") == "14");
  const NcuMetric& duration = r.launches[0].metrics[3];
  CHECK(duration.name == "Duration");
  CHECK(duration.unit == "us");
  CHECK(*duration.value == 89.32);
  CHECK(*duration.minimum == 57.79);
  CHECK(*duration.maximum == 124.77);
  const NcuMetric& cycles = r.launches[1].metrics[1];
  CHECK(*cycles.minimum == 4403097.0);  // "4,403,097.00"
  CHECK(cycles.maximum_text == "4,540,074.00");
}

TEST_CASE("a summary without kernel names is refused naming what to write instead") {
  CHECK_THROWS_WITH_AS(parse_ncu_csv("\"Device\",\"CC\",\"Invocations\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
                                     "\"Minimum\",\"Maximum\",\"Average\"\n\"0\",\"9.0\",\"3\",\"s\",\"Duration\",\"us\",\"1\",\"3\",\"2\"\n",
                                     "gpu.csv"),
                       doctest::Contains("gpu.csv:1: an ncu summary without kernel names (--print-summary per-gpu?)"),
                       OperatorError);
}
