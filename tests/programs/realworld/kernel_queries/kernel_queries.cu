// What programs ask the runtime about their kernels and the device before choosing launch sizes:
// a kernel's name (cudaFuncGetName), the dynamic shared memory that leaves room for a number of
// resident blocks (cudaOccupancyAvailableDynamicSMemPerBlock, checked against the occupancy
// calculator), and the widest 1D linear texture (cudaDeviceGetTexture1DLinearMaxWidth); then a
// launch with the dynamic shared memory found, and one through the kernel's handle (cudaGetKernel).
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

// Reverses each block's slice through dynamic shared memory.
__global__ void reverseBlocks(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tile[threadIdx.x] = in[i];
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (j < n && i < n)
        out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void plainName(int *v) { v[threadIdx.x] = threadIdx.x; }

int main()
{
    int bad = 0;
    const char *name = nullptr, *cName = nullptr;
    CUDA_CHECK(cudaFuncGetName(&name, reverseBlocks));
    CUDA_CHECK(cudaFuncGetName(&cName, plainName));
    printf("names: %s %s\n", name, cName);
    bad += strcmp(cName, "plainName") != 0 || strstr(name, "reverseBlocks") == nullptr;
    int host = 0;
    printf("name of a host function: %s\n", cudaGetErrorName(cudaFuncGetName(&name, (const void *)&host)));
    cudaGetLastError();

    const int blockSize = 128;
    int fits[3] = {1, 2, 4};
    for (int numBlocks : fits) {
        size_t dyn = 0;
        CUDA_CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, reverseBlocks, numBlocks, blockSize));
        int resident = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, reverseBlocks, blockSize, dyn));
        bool ok = dyn >= blockSize * sizeof(int) && resident >= numBlocks;
        printf("%d blocks: room for their tiles %s, that many resident with it %s\n", numBlocks,
               dyn >= blockSize * sizeof(int) ? "yes" : "no", resident >= numBlocks ? "yes" : "no");
        bad += !ok;
    }

    size_t width1 = 0, width4 = 0;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), f4 = cudaCreateChannelDesc<float4>();
    CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&width1, &f1, 0));
    CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&width4, &f4, 0));
    int attr = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxTexture1DLinearWidth, 0));
    printf("1D linear texture width: float %s the device attribute, float4 %s\n",
           width1 == (size_t)attr ? "equals" : "differs from", width4 == (size_t)attr ? "equals" : "differs from");
    bad += width1 == 0 || width4 == 0;

    // A launch with the dynamic shared memory the tiles need.
    const int n = 1000;
    int hIn[n], hOut[n];
    for (int i = 0; i < n; ++i)
        hIn[i] = i * 7 - 300;
    int *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, sizeof hIn));
    CUDA_CHECK(cudaMalloc(&dOut, sizeof hOut));
    CUDA_CHECK(cudaMemcpy(dIn, hIn, sizeof hIn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dOut, 0, sizeof hOut));
    reverseBlocks<<<(n + blockSize - 1) / blockSize, blockSize, blockSize * sizeof(int)>>>(dIn, dOut, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hOut, dOut, sizeof hOut, cudaMemcpyDeviceToHost));
    long long checksum = 0;
    for (int i = 0; i < n; ++i) {
        int b = i / blockSize, t = i % blockSize, j = b * blockSize + (blockSize - 1 - t);
        int want = j < n ? hIn[j] : 0;
        bad += hOut[i] != want;
        checksum = (checksum * 31 + hOut[i]) % 1000000007LL;
    }

    // The same launch through the kernel's handle.
    cudaKernel_t handle;
    CUDA_CHECK(cudaGetKernel(&handle, reverseBlocks));
    CUDA_CHECK(cudaMemset(dOut, 0, sizeof hOut));
    int count = n;
    void *args[] = {&dIn, &dOut, &count};
    CUDA_CHECK(cudaLaunchKernel((const void *)handle, dim3((n + blockSize - 1) / blockSize), dim3(blockSize), args,
                                blockSize * sizeof(int), 0));
    int again[n];
    CUDA_CHECK(cudaMemcpy(again, dOut, sizeof again, cudaMemcpyDeviceToHost));
    bool same = memcmp(again, hOut, sizeof again) == 0;
    printf("launch through cudaGetKernel's handle: %s\n", same ? "same result" : "differs");
    bad += !same;
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
