// Virtual calls and calls through a table of device function pointers, defined in shapes.cu.
#include <cstdio>
#include "shapes.h"

__global__ void measure(float *area, int *sides, unsigned *walk, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    Square sq(t * 0.5f);
    Disc d(t * 0.25f);
    const Shape *s = t % 3 ? (const Shape *)&sq : (const Shape *)&d;
    area[t] = s->area();
    sides[t] = s->sides();
    unsigned x = t + 1;
    for (int i = 0; i < 6; i++)
        x = steps[(t + i) % 3](x) % 100003u;
    walk[t] = x;
}

int main()
{
    const int n = 80;
    float area[n];
    int sides[n];
    unsigned walk[n];
    float *da;
    int *ds;
    unsigned *dw;
    cudaMalloc(&da, sizeof area);
    cudaMalloc(&ds, sizeof sides);
    cudaMalloc(&dw, sizeof walk);
    measure<<<(n + 31) / 32, 32>>>(da, ds, dw, n);
    cudaMemcpy(area, da, sizeof area, cudaMemcpyDeviceToHost);
    cudaMemcpy(sides, ds, sizeof sides, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(walk, dw, sizeof walk, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int t = 0; t < n; t++) {
        float want = t % 3 ? (t * 0.5f) * (t * 0.5f) : 3.0f * (t * 0.25f) * (t * 0.25f);
        unsigned x = t + 1;
        for (int i = 0; i < 6; i++) {
            int k = (t + i) % 3;
            x = (k == 0 ? 2 * x : k == 1 ? x * x : (x & 1 ? 3 * x + 1 : x / 2)) % 100003u;
        }
        ok = ok && area[t] == want && sides[t] == (t % 3 ? 4 : 0) && walk[t] == x;
        cs += area[t] + sides[t] + walk[t] % 1000;
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
