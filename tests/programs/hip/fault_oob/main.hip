// A kernel that stores far past the end of its buffer: the emulator stops it with a fault
// report and the program ends with exit status 134.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void overrun(int* p, long offset) { p[threadIdx.x + offset] = 1; }

int main() {
    int* p;
    if (hipMalloc(&p, 64 * sizeof(int)) != hipSuccess) return 1;
    printf("launching\n");
    overrun<<<1, 32>>>(p, 1L << 36);
    hipDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
