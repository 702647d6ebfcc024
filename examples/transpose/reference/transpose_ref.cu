// Reference: a tiled transpose through shared memory, coalesced on both sides, but the 32x32
// tile is read down its columns, so all 32 threads of a warp hit the same bank (32-way conflict).
// in is rows x cols (row-major); out is cols x rows.
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRowsPerPass)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRowsPerPass)
    if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_ref(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_tiled<<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(in, out, rows, cols);
}
