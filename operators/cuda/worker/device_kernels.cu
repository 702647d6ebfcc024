#include "operators/cuda/worker/device_kernels.hpp"

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

__global__ void clock_probe_kernel(unsigned long long* out, unsigned long long spin_ns) {
  unsigned long long t0, t1;
  long long c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < spin_ns);
  long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

template <int Bytes> struct WordOf;
template <> struct WordOf<1> { using type = std::uint8_t; };
template <> struct WordOf<2> { using type = std::uint16_t; };
template <> struct WordOf<4> { using type = std::uint32_t; };
template <> struct WordOf<8> { using type = std::uint64_t; };

constexpr int kUnroll = 8;

// Each thread issues kUnroll loads of each operand before any arithmetic, so enough bytes are in
// flight to run at memory bandwidth; partials are reduced per block in shared memory.
template <int BA, int BB>
__global__ void __launch_bounds__(kCompareThreads) compare_kernel(const typename WordOf<BA>::type* a, DType ta,
                                                                  const typename WordOf<BB>::type* b, DType tb,
                                                                  std::size_t count, math::Rule rule, Partial* out) {
  __shared__ Partial shared[kCompareThreads];
  Partial p;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    std::uint64_t va[kUnroll], vb[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      va[u] = a[i + u * stride];
      vb[u] = b[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) math::accumulate_bits(p, va[u], ta, vb[u], tb, i + u * stride, rule);
  }
  for (; i < count; i += stride) math::accumulate_bits(p, a[i], ta, b[i], tb, i, rule);
  shared[threadIdx.x] = p;
  __syncthreads();
  for (int half = kCompareThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) math::combine(shared[threadIdx.x], shared[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = shared[0];
}

template <int BA, int BB>
cudaError_t launch_compare(const void* a, DType ta, const void* b, DType tb, std::size_t count, math::Rule rule,
                           Partial* partials, int blocks, cudaStream_t stream) {
  compare_kernel<BA, BB><<<blocks, kCompareThreads, 0, stream>>>(
      static_cast<const typename WordOf<BA>::type*>(a), ta, static_cast<const typename WordOf<BB>::type*>(b), tb, count,
      rule, partials);
  return cudaGetLastError();
}

template <int BA>
cudaError_t dispatch_b(const void* a, DType ta, const void* b, DType tb, std::size_t count, math::Rule rule,
                       Partial* partials, int blocks, cudaStream_t stream) {
  switch (math::dtype_width_bits(tb) / 8) {
    case 1: return launch_compare<BA, 1>(a, ta, b, tb, count, rule, partials, blocks, stream);
    case 2: return launch_compare<BA, 2>(a, ta, b, tb, count, rule, partials, blocks, stream);
    case 4: return launch_compare<BA, 4>(a, ta, b, tb, count, rule, partials, blocks, stream);
    default: return launch_compare<BA, 8>(a, ta, b, tb, count, rule, partials, blocks, stream);
  }
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

cudaError_t probe_clock(unsigned long long* out, unsigned long long spin_ns, cudaStream_t stream) {
  clock_probe_kernel<<<1, 1, 0, stream>>>(out, spin_ns);
  return cudaGetLastError();
}

cudaError_t compare(const void* a, DType ta, const void* b, DType tb, std::size_t count, math::Rule rule,
                    Partial* partials, int blocks, cudaStream_t stream) {
  switch (math::dtype_width_bits(ta) / 8) {
    case 1: return dispatch_b<1>(a, ta, b, tb, count, rule, partials, blocks, stream);
    case 2: return dispatch_b<2>(a, ta, b, tb, count, rule, partials, blocks, stream);
    case 4: return dispatch_b<4>(a, ta, b, tb, count, rule, partials, blocks, stream);
    default: return dispatch_b<8>(a, ta, b, tb, count, rule, partials, blocks, stream);
  }
}

}  // namespace rubric::cuda::worker::kernels
