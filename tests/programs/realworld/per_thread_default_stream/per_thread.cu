// Built with -default-stream per-thread: CUDA's headers rename the runtime's stream-ordered calls
// to their per-thread default stream forms (cudaMemcpy_ptds, cudaGraphLaunch_ptsz, ...), and
// stream 0 means the calling thread's own stream. Covers the forms programs use besides plain
// copies and launches: array copies (2D, linear, array to array, 3D peer, sync and async),
// graph capture and launch, cudaLaunchKernelEx, stream-ordered allocation from a pool, event
// records with flags, managed memory attach and prefetch; and a second host thread with its own
// default stream.
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(err__));                                             \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__global__ void affine(int *v, int n, int scale, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * scale + offset;
}

static int bad = 0;
static long long checksum = 0;

static void expect(const char *what, const int *got, const int *want, int n)
{
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        wrong += got[i] != want[i];
        checksum = checksum * 31 + got[i];
        checksum %= 1000000007LL;
    }
    printf("%s: %s\n", what, wrong ? "wrong" : "ok");
    bad += wrong != 0;
}

// Arrays: a W x H int array filled row by row, a block copied inside it and to a second array,
// read back 2D and linearly.
static void arrays()
{
    const int W = 16, H = 8;
    int host[H][W], back[H][W], want[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            host[y][x] = want[y][x] = y * 100 + x;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    cudaArray_t a, b;
    CUDA_CHECK(cudaMallocArray(&a, &desc, W, H));
    CUDA_CHECK(cudaMallocArray(&b, &desc, W, H));
    // Rows 0-3 synchronously, rows 4-7 on the thread's stream.
    CUDA_CHECK(cudaMemcpy2DToArray(a, 0, 0, host, W * sizeof(int), W * sizeof(int), 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(a, 0, 4, host[4], W * sizeof(int), W * sizeof(int), 4,
                                        cudaMemcpyHostToDevice, 0));
    CUDA_CHECK(cudaMemcpy2DFromArray(back, W * sizeof(int), a, 0, 0, W * sizeof(int), H, cudaMemcpyDeviceToHost));
    expect("2D to array and back", &back[0][0], &want[0][0], W * H);

    // Linear: row 2 from column 4 on, 20 ints (running into row 3), overwritten with negatives.
    int run[20], *wantFlat = &want[0][0];
    for (int i = 0; i < 20; ++i)
        run[i] = wantFlat[2 * W + 4 + i] = -(i + 1);
    CUDA_CHECK(cudaMemcpyToArray(a, 4 * sizeof(int), 2, run, sizeof run, cudaMemcpyHostToDevice));
    int runBack[20];
    CUDA_CHECK(cudaMemcpyFromArray(runBack, a, 4 * sizeof(int), 2, sizeof runBack, cudaMemcpyDeviceToHost));
    expect("linear to array and back", runBack, run, 20);
    CUDA_CHECK(cudaMemcpyToArrayAsync(a, 0, 7, run, 8 * sizeof(int), cudaMemcpyHostToDevice, 0));
    for (int i = 0; i < 8; ++i)
        want[7][i] = run[i];
    int lastRow[W];
    CUDA_CHECK(cudaMemcpyFromArrayAsync(lastRow, a, 0, 7, sizeof lastRow, cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
    expect("linear asynchronous", lastRow, want[7], W);

    // Array to array: all of a into b, then a 5 x 3 block of a at (2, 1) onto b at (9, 4).
    CUDA_CHECK(cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, W * H * sizeof(int), cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy2DArrayToArray(b, 9 * sizeof(int), 4, a, 2 * sizeof(int), 1, 5 * sizeof(int), 3,
                                        cudaMemcpyDeviceToDevice));
    int wantB[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            wantB[y][x] = want[y][x];
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x)
            wantB[4 + y][9 + x] = want[1 + y][2 + x];
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(back, W * sizeof(int), b, 0, 0, W * sizeof(int), H,
                                          cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
    expect("array to array", &back[0][0], &wantB[0][0], W * H);

    // cudaMemcpy3DPeer (device 0 to device 0): array b's rows 2-5 into pitched device memory.
    int *pitchedRows;
    size_t rowPitch;
    CUDA_CHECK(cudaMallocPitch(&pitchedRows, &rowPitch, W * sizeof(int), 4));
    cudaMemcpy3DPeerParms peer = {};
    peer.srcArray = b;
    peer.srcPos = make_cudaPos(0, 2, 0);
    peer.srcDevice = 0;
    peer.dstPtr = make_cudaPitchedPtr(pitchedRows, rowPitch, W, 4);
    peer.dstDevice = 0;
    peer.extent = make_cudaExtent(W, 4, 1);
    CUDA_CHECK(cudaMemcpy3DPeer(&peer));
    int peerRows[4][W];
    CUDA_CHECK(cudaMemcpy2D(peerRows, W * sizeof(int), pitchedRows, rowPitch, W * sizeof(int), 4,
                            cudaMemcpyDeviceToHost));
    expect("3D peer copy", &peerRows[0][0], &wantB[2][0], 4 * W);
    CUDA_CHECK(cudaFree(pitchedRows));

    // A block that does not fit: refused, the array unchanged.
    cudaError_t e = cudaMemcpy2DToArray(a, 12 * sizeof(int), 0, host, W * sizeof(int), 8 * sizeof(int), 1,
                                        cudaMemcpyHostToDevice);
    printf("2D copy past the array's width: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CUDA_CHECK(cudaFreeArray(a));
    CUDA_CHECK(cudaFreeArray(b));
}

// A graph captured from a stream of its own, launched on the thread's stream twice.
static void graphs(int *dev, int n)
{
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaStreamCaptureStatus status;
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    CUDA_CHECK(cudaStreamIsCapturing(s, &status));
    unsigned long long id = 0;
    cudaStreamCaptureStatus infoStatus;
    CUDA_CHECK(cudaStreamGetCaptureInfo(s, &infoStatus, &id));
    printf("capturing: %d, capture info: %d, id %s\n", (int)status, (int)infoStatus, id ? "set" : "0");
    affine<<<(n + 63) / 64, 64, 0, s>>>(dev, n, 2, 1);
    affine<<<(n + 63) / 64, 64, 0, s>>>(dev, n, 1, -3);
    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    CUDA_CHECK(cudaStreamIsCapturing(s, &status));
    printf("capturing after the end: %d\n", (int)status);
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphLaunch(exec, 0));
    CUDA_CHECK(cudaGraphLaunch(exec, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(s));
}

// What a second host thread does on its own default stream: a copy in, a kernel, a copy out.
static void worker(int *result)
{
    int host[32], *dev;
    for (int i = 0; i < 32; ++i)
        host[i] = i;
    CUDA_CHECK(cudaMalloc(&dev, sizeof host));
    CUDA_CHECK(cudaMemcpyAsync(dev, host, sizeof host, cudaMemcpyHostToDevice, 0));
    affine<<<1, 32>>>(dev, 32, 5, 7);
    CUDA_CHECK(cudaMemcpy(result, dev, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dev));
}

int main()
{
    const int n = 300;
    int host[n], want[n];
    for (int i = 0; i < n; ++i)
        host[i] = want[i] = i - 150;

    // Stream-ordered allocation from the device's default pool, on the thread's stream.
    cudaMemPool_t pool;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    int *dev;
    CUDA_CHECK(cudaMallocFromPoolAsync((void **)&dev, n * sizeof(int), pool, 0));
    CUDA_CHECK(cudaMemcpyAsync(dev, host, sizeof host, cudaMemcpyHostToDevice, 0));

    // cudaLaunchKernelEx on stream 0 (the thread's), between two recorded events.
    cudaEvent_t before, after;
    CUDA_CHECK(cudaEventCreate(&before));
    CUDA_CHECK(cudaEventCreate(&after));
    CUDA_CHECK(cudaEventRecordWithFlags(before, 0, cudaEventRecordDefault));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 127) / 128);
    config.blockDim = dim3(128);
    config.stream = 0;
    CUDA_CHECK(cudaLaunchKernelEx(&config, affine, dev, n, 3, 2));
    CUDA_CHECK(cudaEventRecordWithFlags(after, 0, cudaEventRecordDefault));
    CUDA_CHECK(cudaEventSynchronize(after));
    printf("event after the launch: %s\n", cudaGetErrorName(cudaEventQuery(after)));
    for (int i = 0; i < n; ++i)
        want[i] = want[i] * 3 + 2;

    graphs(dev, n);
    for (int i = 0; i < n; ++i)
        want[i] = ((want[i] * 2 + 1) - 3) * 2 + 1 - 3;
    CUDA_CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    expect("launch, then a graph twice", host, want, n);
    CUDA_CHECK(cudaFreeAsync(dev, 0));

    // Managed memory attached to and prefetched on the thread's stream, then used by a kernel.
    int *managed;
    CUDA_CHECK(cudaMallocManaged(&managed, 64 * sizeof(int)));
    for (int i = 0; i < 64; ++i)
        managed[i] = i;
    CUDA_CHECK(cudaStreamAttachMemAsync(0, managed, 0, cudaMemAttachGlobal));
    cudaMemLocation device = {};
    device.type = cudaMemLocationTypeDevice;
    device.id = 0;
    CUDA_CHECK(cudaMemPrefetchAsync(managed, 64 * sizeof(int), device, 0, 0));
    affine<<<1, 64>>>(managed, 64, -1, 10);
    CUDA_CHECK(cudaStreamSynchronize(0));
    int wantManaged[64];
    for (int i = 0; i < 64; ++i)
        wantManaged[i] = 10 - i;
    expect("managed memory", managed, wantManaged, 64);
    CUDA_CHECK(cudaFree(managed));

    arrays();

    int fromThread[32], wantThread[32];
    std::thread t(worker, fromThread);
    t.join();
    for (int i = 0; i < 32; ++i)
        wantThread[i] = i * 5 + 7;
    expect("second host thread", fromThread, wantThread, 32);

    CUDA_CHECK(cudaEventDestroy(before));
    CUDA_CHECK(cudaEventDestroy(after));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
