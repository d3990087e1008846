// Several kernels on two streams with async copies, an event dependency between the streams,
// stream callbacks, and event timings that must be positive and ordered.
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void scale(float* v, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= s;
}

__global__ void add(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] += a[i];
}

static int callbacks = 0;
static void on_done(hipStream_t, hipError_t status, void* user) {
    if (status == hipSuccess) callbacks += *(int*)user;
}

int main() {
    const int n = 200;
    float *ha, *hb;
    CHECK(hipHostMalloc(&ha, n * sizeof(float), 0));
    CHECK(hipHostMalloc(&hb, n * sizeof(float), 0));
    for (int i = 0; i < n; i++) { ha[i] = i; hb[i] = 2 * i; }
    float *a, *b;
    CHECK(hipMalloc(&a, n * sizeof(float)));
    CHECK(hipMalloc(&b, n * sizeof(float)));
    hipStream_t s1, s2;
    CHECK(hipStreamCreate(&s1));
    CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
    int lo, hi;
    CHECK(hipDeviceGetStreamPriorityRange(&lo, &hi));
    hipStream_t s3;
    CHECK(hipStreamCreateWithPriority(&s3, 0, hi));
    int prio = 0;
    CHECK(hipStreamGetPriority(s3, &prio));
    hipEvent_t start, mid, stop, a_ready;
    CHECK(hipEventCreate(&start));
    CHECK(hipEventCreate(&mid));
    CHECK(hipEventCreate(&stop));
    CHECK(hipEventCreateWithFlags(&a_ready, hipEventDisableTiming));
    CHECK(hipEventRecord(start, s1));
    CHECK(hipMemcpyAsync(a, ha, n * sizeof(float), hipMemcpyHostToDevice, s1));
    scale<<<(n + 63) / 64, 64, 0, s1>>>(a, 3.0f, n);
    CHECK(hipEventRecord(a_ready, s1));
    CHECK(hipEventRecord(mid, s1));
    CHECK(hipMemcpyAsync(b, hb, n * sizeof(float), hipMemcpyHostToDevice, s2));
    CHECK(hipStreamWaitEvent(s2, a_ready, 0));
    add<<<(n + 63) / 64, 64, 0, s2>>>(a, b, n);
    CHECK(hipMemcpyAsync(hb, b, n * sizeof(float), hipMemcpyDeviceToHost, s2));
    int weight = 5;
    CHECK(hipStreamAddCallback(s2, on_done, &weight, 0));
    CHECK(hipEventRecord(stop, s2));
    CHECK(hipStreamSynchronize(s2));
    CHECK(hipEventSynchronize(stop));
    CHECK(hipStreamQuery(s1));
    CHECK(hipEventQuery(stop));
    float t_first = 0, t_all = 0;
    CHECK(hipEventElapsedTime(&t_first, start, mid));
    CHECK(hipEventElapsedTime(&t_all, start, stop));
    float dummy;
    hipError_t untimed = hipEventElapsedTime(&dummy, start, a_ready);
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) { bad += hb[i] != 5.0f * i; sum += hb[i]; }
    bad += !(t_first > 0 && t_all > t_first && t_all < 1000.0f);
    bad += untimed == hipSuccess;
    bad += callbacks != 5 || prio != hi || hi > lo;
    CHECK(hipStreamDestroy(s1));
    CHECK(hipStreamDestroy(s2));
    CHECK(hipStreamDestroy(s3));
    CHECK(hipEventDestroy(start));
    CHECK(hipHostFree(ha));
    CHECK(hipHostFree(hb));
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
