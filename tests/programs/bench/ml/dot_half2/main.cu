// Batched dot products of half vectors with half2 arithmetic (__hmul2/__hadd2, __low2float),
// accumulated in float per lane, reduced with __shfl_down_sync; ReLU of the result as __half.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_fp16.h>

#define LEN 256

__global__ void dots(const __half2 *a, const __half2 *b, float *out, __half *relu)
{
    const __half2 *av = a + blockIdx.x * (LEN / 2), *bv = b + blockIdx.x * (LEN / 2);
    float acc = 0;
    for (int i = threadIdx.x; i < LEN / 2; i += 32) {
        __half2 p = __hmul2(av[i], bv[i]);
        acc += __low2float(p) + __high2float(p);
    }
    for (int o = 16; o; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = acc;
        __half h = __float2half(acc);
        relu[blockIdx.x] = __hgt(h, __float2half(0.0f)) ? h : __float2half(0.0f);
    }
}

int main()
{
    const int batch = 16, n = batch * LEN;
    __half *a = (__half *)malloc(n * 2), *b = (__half *)malloc(n * 2), relu[batch];
    for (int i = 0; i < n; i++) {
        a[i] = __float2half((float)((i * 7) % 13 - 6) * 0.125f);
        b[i] = __float2half((float)((i * 5) % 11 - 5) * 0.25f);
    }
    __half *da, *db, *dr;
    float *dout, out[batch];
    cudaMalloc(&da, n * 2);
    cudaMalloc(&db, n * 2);
    cudaMalloc(&dr, sizeof relu);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(da, a, n * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, n * 2, cudaMemcpyHostToDevice);
    dots<<<batch, 32>>>((const __half2 *)da, (const __half2 *)db, dout, dr);
    cudaMemcpy(relu, dr, sizeof relu, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int k = 0; k < batch; k++) {
        // products of these values are exact in half, sums of them exact in float
        double want = 0;
        for (int i = 0; i < LEN; i++)
            want += (double)__half2float(a[k * LEN + i]) * __half2float(b[k * LEN + i]);
        ok = ok && out[k] == (float)want && __half2float(relu[k]) == (want > 0 ? __half2float(__float2half((float)want)) : 0.0f);
        cs += out[k] * (k + 1);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
