#pragma once
// "Faster than physics" check: achieved bandwidth and FLOP/s against the device's peaks. A
// measurement above a peak is not a fast kernel, it is a broken measurement (cached results, a
// persisting-L2 carve-out, work escaping the timer).
#include <optional>

#include "operators/error.hpp"
#include <string>
#include <string_view>

namespace rubric::cuda {

enum class Precision { fp64, fp32, tf32, fp16, bf16, fp8, int8 };

// Dense peak FLOP/s of a GPU by its driver name ("NVIDIA H200", "NVIDIA A100-SXM4-80GB"); tensor-core
// rates for tf32/fp16/bf16/fp8/int8 (without sparsity), vector rates for fp64/fp32. The model word
// must match exactly ("NVIDIA L40" is not an L4), with a variant word where peaks differ ("PCIe",
// "NVL"). nullopt if unknown.
std::optional<double> peak_flops(std::string_view device_name, Precision p);

struct PlausibilityInput {
  double seconds = 0;
  double bytes = 0;          // bytes moved (0: not checked)
  double flops = 0;          // operations performed (0: not checked)
  double peak_bandwidth = 0; // bytes/s (from DeviceInfo)
  double peak_flops = 0;     // FLOP/s (from peak_flops or the rubric)
  double margin = 1.0;       // tolerated excess over the peak (1.0: none)
};

struct PlausibilityVerdict {
  bool plausible = true;
  double achieved_bandwidth = 0;   // bytes/s
  double bandwidth_fraction = 0;   // of peak
  double achieved_flops = 0;
  double flops_fraction = 0;
  std::string explanation;         // "3.53 TB/s moved is 73% of the 4.80 TB/s peak"
};

// Throws OperatorError when seconds <= 0 or nothing is given to check.
PlausibilityVerdict check_plausibility(const PlausibilityInput& in);

}  // namespace rubric::cuda
