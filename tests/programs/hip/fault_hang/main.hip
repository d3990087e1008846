// A barrier across blocks that waits for one block more than the grid has: thread 0 of each
// block spins on an atomic add of 0 (which changes nothing) while the block's other waves wait
// at __syncthreads. The emulator finds that nothing can change and reports a hang (exit 134).
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void wait_for_all(unsigned* arrived) {
    if (threadIdx.x == 0) {
        atomicAdd(arrived, 1u);
        while (atomicAdd(arrived, 0u) < gridDim.x + 1) {
        }
    }
    __syncthreads();
}

int main() {
    unsigned* arrived;
    if (hipMalloc(&arrived, sizeof(unsigned)) != hipSuccess) return 1;
    hipMemset(arrived, 0, sizeof(unsigned));
    printf("launching\n");
    wait_for_all<<<4, 128>>>(arrived);
    hipDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
