// CRC-32 (IEEE) of 64 messages, one thread per message: the table is uploaded to __constant__
// memory and staged in shared memory; the first message starts with the check string "123456789".
#include <cstdio>
#include <cstdlib>
#include <cstring>

__constant__ unsigned c_table[256];

__global__ void crc32_msgs(const unsigned char *data, int len, unsigned *out, int msgs)
{
    __shared__ unsigned table[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        table[i] = c_table[i];
    __syncthreads();
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= msgs)
        return;
    unsigned crc = 0xffffffffu;
    for (int i = 0; i < len; i++)
        crc = table[(crc ^ data[m * len + i]) & 0xff] ^ (crc >> 8);
    out[m] = ~crc;
}

int main()
{
    const int msgs = 64, len = 100;
    unsigned table[256];
    for (unsigned i = 0; i < 256; i++) {
        unsigned c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    unsigned char *data = (unsigned char *)malloc(msgs * len);
    for (int i = 0; i < msgs * len; i++)
        data[i] = (unsigned char)(i * 31 + (i >> 8));
    memcpy(data, "123456789", 9);
    cudaMemcpyToSymbol(c_table, table, sizeof table);
    unsigned char *dd;
    unsigned *dout, out[msgs];
    cudaMalloc(&dd, msgs * len);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(dd, data, msgs * len, cudaMemcpyHostToDevice);
    crc32_msgs<<<2, 32>>>(dd, len, dout, msgs);
    crc32_msgs<<<1, 32>>>(dd, 9, dout, 1);
    cudaError_t e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess && out[0] == 0xCBF43926u;
    unsigned cs = out[0];
    for (int m = 1; m < msgs; m++) {
        unsigned crc = 0xffffffffu;
        for (int i = 0; i < len; i++)
            crc = table[(crc ^ data[m * len + i]) & 0xff] ^ (crc >> 8);
        ok = ok && out[m] == ~crc;
        cs ^= out[m];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
