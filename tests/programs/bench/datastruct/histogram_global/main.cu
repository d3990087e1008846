// Histogram of 16-bit keys into 1000 bins with global atomicAdd only, plus an unsigned long long
// atomicAdd of the sum.
#include <cstdio>
#include <cstdlib>

__global__ void hist(const unsigned short *in, int n, unsigned *bins, unsigned long long *total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[in[i] % 1000], 1u);
        atomicAdd(total, (unsigned long long)in[i]);
    }
}

int main()
{
    const int n = 4096;
    unsigned short *in = (unsigned short *)malloc(n * 2);
    unsigned want[1000] = {0}, got[1000];
    unsigned long long want_total = 0, total = 0;
    unsigned x = 99;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        in[i] = (x >> 10) & 0xffff;
        want[in[i] % 1000]++;
        want_total += in[i];
    }
    unsigned short *din;
    unsigned *db;
    unsigned long long *dt;
    cudaMalloc(&din, n * 2);
    cudaMalloc(&db, sizeof got);
    cudaMalloc(&dt, 8);
    cudaMemset(db, 0, sizeof got);
    cudaMemset(dt, 0, 8);
    cudaMemcpy(din, in, n * 2, cudaMemcpyHostToDevice);
    hist<<<n / 256, 256>>>(din, n, db, dt);
    cudaMemcpy(got, db, sizeof got, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(&total, dt, 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess && total == want_total;
    unsigned cs = 0;
    for (int b = 0; b < 1000; b++) {
        ok = ok && got[b] == want[b];
        cs = cs * 17u + got[b];
    }
    printf("checksum: %llu\n", (unsigned long long)cs + total);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
