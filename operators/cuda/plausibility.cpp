#include "operators/cuda/plausibility.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::cuda {

namespace {

struct PeakRow {
  const char* key;  // matched case-insensitively as a substring of the device name
  double fp64, fp32, tf32, fp16, bf16, fp8, int8;  // TFLOP/s, dense
};

// Vendor datasheet figures (SXM parts where both exist); fp8 0 = not supported.
constexpr PeakRow kPeaks[] = {
    {"h200", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"h100 pcie", 26, 51, 378, 756, 756, 1513, 1513},
    {"h100", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"h800", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"gh200", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"a100", 9.7, 19.5, 156, 312, 312, 0, 624},
    {"l40s", 1.4, 91.6, 183, 362, 362, 733, 733},
    {"l4", 0.5, 30.3, 60, 121, 121, 242, 242},
    {"a10", 0.98, 31.2, 62.5, 125, 125, 0, 250},
    {"rtx 4090", 1.3, 82.6, 82.6, 165, 165, 330, 661},
    {"v100", 7.8, 15.7, 0, 125, 0, 0, 0},
    {"t4", 0.25, 8.1, 0, 65, 0, 0, 130},
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string rate(double v, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (v >= 1000 && i < 5) v /= 1000, ++i;
  return fmt::format("{:.3g} {}{}", v, prefixes[i], unit);
}

}  // namespace

std::optional<double> peak_flops(std::string_view device_name, Precision p) {
  std::string name = lower(device_name);
  for (const PeakRow& r : kPeaks) {
    if (name.find(r.key) == std::string::npos) continue;
    double t = 0;
    switch (p) {
      case Precision::fp64: t = r.fp64; break;
      case Precision::fp32: t = r.fp32; break;
      case Precision::tf32: t = r.tf32; break;
      case Precision::fp16: t = r.fp16; break;
      case Precision::bf16: t = r.bf16; break;
      case Precision::fp8: t = r.fp8; break;
      case Precision::int8: t = r.int8; break;
    }
    if (t <= 0) return std::nullopt;
    return t * 1e12;
  }
  return std::nullopt;
}

PlausibilityVerdict check_plausibility(const PlausibilityInput& in) {
  if (!(in.seconds > 0)) throw OperatorError(fmt::format("plausibility: time must be positive, got {:g} s", in.seconds));
  bool check_bw = in.bytes > 0 && in.peak_bandwidth > 0;
  bool check_fl = in.flops > 0 && in.peak_flops > 0;
  if (!check_bw && !check_fl)
    throw OperatorError("plausibility: give bytes with a peak bandwidth, or FLOPs with a peak FLOP/s");
  PlausibilityVerdict v;
  std::string parts;
  if (check_bw) {
    v.achieved_bandwidth = in.bytes / in.seconds;
    v.bandwidth_fraction = v.achieved_bandwidth / in.peak_bandwidth;
    bool ok = v.bandwidth_fraction <= in.margin;
    v.plausible = v.plausible && ok;
    parts += fmt::format("{} moved is {:.0f}% of the {} peak{}", rate(v.achieved_bandwidth, "B/s"),
                         v.bandwidth_fraction * 100, rate(in.peak_bandwidth, "B/s"), ok ? "" : ": faster than memory allows");
  }
  if (check_fl) {
    v.achieved_flops = in.flops / in.seconds;
    v.flops_fraction = v.achieved_flops / in.peak_flops;
    bool ok = v.flops_fraction <= in.margin;
    v.plausible = v.plausible && ok;
    parts += fmt::format("{}{} is {:.0f}% of the {} peak{}", parts.empty() ? "" : "; ", rate(v.achieved_flops, "FLOP/s"),
                         v.flops_fraction * 100, rate(in.peak_flops, "FLOP/s"), ok ? "" : ": faster than the arithmetic allows");
  }
  v.explanation = parts;
  return v;
}

}  // namespace rubric::cuda
