// Streams, events, copies, sets, launches, host functions and stream callbacks on the per-thread
// default stream, in a program built by plain nvcc with --default-stream per-thread: NVIDIA's
// static runtime then asks the driver for the _ptsz/_ptds forms of its calls (cuLaunchKernel_ptsz,
// cuEventRecord_ptsz, cuLaunchHostFunc_ptsz, cuMemAllocAsync_ptsz, ...). Two host threads run the
// same pipeline at once, each on its own default stream. The driver API is called directly too,
// with cuda.h's per-thread names. Every result is compared with a host model; the last line is
// PASS or FAIL.
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "build with nvcc --default-stream per-thread"
#endif
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

static const int N = 4096, BLOCK = 256, GRID = N / BLOCK;
static const size_t BYTES = N * sizeof(unsigned);

#define RT(call)                                                                             \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            printf("%s: %s\nFAIL\n", #call, cudaGetErrorName(e_));                           \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

#define CU(call)                                                                             \
    do {                                                                                     \
        CUresult e_ = (call);                                                                \
        if (e_ != CUDA_SUCCESS) {                                                            \
            const char *name_ = "?";                                                         \
            cuGetErrorName(e_, &name_);                                                      \
            printf("%s: %s\nFAIL\n", #call, name_);                                          \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

__global__ void affine(unsigned *d, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = d[i] * mul + add;
}

static void model_affine(std::vector<unsigned> &h, unsigned mul, unsigned add)
{
    for (unsigned &v : h)
        v = v * mul + add;
}

static uint64_t fnv(const unsigned *p, int n)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n * sizeof(unsigned); i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

// What the host functions of one stream saw, in the order they ran.
struct Log {
    const unsigned *probe;      // pinned memory a copy before the host function wrote
    unsigned seen[4];
    int count;
};

static void note(void *data)
{
    Log *log = (Log *)data;
    if (log->count < 4)
        log->seen[log->count] = log->probe[0];
    log->count++;
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *data)
{
    if (status == cudaSuccess)
        note(data);
}

static void CUDA_CB driver_callback(CUstream, CUresult status, void *data)
{
    if (status == CUDA_SUCCESS)
        note(data);
}

struct Outcome {
    uint64_t pipeline, managed;
    int ok;
    Log log;
};

// The runtime API on this thread's default stream (stream 0 = per-thread) and one created stream.
static void pipeline(unsigned seed, Outcome *out)
{
    std::vector<unsigned> model(N);
    unsigned *host, *probe;
    RT(cudaMallocHost(&host, BYTES));
    RT(cudaMallocHost(&probe, sizeof(unsigned)));
    for (int i = 0; i < N; i++)
        host[i] = model[i] = i * 7u + seed;
    cudaStream_t side;
    cudaEvent_t e1, e2;
    RT(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    RT(cudaEventCreate(&e1));
    RT(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));

    unsigned *d, *d2, *d3;
    RT(cudaMallocAsync(&d, BYTES, 0));
    RT(cudaMallocAsync(&d2, BYTES, 0));
    RT(cudaMalloc(&d3, BYTES));
    RT(cudaMemsetAsync(d, 0xff, BYTES, 0));
    RT(cudaMemcpyAsync(d, host, BYTES, cudaMemcpyHostToDevice, 0));
    affine<<<GRID, BLOCK>>>(d, N, 3, 1);
    RT(cudaGetLastError());
    model_affine(model, 3, 1);
    // the side stream (non-blocking: ordered only by the events) continues the work
    RT(cudaEventRecord(e1, 0));
    RT(cudaStreamWaitEvent(side, e1, 0));
    affine<<<GRID, BLOCK, 0, side>>>(d, N, 2, seed);
    model_affine(model, 2, seed);
    RT(cudaEventRecordWithFlags(e2, side, cudaEventRecordDefault));
    RT(cudaStreamWaitEvent(0, e2, 0));
    // host functions see the copies before them
    out->log = Log{probe, {0, 0, 0, 0}, 0};
    RT(cudaMemcpyAsync(probe, d + 5, sizeof(unsigned), cudaMemcpyDeviceToHost, 0));
    RT(cudaLaunchHostFunc(0, note, &out->log));
    unsigned expect_first = model[5];
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(GRID);
    config.blockDim = dim3(BLOCK);
    config.stream = 0;
    RT(cudaLaunchKernelEx(&config, affine, d, N, 5u, 11u));
    model_affine(model, 5, 11);
    int n = N;
    unsigned mul = 9, add = seed * 3;
    void *args[] = {&d, &n, &mul, &add};
    RT(cudaLaunchCooperativeKernel((const void *)affine, dim3(GRID), dim3(BLOCK), args, 0, 0));
    model_affine(model, 9, seed * 3);
    RT(cudaMemcpyAsync(probe, d + 5, sizeof(unsigned), cudaMemcpyDeviceToHost, 0));
    RT(cudaStreamAddCallback(0, callback, &out->log, 0));
    unsigned expect_second = model[5];
    RT(cudaMemcpyPeerAsync(d2, 0, d, 0, BYTES, 0));
    RT(cudaMemcpyPeer(d3, 0, d2, 0, BYTES));
    RT(cudaMemsetAsync(d2, 0, BYTES, 0));
    RT(cudaMemcpyAsync(host, d3, BYTES, cudaMemcpyDeviceToHost, 0));
    RT(cudaFreeAsync(d, 0));
    RT(cudaFreeAsync(d2, 0));
    RT(cudaStreamSynchronize(0));
    RT(cudaStreamQuery(0));
    RT(cudaEventSynchronize(e2));
    int ok = out->log.count == 2 && out->log.seen[0] == expect_first && out->log.seen[1] == expect_second;
    for (int i = 0; i < N; i++)
        ok &= host[i] == model[i];
    out->pipeline = fnv(host, N);

    // managed memory attached to and prefetched on the thread's stream
    unsigned *m;
    RT(cudaMallocManaged(&m, BYTES, cudaMemAttachGlobal));
    for (int i = 0; i < N; i++)
        m[i] = model[i] = i ^ seed;
    RT(cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachGlobal));
    cudaMemLocation device0 = {};
    device0.type = cudaMemLocationTypeDevice;
    device0.id = 0;
    RT(cudaMemPrefetchAsync(m, BYTES, device0, 0, 0));
    affine<<<GRID, BLOCK>>>(m, N, 7, 2);
    model_affine(model, 7, 2);
    RT(cudaStreamSynchronize(0));
    for (int i = 0; i < N; i++)
        ok &= m[i] == model[i];
    out->managed = fnv(m, N);
    out->ok = ok;

    RT(cudaFree(m));
    RT(cudaFree(d3));
    RT(cudaEventDestroy(e1));
    RT(cudaEventDestroy(e2));
    RT(cudaStreamDestroy(side));
    RT(cudaFreeHost(host));
    RT(cudaFreeHost(probe));
}

// The driver API's per-thread forms, called directly (cuda.h renames them: cuMemAllocAsync is
// cuMemAllocAsync_ptsz, cuMemcpyPeer is cuMemcpyPeer_ptds, ...), with stream 0 the thread's.
static int driver_calls(uint64_t *checksum)
{
    CUcontext ctx;
    CU(cuCtxGetCurrent(&ctx));
    CUstream side;
    CU(cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
    unsigned flags = 99;
    CU(cuStreamGetFlags(side, &flags));
    int priority = 99;
    CU(cuStreamGetPriority(0, &priority));
    printf("driver: created stream flags %u, default stream priority %d\n", flags, priority);
    CUevent ev, ev2;
    CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CU(cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING));

    std::vector<unsigned> model(N, 0x01020304u);
    unsigned *host, *probe;
    RT(cudaMallocHost(&host, BYTES));
    RT(cudaMallocHost(&probe, sizeof(unsigned)));
    CUdeviceptr p, q, r;
    CU(cuMemAllocAsync(&p, BYTES, 0));
    CU(cuMemAllocAsync(&q, BYTES, 0));
    CU(cuMemAlloc(&r, BYTES));
    CU(cuMemsetD32Async(p, 0x01020304u, N, 0));
    CU(cuEventRecord(ev, 0));
    CU(cuStreamWaitEvent(side, ev, 0));
    CU(cuMemsetD16Async(p + 64, 0xbeef, 32, side));  // bytes 64..127
    for (int i = 16; i < 32; i++)
        model[i] = 0xbeefbeefu;
    CU(cuEventRecordWithFlags(ev2, side, CU_EVENT_RECORD_DEFAULT));
    CU(cuStreamWaitEvent(0, ev2, 0));
    CU(cuMemcpyPeerAsync(q, ctx, p, ctx, BYTES, 0));
    CU(cuMemcpyDtoHAsync(probe, q + 20 * sizeof(unsigned), sizeof(unsigned), 0));
    Log log = {probe, {0, 0, 0, 0}, 0};
    CU(cuLaunchHostFunc(0, note, &log));
    CU(cuMemsetD8Async(q + 20 * sizeof(unsigned), 0x5a, 4, 0));
    model[20] = 0x5a5a5a5au;
    CU(cuMemcpyDtoHAsync(probe, q + 20 * sizeof(unsigned), sizeof(unsigned), 0));
    CU(cuStreamAddCallback(0, driver_callback, &log, 0));
    CU(cuMemcpyPeer(r, ctx, q, ctx, BYTES));
    CU(cuMemcpyDtoHAsync(host, r, BYTES, 0));
    CU(cuMemFreeAsync(p, 0));
    CU(cuMemFreeAsync(q, 0));
    CU(cuStreamSynchronize(0));
    CU(cuStreamQuery(0));
    int ok = log.count == 2 && log.seen[0] == 0xbeefbeefu && log.seen[1] == 0x5a5a5a5au;
    for (int i = 0; i < N; i++)
        ok &= host[i] == model[i];
    *checksum = fnv(host, N);

    CUdeviceptr m;
    CU(cuMemAllocManaged(&m, BYTES, CU_MEM_ATTACH_GLOBAL));
    CU(cuStreamAttachMemAsync(0, m, 0, CU_MEM_ATTACH_GLOBAL));
    CUmemLocation device0 = {};
    device0.type = CU_MEM_LOCATION_TYPE_DEVICE;
    device0.id = 0;
    CU(cuMemPrefetchAsync(m, BYTES, device0, 0, 0));
    CU(cuMemsetD32Async(m, 77, N, 0));
    CU(cuStreamSynchronize(0));
    for (int i = 0; i < N; i++)
        ok &= ((unsigned *)m)[i] == 77;

    CU(cuMemFree(m));
    CU(cuMemFree(r));
    CU(cuEventDestroy(ev));
    CU(cuEventDestroy(ev2));
    CU(cuStreamDestroy(side));
    RT(cudaFreeHost(host));
    RT(cudaFreeHost(probe));
    return ok;
}

int main()
{
    RT(cudaSetDevice(0));
    Outcome outcomes[2];
    std::thread other(pipeline, 2u, &outcomes[1]);
    pipeline(1u, &outcomes[0]);
    other.join();
    int ok = 1;
    for (int t = 0; t < 2; t++) {
        const Outcome &o = outcomes[t];
        printf("thread %d: pipeline %016llx, managed %016llx, host functions %d, %s\n", t,
               (unsigned long long)o.pipeline, (unsigned long long)o.managed, o.log.count,
               o.ok ? "as modelled" : "DIFFERENT");
        ok &= o.ok;
    }
    uint64_t checksum = 0;
    int driver_ok = driver_calls(&checksum);
    printf("driver: copies %016llx, %s\n", (unsigned long long)checksum, driver_ok ? "as modelled" : "DIFFERENT");
    ok &= driver_ok;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
