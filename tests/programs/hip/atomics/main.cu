// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// Histogram with LDS atomics merged by global atomics, plus global atomicMax/Min, a CAS loop
// and a float atomicAdd (both CAS loops; one lane per wave, so the waves contend).
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int BINS = 16;

__global__ void histogram(const int* in, int n, int* bins, int* maxv, int* minv,
                          unsigned* cas_counter, float* fsum) {
    __shared__ int local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&local[in[i] % BINS], 1);
        atomicMax(maxv, in[i]);
        atomicMin(minv, in[i]);
        if (threadIdx.x % warpSize == 0) {  // CAS loops: one lane per wave, waves contend
            unsigned old = *cas_counter, assumed;
            do { assumed = old; old = atomicCAS(cas_counter, assumed, assumed + 2); } while (old != assumed);
            atomicAdd(fsum, 0.5f);
        }
    }
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
    const int n = 500;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 131 + 17) % 1009;
    int *in, *bins, *maxv, *minv;
    unsigned* counter;
    float* fsum;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&bins, BINS * sizeof(int)));
    CHECK(cudaMalloc(&maxv, sizeof(int)));
    CHECK(cudaMalloc(&minv, sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(unsigned)));
    CHECK(cudaMalloc(&fsum, sizeof(float)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(bins, 0, BINS * sizeof(int)));
    int lo = -1, hi = 1 << 30;
    CHECK(cudaMemcpy(maxv, &lo, sizeof lo, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(minv, &hi, sizeof hi, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(counter, 0, sizeof(unsigned)));
    CHECK(cudaMemset(fsum, 0, sizeof(float)));
    histogram<<<(n + 127) / 128, 128>>>(in, n, bins, maxv, minv, counter, fsum);
    CHECK(cudaGetLastError());
    int hb[BINS], gmax, gmin;
    unsigned gcount;
    float gsum;
    CHECK(cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gmax, maxv, sizeof gmax, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gmin, minv, sizeof gmin, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gcount, counter, sizeof gcount, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gsum, fsum, sizeof gsum, cudaMemcpyDeviceToHost));
    int expect[BINS] = {0}, emax = -1, emin = 1 << 30, bad = 0;
    for (int i = 0; i < n; i++) {
        expect[h[i] % BINS]++;
        emax = h[i] > emax ? h[i] : emax;
        emin = h[i] < emin ? h[i] : emin;
    }
    long checksum = 0;
    for (int b = 0; b < BINS; b++) { bad += hb[b] != expect[b]; checksum += (long)hb[b] * (b + 1); }
    int waves = 0;
    for (int i = 0; i < n; i += 32) waves++;
    bad += gmax != emax || gmin != emin || gcount != 2u * waves || gsum != 0.5f * waves;
    printf("checksum: %ld\n", checksum + gmax + gmin + gcount);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
