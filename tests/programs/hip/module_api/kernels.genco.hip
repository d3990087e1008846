// Built alone with hipcc --genco into kernels.hsaco; main.hip loads it with the module API.
#include <hip/hip_runtime.h>

__device__ int bias = 7;

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i] + bias;
}

struct Pair { int scale; int offset; };

extern "C" __global__ void affine(int* v, Pair p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * p.scale + p.offset;
}
