// A program split across translation units: kernels live in scale.cu and reduce.cu (the binary
// route tests also build those two into a static library).
#include <cstdio>
#include "parts.h"

int main()
{
    const int n = 1000;
    float h_x[n], *d_x;
    for (int i = 0; i < n; i++)
        h_x[i] = (float)(i % 10);
    cudaMalloc(&d_x, sizeof h_x);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    scale_on_device(d_x, 0.5f, n);
    float got = sum_on_device(d_x, n);
    cudaError_t e = cudaDeviceSynchronize();
    float want = 0;
    for (int i = 0; i < n; i++)
        want += h_x[i] * 0.5f;
    cudaFree(d_x);
    printf("checksum: %.6e\n", got);
    bool ok = e == cudaSuccess && got == want;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
