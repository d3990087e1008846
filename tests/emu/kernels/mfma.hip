// hipcc's MFMA builtins on gfx90a: one 16x16x4 f32 and one 16x16x16 f16 block per wave, each lane
// passing its elements in the matrix instruction layout (see tests/emu/test_mfma.py).
#include <hip/hip_runtime.h>

typedef float float4_ __attribute__((ext_vector_type(4)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));

__global__ void mfma_f32(float4_ *d, const float *a, const float *b, const float4_ *c) {
    int t = threadIdx.x;
    d[t] = __builtin_amdgcn_mfma_f32_16x16x4f32(a[t], b[t], c[t], 0, 0, 0);
}

__global__ void mfma_f16(float4_ *d, const half4 *a, const half4 *b, const float4_ *c) {
    int t = threadIdx.x;
    d[t] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t], b[t], c[t], 0, 0, 0);
}
