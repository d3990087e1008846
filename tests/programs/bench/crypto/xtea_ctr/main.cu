// XTEA in counter mode: each thread encrypts one counter block; the key sits in __constant__
// memory; the rounds are a device function in xtea.cu (separate translation unit with -rdc).
#include <cstdio>
#include <cstdlib>
#include "xtea.h"

__constant__ unsigned c_key[4];

__global__ void ctr_encrypt(const unsigned *plain, unsigned *cipher, int blocks, unsigned nonce)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= blocks)
        return;
    unsigned v[2] = {nonce, (unsigned)i};
    xtea_encipher(v, c_key);
    cipher[2 * i] = plain[2 * i] ^ v[0];
    cipher[2 * i + 1] = plain[2 * i + 1] ^ v[1];
}

int main()
{
    const int blocks = 512;
    const unsigned key[4] = {0x01234567u, 0x89abcdefu, 0xfedcba98u, 0x76543210u}, nonce = 0xC0FFEEu;
    unsigned *p = (unsigned *)malloc(blocks * 8), *c = (unsigned *)malloc(blocks * 8);
    for (int i = 0; i < 2 * blocks; i++)
        p[i] = i * 0x01010101u;
    cudaMemcpyToSymbol(c_key, key, sizeof key);
    unsigned *dp, *dc;
    cudaMalloc(&dp, blocks * 8);
    cudaMalloc(&dc, blocks * 8);
    cudaMemcpy(dp, p, blocks * 8, cudaMemcpyHostToDevice);
    ctr_encrypt<<<blocks / 128, 128>>>(dp, dc, blocks, nonce);
    cudaError_t e = cudaMemcpy(c, dc, blocks * 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int i = 0; i < blocks; i++) {
        unsigned v[2] = {nonce, (unsigned)i};
        xtea_encipher(v, key);
        ok = ok && c[2 * i] == (p[2 * i] ^ v[0]) && c[2 * i + 1] == (p[2 * i + 1] ^ v[1]);
        cs ^= c[2 * i] * 3u + c[2 * i + 1];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
