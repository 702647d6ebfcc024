#include "operators/cuda/worker/guarded_memory.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <fmt/format.h>

#include "operators/cuda/worker/backend.hpp"

namespace rubric::cuda::worker {

struct GuardedMemory::Api {
  decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&::cuMemAddressReserve) reserve = nullptr;
  decltype(&::cuMemAddressFree) unreserve = nullptr;
  decltype(&::cuMemCreate) create = nullptr;
  decltype(&::cuMemRelease) destroy = nullptr;
  decltype(&::cuMemMap) map = nullptr;
  decltype(&::cuMemUnmap) unmap = nullptr;
  decltype(&::cuMemSetAccess) set_access = nullptr;

  template <typename F>
  bool bind(F& f, const char* name) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess)
      return false;
    f = reinterpret_cast<F>(p);
    return f != nullptr;
  }
};

namespace {

CUmemAllocationProp properties(int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

void check(CUresult r, const char* what, std::size_t bytes) {
  if (r == CUDA_SUCCESS) return;
  if (r == CUDA_ERROR_OUT_OF_MEMORY)
    throw RequestFailure(fmt::format("out of device memory allocating {} bytes ({})", bytes, what));
  throw RequestFailure(fmt::format("CUDA driver error {} while {} ({} bytes)", static_cast<int>(r), what, bytes));
}

}  // namespace

GuardedMemory::GuardedMemory(int device) : device_(device), api_(new Api) {
  bool ok = api_->bind(api_->granularity, "cuMemGetAllocationGranularity") &&
            api_->bind(api_->reserve, "cuMemAddressReserve") && api_->bind(api_->unreserve, "cuMemAddressFree") &&
            api_->bind(api_->create, "cuMemCreate") && api_->bind(api_->destroy, "cuMemRelease") &&
            api_->bind(api_->map, "cuMemMap") && api_->bind(api_->unmap, "cuMemUnmap") &&
            api_->bind(api_->set_access, "cuMemSetAccess");
  CUmemAllocationProp prop = properties(device_);
  if (!ok || api_->granularity(&granularity_, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
      granularity_ == 0) {
    delete api_;
    throw EnvironmentFault("the CUDA driver lacks the virtual memory API (cuMemAddressReserve) for guarded tensors");
  }
}

GuardedMemory::~GuardedMemory() {
  for (auto& [p, b] : blocks_) free_block(b);
  delete api_;
}

void* GuardedMemory::allocate(std::size_t bytes) {
  std::size_t mapped = (bytes + kAlign + granularity_ - 1) / granularity_ * granularity_;
  Block b{0, mapped + 2 * granularity_, 0, mapped, bytes};
  CUdeviceptr base = 0;
  check(api_->reserve(&base, b.reserved, granularity_, 0, 0), "reserving device addresses", bytes);
  b.base = base;
  CUmemAllocationProp prop = properties(device_);
  CUmemGenericAllocationHandle handle = 0;
  CUresult r = api_->create(&handle, mapped, &prop, 0);
  if (r != CUDA_SUCCESS) {
    api_->unreserve(base, b.reserved);
    check(r, "allocating device memory", bytes);
  }
  b.handle = handle;
  CUdeviceptr first = base + granularity_;
  r = api_->map(first, mapped, 0, handle, 0);
  if (r == CUDA_SUCCESS) {
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    r = api_->set_access(first, mapped, &access, 1);
    if (r != CUDA_SUCCESS) api_->unmap(first, mapped);
  }
  if (r != CUDA_SUCCESS) {
    api_->destroy(handle);
    api_->unreserve(base, b.reserved);
    check(r, "mapping device memory", bytes);
  }
  // The tensor ends within kAlign bytes of the unmapped page after the mapping.
  unsigned long long end = first + mapped;
  auto* p = reinterpret_cast<void*>((end - bytes) / kAlign * kAlign);
  blocks_[p] = b;
  return p;
}

bool GuardedMemory::release(void* p) {
  auto it = blocks_.find(p);
  if (it == blocks_.end()) return false;
  free_block(it->second);
  blocks_.erase(it);
  return true;
}

void GuardedMemory::free_block(const Block& b) {
  CUdeviceptr first = b.base + granularity_;
  api_->unmap(first, b.mapped);
  api_->destroy(b.handle);
  api_->unreserve(b.base, b.reserved);
}

std::vector<GuardedMemory::Range> GuardedMemory::slack(const void* p) const {
  auto it = blocks_.find(p);
  if (it == blocks_.end()) return {};
  const Block& b = it->second;
  auto* first = reinterpret_cast<unsigned char*>(b.base + granularity_);
  auto* t = static_cast<unsigned char*>(const_cast<void*>(p));
  unsigned char* end = first + b.mapped;
  return {{first, static_cast<std::size_t>(t - first)}, {t + b.bytes, static_cast<std::size_t>(end - (t + b.bytes))}};
}

}  // namespace rubric::cuda::worker
