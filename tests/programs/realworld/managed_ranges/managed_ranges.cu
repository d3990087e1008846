// Unified-memory hints read back: cudaMemAdvise (read-mostly, preferred location, accessed-by)
// and cudaMemPrefetchAsync over a managed buffer and its halves, then
// cudaMemRangeGetAttribute(s) over the whole buffer and each half, as CUDA answers them (a
// range's answer holds only where every byte of it agrees). A kernel uses the memory throughout.
#include <cstdio>
#include <cstdlib>
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

__global__ void bump(int *v, int n, int by)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v[i] += by;
}

static int attr(cudaMemRangeAttribute a, const void *p, size_t bytes)
{
    int value = 12345;
    CUDA_CHECK(cudaMemRangeGetAttribute(&value, sizeof value, a, p, bytes));
    return value;
}

int main()
{
    const size_t half = 2u << 20, bytes = 2 * half; // halves of 2 MB: whole pages of any size CUDA uses
    const int n = (int)(bytes / sizeof(int));
    int *m;
    CUDA_CHECK(cudaMallocManaged(&m, bytes));
    for (int i = 0; i < n; ++i)
        m[i] = i % 1000;
    char *lo = (char *)m, *hi = lo + half;
    cudaMemLocation dev0 = {}, host = {};
    dev0.type = cudaMemLocationTypeDevice;
    dev0.id = 0;
    host.type = cudaMemLocationTypeHost;

    printf("defaults: read-mostly %d, preferred %d, last prefetch %d\n",
           attr(cudaMemRangeAttributeReadMostly, m, bytes), attr(cudaMemRangeAttributePreferredLocation, m, bytes),
           attr(cudaMemRangeAttributeLastPrefetchLocation, m, bytes));

    CUDA_CHECK(cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, dev0));
    int whole1 = attr(cudaMemRangeAttributeReadMostly, m, bytes);
    CUDA_CHECK(cudaMemAdvise(hi, half, cudaMemAdviseUnsetReadMostly, dev0));
    printf("read-mostly: all %d, after unsetting the upper half: all %d, lower %d, upper %d\n", whole1,
           attr(cudaMemRangeAttributeReadMostly, m, bytes), attr(cudaMemRangeAttributeReadMostly, lo, half),
           attr(cudaMemRangeAttributeReadMostly, hi, half));

    CUDA_CHECK(cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, dev0));
    int pref1 = attr(cudaMemRangeAttributePreferredLocation, m, bytes);
    CUDA_CHECK(cudaMemAdvise(hi, half, cudaMemAdviseSetPreferredLocation, host));
    printf("preferred: all %d, after the upper half's went to the host: all %d, lower %d (type %d), upper %d "
           "(type %d)\n", pref1, attr(cudaMemRangeAttributePreferredLocation, m, bytes),
           attr(cudaMemRangeAttributePreferredLocation, lo, half),
           attr(cudaMemRangeAttributePreferredLocationType, lo, half),
           attr(cudaMemRangeAttributePreferredLocation, hi, half),
           attr(cudaMemRangeAttributePreferredLocationType, hi, half));
    CUDA_CHECK(cudaMemAdvise(m, bytes, cudaMemAdviseUnsetPreferredLocation, dev0));
    printf("preferred after unsetting: %d\n", attr(cudaMemRangeAttributePreferredLocation, m, bytes));

    CUDA_CHECK(cudaMemAdvise(lo, half, cudaMemAdviseSetAccessedBy, dev0));
    int by[3];
    CUDA_CHECK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, lo, half));
    printf("accessed by (lower half): %d %d %d\n", by[0], by[1], by[2]);
    CUDA_CHECK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, m, bytes));
    printf("accessed by (all): %d %d %d\n", by[0], by[1], by[2]);

    CUDA_CHECK(cudaMemPrefetchAsync(m, bytes, dev0, 0, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    int pf1 = attr(cudaMemRangeAttributeLastPrefetchLocation, m, bytes);
    bump<<<64, 256>>>(m, n, 5);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemPrefetchAsync(hi, half, host, 0, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("last prefetch: all %d, after the upper half went to the host: all %d, lower %d, upper %d\n", pf1,
           attr(cudaMemRangeAttributeLastPrefetchLocation, m, bytes),
           attr(cudaMemRangeAttributeLastPrefetchLocation, lo, half),
           attr(cudaMemRangeAttributeLastPrefetchLocation, hi, half));

    // Several at once.
    int readMostly = -9, preferred = -9;
    void *data[] = {&readMostly, &preferred};
    size_t sizes[] = {sizeof(int), sizeof(int)};
    cudaMemRangeAttribute which[] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation};
    CUDA_CHECK(cudaMemRangeGetAttributes(data, sizes, which, 2, lo, half));
    printf("several at once (lower half): read-mostly %d, preferred %d\n", readMostly, preferred);

    int *plain;
    CUDA_CHECK(cudaMalloc(&plain, 4096));
    int dummy;
    printf("device memory that is not managed: %s\n",
           cudaGetErrorName(cudaMemRangeGetAttribute(&dummy, sizeof dummy, cudaMemRangeAttributeReadMostly, plain,
                                                     4096)));
    cudaGetLastError();
    CUDA_CHECK(cudaFree(plain));

    int bad = 0;
    long long checksum = 0;
    for (int i = 0; i < n; ++i) {
        bad += m[i] != i % 1000 + 5;
        checksum = (checksum * 31 + m[i]) % 1000000007LL;
    }
    CUDA_CHECK(cudaFree(m));
    bad += whole1 != 1 || pref1 != 0 || pf1 != 0 || readMostly != 1;
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
