// Stream capture into a graph: a fill, two kernels, a device copy and a host callback are
// captured (not run), then the instantiated graph is launched three times.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void add_index(int* v, int scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += scale * i;
}

__global__ void accumulate(int* acc, const int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) acc[i] += v[i];
}

static int replays = 0;
static void count_replay(hipStream_t, hipError_t, void*) { replays++; }

int main() {
    const int n = 128;
    int *v, *copy, *acc;
    CHECK(hipMalloc(&v, n * sizeof(int)));
    CHECK(hipMalloc(&copy, n * sizeof(int)));
    CHECK(hipMalloc(&acc, n * sizeof(int)));
    CHECK(hipMemset(acc, 0, n * sizeof(int)));
    hipStream_t s;
    CHECK(hipStreamCreate(&s));
    int bad = hipStreamBeginCapture(0, hipStreamCaptureModeGlobal) == hipSuccess;
    hipGetLastError();

    hipStreamCaptureStatus status;
    CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    CHECK(hipStreamIsCapturing(s, &status));
    bad += status != hipStreamCaptureStatusActive;
    CHECK(hipMemsetAsync(v, 0, n * sizeof(int), s));
    add_index<<<2, 64, 0, s>>>(v, 2, n);
    CHECK(hipMemcpyAsync(copy, v, n * sizeof(int), hipMemcpyDeviceToDevice, s));
    accumulate<<<2, 64, 0, s>>>(acc, copy, n);
    CHECK(hipStreamAddCallback(s, count_replay, nullptr, 0));
    hipGraph_t graph;
    CHECK(hipStreamEndCapture(s, &graph));
    CHECK(hipStreamIsCapturing(s, &status));
    bad += status != hipStreamCaptureStatusNone;

    int h[n];
    CHECK(hipMemcpy(h, acc, sizeof h, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) bad += h[i] != 0;  // captured, not run
    bad += replays != 0;

    size_t nodes = 0;
    CHECK(hipGraphGetNodes(graph, nullptr, &nodes));
    bad += nodes != 5;
    hipGraphExec_t exec;
    CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    for (int k = 0; k < 3; k++) CHECK(hipGraphLaunch(exec, s));
    CHECK(hipStreamSynchronize(s));
    CHECK(hipMemcpy(h, acc, sizeof h, hipMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++) { bad += h[i] != 3 * 2 * i; sum += h[i]; }
    bad += replays != 3;
    CHECK(hipGraphExecDestroy(exec));
    CHECK(hipGraphDestroy(graph));
    CHECK(hipStreamDestroy(s));
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
