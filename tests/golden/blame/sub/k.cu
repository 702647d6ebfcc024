__global__ void k(float* x) {}
extern "C" void scale(const float* a, float* b, int n, float s, cudaStream_t st) {}
