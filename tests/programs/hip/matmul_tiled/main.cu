// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// C = A * B with 16x16 tiles staged in LDS; sizes not multiples of the tile.
#include <cuda_runtime.h>
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int TILE = 16;

__global__ void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < m && ak < k ? a[row * k + ak] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = bk < k && col < n ? b[bk * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++) acc += ta[threadIdx.y][i] * tb[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
}

int main() {
    const int m = 40, n = 24, k = 36;
    static float ha[m * k], hb[k * n], hc[m * n];
    for (int i = 0; i < m * k; i++) ha[i] = (i % 13) * 0.25f - 1.0f;
    for (int i = 0; i < k * n; i++) hb[i] = (i % 7) * 0.5f - 1.5f;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, sizeof ha));
    CHECK(cudaMalloc(&b, sizeof hb));
    CHECK(cudaMalloc(&c, sizeof hc));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<grid, block>>>(a, b, c, m, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    int bad = 0;
    double sum = 0;
    for (int r = 0; r < m; r++)
        for (int col = 0; col < n; col++) {
            float e = 0;
            for (int i = 0; i < k; i++) e += ha[r * k + i] * hb[i * n + col];
            bad += fabsf(hc[r * n + col] - e) > 1e-4f * (1 + fabsf(e));
            sum += hc[r * n + col];
        }
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
