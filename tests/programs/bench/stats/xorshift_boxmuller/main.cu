// Normal samples from an xorshift32 generator through Box-Muller (logf, sqrtf, sincosf);
// a 32-bin histogram in shared memory (shared atomics) and moments by float atomics.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__device__ __host__ unsigned xorshift32(unsigned &s)
{
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

__device__ __host__ float uniform01(unsigned &s) { return ((xorshift32(s) >> 8) + 1) * (1.0f / 16777217.0f); }

__global__ void sample(unsigned *bins, float *out, int per_thread)
{
    __shared__ unsigned local[32];
    if (threadIdx.x < 32)
        local[threadIdx.x] = 0;
    __syncthreads();
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 2463534242u + tid * 7919u;
    for (int k = 0; k < per_thread; k++) {
        float u1 = uniform01(s), u2 = uniform01(s);
        float r = sqrtf(-2.0f * logf(u1)), sn, cs;
        sincosf(6.2831853f * u2, &sn, &cs);
        float z = r * cs;
        out[tid * per_thread + k] = z;
        int b = (int)floorf((z + 4.0f) * 4.0f);
        if (b >= 0 && b < 32)
            atomicAdd(&local[b], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 32)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main()
{
    const int threads = 512, per = 8, n = threads * per;
    unsigned *db, bins[32];
    float *dout, *z = (float *)malloc(n * 4);
    cudaMalloc(&db, sizeof bins);
    cudaMalloc(&dout, n * 4);
    cudaMemset(db, 0, sizeof bins);
    sample<<<threads / 128, 128>>>(db, dout, per);
    cudaMemcpy(bins, db, sizeof bins, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(z, dout, n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double mean = 0, var = 0;
    for (int t = 0; t < threads; t++) {
        unsigned s = 2463534242u + t * 7919u;
        for (int k = 0; k < per; k++) {
            float u1 = uniform01(s), u2 = uniform01(s);
            double want = sqrt(-2.0 * log((double)u1)) * cos(6.2831853 * u2);
            ok = ok && fabs(z[t * per + k] - want) < 1e-3;
        }
    }
    unsigned binned = 0;
    for (int b = 0; b < 32; b++)
        binned += bins[b];
    for (int i = 0; i < n; i++)
        mean += z[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        var += (z[i] - mean) * (z[i] - mean);
    var /= n;
    ok = ok && fabs(mean) < 0.05 && fabs(var - 1) < 0.1 && binned > n * 0.99;
    printf("checksum: %.6e\n", var);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
