#include "operators/cuda/worker/device_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace rubric::cuda::worker::kernels {

namespace {

using math::Partial;
using tensor::DType;

template <typename Word>
__global__ void fill_words(Word* dst, std::size_t count, Word value) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] = value;
}

__global__ void fill_random_kernel(unsigned char* dst, DType t, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    math::store_random(dst, t, i, seed);
}

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void block_kernel(volatile int* release, int* expired, unsigned long long timeout_ns) {
  unsigned long long t0 = global_ns();
  while (*release == 0) {
    if (global_ns() - t0 > timeout_ns) {
      *expired = 1;
      break;
    }
  }
  __threadfence_system();
}

__global__ void stamp_kernel(SmStamp* out, int max_sm, unsigned long long seq) {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (static_cast<int>(sm) >= max_sm) return;
  SmStamp s;
  s.clock = static_cast<unsigned long long>(clock64());
  s.ns = global_ns();
  s.seq = seq;
  out[sm] = s;
}

__global__ void canary_kernel(const unsigned char* p, std::size_t bytes, unsigned char canary,
                              unsigned long long* damaged) {
  unsigned long long n = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < bytes;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    n += p[i] != canary;
  if (n) atomicAdd(damaged, n);
}

constexpr unsigned kFullMask = 0xFFFFFFFFu;

template <int Bytes>
__device__ __forceinline__ std::uint64_t word_at(const unsigned char* p) {
  if constexpr (Bytes == 8) return *reinterpret_cast<const std::uint64_t*>(p);
  else if constexpr (Bytes == 4) return *reinterpret_cast<const std::uint32_t*>(p);
  else if constexpr (Bytes == 2) return *reinterpret_cast<const std::uint16_t*>(p);
  else return *p;
}

__device__ __forceinline__ void shuffle_combine(Partial& p, int offset) {
  Partial o;
  o.count = __shfl_down_sync(kFullMask, p.count, offset);
  o.mismatches = __shfl_down_sync(kFullMask, p.mismatches, offset);
  o.max_abs = __shfl_down_sync(kFullMask, p.max_abs, offset);
  o.max_abs_index = __shfl_down_sync(kFullMask, p.max_abs_index, offset);
  o.integers = __shfl_down_sync(kFullMask, p.integers, offset);
  // 128 bits in two shuffles (there is no 128-bit shuffle).
  const auto high = __shfl_down_sync(kFullMask, static_cast<std::uint64_t>(p.max_abs_integer >> 64), offset);
  const auto low = __shfl_down_sync(kFullMask, static_cast<std::uint64_t>(p.max_abs_integer), offset);
  o.max_abs_integer = (static_cast<tensor::WideUnsigned>(high) << 64) | low;
  o.max_rel = __shfl_down_sync(kFullMask, p.max_rel, offset);
  o.max_rel_index = __shfl_down_sync(kFullMask, p.max_rel_index, offset);
  o.first_mismatch_index = __shfl_down_sync(kFullMask, p.first_mismatch_index, offset);
  o.nan_a = __shfl_down_sync(kFullMask, p.nan_a, offset);
  o.nan_b = __shfl_down_sync(kFullMask, p.nan_b, offset);
  o.inf_a = __shfl_down_sync(kFullMask, p.inf_a, offset);
  o.inf_b = __shfl_down_sync(kFullMask, p.inf_b, offset);
  o.sum_sq_diff = __shfl_down_sync(kFullMask, p.sum_sq_diff, offset);
  o.sum_sq_a = __shfl_down_sync(kFullMask, p.sum_sq_a, offset);
  o.sum_sq_b = __shfl_down_sync(kFullMask, p.sum_sq_b, offset);
  o.dot_ab = __shfl_down_sync(kFullMask, p.dot_ab, offset);
  o.max_abs_b = __shfl_down_sync(kFullMask, p.max_abs_b, offset);
  o.max_ulp = __shfl_down_sync(kFullMask, p.max_ulp, offset);
  math::combine(p, o);
}

