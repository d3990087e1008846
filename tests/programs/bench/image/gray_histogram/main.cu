// RGB -> luma, then a 256-bin histogram: per-block shared-memory atomics merged with global atomics.
#include <cstdio>
#include <cstdlib>

struct Pixel {
    unsigned char r, g, b, a;
};

__device__ __host__ unsigned char luma(Pixel p) { return (unsigned char)((77 * p.r + 150 * p.g + 29 * p.b) >> 8); }

__global__ void to_gray(const Pixel *in, unsigned char *gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        gray[i] = luma(in[i]);
}

__global__ void histogram(const unsigned char *gray, unsigned *hist, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[gray[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}

int main()
{
    const int n = 64 * 64;
    Pixel *img = (Pixel *)malloc(n * sizeof(Pixel));
    for (int i = 0; i < n; i++)
        img[i] = Pixel{(unsigned char)(i * 3), (unsigned char)(i / 17), (unsigned char)(i * i >> 5), 255};
    Pixel *dimg;
    unsigned char *dg;
    unsigned *dh, hist[256], want[256] = {0};
    cudaMalloc(&dimg, n * sizeof(Pixel));
    cudaMalloc(&dg, n);
    cudaMalloc(&dh, sizeof hist);
    cudaMemset(dh, 0, sizeof hist);
    cudaMemcpy(dimg, img, n * sizeof(Pixel), cudaMemcpyHostToDevice);
    to_gray<<<n / 256, 256>>>(dimg, dg, n);
    histogram<<<4, 256>>>(dg, dh, n);
    cudaError_t e = cudaMemcpy(hist, dh, sizeof hist, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        want[luma(img[i])]++;
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int b = 0; b < 256; b++) {
        ok = ok && hist[b] == want[b];
        cs += hist[b] * (b + 1);
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
