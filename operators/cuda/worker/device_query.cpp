// Device facts through the driver API, loaded with dlopen: on a machine without libcuda.so.1 the
// query says so instead of failing to start. Runs in the worker, never in the rubric process.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

namespace {

struct DriverApi {
  void* handle = nullptr;
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*driver_version)(int*) = nullptr;
  CUresult (*device_count)(int*) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*device_name)(char*, int, CUdevice) = nullptr;
  CUresult (*device_attribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*total_mem)(size_t*, CUdevice) = nullptr;
  CUresult (*error_name)(CUresult, const char**) = nullptr;
  CUresult (*error_string)(CUresult, const char**) = nullptr;

  ~DriverApi() {
    if (handle) dlclose(handle);
  }

  template <typename F>
  bool bind(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(handle, name));
    return f != nullptr;
  }

  std::string describe(CUresult r) const {
    const char* n = nullptr;
    const char* s = nullptr;
    if (error_name) error_name(r, &n);
    if (error_string) error_string(r, &s);
    return fmt::format("{}: {}", n ? n : fmt::format("CUresult {}", static_cast<int>(r)), s ? s : "unknown error");
  }
};

std::string version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

}  // namespace

void describe_device(std::function<void(const std::string&, const std::string&)> put) {
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) put("runtime", version_text(runtime));
  DriverApi api;
  api.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api.handle) {
    const char* why = dlerror();
    put("available", "0");
    put("reason", fmt::format("no CUDA driver: cannot load libcuda.so.1 ({})", why ? why : "not found"));
    return;
  }
  bool ok = api.bind(api.init, "cuInit") && api.bind(api.driver_version, "cuDriverGetVersion") &&
            api.bind(api.device_count, "cuDeviceGetCount") && api.bind(api.device_get, "cuDeviceGet") &&
            api.bind(api.device_name, "cuDeviceGetName") && api.bind(api.device_attribute, "cuDeviceGetAttribute") &&
            api.bind(api.total_mem, "cuDeviceTotalMem_v2");
  api.bind(api.error_name, "cuGetErrorName");
  api.bind(api.error_string, "cuGetErrorString");
  if (!ok) {
    put("available", "0");
    put("reason", "the CUDA driver (libcuda.so.1) lacks required entry points");
    return;
  }
  int driver = 0;
  if (api.driver_version(&driver) == CUDA_SUCCESS) put("driver", version_text(driver));
  CUresult r = api.init(0);
  if (r != CUDA_SUCCESS) {
    put("available", "0");
    put("reason", fmt::format("the CUDA driver did not initialise ({})", api.describe(r)));
    return;
  }
  int count = 0;
  r = api.device_count(&count);
  if (r != CUDA_SUCCESS || count == 0) {
    put("available", "0");
    put("reason", r != CUDA_SUCCESS ? api.describe(r) : "no CUDA device");
    return;
  }
  CUdevice dev = 0;
  api.device_get(&dev, 0);
  char name[256] = {0};
  api.device_name(name, sizeof name - 1, dev);
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    api.device_attribute(&v, a, dev);
    return v;
  };
  size_t memory = 0;
  api.total_mem(&memory, dev);
  int mem_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  int bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  // 2 transfers per memory clock (double data rate) × bus width in bytes.
  double peak = 2.0 * mem_khz * 1e3 * bus_bits / 8.0;
  put("available", "1");
  put("device_count", std::to_string(count));
  put("name", name);
  put("cc", fmt::format("{}.{}", attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                        attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)));
  put("sm_count", std::to_string(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)));
  put("memory_bytes", std::to_string(memory));
  put("l2_bytes", std::to_string(attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)));
  put("clock_mhz", fmt::format("{:g}", attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000.0));
  put("memory_clock_mhz", fmt::format("{:g}", mem_khz / 1000.0));
  put("bus_width_bits", std::to_string(bus_bits));
  put("peak_bandwidth", fmt::format("{:.17g}", peak));
}

}  // namespace rubric::cuda::worker
