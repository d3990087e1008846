// Every way to launch a kernel by its host address: hipLaunchKernel with an argument array,
// hipExtLaunchKernel with start/stop events, hipLaunchCooperativeKernel, and the old
// hipConfigureCall/hipSetupArgument/hipLaunchByPtr sequence.
#include <hip/hip_runtime.h>
#include <hip/hip_ext.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void add_value(int* v, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += value;
}

int main() {
    const int n = 96;
    int* v;
    CHECK(hipMalloc(&v, n * sizeof(int)));
    CHECK(hipMemset(v, 0, n * sizeof(int)));
    const void* kernel = reinterpret_cast<const void*>(add_value);

    int value = 1, count = n;
    void* args[] = {&v, &value, &count};
    CHECK(hipLaunchKernel(kernel, dim3(2), dim3(64), args, 0, 0));

    hipEvent_t start, stop;
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&stop));
    value = 10;
    CHECK(hipExtLaunchKernel(kernel, dim3(2), dim3(64), args, 0, 0, start, stop, 0));
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, start, stop));

    value = 100;
    CHECK(hipLaunchCooperativeKernel(kernel, dim3(2), dim3(64), args, 0, 0));

    struct { int* v; int value; int n; } packed = {v, 1000, n};
    CHECK(hipConfigureCall(dim3(3), dim3(32), 0, 0));
    CHECK(hipSetupArgument(&packed.v, sizeof packed.v, 0));
    CHECK(hipSetupArgument(&packed.value, sizeof packed.value, 8));
    CHECK(hipSetupArgument(&packed.n, sizeof packed.n, 12));
    CHECK(hipLaunchByPtr(kernel));

    int bad = hipLaunchKernel(reinterpret_cast<const void*>(&main), dim3(1), dim3(1), args, 0, 0)
              != hipErrorInvalidDeviceFunction;
    hipGetLastError();
    bad += hipLaunchKernel(kernel, dim3(1), dim3(2048), args, 0, 0) == hipSuccess;
    hipGetLastError();

    int h[n];
    CHECK(hipMemcpy(h, v, sizeof h, hipMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++) { bad += h[i] != 1111; sum += h[i]; }
    bad += !(ms > 0);
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
