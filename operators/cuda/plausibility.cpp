#include "operators/cuda/plausibility.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::cuda {

namespace {

struct PeakRow {
  const char* model;    // the model token of the device name, exactly ("l4" is not "l40")
  const char* variant;  // a further token the name must also contain ("pcie", "nvl"), or ""
  double fp64, fp32, tf32, fp16, bf16, fp8, int8;  // TFLOP/s, dense
};

// Vendor datasheet figures, dense (no sparsity); fp8 0 = not supported. A row with a variant is
// preferred over the plain model row when the name carries that token.
constexpr PeakRow kPeaks[] = {
    {"h200", "nvl", 30, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5},
    {"h200", "", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"h100", "pcie", 26, 51, 378, 756, 756, 1513, 1513},
    {"h100", "nvl", 30, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5},
    {"h100", "", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"h800", "", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"gh200", "", 34, 67, 494.5, 989.5, 989.5, 1979, 1979},
    {"a100", "", 9.7, 19.5, 156, 312, 312, 0, 624},
    {"l40s", "", 1.4, 91.6, 183, 362, 362, 733, 733},
    {"l40", "", 1.4, 90.5, 90.5, 181, 181, 362, 362},
    {"l4", "", 0.5, 30.3, 60, 121, 121, 242, 242},
    {"a10", "", 0.98, 31.2, 62.5, 125, 125, 0, 250},
    {"rtx 4090", "", 1.3, 82.6, 82.6, 165, 165, 330, 661},
    {"v100", "", 7.8, 15.7, 0, 125, 0, 0, 0},
    {"t4", "", 0.25, 8.1, 0, 65, 0, 0, 130},
};

// "NVIDIA A100-SXM4-80GB" → model "a100", tokens {"sxm4", "80gb"}; "NVIDIA GeForce RTX 4090" →
// model "rtx 4090". Vendor and brand words are not tokens.
struct NameTokens {
  std::string model;
  std::vector<std::string> rest;
};

NameTokens tokenize(std::string_view device_name) {
  std::string s(device_name);
  for (char& c : s) c = (c == '-' || c == '_') ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j;
  }
  NameTokens t;
  std::size_t k = 0;
  while (k < words.size() && (words[k] == "nvidia" || words[k] == "tesla" || words[k] == "geforce" ||
                              words[k] == "quadro"))
    ++k;
  if (k >= words.size()) return t;
  t.model = words[k++];
  if ((t.model == "rtx" || t.model == "gtx") && k < words.size()) t.model += " " + words[k++];
  t.rest.assign(words.begin() + static_cast<std::ptrdiff_t>(k), words.end());
  return t;
}

const PeakRow* find_row(std::string_view device_name) {
  NameTokens t = tokenize(device_name);
  if (t.model.empty()) return nullptr;
  const PeakRow* plain = nullptr;
  for (const PeakRow& r : kPeaks) {
    if (t.model != r.model) continue;
    if (*r.variant == '\0') {
      if (!plain) plain = &r;
    } else if (std::find(t.rest.begin(), t.rest.end(), r.variant) != t.rest.end()) {
      return &r;
    }
  }
  return plain;
}

std::string rate(double v, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (v >= 1000 && i < 5) v /= 1000, ++i;
  return fmt::format("{:.3g} {}{}", v, prefixes[i], unit);
}

}  // namespace

std::optional<double> peak_flops(std::string_view device_name, Precision p) {
  if (const PeakRow* row = find_row(device_name)) {
    const PeakRow& r = *row;
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
