#include "operators/cuda/device_info.hpp"

namespace rubric::cuda {

namespace {
double as_double(const Message& m, const char* key) {
  try {
    return std::stod(m.get_or(key, "0"));
  } catch (...) {
    return 0;
  }
}
}  // namespace

DeviceInfo device_info_from(const Message& reply) {
  DeviceInfo d;
  d.available = reply.get_or("available", "0") == "1";
  d.reason = reply.get_or("reason", d.available ? "" : "unknown");
  d.driver = reply.get_or("driver", "");
  d.runtime = reply.get_or("runtime", "");
  if (!d.available) return d;
  d.name = reply.get_or("name", "");
  d.cc = reply.get_or("cc", "");
  d.sm_count = static_cast<int>(as_double(reply, "sm_count"));
  d.memory_bytes = static_cast<std::uint64_t>(as_double(reply, "memory_bytes"));
  d.l2_bytes = static_cast<std::uint64_t>(as_double(reply, "l2_bytes"));
  d.peak_bandwidth = as_double(reply, "peak_bandwidth");
  d.clock_mhz = as_double(reply, "clock_mhz");
  d.memory_clock_mhz = as_double(reply, "memory_clock_mhz");
  d.bus_width_bits = static_cast<int>(as_double(reply, "bus_width_bits"));
  return d;
}

}  // namespace rubric::cuda
