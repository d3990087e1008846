// Streams and events: pinned host memory, async copies and kernels on two non-blocking streams,
// a cross-stream dependency through cudaStreamWaitEvent, events (record, query, synchronize,
// elapsed time), and a host function in a stream.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int N = 256;

__global__ void add_scaled(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

__global__ void fill(float *y, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v + i;
}

static void CUDART_CB mark_done(void *flag) { *static_cast<int *>(flag) = 1; }

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("%s failed: %s\n", #call, cudaGetErrorString(e)); printf("FAIL\n"); return 1; } } while (0)

int main()
{
    float *h_x, *h_y, *d_x, *d_y;
    CHECK(cudaMallocHost(&h_x, N * sizeof(float)));
    CHECK(cudaHostAlloc(&h_y, N * sizeof(float), cudaHostAllocDefault));
    CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    for (int i = 0; i < N; i++) h_x[i] = (float)(i % 17);
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t start, x_ready, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreateWithFlags(&x_ready, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&stop));
    int host_flag = 0;

    CHECK(cudaEventRecord(start, a));
    CHECK(cudaMemcpyAsync(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice, a));
    CHECK(cudaEventRecord(x_ready, a));
    fill<<<N / 64, 64, 0, b>>>(d_y, 1.0f, N);               // independent of the copy
    CHECK(cudaStreamWaitEvent(b, x_ready, 0));               // y += 2x needs x
    add_scaled<<<N / 64, 64, 0, b>>>(d_y, d_x, 2.0f, N);
    CHECK(cudaLaunchHostFunc(b, mark_done, &host_flag));
    CHECK(cudaMemcpyAsync(h_y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost, b));
    CHECK(cudaEventRecord(stop, b));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventQuery(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    CHECK(cudaDeviceSynchronize());

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        float want_y = 1.0f + i + 2.0f * (i % 17);
        if (h_y[i] != want_y) {
            if (bad < 5) printf("mismatch %d: y %g (%g)\n", i, h_y[i], want_y);
            bad++;
        }
        checksum += h_y[i];
    }
    if (host_flag != 1 || !(ms >= 0)) {
        printf("host function ran: %d, elapsed %g ms\n", host_flag, ms);
        bad++;
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(x_ready));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFreeHost(h_x));
    CHECK(cudaFreeHost(h_y));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
