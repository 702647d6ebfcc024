#include <doctest/doctest.h>

#include "fixture.hpp"
#include "operators/tables/csv_reader.hpp"
#include "operators/tables/kernel_names.hpp"
#include "operators/tables/nsys_reader.hpp"

using namespace rubric::tables;

TEST_CASE("kernel names as ncu's function base and without return type or parameters") {
  const char* anon = "(anonymous namespace)::rmsnorm_kernel(const __half *, __half *, int)";
  CHECK(short_kernel_name(anon) == "(anonymous namespace)::rmsnorm_kernel");
  CHECK(kernel_function_name(anon) == "rmsnorm_kernel");
  const char* torch = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                      "at::detail::Array<char *, 1>>(int, T2, T3)";
  CHECK(short_kernel_name(torch) ==
        "at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char *, 1>>");
  CHECK(kernel_function_name(torch) == "vectorized_elementwise_kernel");
  const char* lambda = "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::Op>"
                       "(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)";
  CHECK(kernel_function_name(lambda) == "elementwise_kernel");
  CHECK(short_kernel_name("void foo<(int)32>(float *)") == "foo<(int)32>");
  CHECK(kernel_function_name("<unnamed>::tiled_gemm(const float *)") == "tiled_gemm");
  CHECK(kernel_function_name("vecAdd") == "vecAdd");
  CHECK(kernel_function_name("void foo<float, 128, \"x\">(float *)") == "foo");
  // ncu --print-kernel-base mangled: demangled first; a name that is not valid stays as written.
  CHECK(short_kernel_name("_Z14softmax_kernelIfLi256EEvPKfPfii") == "softmax_kernel<float, 256>");
  CHECK(kernel_function_name("_Z14softmax_kernelIfLi256EEvPKfPfii") == "softmax_kernel");
  CHECK(kernel_function_name("_Zbroken") == "_Zbroken");
}

TEST_CASE("nsys stats: every report of one stream by name, SKIPPED ones empty, rows keep their line numbers") {
  std::string text = fixture("nsys_stats_all.csv");
  REQUIRE_FALSE(text.empty());
  auto reports = split_nsys_stats(text);
  REQUIRE(reports.size() == 7);
  CHECK(reports[0].name == "nvtx_sum");
  CHECK(reports[0].skipped);
  CHECK(reports[0].note.find("does not contain NV Tools Extension") != std::string::npos);
  CHECK(reports[3].name == "cuda_gpu_kern_sum");
  CHECK(reports[3].title == "CUDA GPU Kernel Summary");
  auto rows = split_rows(reports[3].table, "all.csv", CsvOptions{});
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].fields.at(0).text == "Time (%)");
  CHECK(rows[1].line == reports[3].line + 3);  // heading, blank line, header, first row
  CHECK(reports[6].name == "openmp_sum");
  CHECK(reports[6].skipped);
}

TEST_CASE("nsys stats: a lone report, a SKIPPED one, a bare table") {
  auto skipped = split_nsys_stats(fixture("nsys_kern_skipped.csv"));
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].name == "cuda_gpu_kern_sum");
  CHECK(skipped[0].skipped);
  auto bare = split_nsys_stats(fixture("report1_cuda_gpu_kern_sum.csv"));
  REQUIRE(bare.size() == 1);
  CHECK(bare[0].name.empty());
  CHECK_FALSE(bare[0].skipped);
  auto one = split_nsys_stats(fixture("nsys_kern_sum.csv"));
  REQUIRE(one.size() == 1);
  CHECK(one[0].name == "cuda_gpu_kern_sum");
}

TEST_CASE("nsys report names: with arguments, and as nsys named them before 2023.1") {
  NsysReport r;
  r.name = "cuda_gpu_kern_sum";
  CHECK(nsys_report_is(r, "cuda_gpu_kern_sum"));
  CHECK(nsys_report_is(r, "gpukernsum"));
  CHECK_FALSE(nsys_report_is(r, "cuda_api_sum"));
  CHECK_FALSE(nsys_report_is(r, "cuda_gpu_kern_sum:base"));  // asked with arguments, written without
  r.name = "cuda_gpu_kern_sum:base";
  CHECK(nsys_report_is(r, "cuda_gpu_kern_sum"));
  CHECK(nsys_report_is(r, "cuda_gpu_kern_sum:base"));
  r.name = "osrtsum";
  CHECK(nsys_report_is(r, "osrt_sum"));
  auto old = split_nsys_stats("\n ** OS Runtime Summary (osrtsum):\n\n\"Time (%)\",\"Name\"\n56.2,\"poll\"\n");
  REQUIRE(old.size() == 1);
  CHECK(old[0].name == "osrtsum");
}

