// __managed__ variables (registered by __hipRegisterManagedVar) and hipMallocManaged memory,
// written by kernels and read by the host directly, without copies.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__managed__ int total = 5;
__managed__ float scales[4] = {1, 2, 3, 4};

__global__ void accumulate(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = data[i] * 2 + (int)scales[i % 4];
        atomicAdd(&total, i);
    }
}

int main() {
    const int n = 100;
    int* data;
    CHECK(hipMallocManaged((void**)&data, n * sizeof(int), hipMemAttachGlobal));
    for (int i = 0; i < n; i++) data[i] = i;
    scales[3] = 10;
    accumulate<<<2, 64>>>(data, n);
    CHECK(hipDeviceSynchronize());
    int bad = total != 5 + n * (n - 1) / 2;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        bad += data[i] != 2 * i + (i % 4 == 3 ? 10 : i % 4 + 1);
        sum += data[i];
    }
    CHECK(hipFree(data));
    printf("checksum: %ld\n", sum + total);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
