// curand-free Monte Carlo: a per-thread PCG/xorshift generator seeded by a hash of the global
// thread id, __launch_bounds__(128, 4), a warp-shuffle reduction, results as unsigned long long
// atomics; the host replays the same generator to check the count exactly.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

struct Rng {
    uint64_t state;
    __host__ __device__ explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
    __host__ __device__ uint32_t next()
    {
        uint64_t old = state;
        state = old * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
        uint32_t rot = (uint32_t)(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
    }
    __host__ __device__ float uniform() { return (next() >> 8) * (1.0f / 16777216.0f); }
};

constexpr int kSamples = 16;

__global__ void __launch_bounds__(128, 4) monteCarloPi(unsigned long long *hits, uint32_t seed)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    Rng rng(seed ^ (tid * 2654435761u));
    unsigned count = 0;
#pragma unroll 4
    for (int s = 0; s < kSamples; ++s) {
        float x = rng.uniform(), y = rng.uniform();
        count += (x * x + y * y <= 1.0f) ? 1u : 0u;
    }
    for (int off = 16; off > 0; off >>= 1)
        count += __shfl_down_sync(0xffffffffu, count, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(hits, (unsigned long long)count);
}

int main()
{
    const int blocks = 4, threads = 128;
    const uint32_t seed = 20240611u;
    unsigned long long *dHits, hits = 0;
    CUDA_CHECK(cudaMalloc(&dHits, sizeof hits));
    CUDA_CHECK(cudaMemset(dHits, 0, sizeof hits));
    monteCarloPi<<<blocks, threads>>>(dHits, seed);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&hits, dHits, sizeof hits, cudaMemcpyDeviceToHost));

    unsigned long long ref = 0;
    for (unsigned tid = 0; tid < (unsigned)(blocks * threads); ++tid) {
        Rng rng(seed ^ (tid * 2654435761u));
        for (int s = 0; s < kSamples; ++s) {
            float x = rng.uniform(), y = rng.uniform();
            ref += (x * x + y * y <= 1.0f) ? 1 : 0;
        }
    }
    double pi = 4.0 * hits / (blocks * threads * kSamples);
    fprintf(stderr, "pi ~ %f (hits %llu, host %llu)\n", pi, hits, ref);
    bool ok = hits == ref && pi > 2.9 && pi < 3.4;
    printf("checksum: %llu\n", hits);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
