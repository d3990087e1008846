// Arithmetic-average Asian call by Monte Carlo: each thread simulates paths with its own
// counter-based generator (a 32-bit mix of (path, step)), an approximately normal variate from the
// sum of 4 uniforms; a warp-shuffle and shared-memory reduction of the payoffs; two streams price two
// strikes concurrently, events order the result copies.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define PATHS_PER_THREAD 2
#define STEPS 8

__device__ __host__ unsigned mix(unsigned a, unsigned b)
{
    unsigned h = a * 0x85ebca6bu ^ (b + 0x9e3779b9u + (a << 6) + (a >> 2));
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

__device__ __host__ float gauss(unsigned path, unsigned step)
{
    float s = 0;
    for (unsigned k = 0; k < 4; k++)
        s += (mix(path, step * 4 + k) >> 8) * (1.0f / 16777216.0f);
    return (s - 2.0f) * 1.7320508f;
}

__device__ __host__ float path_payoff(unsigned path, float strike)
{
    const float s0 = 100, r = 0.03f, vol = 0.25f, dt = 1.0f / STEPS;
    float s = s0, avg = 0;
    for (unsigned t = 0; t < STEPS; t++) {
        s *= expf((r - 0.5f * vol * vol) * dt + vol * sqrtf(dt) * gauss(path, t));
        avg += s;
    }
    avg /= STEPS;
    return fmaxf(avg - strike, 0.0f);
}

__global__ void asian(float strike, float *block_sums)
{
    __shared__ float warp_sums[2];
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0;
    for (int p = 0; p < PATHS_PER_THREAD; p++)
        sum += path_payoff(tid * PATHS_PER_THREAD + p, strike);
    for (int o = 16; o; o >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0)
        warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = warp_sums[0] + warp_sums[1];
}

int main()
{
    const int blocks = 2, threads = 64, paths = blocks * threads * PATHS_PER_THREAD;
    const float strikes[2] = {95.0f, 105.0f};
    float *d[2], *h;
    cudaMallocHost(&h, 2 * blocks * 4);
    cudaStream_t st[2];
    cudaEvent_t done[2];
    for (int k = 0; k < 2; k++) {
        cudaMalloc(&d[k], blocks * 4);
        cudaStreamCreate(&st[k]);
        cudaEventCreate(&done[k]);
        asian<<<blocks, threads, 0, st[k]>>>(strikes[k], d[k]);
        cudaMemcpyAsync(h + k * blocks, d[k], blocks * 4, cudaMemcpyDeviceToHost, st[k]);
        cudaEventRecord(done[k], st[k]);
    }
    bool ok = true;
    double price[2];
    for (int k = 0; k < 2; k++) {
        ok = ok && cudaEventSynchronize(done[k]) == cudaSuccess;
        double s = 0;
        for (int b = 0; b < blocks; b++)
            s += h[k * blocks + b];
        price[k] = exp(-0.03) * s / paths;
        double want = 0;
        for (int p = 0; p < paths; p++)
            want += path_payoff(p, strikes[k]);
        want = exp(-0.03) * want / paths;
        ok = ok && fabs(price[k] - want) < 1e-3 * want;
    }
    ok = ok && price[0] > price[1] && price[1] > 0;
    printf("checksum: %.6e\n", price[0] + price[1]);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
