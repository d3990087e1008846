// Threads 30 and 31 read and write two ints past the end of 30-int allocations: inside the
// allocations' pages, so a GPU does not fault. The reads see the padding's zeros, the writes land
// in the padding, and the neighbouring allocation keeps its values. The emulator warns once per
// instruction and counts at exit; with --strict the first such access is a fault (exit 134).
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void add_one(const int* in, int* out) {
    int i = threadIdx.x;
    out[i] = in[i] + 1;
}

int main() {
    const int n = 30;
    int host_in[n], host_out[n], host_next[n];
    for (int i = 0; i < n; i++) host_in[i] = 3 * i;
    int *in, *out, *next;
    if (hipMalloc(&in, n * sizeof(int)) != hipSuccess || hipMalloc(&out, n * sizeof(int)) != hipSuccess ||
        hipMalloc(&next, n * sizeof(int)) != hipSuccess) return 1;
    hipMemcpy(in, host_in, sizeof host_in, hipMemcpyHostToDevice);
    hipMemset(next, 7, n * sizeof(int));
    for (int launch = 0; launch < 2; launch++) add_one<<<1, 32>>>(in, out);
    hipMemcpy(host_out, out, sizeof host_out, hipMemcpyDeviceToHost);
    hipMemcpy(host_next, next, sizeof host_next, hipMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && host_out[i] == 3 * i + 1 && host_next[i] == 0x07070707;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
