// A kernel that spins forever on a flag nobody sets, counting: its state never repeats, so the
// hang detector stops it only after CASS_EMU_HANG_INSTRUCTIONS of every wave; --emu-budget sooner.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void spin(volatile int* flag, int* out) {
    int n = 0;
    while (*flag == 0) n++;
    out[threadIdx.x] = n;
}

int main() {
    int *flag, *out;
    if (hipMalloc(&flag, sizeof(int)) != hipSuccess || hipMalloc(&out, 64 * sizeof(int)) != hipSuccess) return 1;
    hipMemset(flag, 0, sizeof(int));
    printf("launching\n");
    spin<<<1, 32>>>(flag, out);
    hipDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