TEST_CASE("nsys profile --stats=true: 'Executing' headings, console tables rewritten as CSV, SKIPPED reports") {
  const std::string text =
      "Generating '/tmp/nsys-report-a98b.qdstrm'\n"
      "[3/5] Executing 'cuda_api_sum' stats report\n"
      "\n"
      " Time (%)  Total Time (ns)  Num Calls   Name  \n"
      " --------  ---------------  ---------  ------\n"
      "     97.0      109,787,937          4  a \"b\" \n"
      "      3.0        3,145,161      1,010  c, d  \n"
      "\n"
      "[4/5] Executing 'cuda_gpu_kern_sum' stats report\n"
      "SKIPPED: /x/report1.sqlite does not contain CUDA kernel data.\n"
      "[5/5] Executing 'nvtx_sum' stats report\n"
      "\n"
      "Generated:\n"
      "    /x/report1.nsys-rep\n";
  auto reports = split_nsys_stats(text);
  REQUIRE(reports.size() == 3);
  CHECK(reports[0].name == "cuda_api_sum");
  CHECK(reports[0].line == 2);
  auto rows = split_rows(reports[0].table, "stats.txt", CsvOptions{});
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].line == 4);
  CHECK(rows[0].fields.at(3).text == "Name");
  CHECK(rows[1].fields.at(1).text == "109,787,937");
  CHECK(rows[1].fields.at(3).text == "a \"b\"");
  CHECK(rows[2].line == 7);
  CHECK(rows[2].fields.at(3).text == "c, d");
  CHECK(reports[1].name == "cuda_gpu_kern_sum");
  CHECK(reports[1].skipped);
  CHECK(reports[1].note.find("does not contain CUDA kernel data") != std::string::npos);
  // A report with no table: its text holds no rows (the trailer is not one).
  CHECK(reports[2].name == "nvtx_sum");
  CHECK_FALSE(reports[2].skipped);
}

TEST_CASE("nsys stats --format table: the boxed table read by its borders, a '|' inside a name kept") {
  const std::string text =
      "Processing [r.sqlite] with [/opt/nvidia/nsight-systems/2025.1.1/host-linux-x64/reports/cuda_api_sum.py]... \n"
      "\n"
      " ** CUDA API Summary (cuda_api_sum):\n"
      "\n"
      "+----------+-----------------+-----------+------------------+\n"
      "| Time (%) | Total Time (ns) | Num Calls |       Name       |\n"
      "+----------+-----------------+-----------+------------------+\n"
      "|     34.9 |      3521583822 |     14529 | cudaMemcpyAsync  |\n"
      "|     34.8 |      3517364707 |    992730 | operator|(a, b)  |\n"
      "+----------+-----------------+-----------+------------------+\n"
      "\n";
  auto reports = split_nsys_stats(text);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].name == "cuda_api_sum");
  auto rows = split_rows(reports[0].table, "stats.txt", CsvOptions{});
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].line == 6);
  CHECK(rows[0].fields.at(3).text == "Name");
  CHECK(rows[1].fields.at(1).text == "3521583822");
  CHECK(rows[2].line == 9);
  CHECK(rows[2].fields.at(3).text == "operator|(a, b)");
}

TEST_CASE("a lone console report after nsys's own lines: the table found by its rule") {
  const std::string text =
      "Generating SQLite file report1.sqlite from report1.nsys-rep\n"
      "Exporting 1 events: [==========100%]\n"
      " Time (%)  Total Time (ns)  Name\n"
      " --------  ---------------  ----\n"
      "    100.0            1,234  k   \n";
  auto reports = split_nsys_stats(text);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].name.empty());
  auto rows = split_rows(reports[0].table, "stats.txt", CsvOptions{});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].line == 3);
  CHECK(rows[1].fields.at(1).text == "1,234");
  CHECK(rows[1].fields.at(2).text == "k");
}
