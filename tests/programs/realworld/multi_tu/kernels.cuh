// Kernels and device helpers in a header, included by more than one translation unit:
// inline __device__ functions and templates are fine in several TUs.
#pragma once
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

__device__ __forceinline__ float lerp(float a, float b, float t) { return a + t * (b - a); }

template <typename Op> __global__ void transform(const float *in, float *out, int n, Op op)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = op(in[i]);
}

struct Square {
    __device__ float operator()(float x) const { return x * x; }
};
struct Smooth {
    float t;
    __device__ float operator()(float x) const { return lerp(x, 1.0f, t); }
};

// Implemented in filters.cu and stats.cu.
void runSquare(const float *dIn, float *dOut, int n);
void runSmooth(const float *dIn, float *dOut, int n, float t);
double deviceMean(const float *dIn, int n);
