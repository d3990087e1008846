// Unified memory: cudaMallocManaged, host writes, grid-stride kernels, cudaDeviceSynchronize,
// host reads; a __managed__ variable; cudaPointerGetAttributes of managed, device and host memory.
#include <cstdio>
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

__managed__ int g_calls = 0;

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        atomicAdd(&g_calls, 1);
}

__global__ void squareInPlace(double *v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v[i] = v[i] * v[i];
}

int main()
{
    const int N = 1 << 10;
    float *x, *y;
    double *d;
    CUDA_CHECK(cudaMallocManaged(&x, N * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&y, N * sizeof(float), cudaMemAttachGlobal));
    CUDA_CHECK(cudaMallocManaged(&d, 100 * sizeof(double)));
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f + (i % 7);
        y[i] = 2.0f - (i % 3);
    }
    for (int i = 0; i < 100; i++)
        d[i] = i * 0.5;

    cudaPointerAttributes attr;
    CUDA_CHECK(cudaPointerGetAttributes(&attr, x));
    if (attr.type != cudaMemoryTypeManaged) {
        printf("pointer type %d, expected managed\nFAIL\n", (int)attr.type);
        return 1;
    }

    // Plain host memory is "unregistered" (no error since CUDA 11); cudaMalloc memory is device.
    int onStack = 0;
    CUDA_CHECK(cudaPointerGetAttributes(&attr, &onStack));
    if (attr.type != cudaMemoryTypeUnregistered || cudaGetLastError() != cudaSuccess) {
        printf("stack pointer type %d, expected unregistered\nFAIL\n", (int)attr.type);
        return 1;
    }
    void *plain;
    CUDA_CHECK(cudaMalloc(&plain, 64));
    CUDA_CHECK(cudaPointerGetAttributes(&attr, plain));
    if (attr.type != cudaMemoryTypeDevice || attr.devicePointer != plain) {
        printf("cudaMalloc pointer type %d, expected device\nFAIL\n", (int)attr.type);
        return 1;
    }
    CUDA_CHECK(cudaFree(plain));

    saxpy<<<4, 128>>>(N, 2.0f, x, y);
    CUDA_CHECK(cudaGetLastError());
    saxpy<<<3, 64>>>(N, -0.5f, x, y);
    squareInPlace<<<1, 32>>>(d, 100);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        float xi = 1.0f + (i % 7), yi = 2.0f - (i % 3);
        float ref = -0.5f * xi + (2.0f * xi + yi);
        if (y[i] != ref)
            bad++;
        checksum += y[i];
    }
    for (int i = 0; i < 100; i++) {
        if (d[i] != (i * 0.5) * (i * 0.5))
            bad++;
        checksum += d[i];
    }
    if (g_calls != 2)
        bad++;
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    CUDA_CHECK(cudaFree(d));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
