// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// __constant__ and __device__ variables: cudaMemcpyToSymbol/FromSymbol (with an offset),
// cudaGetSymbolAddress/Size, and a kernel reading both.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__constant__ float coeffs[4];
__device__ int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coeffs[3] * v + coeffs[2]) * v + coeffs[1]) * v + coeffs[0] + table[i % 8];
        atomicAdd(&counter, 1);
    }
}

int main() {
    const int n = 50;
    float hc[4] = {1.0f, -0.5f, 0.25f, 0.125f};
    CHECK(cudaMemcpyToSymbol(coeffs, hc, 2 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(coeffs, hc + 2, 2 * sizeof(float), 2 * sizeof(float)));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    int init[8];
    CHECK(cudaMemcpyFromSymbol(init, table, sizeof init));
    size_t table_size = 0;
    CHECK(cudaGetSymbolSize(&table_size, table));
    int* table_ptr = nullptr;
    CHECK(cudaGetSymbolAddress((void**)&table_ptr, table));
    int ten = 10;
    CHECK(cudaMemcpy(table_ptr + 7, &ten, sizeof ten, cudaMemcpyHostToDevice));
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) hx[i] = i * 0.1f;
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    poly<<<1, 64>>>(x, y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    int count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
    int bad = count != n || table_size != sizeof init || init[0] != 1 || init[7] != 8;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float v = hx[i];
        float e = ((hc[3] * v + hc[2]) * v + hc[1]) * v + hc[0] + (i % 8 == 7 ? 10 : i % 8 + 1);
        bad += hy[i] - e > 1e-5f || e - hy[i] > 1e-5f;
        sum += hy[i];
    }
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
