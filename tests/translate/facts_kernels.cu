// Kernels that between them read every kind of fact the passes take from a cubin: parameters of
// several sizes, static shared memory, launch bounds, __constant__ and __device__ variables,
// printf (its format string, a global), a local array (frame and stack sizes), function pointers
// into the kernel's section (constant bank 2). Jump tables and calls across sections come from
// the test programs (test_cache_key.py).
#include <cstdio>

struct Pair { int a; double b; };

__constant__ float table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__device__ int counter;
__device__ float scale = 2.5f;

__global__ void __launch_bounds__(128) facts_shared(const float *in, float *out, char c, short h, Pair p, int n)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = tile[127 - threadIdx.x] * table[i & 15] * scale + c + h + p.a + (float)p.b;
    if (i == 0)
        atomicAdd(&counter, 1);
}

__global__ void facts_printf(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] < 0)
        printf("negative %d at %d\n", in[i], i);
}

__global__ void facts_local(const int *in, int *out, int n)
{
    int local[64];
    for (int k = 0; k < 64; ++k)
        local[k] = in[(k * 7) % n];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = local[in[i] & 63];
}

__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int thrice(int x) { return 3 * x; }

__global__ void facts_pointer(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int (*f)(int) = (in[0] & 1) ? twice : thrice;
    if (i < n)
        out[i] = f(in[i]);
}
