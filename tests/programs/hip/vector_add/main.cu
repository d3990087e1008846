// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// c = a + b over a few blocks, one guarded tail block.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1000;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) { ha[i] = i * 0.5f; hb[i] = 1000.0f - i; }
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyHostToDevice));
    vector_add<<<dim3((n + 255) / 256), dim3(256), 0>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) { bad += hc[i] != ha[i] + hb[i]; sum += hc[i]; }
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
