// Sobel gradient magnitude (sqrtf, atan2f for the direction) on a float image.
#include <cstdio>
#include <cstdlib>
#include <cmath>

__device__ __host__ float px(const float *im, int x, int y, int w) { return im[y * w + x]; }

__global__ void sobel(const float *im, float *mag, float *dir, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
        return;
    float gx = px(im, x + 1, y - 1, w) + 2 * px(im, x + 1, y, w) + px(im, x + 1, y + 1, w)
             - px(im, x - 1, y - 1, w) - 2 * px(im, x - 1, y, w) - px(im, x - 1, y + 1, w);
    float gy = px(im, x - 1, y + 1, w) + 2 * px(im, x, y + 1, w) + px(im, x + 1, y + 1, w)
             - px(im, x - 1, y - 1, w) - 2 * px(im, x, y - 1, w) - px(im, x + 1, y - 1, w);
    mag[y * w + x] = sqrtf(gx * gx + gy * gy);
    dir[y * w + x] = atan2f(gy, gx);
}

int main()
{
    const int w = 48, h = 32, n = w * h;
    float *im = (float *)malloc(n * 4), *mag = (float *)calloc(n, 4), *dir = (float *)calloc(n, 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im[y * w + x] = sinf(x * 0.3f) * cosf(y * 0.2f) + (x > 24 ? 1.0f : 0.0f);
    float *di, *dm, *dd;
    cudaMalloc(&di, n * 4);
    cudaMalloc(&dm, n * 4);
    cudaMalloc(&dd, n * 4);
    cudaMemset(dm, 0, n * 4);
    cudaMemset(dd, 0, n * 4);
    cudaMemcpy(di, im, n * 4, cudaMemcpyHostToDevice);
    sobel<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(di, dm, dd, w, h);
    cudaMemcpy(mag, dm, n * 4, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(dir, dd, n * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float gx = px(im, x + 1, y - 1, w) + 2 * px(im, x + 1, y, w) + px(im, x + 1, y + 1, w)
                     - px(im, x - 1, y - 1, w) - 2 * px(im, x - 1, y, w) - px(im, x - 1, y + 1, w);
            float gy = px(im, x - 1, y + 1, w) + 2 * px(im, x, y + 1, w) + px(im, x + 1, y + 1, w)
                     - px(im, x - 1, y - 1, w) - 2 * px(im, x, y - 1, w) - px(im, x + 1, y - 1, w);
            float m = sqrtf(gx * gx + gy * gy);
            ok = ok && fabsf(mag[y * w + x] - m) <= 1e-4f * (1 + m);
            if (m > 1e-3f)
                ok = ok && fabsf(sinf(dir[y * w + x]) - gy / m) < 1e-3f;
            cs += mag[y * w + x];
        }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
