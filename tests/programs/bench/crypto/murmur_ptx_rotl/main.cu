// MurmurHash3 (x86_32) of 256 keys of 32 bytes; rotations through inline PTX (shf.l.wrap.b32).
#include <cstdio>
#include <cstdlib>

__device__ unsigned rotl_ptx(unsigned x, unsigned r)
{
    unsigned y;
    asm volatile("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(y) : "r"(x), "r"(r));
    return y;
}

static unsigned rotl_host(unsigned x, unsigned r) { return (x << r) | (x >> (32 - r)); }

#define MURMUR(ROTL)                                                                               \
    unsigned h = seed;                                                                             \
    for (int i = 0; i < nwords; i++) {                                                             \
        unsigned k = words[i] * 0xcc9e2d51u;                                                       \
        k = ROTL(k, 15) * 0x1b873593u;                                                             \
        h = ROTL(h ^ k, 13) * 5u + 0xe6546b64u;                                                    \
    }                                                                                              \
    h ^= nwords * 4;                                                                               \
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;                  \
    return h;

__device__ unsigned murmur_dev(const unsigned *words, int nwords, unsigned seed) { MURMUR(rotl_ptx) }
static unsigned murmur_host(const unsigned *words, int nwords, unsigned seed) { MURMUR(rotl_host) }

__global__ void hash_keys(const unsigned *keys, int nwords, unsigned *out, int n, unsigned seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = murmur_dev(keys + i * nwords, nwords, seed);
}

int main()
{
    const int n = 256, nwords = 8;
    unsigned *keys = (unsigned *)malloc(n * nwords * 4), out[n];
    for (int i = 0; i < n * nwords; i++)
        keys[i] = i * 0x9E3779B9u;
    unsigned *dk, *dout;
    cudaMalloc(&dk, n * nwords * 4);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(dk, keys, n * nwords * 4, cudaMemcpyHostToDevice);
    hash_keys<<<n / 64, 64>>>(dk, nwords, dout, n, 42u);
    cudaError_t e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && out[i] == murmur_host(keys + i * nwords, nwords, 42u);
        cs += out[i] >> 4;
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
