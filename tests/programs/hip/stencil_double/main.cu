// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// Two Jacobi steps of a 5-point stencil in double precision on a 2D grid.
#include <cuda_runtime.h>
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void jacobi(const double* in, double* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[y * w + x] = in[y * w + x]; return; }
    out[y * w + x] = 0.2 * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] +
                            in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

static void jacobi_host(const double* in, double* out, int w, int h) {
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[y * w + x] = (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? in[y * w + x]
                : 0.2 * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] +
                         in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

int main() {
    const int w = 20, h = 18;
    static double u[w * h], v[w * h], got[w * h];
    for (int i = 0; i < w * h; i++) u[i] = sin(0.1 * i) + (i % 5) * 1e-3;
    double *d0, *d1;
    CHECK(cudaMalloc(&d0, sizeof u));
    CHECK(cudaMalloc(&d1, sizeof u));
    CHECK(cudaMemcpy(d0, u, sizeof u, cudaMemcpyHostToDevice));
    dim3 block(8, 8), grid((w + 7) / 8, (h + 7) / 8);
    jacobi<<<grid, block>>>(d0, d1, w, h);
    jacobi<<<grid, block>>>(d1, d0, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d0, sizeof got, cudaMemcpyDeviceToHost));
    jacobi_host(u, v, w, h);
    jacobi_host(v, u, w, h);
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < w * h; i++) { bad += fabs(got[i] - u[i]) > 1e-14; sum += got[i]; }
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
