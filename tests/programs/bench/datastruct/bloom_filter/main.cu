// Bloom filter: 3 hash functions set bits with atomicOr; each query thread tests its 3 bits, and
// __any_sync/__all_sync summarise the hits of each warp.
#include <cstdio>
#include <cstdlib>

#define BITS 8192

__device__ __host__ unsigned h(unsigned k, unsigned seed)
{
    unsigned x = k * 0x9e3779b1u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return x % BITS;
}

__global__ void add(unsigned *bits, const unsigned *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (unsigned s = 0; s < 3; s++) {
        unsigned b = h(keys[i], s * 0x1234567u);
        atomicOr(&bits[b / 32], 1u << (b % 32));
    }
}

__global__ void query(const unsigned *bits, const unsigned *keys, int n, unsigned char *hit, unsigned *warp_any)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool in = i < n;
    if (in) {
        for (unsigned s = 0; s < 3; s++) {
            unsigned b = h(keys[i], s * 0x1234567u);
            in = in && (bits[b / 32] >> (b % 32)) & 1u;
        }
        hit[i] = in;
    }
    int any = __any_sync(0xffffffffu, in);
    int all = __all_sync(0xffffffffu, in);
    if ((threadIdx.x & 31) == 0)
        warp_any[i / 32] = any + 2 * all;
}

int main()
{
    const int n = 700, nq = 1024;
    unsigned *keys = (unsigned *)malloc(n * 4), q[nq], bits[BITS / 32] = {0};
    for (int i = 0; i < n; i++)
        keys[i] = i * 2 + 1;
    for (int i = 0; i < nq; i++)
        q[i] = i < 512 ? i * 2 + 1 : 5000 + i * 3;
    unsigned *dbits, *dkeys, *dq, *dwarp;
    unsigned char *dhit;
    cudaMalloc(&dbits, sizeof bits);
    cudaMalloc(&dkeys, n * 4);
    cudaMalloc(&dq, sizeof q);
    cudaMalloc(&dhit, nq);
    cudaMalloc(&dwarp, nq / 32 * 4);
    cudaMemset(dbits, 0, sizeof bits);
    cudaMemcpy(dkeys, keys, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice);
    add<<<(n + 127) / 128, 128>>>(dbits, dkeys, n);
    query<<<nq / 128, 128>>>(dbits, dq, nq, dhit, dwarp);
    unsigned char hit[nq];
    unsigned warp[nq / 32];
    cudaMemcpy(hit, dhit, nq, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(warp, dwarp, sizeof warp, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        for (unsigned s = 0; s < 3; s++) {
            unsigned b = h(keys[i], s * 0x1234567u);
            bits[b / 32] |= 1u << (b % 32);
        }
    bool ok = e == cudaSuccess;
    unsigned hits = 0, cs = 0;
    for (int w = 0; w < nq / 32; w++) {
        int any = 0, all = 1;
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            bool in = true;
            for (unsigned s = 0; s < 3; s++) {
                unsigned b = h(q[i], s * 0x1234567u);
                in = in && (bits[b / 32] >> (b % 32)) & 1u;
            }
            ok = ok && hit[i] == in && (i >= 512 || in);
            any |= in;
            all &= in;
            hits += in;
        }
        ok = ok && warp[w] == (unsigned)(any + 2 * all);
        cs = cs * 5u + warp[w];
    }
    printf("checksum: %u\n", cs + hits);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
