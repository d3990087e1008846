// __constant__ and __device__ variables: hipMemcpyToSymbol/FromSymbol (with an offset),
// hipGetSymbolAddress/Size, and a kernel reading both.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

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
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, 2 * sizeof(float)));
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc + 2, 2 * sizeof(float), 2 * sizeof(float)));
    int zero = 0;
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof zero));
    int init[8];
    CHECK(hipMemcpyFromSymbol(init, HIP_SYMBOL(table), sizeof init));
    size_t table_size = 0;
    CHECK(hipGetSymbolSize(&table_size, HIP_SYMBOL(table)));
    int* table_ptr = nullptr;
    CHECK(hipGetSymbolAddress((void**)&table_ptr, HIP_SYMBOL(table)));
    int ten = 10;
    CHECK(hipMemcpy(table_ptr + 7, &ten, sizeof ten, hipMemcpyHostToDevice));
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) hx[i] = i * 0.1f;
    float *x, *y;
    CHECK(hipMalloc(&x, sizeof hx));
    CHECK(hipMalloc(&y, sizeof hy));
    CHECK(hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice));
    poly<<<1, 64>>>(x, y, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(hy, y, sizeof hy, hipMemcpyDeviceToHost));
    int count = 0;
    CHECK(hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof count));
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
