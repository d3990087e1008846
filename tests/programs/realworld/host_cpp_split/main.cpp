// Host code in a .cpp file: only the CUDA runtime API (cuda_runtime.h), no kernels; registered
// (pinned after the fact) host memory with cudaHostRegister, stream callbacks with
// cudaLaunchHostFunc, device attributes.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "launch.h"

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err__));                                        \
            std::printf("FAIL\n");                                                          \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

static void CUDART_CB markDone(void *flag) { *static_cast<int *>(flag) = 1; }

int main()
{
    int major = 0, minor = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    std::fprintf(stderr, "compute capability %d.%d\n", major, minor);

    const int n = 1000, blocks = 4;
    std::vector<double> a(n), b(n), c(n), partial(blocks);
    for (int i = 0; i < n; ++i) {
        a[i] = (i % 17) * 0.25;
        b[i] = (i % 5) - 2.0;
    }
    CUDA_CHECK(cudaHostRegister(a.data(), n * sizeof(double), cudaHostRegisterDefault));
    CUDA_CHECK(cudaHostRegister(c.data(), n * sizeof(double), cudaHostRegisterDefault));
    double *dA, *dB, *dC, *dP;
    CUDA_CHECK(cudaMalloc(&dA, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dB, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dC, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dP, blocks * sizeof(double)));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMemcpyAsync(dA, a.data(), n * sizeof(double), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(dB, b.data(), n * sizeof(double), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(launchAddScaled(dA, dB, dC, 0.5, n, stream));
    CUDA_CHECK(launchDotPartial(dA, dB, dP, blocks, n, stream));
    CUDA_CHECK(cudaMemcpyAsync(c.data(), dC, n * sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(partial.data(), dP, blocks * sizeof(double), cudaMemcpyDeviceToHost, stream));
    int done = 0;
    CUDA_CHECK(cudaLaunchHostFunc(stream, markDone, &done));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    int bad = done ? 0 : 1;
    double dot = 0, refDot = 0, checksum = 0;
    for (int i = 0; i < n; ++i) {
        if (c[i] != a[i] + 0.5 * b[i])
            bad++;
        refDot += a[i] * b[i];
        checksum += c[i];
    }
    for (double p : partial)
        dot += p;
    if (dot != refDot) // quarters times small integers: exact in any order
        bad++;
    checksum += dot;
    CUDA_CHECK(cudaHostUnregister(a.data()));
    CUDA_CHECK(cudaHostUnregister(c.data()));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dP));
    std::printf("checksum: %.6e\n", checksum);
    std::printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
