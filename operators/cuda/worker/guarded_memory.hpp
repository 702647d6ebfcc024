#pragma once
// Device allocations placed against an unmapped guard page, through the driver's virtual memory
// API (cuMemAddressReserve / cuMemCreate / cuMemMap): a read or write past a tensor's end faults
// (cudaErrorIllegalAddress) instead of landing in a neighbour; the slack in front of the tensor
// and the few bytes after it (the tensor starts 256-byte aligned, as cudaMalloc's do) hold
// canaries the backend checks after every call. Entry points come through the runtime
// (cudaGetDriverEntryPointByVersion), so the worker does not link libcuda.
#include <cstddef>
#include <map>
#include <vector>

namespace rubric::cuda::worker {

class GuardedMemory {
 public:
  // Throws RequestFailure when the driver lacks the virtual memory API.
  explicit GuardedMemory(int device);
  ~GuardedMemory();
  GuardedMemory(const GuardedMemory&) = delete;
  GuardedMemory& operator=(const GuardedMemory&) = delete;

  void* allocate(std::size_t bytes);
  bool release(void* p);  // false when p is not ours

  struct Range {
    unsigned char* p;
    std::size_t bytes;
  };
  // The canary ranges around a tensor of ours (empty for another pointer).
  std::vector<Range> slack(const void* p) const;

  static constexpr std::size_t kAlign = 256;

 private:
  struct Block {
    unsigned long long base;      // CUdeviceptr of the reservation: [guard][mapped][guard]
    std::size_t reserved;
    unsigned long long handle;    // CUmemGenericAllocationHandle
    std::size_t mapped;
    std::size_t bytes;
  };
  void free_block(const Block& b);

  int device_;
  std::size_t granularity_ = 0;
  std::map<const void*, Block> blocks_;
  struct Api;
  Api* api_;
};

}  // namespace rubric::cuda::worker
