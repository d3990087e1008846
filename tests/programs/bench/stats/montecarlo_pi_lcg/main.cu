// Monte Carlo estimate of pi with a per-thread 64-bit LCG (own generator, no cuRAND):
// integer hit counts, so the result is exact and deterministic.
#include <cstdio>
#include <cstdlib>

__device__ __host__ unsigned long long lcg_next(unsigned long long &s)
{
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s;
}

__device__ __host__ unsigned count_hits(int tid, int samples)
{
    unsigned long long s = 0x853c49e6748fea9bull ^ (unsigned long long)tid * 0x9E3779B97F4A7C15ull;
    unsigned hits = 0;
    for (int k = 0; k < samples; k++) {
        unsigned x = (unsigned)(lcg_next(s) >> 48), y = (unsigned)(lcg_next(s) >> 48);
        hits += (unsigned long long)x * x + (unsigned long long)y * y < 65536ull * 65536ull;
    }
    return hits;
}

__global__ void pi_kernel(int samples, unsigned long long *total)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(total, (unsigned long long)count_hits(tid, samples));
}

int main()
{
    const int threads = 512, samples = 32;
    unsigned long long *dt, got = 0, want = 0;
    cudaMalloc(&dt, 8);
    cudaMemset(dt, 0, 8);
    pi_kernel<<<threads / 128, 128>>>(samples, dt);
    cudaError_t e = cudaMemcpy(&got, dt, 8, cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; t++)
        want += count_hits(t, samples);
    double pi = 4.0 * got / ((double)threads * samples);
    bool ok = e == cudaSuccess && got == want && pi > 3.0 && pi < 3.3;
    printf("checksum: %llu\n", got);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
