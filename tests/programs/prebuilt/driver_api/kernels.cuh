// Device code of the driver_api program, built on its own (no host code) into kernels.fatbin
// (nvcc -x cu -fatbin -arch=sm_80) and kernels.cubin (nvcc -x cu -cubin), which main.cpp loads
// through the driver API. It is named .cuh, not .cu, so that the program-convention tests, which
// build every folder of *.cu files as one CUDA program, leave this host-only program alone.

// Plain C names.
extern "C" __global__ void add_one(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

extern "C" __global__ void axpy_int(int *y, const int *x, int a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// A C++ name: main.cpp asks for it by its mangled name, _Z5scalePffi.
__global__ void scale(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

// Module globals that the host reads and writes through cuModuleGetGlobal.
__device__ int dev_table[256];
__constant__ int dev_scale;
__device__ unsigned dev_hits;   // counted by the kernel, read back by the host

extern "C" __global__ void use_globals(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = dev_table[i % 256] * dev_scale + i;
        atomicAdd(&dev_hits, 1u);
    }
}

// A 2D grid of 2D blocks; each block sums its tile of a width x height image in dynamic shared
// memory (blockDim.x * blockDim.y words, a power of two) and writes one sum per block.
extern "C" __global__ void tile_sum(const unsigned *in, unsigned *out, int width, int height)
{
    extern __shared__ unsigned partial[];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int threads = blockDim.x * blockDim.y;
    partial[t] = (x < width && y < height) ? in[y * width + x] : 0u;
    __syncthreads();
    for (int half = threads / 2; half > 0; half /= 2) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = partial[0];
}
