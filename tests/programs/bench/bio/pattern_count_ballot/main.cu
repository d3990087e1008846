// Count occurrences of a pattern in a DNA text: each thread tests one start position, the warp
// counts matches with __ballot_sync + __popc, one atomicAdd per warp; the pattern is __constant__.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define PLEN 4
__constant__ char c_pat[PLEN];

__global__ void count(const char *text, int n, unsigned *total, unsigned char *where)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool hit = i + PLEN <= n;
    for (int k = 0; hit && k < PLEN; k++)
        hit = text[i + k] == c_pat[k];
    if (i < n)
        where[i] = hit;
    unsigned m = __ballot_sync(0xffffffffu, hit);
    if ((threadIdx.x & 31) == 0 && m)
        atomicAdd(total, __popc(m));
}

int main()
{
    const int n = 4096;
    const char pat[PLEN + 1] = "ACGA";
    char *text = (char *)malloc(n);
    unsigned x = 5;
    for (int i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        text[i] = "ACGT"[x & 3];
    }
    cudaMemcpyToSymbol(c_pat, pat, PLEN);
    char *dtext;
    unsigned *dtot, total = 0;
    unsigned char *dw, *where = (unsigned char *)malloc(n);
    cudaMalloc(&dtext, n);
    cudaMalloc(&dtot, 4);
    cudaMalloc(&dw, n);
    cudaMemset(dtot, 0, 4);
    cudaMemcpy(dtext, text, n, cudaMemcpyHostToDevice);
    count<<<n / 256, 256>>>(dtext, n, dtot, dw);
    cudaMemcpy(&total, dtot, 4, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(where, dw, n, cudaMemcpyDeviceToHost);
    unsigned want = 0, poscs = 0;
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; i++) {
        bool hit = i + PLEN <= n && memcmp(text + i, pat, PLEN) == 0;
        want += hit;
        ok = ok && where[i] == hit;
        if (where[i])
            poscs += i;
    }
    ok = ok && total == want;
    printf("checksum: %u\n", total * 100000u + poscs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