// Warps reduce by shuffles, then the first warp combines the block's warps; one partial per block.
__device__ __forceinline__ void reduce_block(Partial p, Partial* out) {
  __shared__ Partial warps[kCompareThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) shuffle_combine(p, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warps[warp] = p;
  __syncthreads();
  if (warp == 0) {
    p = lane < kCompareThreads / 32 ? warps[lane] : Partial{};
    for (int offset = 16; offset > 0; offset /= 2) shuffle_combine(p, offset);
    if (lane == 0) out[blockIdx.x] = p;
  }
}

// One dtype pair known at compile time. Each thread takes chunks of K elements, K such that the
// narrower operand fills one 16-byte load (the wider takes several), then a scalar tail.
template <DType TA, DType TB>
__global__ void __launch_bounds__(kCompareThreads) compare_typed(const unsigned char* a, const unsigned char* b,
                                                                 std::size_t count, math::Rule rule, Partial* out) {
  constexpr int WA = math::kWidthBytes<TA>, WB = math::kWidthBytes<TB>;
  constexpr int K = 16 / (WA < WB ? WA : WB);
  constexpr int NA = K * WA / 16, NB = K * WB / 16;
  Partial p;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t chunks = count / K;
  const auto* va = reinterpret_cast<const uint4*>(a);
  const auto* vb = reinterpret_cast<const uint4*>(b);
  for (std::size_t c = first; c < chunks; c += threads) {
    uint4 ra[NA], rb[NB];
#pragma unroll
    for (int u = 0; u < NA; ++u) ra[u] = __ldcs(va + c * NA + u);
#pragma unroll
    for (int u = 0; u < NB; ++u) rb[u] = __ldcs(vb + c * NB + u);
    const auto* ba = reinterpret_cast<const unsigned char*>(ra);
    const auto* bb = reinterpret_cast<const unsigned char*>(rb);
#pragma unroll
    for (int e = 0; e < K; ++e)
      math::accumulate_typed<TA, TB>(p, word_at<WA>(ba + e * WA), word_at<WB>(bb + e * WB), c * K + e, rule);
  }
  for (std::size_t i = chunks * K + first; i < count; i += threads)
    math::accumulate_typed<TA, TB>(p, word_at<WA>(a + i * WA), word_at<WB>(b + i * WB), i, rule);
  reduce_block(p, out);
}

// Any other pair (or unaligned buffers): dtypes at run time, one element at a time.
__global__ void __launch_bounds__(kCompareThreads) compare_generic(const unsigned char* a, DType ta,
                                                                   const unsigned char* b, DType tb,
                                                                   std::size_t count, math::Rule rule, Partial* out) {
  Partial p;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count; i += threads)
    math::accumulate(p, a, ta, b, tb, i, rule);
  reduce_block(p, out);
}

// Blocks for a grid-stride kernel: what fits on the device at once (occupancy), no more than
// the work needs, no more than the partials buffer holds.
template <typename Kernel>
int grid_by_occupancy(Kernel k, std::size_t work_items, int sm_count) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, kCompareThreads, 0) != cudaSuccess || per_sm < 1)
    per_sm = 1;
  cudaGetLastError();
  std::size_t blocks = static_cast<std::size_t>(std::min(per_sm, kMaxCompareBlocksPerSm)) * sm_count;
  std::size_t needed = (work_items + kCompareThreads - 1) / kCompareThreads;
  return static_cast<int>(std::max<std::size_t>(1, std::min(blocks, needed)));
}

template <DType TA, DType TB>
cudaError_t launch_typed(const void* a, const void* b, std::size_t count, math::Rule rule, Partial* partials,
                         int sm_count, int* blocks, cudaStream_t stream) {
  constexpr int K = 16 / (math::kWidthBytes<TA> < math::kWidthBytes<TB> ? math::kWidthBytes<TA> : math::kWidthBytes<TB>);
  *blocks = grid_by_occupancy(compare_typed<TA, TB>, count / K + 1, sm_count);
  compare_typed<TA, TB><<<*blocks, kCompareThreads, 0, stream>>>(static_cast<const unsigned char*>(a),
                                                                  static_cast<const unsigned char*>(b), count, rule,
                                                                  partials);
  return cudaGetLastError();
}

