#pragma once
// What the language's `device` record shows. Queried in the GPU worker (the rubric process never
// creates a CUDA context); with no driver, no device or no CUDA build, available is false and
// reason says why.
#include <cstdint>
#include <string>

#include "operators/cuda/protocol.hpp"

namespace rubric::cuda {

struct DeviceInfo {
  bool available = false;
  std::string reason;             // why not available
  std::string name;               // "NVIDIA H200"
  std::string cc;                 // compute capability, "9.0"
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  std::uint64_t l2_bytes = 0;
  double peak_bandwidth = 0;      // bytes/s: 2 × memory clock × bus width / 8
  double clock_mhz = 0;           // SM clock the driver reports (the 75% rule's reference)
  double memory_clock_mhz = 0;
  int bus_width_bits = 0;
  std::string driver;             // "13.0" (empty when no driver)
  std::string runtime;            // "13.0" (empty without CUDA)
};

// From a worker's `info` reply.
DeviceInfo device_info_from(const Message& reply);

}  // namespace rubric::cuda
