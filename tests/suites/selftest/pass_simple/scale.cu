// The selftest suite's plain pass: y = a*x + y on 1000 floats, checked on the host.
#include <cstdio>
#include "selftest_check.h"

__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; ++i) { x[i] = float(i); y[i] = 1.0f; }
    saxpy<<<(n + 127) / 128, 128>>>(n, 2.0f, x, y);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += y[i] != 2.0f * float(i) + 1.0f;
    std::printf("%d of %d wrong\n%s\n", bad, n, bad ? "FAIL" : "PASS");
    return bad != 0;
}
