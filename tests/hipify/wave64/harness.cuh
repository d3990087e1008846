// The host side of the wave64 warp tests: launch a kernel that writes `rows` results per
// thread (out[row * threads + global thread id]), then print row r as "r: v0 v1 ...".
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err = (call);                                                    \
    if (err != cudaSuccess) {                                                    \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err));   \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

template <typename Kernel>
void run(const char* name, Kernel kernel, int blocks, int threads, int rows) {
  int n = blocks * threads;
  long long* out;
  CHECK(cudaMalloc(&out, sizeof(long long) * n * rows));
  CHECK(cudaMemset(out, 0xff, sizeof(long long) * n * rows));
  kernel<<<blocks, threads>>>(out);
  CHECK(cudaGetLastError());
  long long* host = static_cast<long long*>(std::malloc(sizeof(long long) * n * rows));
  CHECK(cudaMemcpy(host, out, sizeof(long long) * n * rows, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    std::printf("%s %d %d %d:", name, blocks, threads, r);
    for (int i = 0; i < n; ++i) std::printf(" %lld", host[r * n + i]);
    std::printf("\n");
  }
  std::free(host);
  CHECK(cudaFree(out));
}

// The row `r` slot of this thread.
#define OUT(r) out[(r) * (gridDim.x * blockDim.x) + blockIdx.x * blockDim.x + threadIdx.x]
