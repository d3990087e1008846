// 3x3 box blur of an 8-bit image on a 2D grid, clamped borders.
#include <cstdio>
#include <cstdlib>

__device__ __host__ int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

__global__ void blur(const unsigned char *in, unsigned char *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
    out[y * w + x] = (unsigned char)((s + 4) / 9);
}

int main()
{
    const int w = 64, h = 48;
    unsigned char img[w * h], res[w * h];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[y * w + x] = (unsigned char)((x * x + 3 * y * x + y * 7) & 255);
    unsigned char *di, *dout;
    cudaMalloc(&di, w * h);
    cudaMalloc(&dout, w * h);
    cudaMemcpy(di, img, w * h, cudaMemcpyHostToDevice);
    blur<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(di, dout, w, h);
    cudaError_t e = cudaMemcpy(res, dout, w * h, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += img[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
            ok = ok && res[y * w + x] == (s + 4) / 9;
            cs = cs * 7u + res[y * w + x];
        }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
