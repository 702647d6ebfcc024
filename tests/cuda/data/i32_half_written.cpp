// Copies its input to an int32 output but skips every odd element: with 0xFF poison alone those
// would read -1, a legitimate value.
void copy(const int* x, int* out, int n, cudaStream_t) {
  for (int i = 0; i < n; i += 2) out[i] = x[i];
}
