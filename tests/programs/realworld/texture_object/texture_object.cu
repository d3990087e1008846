#include <cstdio>
__global__ void k(cudaTextureObject_t t, float *o, int n) { int i = threadIdx.x; if (i < n) o[i] = tex1Dfetch<float>(t, i) * 2.0f; }
int main() {
  const int n = 32; float h[n], r[n]; for (int i = 0; i < n; ++i) h[i] = i * 0.5f;
  float *d, *o; cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof h); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = d;
  rd.res.linear.desc = cudaCreateChannelDesc<float>(); rd.res.linear.sizeInBytes = sizeof h;
  cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0; cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  if (e != cudaSuccess) { printf("create: %s\nFAIL\n", cudaGetErrorString(e)); return 1; }
  k<<<1, 32>>>(t, o, n); cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0; for (int i = 0; i < n; ++i) if (r[i] != h[i] * 2.0f) bad++;
  printf("checksum: %d\n%s\n", (int)r[n-1], bad ? "FAIL" : "PASS"); return bad != 0; }
