// __constant__ coefficients and __device__ globals: cudaMemcpyToSymbol (with offset),
// cudaMemcpyFromSymbol, cudaGetSymbolAddress, cudaGetSymbolSize, a device-side counter.
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

#define DEGREE 6
__constant__ float c_coeffs[DEGREE + 1];
__constant__ int c_scale = 3;
__device__ unsigned int d_evaluated;
__device__ float d_maxValue;
__device__ float d_table[64];

__global__ void evalPoly(const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float acc = 0.0f;
        for (int k = DEGREE; k >= 0; --k)
            acc = acc * x[i] + c_coeffs[k];
        y[i] = acc * c_scale;
        atomicAdd(&d_evaluated, 1u);
        if (i < 64)
            d_table[i] = acc;
    }
}

__global__ void tableMax()
{
    __shared__ float s[64];
    s[threadIdx.x] = d_table[threadIdx.x];
    __syncthreads();
    for (int stride = 32; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        d_maxValue = s[0];
}

int main()
{
    const int n = 300;
    float hCoeffs[DEGREE + 1] = {1.0f, -0.5f, 0.25f, 0.0f, 0.125f, 0.0f, -0.0625f};
    // Upload in two pieces, the second at an offset, like code that patches a table.
    CUDA_CHECK(cudaMemcpyToSymbol(c_coeffs, hCoeffs, 4 * sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_coeffs, hCoeffs + 4, 3 * sizeof(float), 4 * sizeof(float),
                                  cudaMemcpyHostToDevice));
    unsigned int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(d_evaluated, &zero, sizeof(zero)));
    size_t tableSize = 0;
    CUDA_CHECK(cudaGetSymbolSize(&tableSize, d_table));
    float *dTable = nullptr;
    CUDA_CHECK(cudaGetSymbolAddress((void **)&dTable, d_table));
    CUDA_CHECK(cudaMemset(dTable, 0, tableSize));

    float hx[n], hy[n];
    for (int i = 0; i < n; ++i)
        hx[i] = -1.5f + 3.0f * i / n;
    float *dx, *dy;
    CUDA_CHECK(cudaMalloc(&dx, sizeof hx));
    CUDA_CHECK(cudaMalloc(&dy, sizeof hy));
    CUDA_CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    evalPoly<<<2, 64>>>(dx, dy, n);
    CUDA_CHECK(cudaGetLastError());
    tableMax<<<1, 64>>>();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost));

    unsigned int evaluated = 0;
    float maxValue = 0, coeffsBack[DEGREE + 1], table[64];
    CUDA_CHECK(cudaMemcpyFromSymbol(&evaluated, d_evaluated, sizeof evaluated));
    CUDA_CHECK(cudaMemcpyFromSymbol(&maxValue, d_maxValue, sizeof maxValue, 0, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpyFromSymbol(coeffsBack, c_coeffs, sizeof coeffsBack));
    CUDA_CHECK(cudaMemcpy(table, dTable, sizeof table, cudaMemcpyDeviceToHost));

    int bad = 0;
    double checksum = 0;
    float refMax = -1e30f;
    for (int i = 0; i < n; ++i) {
        float acc = 0.0f;
        for (int k = DEGREE; k >= 0; --k)
            acc = acc * hx[i] + hCoeffs[k];
        if (i < 64) {
            refMax = acc > refMax ? acc : refMax;
            if (fabsf(table[i] - acc) > 1e-5f * (1 + fabsf(acc))) // the device may contract to FMA
                bad++;
        }
        if (fabsf(hy[i] - 3 * acc) > 1e-5f * (1 + fabsf(acc)))
            bad++;
        checksum += hy[i];
    }
    for (int k = 0; k <= DEGREE; ++k)
        if (coeffsBack[k] != hCoeffs[k])
            bad++;
    if (evaluated != (unsigned)n || fabsf(maxValue - refMax) > 1e-5f * (1 + fabsf(refMax)) || tableSize != sizeof table)
        bad++;
    fprintf(stderr, "evaluated %u max %f\n", evaluated, maxValue);
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