int grid_for(std::size_t count) {
  std::size_t blocks = (count + 255) / 256;
  return static_cast<int>(blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

}  // namespace

cudaError_t fill_pattern(void* dst, std::size_t count, std::size_t element_bytes, std::uint64_t pattern,
                         cudaStream_t stream) {
  int grid = grid_for(count);
  switch (element_bytes) {
    case 1: fill_words<<<grid, 256, 0, stream>>>(static_cast<std::uint8_t*>(dst), count, static_cast<std::uint8_t>(pattern)); break;
    case 2: fill_words<<<grid, 256, 0, stream>>>(static_cast<std::uint16_t*>(dst), count, static_cast<std::uint16_t>(pattern)); break;
    case 4: fill_words<<<grid, 256, 0, stream>>>(static_cast<std::uint32_t*>(dst), count, static_cast<std::uint32_t>(pattern)); break;
    default: fill_words<<<grid, 256, 0, stream>>>(static_cast<std::uint64_t*>(dst), count, pattern); break;
  }
  return cudaGetLastError();
}

cudaError_t fill_random(void* dst, DType t, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  fill_random_kernel<<<grid_for(count), 256, 0, stream>>>(static_cast<unsigned char*>(dst), t, count, seed);
  return cudaGetLastError();
}

cudaError_t block_stream(volatile int* release, int* expired, unsigned long long timeout_ns, cudaStream_t stream) {
  block_kernel<<<1, 1, 0, stream>>>(release, expired, timeout_ns);
  return cudaGetLastError();
}

cudaError_t stamp_sms(SmStamp* out, int max_sm, unsigned long long seq, int blocks, cudaStream_t stream) {
  stamp_kernel<<<blocks, 1, 0, stream>>>(out, max_sm, seq);
  return cudaGetLastError();
}

cudaError_t count_not_canary(const unsigned char* p, std::size_t bytes, unsigned char canary,
                             unsigned long long* damaged, cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  canary_kernel<<<grid_for(bytes), 256, 0, stream>>>(p, bytes, canary, damaged);
  return cudaGetLastError();
}

cudaError_t compare(const void* a, DType ta, const void* b, DType tb, std::size_t count, math::Rule rule,
                    Partial* partials, int sm_count, int* blocks, cudaStream_t stream) {
  bool aligned = reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
  if (aligned && ta == tb) {
    switch (ta) {
#define RUBRIC_SAME(T) case DType::T: return launch_typed<DType::T, DType::T>(a, b, count, rule, partials, sm_count, blocks, stream);
      RUBRIC_SAME(f64) RUBRIC_SAME(f32) RUBRIC_SAME(f16) RUBRIC_SAME(bf16) RUBRIC_SAME(f8e4m3) RUBRIC_SAME(f8e5m2)
      RUBRIC_SAME(i64) RUBRIC_SAME(i32) RUBRIC_SAME(i16) RUBRIC_SAME(i8) RUBRIC_SAME(u8) RUBRIC_SAME(boolean)
      RUBRIC_SAME(u64)
#undef RUBRIC_SAME
    }
  }
  // The mixed pairs graders meet: a half-precision candidate against an f32 reference.
  if (aligned && ta == DType::f16 && tb == DType::f32)
    return launch_typed<DType::f16, DType::f32>(a, b, count, rule, partials, sm_count, blocks, stream);
  if (aligned && ta == DType::bf16 && tb == DType::f32)
    return launch_typed<DType::bf16, DType::f32>(a, b, count, rule, partials, sm_count, blocks, stream);
  if (aligned && ta == DType::f32 && tb == DType::f64)
    return launch_typed<DType::f32, DType::f64>(a, b, count, rule, partials, sm_count, blocks, stream);
  *blocks = grid_by_occupancy(compare_generic, count, sm_count);
  compare_generic<<<*blocks, kCompareThreads, 0, stream>>>(static_cast<const unsigned char*>(a), ta,
                                                           static_cast<const unsigned char*>(b), tb, count, rule,
                                                           partials);
  return cudaGetLastError();
}

}  // namespace rubric::cuda::worker::kernels
