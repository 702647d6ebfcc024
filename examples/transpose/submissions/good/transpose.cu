// Fix: pad each tile row by one float. Column j of the tile then starts in bank (j * 33) % 32,
// so the 32 threads reading one column touch 32 different banks.
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
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

void transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_padded<<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(in, out, rows, cols);
}
