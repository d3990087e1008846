// A kernel with an image instruction on a null resource descriptor (no texture bound: FORMAT 0,
// which the emulator does not read): the emulator names the instruction and the program ends
// with exit status 134.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void sample(float* out) {
    float v;
    asm volatile("image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D\n"
                 "s_waitcnt vmcnt(0)\n"
                 "v_mov_b32 %0, v0" : "=v"(v) : : "v0", "v1", "v2", "v3");
    out[threadIdx.x] = v;
}

int main() {
    float* out;
    if (hipMalloc(&out, 32 * sizeof(float)) != hipSuccess) return 1;
    printf("launching\n");
    sample<<<1, 32>>>(out);
    hipDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
