// A program in four translation units linked with -rdc=true: kernels in scale.cu and hash.cu
// call device functions of lib.cu and share its __device__ variables.
#include <cstdio>
#include <cstring>

__global__ void scale_rows(const float *in, float *out, int rows, int cols);
__global__ void hash_all(unsigned *h, int n);
extern __device__ unsigned g_hits;

static unsigned rotl(unsigned x, int r) { return (x << r) | (x >> (32 - r)); }
static unsigned mix(unsigned x)
{
    for (int i = 0; i < 3; i++)
        x = rotl(x * 0x9E3779B1u, 5 + i) ^ (x >> 7);
    return x;
}

int main()
{
    const int rows = 96, cols = 7, n = 200;
    const float scale[4] = {0.5f, 1.0f, 2.0f, 4.0f};
    const unsigned salt[2] = {0x12345678u, 0x0badf00du};
    float in[rows * cols], out[rows];
    for (int i = 0; i < rows * cols; i++)
        in[i] = (float)((i * 37) % 23) - 11.0f;
    float *din, *dout;
    unsigned *dh, h[n];
    cudaMalloc(&din, sizeof in);
    cudaMalloc(&dout, sizeof out);
    cudaMalloc(&dh, sizeof h);
    cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
    scale_rows<<<(rows + 63) / 64, 64>>>(din, dout, rows, cols);
    hash_all<<<(n + 127) / 128, 128>>>(dh, n);
    unsigned hits = 0;
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpyFromSymbol(&hits, g_hits, sizeof hits);
    bool ok = e == cudaSuccess && hits == (unsigned)(rows + n);
    double cs = hits;
    for (int r = 0; r < rows; r++) {
        float w[8], s = 0.f;
        for (int i = 0; i < 8; i++)
            w[i] = scale[i & 3] * (i + 1);
        for (int i = 0; i < cols; i++)
            s += in[r * cols + i] * w[(i * 5 + cols) & 7];
        ok = ok && out[r] == s;
        cs += out[r];
    }
    for (int i = 0; i < n; i++) {
        unsigned x = (unsigned)i;
        ok = ok && h[i] == mix(x ^ salt[x & 1]);
        cs += h[i] % 1000;
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
