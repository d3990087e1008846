// Kernels of module_queries (compiled with nvcc -x cu -fatbin): C and C++ names, template
// instances, a device function that is no kernel, and a __device__ variable that is no function.

__device__ int launches;

__device__ int twice(int x) { return 2 * x; }

extern "C" __global__ void fill(int *out, int value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = twice(value) + i;
    if (i == 0) atomicAdd(&launches, 1);
}

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

template <typename T> __global__ void add_one(T *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += T(1);
}

template __global__ void add_one<int>(int *, int);
template __global__ void add_one<double>(double *, int);

// Uses shared memory in proportion to its block, for the occupancy calculator's callback.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    extern __shared__ int partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned t = 0; t < blockDim.x; t++) s += partial[t];
        atomicAdd(out, s);
    }
}
