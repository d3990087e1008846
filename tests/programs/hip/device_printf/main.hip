// printf in a kernel: each of 4 threads prints a line with an int, a float and a string;
// the host checks the count through a device counter and prints its own lines around it.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void hello(int* count) {
    int i = threadIdx.x;
    printf("device thread %d value %.2f tag %s\n", i, i * 1.5f, "ok");
    atomicAdd(count, 1);
}

int main() {
    int* count;
    CHECK(hipMalloc(&count, sizeof(int)));
    CHECK(hipMemset(count, 0, sizeof(int)));
    printf("host before\n");
    hello<<<1, 4>>>(count);
    CHECK(hipDeviceSynchronize());
    printf("host after\n");
    int h = 0;
    CHECK(hipMemcpy(&h, count, sizeof h, hipMemcpyDeviceToHost));
    printf("checksum: %d\n", h);
    printf(h == 4 ? "PASS\n" : "FAIL\n");
    return h != 4;
}
