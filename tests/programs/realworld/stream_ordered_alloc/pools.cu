// Stream-ordered allocation as CUDA 11.2+ programs use it: the device says it supports memory pools,
// cudaMallocAsync/cudaFreeAsync on two streams from the default pool (its release threshold raised,
// as samples do to keep memory cached), cudaMallocFromPoolAsync from a pool the program creates,
// work ordered by events between the streams, and the pool trimmed and destroyed. Results are
// checked against the host; attribute values that depend on the driver's caching are not printed.
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            std::printf("%s failed: %s\n", #call, cudaGetErrorName(e_));             \
            std::printf("FAIL\n");                                                   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void fill(int *out, int n, int base)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = base + 3 * i;
}

__global__ void add(const int *a, const int *b, int *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a[i] + b[i];
}

int main()
{
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    std::printf("memory pools supported: %d\n", supported);
    if (!supported) {
        std::printf("FAIL\n");
        return 1;
    }
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    uint64_t read_back = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back));
    std::printf("release threshold reads back: %s\n", read_back == threshold ? "yes" : "no");

    const int n = 5000;
    cudaStream_t s1, s2;
    cudaEvent_t filled;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    long total = 0;
    bool good = true;
    std::vector<int> host(n);
    for (int round = 0; round < 3; ++round) {   // freed blocks are reused by the next round
        int *a, *b, *c;
        CHECK(cudaMallocAsync((void **)&a, n * sizeof(int), s1));
        CHECK(cudaMallocAsync((void **)&b, n * sizeof(int), s2));
        fill<<<8, 128, 0, s1>>>(a, n, round);
        fill<<<8, 128, 0, s2>>>(b, n, 1000 * round);
        CHECK(cudaEventRecord(filled, s2));
        CHECK(cudaStreamWaitEvent(s1, filled, 0));
        CHECK(cudaMallocAsync((void **)&c, n * sizeof(int), s1));
        add<<<8, 128, 0, s1>>>(a, b, c, n);
        CHECK(cudaFreeAsync(a, s1));
        CHECK(cudaFreeAsync(b, s1));     // freed on another stream than its allocation, ordered after add
        CHECK(cudaMemcpyAsync(host.data(), c, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
        CHECK(cudaFreeAsync(c, s1));
        CHECK(cudaStreamSynchronize(s1));
        long sum = 0;
        for (int i = 0; i < n; ++i) {
            sum += host[i];
            good &= host[i] == round + 1000 * round + 6 * i;
        }
        std::printf("round %d: sum %ld\n", round, sum);
        total += sum;
    }

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t own;
    CHECK(cudaMemPoolCreate(&own, &props));
    int *d;
    CHECK(cudaMallocFromPoolAsync((void **)&d, n * sizeof(int), own, s2));
    fill<<<4, 256, 0, s2>>>(d, n, 7);
    CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaFreeAsync(d, s2));
    CHECK(cudaStreamSynchronize(s2));
    long own_sum = 0;
    for (int i = 0; i < n; ++i) {
        own_sum += host[i];
        good &= host[i] == 7 + 3 * i;
    }
    std::printf("own pool: sum %ld\n", own_sum);
    CHECK(cudaMemPoolTrimTo(own, 0));
    CHECK(cudaMemPoolTrimTo(pool, 0));
    CHECK(cudaMemPoolDestroy(own));
    CHECK(cudaEventDestroy(filled));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    std::printf("total %ld\n", total + own_sum);
    std::printf(good ? "PASS\n" : "FAIL\n");
    return good ? 0 : 1;
}
