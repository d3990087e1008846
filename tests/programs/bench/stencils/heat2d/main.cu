// 2D heat equation, explicit steps on a 2D grid; the step kernel lives in step.cu (two .cu files).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include "heat.h"

int main()
{
    const int nx = 48, ny = 40, steps = 20;
    const float alpha = 0.2f;
    float *h = (float *)calloc(nx * ny, 4), *t = (float *)calloc(nx * ny, 4);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++)
            h[y * nx + x] = (x > 10 && x < 20 && y > 8 && y < 30) ? 100.0f : 0.0f;
    float *a, *b;
    cudaMalloc(&a, nx * ny * 4);
    cudaMalloc(&b, nx * ny * 4);
    cudaMemcpy(a, h, nx * ny * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, nx * ny * 4, cudaMemcpyHostToDevice);
    for (int s = 0; s < steps; s++) {
        heat_step(a, b, nx, ny, alpha);
        float *tmp = a; a = b; b = tmp;
    }
    float *r = (float *)malloc(nx * ny * 4);
    cudaError_t e = cudaMemcpy(r, a, nx * ny * 4, cudaMemcpyDeviceToHost);
    memcpy(t, h, nx * ny * 4);
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < ny - 1; y++)
            for (int x = 1; x < nx - 1; x++) {
                int i = y * nx + x;
                t[i] = h[i] + alpha * (h[i - 1] + h[i + 1] + h[i - nx] + h[i + nx] - 4 * h[i]);
            }
        float *tmp = h; h = t; t = tmp;
    }
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < nx * ny; i++) {
        ok = ok && fabsf(r[i] - h[i]) <= 1e-3f * (1 + fabsf(h[i]));
        cs += r[i];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
