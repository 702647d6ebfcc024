#pragma once
// The device memory a worker's candidate code may hold. The CUDA worker interposes the runtime's
// allocation calls (cudaMalloc, cudaMallocAsync, cudaMallocManaged, cudaMallocPitch and their
// frees; allocation_interpose.cpp): past the limit they fail with cudaErrorMemoryAllocation, as a
// full device would, and the refusal is remembered for the request's reply. Whatever escapes
// them (the driver API, memory pools) is caught after the request by the context's use
// (Backend::device_memory_used), measured against the use when the worker started.
#include <cstddef>
#include <cstdint>
#include <string>

namespace rubric::cuda::worker {

// 0: no limit.
void set_device_memory_limit(std::uint64_t bytes);
std::uint64_t device_memory_limit();

// For the interposer: may `bytes` more be allocated? When not, the refusal is recorded.
bool admit_allocation(std::size_t bytes, const char* call);
void record_allocation(void* p, std::size_t bytes);
void record_release(void* p);
std::uint64_t allocated_bytes();  // held through the interposed calls

// The first refusal since the last take ("cudaMalloc of 2 GiB with 7.5 GiB held"), then "".
std::string take_refusal();

}  // namespace rubric::cuda::worker
