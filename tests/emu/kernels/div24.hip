// 24-bit integer division and remainder, which LLVM computes through f32 (v_rcp_iflag_f32, then an
// unfused v_mad_f32 on gfx90a, v_fma_f32 on gfx1030): exact integer results from float arithmetic.
#include <hip/hip_runtime.h>
__global__ void div24(unsigned *out, const unsigned *a, const unsigned *b) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned x = a[i] & 0xFFFFF, y = (b[i] & 0xFFF) + 1;
    int s = (int)(a[i] & 0x7FFFF) - 0x40000, t = (int)(b[i] & 0x7FF) - 0x400;
    out[i] = (x / y) ^ ((x % y) << 20) ^ (unsigned)(s / (t | 1)) * 7u;
}
