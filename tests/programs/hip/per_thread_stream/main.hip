// Built with -fgpu-default-stream=per-thread (flags.txt): the runtime calls become the *_spt
// variants (hipLaunchKernel_spt, hipMemcpy_spt, hipMemset_spt, hipStreamSynchronize_spt...).
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__constant__ int offset;

__global__ void shift(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += offset + i;
}

int main() {
    const int n = 100;
    int h[n], *d, k = 3;
    CHECK(hipMalloc(&d, sizeof h));
    CHECK(hipMemset(d, 0, sizeof h));
    CHECK(hipMemcpyToSymbol(HIP_SYMBOL(offset), &k, sizeof k));
    shift<<<2, 64>>>(d, n);
    CHECK(hipStreamSynchronize(0));
    CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    int bad = 0;
    long sum = 0;
    for (int i = 0; i < n; i++) { bad += h[i] != 3 + i; sum += h[i]; }
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
