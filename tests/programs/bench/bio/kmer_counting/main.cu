// k-mer (k=5) counting of a DNA sequence: 2-bit encoding, 1024 counters in shared memory
// (shared atomics), merged into global counters; then the most frequent k-mer by a second kernel.
#include <cstdio>
#include <cstdlib>

#define K 5
#define NK (1 << (2 * K))

__device__ __host__ unsigned encode(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : 3; }

__global__ void count_kmers(const char *seq, int n, unsigned *counts)
{
    __shared__ unsigned local[NK];
    for (int i = threadIdx.x; i < NK; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + K <= n; i += gridDim.x * blockDim.x) {
        unsigned code = 0;
        for (int k = 0; k < K; k++)
            code = code << 2 | encode(seq[i + k]);
        atomicAdd(&local[code], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < NK; i += blockDim.x)
        if (local[i])
            atomicAdd(&counts[i], local[i]);
}

__global__ void argmax(const unsigned *counts, unsigned long long *best)
{
    // packs (count, ~code) so that atomicMax picks the highest count, then the lowest code
    for (int i = threadIdx.x; i < NK; i += blockDim.x)
        atomicMax(best, (unsigned long long)counts[i] << 32 | (unsigned)(NK - 1 - i));
}

int main()
{
    const int n = 3000;
    char *seq = (char *)malloc(n);
    unsigned x = 31337;
    for (int i = 0; i < n; i++) {
        x = x * 22695477u + 1u;
        seq[i] = "ACGT"[(x >> 16) & 3];
        if (i % 50 < 5)
            seq[i] = "GATTACA"[i % 50];
    }
    char *ds;
    unsigned *dc, counts[NK], want[NK] = {0};
    unsigned long long *dbest, best = 0;
    cudaMalloc(&ds, n);
    cudaMalloc(&dc, sizeof counts);
    cudaMalloc(&dbest, 8);
    cudaMemset(dc, 0, sizeof counts);
    cudaMemset(dbest, 0, 8);
    cudaMemcpy(ds, seq, n, cudaMemcpyHostToDevice);
    count_kmers<<<4, 256>>>(ds, n, dc);
    argmax<<<1, 256>>>(dc, dbest);
    cudaMemcpy(counts, dc, sizeof counts, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(&best, dbest, 8, cudaMemcpyDeviceToHost);
    for (int i = 0; i + K <= n; i++) {
        unsigned code = 0;
        for (int k = 0; k < K; k++)
            code = code << 2 | encode(seq[i + k]);
        want[code]++;
    }
    bool ok = e == cudaSuccess;
    unsigned top = 0, top_code = 0;
    for (int i = 0; i < NK; i++) {
        ok = ok && counts[i] == want[i];
        if (want[i] > top) {
            top = want[i];
            top_code = i;
        }
    }
    ok = ok && (best >> 32) == top && NK - 1 - (unsigned)(best & 0xffffffffu) == top_code;
    printf("checksum: %llu\n", (best >> 32) * 10000ull + (NK - 1 - (best & 0xffffffffu)));
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
