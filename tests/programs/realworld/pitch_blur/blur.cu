// 2D image box blur on pitched memory: cudaMallocPitch, cudaMemcpy2D both ways, cudaMemset2D,
// a dim3 grid, a __restrict__ kernel with a clamp-to-edge stencil.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d CUDA error %s: %s\n", __FILE__, __LINE__, #call,         \
                    cudaGetErrorString(err__));                                             \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void boxBlur(const unsigned char *__restrict__ src, size_t srcPitch,
                        unsigned char *__restrict__ dst, size_t dstPitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    int sum = 0;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
        const unsigned char *row = src + clampi(y + dy, 0, height - 1) * srcPitch;
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
            sum += row[clampi(x + dx, 0, width - 1)];
    }
    dst[y * dstPitch + x] = (unsigned char)(sum / 9);
}

int main()
{
    const int width = 45, height = 23;
    std::vector<unsigned char> img(width * height), out(width * height), ref(width * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            img[y * width + x] = (unsigned char)((x * 13 + y * 29 + x * y) & 0xff);

    unsigned char *dSrc, *dDst;
    size_t srcPitch, dstPitch;
    CUDA_CHECK(cudaMallocPitch((void **)&dSrc, &srcPitch, width, height));
    CUDA_CHECK(cudaMallocPitch((void **)&dDst, &dstPitch, width * sizeof(unsigned char), height));
    if (srcPitch < (size_t)width || dstPitch < (size_t)width) {
        printf("bad pitch %zu %zu\nFAIL\n", srcPitch, dstPitch);
        return 1;
    }
    fprintf(stderr, "pitch %zu\n", srcPitch);
    CUDA_CHECK(cudaMemset2D(dDst, dstPitch, 0xAB, width, height));
    CUDA_CHECK(cudaMemcpy2D(dSrc, srcPitch, img.data(), width, width, height, cudaMemcpyHostToDevice));

    dim3 block(16, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    boxBlur<<<grid, block>>>(dSrc, srcPitch, dDst, dstPitch, width, height);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy2D(out.data(), width, dDst, dstPitch, width, height, cudaMemcpyDeviceToHost));

    // Device-to-device 2D copy of a sub-rectangle, then back.
    std::vector<unsigned char> sub(10 * 5);
    unsigned char *dSub;
    CUDA_CHECK(cudaMalloc(&dSub, 10 * 5));
    CUDA_CHECK(cudaMemcpy2D(dSub, 10, dDst + 3 * dstPitch + 4, dstPitch, 10, 5, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy(sub.data(), dSub, 50, cudaMemcpyDeviceToHost));

    long long checksum = 0;
    int bad = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int s = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int yy = y + dy < 0 ? 0 : (y + dy >= height ? height - 1 : y + dy);
                    int xx = x + dx < 0 ? 0 : (x + dx >= width ? width - 1 : x + dx);
                    s += img[yy * width + xx];
                }
            ref[y * width + x] = (unsigned char)(s / 9);
            if (ref[y * width + x] != out[y * width + x])
                bad++;
            checksum += out[y * width + x] * (x + 1);
        }
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 10; ++x)
            if (sub[y * 10 + x] != ref[(y + 3) * width + x + 4])
                bad++;
    CUDA_CHECK(cudaFree(dSrc));
    CUDA_CHECK(cudaFree(dDst));
    CUDA_CHECK(cudaFree(dSub));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
