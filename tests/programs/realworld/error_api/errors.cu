// Error handling paths that real programs exercise: an invalid launch configuration reported by
// cudaGetLastError/cudaPeekAtLastError, cudaGetErrorName/String, cudaMemGetInfo,
// cudaDeviceGetAttribute, cudaFuncSetCacheConfig, cudaDeviceSetLimit/GetLimit, cudaDeviceSynchronize
// after an error, cudaSetDeviceFlags, cudaGetDevice, cudaFree(nullptr).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(err__));                                             \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

int main()
{
    int bad = 0;
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    int dev = -1;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (dev != 0)
        bad++;
    size_t freeMem = 0, totalMem = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeMem, &totalMem));
    if (totalMem == 0 || freeMem > totalMem)
        bad++;
    int smCount = 0, warpSize = 0, maxThreads = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&warpSize, cudaDevAttrWarpSize, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&maxThreads, cudaDevAttrMaxThreadsPerBlock, dev));
    fprintf(stderr, "SMs %d warp %d maxThreads %d free %zu total %zu\n", smCount, warpSize, maxThreads,
            freeMem, totalMem);
    if (smCount <= 0 || warpSize != 32 || maxThreads < 256)
        bad++;
    CUDA_CHECK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
    CUDA_CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
    size_t heap = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    CUDA_CHECK(cudaFree(nullptr));

    int *d;
    const int n = 64;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    // Too many threads per block: the launch fails (CUDA 13 on an H200 says cudaErrorInvalidValue,
    // older CUDA and HIP cudaErrorInvalidConfiguration), the error sticks until read.
    fill<<<1, 4096>>>(d, 1, n);
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t last = cudaGetLastError();
    cudaError_t after = cudaGetLastError();
    fprintf(stderr, "bad launch: %s (%s)\n", cudaGetErrorName(last), cudaGetErrorString(last));
    if ((last != cudaErrorInvalidConfiguration && last != cudaErrorInvalidValue) || peek != last ||
        after != cudaSuccess)
        bad++;
    if (strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") != 0)
        bad++;
    if (strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") != 0)
        bad++;
    if (strlen(cudaGetErrorString(cudaErrorMemoryAllocation)) == 0)
        bad++;
    // An impossible allocation fails cleanly and the context stays usable.
    void *huge = nullptr;
    cudaError_t e = cudaMalloc(&huge, (size_t)1 << 62);
    if (e != cudaErrorMemoryAllocation)
        bad++;
    cudaGetLastError();

    fill<<<2, 32>>>(d, 100, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    int h[n];
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    long long checksum = 0;
    for (int i = 0; i < n; ++i) {
        if (h[i] != 100 + i)
            bad++;
        checksum += h[i];
    }
    CUDA_CHECK(cudaFree(d));
    if (bad)
        fprintf(stderr, "%d checks failed\n", bad);
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
