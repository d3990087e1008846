// Stream identity and attributes as programs tune streams: cudaStreamGetId and
// cudaStreamGetDevice, the L2 access policy window and the synchronization policy set, read back
// and copied to another stream (cudaStreamCopyAttributes), the priority read as an attribute; a
// new stream starts with the defaults whatever was set on a destroyed one. Work on the tuned
// streams still gives the right results.
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

__global__ void iota(int *v, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = base + i;
}

static bool sameWindow(const cudaAccessPolicyWindow &a, const cudaAccessPolicyWindow &b)
{
    return a.base_ptr == b.base_ptr && a.num_bytes == b.num_bytes && a.hitRatio == b.hitRatio &&
           a.hitProp == b.hitProp && a.missProp == b.missProp;
}

int main()
{
    int bad = 0;
    const int n = 256;
    int *dev;
    CUDA_CHECK(cudaMalloc(&dev, n * sizeof(int)));
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t a, b;
    CUDA_CHECK(cudaStreamCreateWithPriority(&a, cudaStreamNonBlocking, greatest));
    CUDA_CHECK(cudaStreamCreate(&b));

    unsigned long long idA, idA2, idB, idLegacy, idThread;
    CUDA_CHECK(cudaStreamGetId(a, &idA));
    CUDA_CHECK(cudaStreamGetId(a, &idA2));
    CUDA_CHECK(cudaStreamGetId(b, &idB));
    CUDA_CHECK(cudaStreamGetId(cudaStreamLegacy, &idLegacy));
    CUDA_CHECK(cudaStreamGetId(cudaStreamPerThread, &idThread));
    bool idsOk = idA == idA2 && idA != idB && idA != idLegacy && idB != idLegacy && idThread != idLegacy &&
                 idThread != idA && idThread != idB;
    printf("stream ids stable and distinct: %s\n", idsOk ? "yes" : "no");
    bad += !idsOk;
    int devA = -1, devLegacy = -1, current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    CUDA_CHECK(cudaStreamGetDevice(a, &devA));
    CUDA_CHECK(cudaStreamGetDevice(0, &devLegacy));
    printf("devices: stream %d, default stream %d (current %d)\n", devA, devLegacy, current);
    bad += devA != current || devLegacy != current;

    // The defaults.
    cudaStreamAttrValue v = {};
    CUDA_CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &v));
    printf("default synchronization policy: %d\n", (int)v.syncPolicy);
    v = {};
    CUDA_CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeAccessPolicyWindow, &v));
    printf("default access policy window: %zu bytes\n", v.accessPolicyWindow.num_bytes);
    v = {};
    CUDA_CHECK(cudaStreamGetAttribute(a, cudaStreamAttributePriority, &v));
    int priority;
    CUDA_CHECK(cudaStreamGetPriority(a, &priority));
    printf("priority as an attribute equals the stream's: %s\n", v.priority == priority ? "yes" : "no");
    bad += v.priority != priority;

    // Set on a, read back, copied to b.
    cudaAccessPolicyWindow window = {};
    window.base_ptr = dev;
    window.num_bytes = n * sizeof(int);
    window.hitRatio = 0.625f;
    window.hitProp = cudaAccessPropertyPersisting;
    window.missProp = cudaAccessPropertyStreaming;
    cudaStreamAttrValue set = {};
    set.accessPolicyWindow = window;
    CUDA_CHECK(cudaStreamSetAttribute(a, cudaStreamAttributeAccessPolicyWindow, &set));
    set = {};
    set.syncPolicy = cudaSyncPolicyBlockingSync;
    CUDA_CHECK(cudaStreamSetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &set));
    cudaStreamAttrValue gotWindow = {}, gotPolicy = {};
    CUDA_CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeAccessPolicyWindow, &gotWindow));
    CUDA_CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &gotPolicy));
    bool readBack = sameWindow(gotWindow.accessPolicyWindow, window) && gotPolicy.syncPolicy == cudaSyncPolicyBlockingSync;
    printf("set attributes read back: %s (hit ratio %.3f, policy %d)\n", readBack ? "yes" : "no",
           gotWindow.accessPolicyWindow.hitRatio, (int)gotPolicy.syncPolicy);
    bad += !readBack;
    CUDA_CHECK(cudaStreamCopyAttributes(b, a));
    gotWindow = {};
    gotPolicy = {};
    CUDA_CHECK(cudaStreamGetAttribute(b, cudaStreamAttributeAccessPolicyWindow, &gotWindow));
    CUDA_CHECK(cudaStreamGetAttribute(b, cudaStreamAttributeSynchronizationPolicy, &gotPolicy));
    bool copied = sameWindow(gotWindow.accessPolicyWindow, window) && gotPolicy.syncPolicy == cudaSyncPolicyBlockingSync;
    printf("copied to another stream: %s\n", copied ? "yes" : "no");
    bad += !copied;

    // Work on the tuned streams.
    int host[n];
    long long checksum = 0;
    iota<<<(n + 127) / 128, 128, 0, a>>>(dev, n, 1000);
    CUDA_CHECK(cudaMemcpyAsync(host, dev, sizeof host, cudaMemcpyDeviceToHost, a));
    CUDA_CHECK(cudaStreamSynchronize(a));
    for (int i = 0; i < n; ++i) {
        bad += host[i] != 1000 + i;
        checksum += host[i];
    }
    iota<<<(n + 127) / 128, 128, 0, b>>>(dev, n, -7);
    CUDA_CHECK(cudaMemcpyAsync(host, dev, sizeof host, cudaMemcpyDeviceToHost, b));
    CUDA_CHECK(cudaStreamSynchronize(b));
    for (int i = 0; i < n; ++i) {
        bad += host[i] != -7 + i;
        checksum = (checksum * 3 + host[i]) % 1000000007LL;
    }

    // A new stream after one is destroyed: a new id and the default attributes.
    CUDA_CHECK(cudaStreamDestroy(a));
    cudaStream_t c;
    CUDA_CHECK(cudaStreamCreate(&c));
    unsigned long long idC;
    CUDA_CHECK(cudaStreamGetId(c, &idC));
    cudaStreamAttrValue fresh = {};
    CUDA_CHECK(cudaStreamGetAttribute(c, cudaStreamAttributeSynchronizationPolicy, &fresh));
    cudaStreamAttrValue freshWindow = {};
    CUDA_CHECK(cudaStreamGetAttribute(c, cudaStreamAttributeAccessPolicyWindow, &freshWindow));
    printf("new stream: id new %s, policy %d, window %zu bytes\n", idC != idA && idC != idB ? "yes" : "no",
           (int)fresh.syncPolicy, freshWindow.accessPolicyWindow.num_bytes);
    bad += idC == idA || idC == idB || freshWindow.accessPolicyWindow.num_bytes != 0;

    CUDA_CHECK(cudaStreamDestroy(b));
    CUDA_CHECK(cudaStreamDestroy(c));
    CUDA_CHECK(cudaFree(dev));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
