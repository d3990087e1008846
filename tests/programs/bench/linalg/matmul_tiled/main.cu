// C = A*B with 16x16 shared-memory tiles on a 2D grid.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < K; t += TILE) {
        As[threadIdx.y][threadIdx.x] = row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : 0;
        Bs[threadIdx.y][threadIdx.x] = col < N && t + threadIdx.y < K ? B[(t + threadIdx.y) * N + col] : 0;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

int main()
{
    const int M = 40, N = 48, K = 36;
    float *A = (float *)malloc(M * K * 4), *B = (float *)malloc(K * N * 4), *C = (float *)malloc(M * N * 4);
    for (int i = 0; i < M * K; i++)
        A[i] = ((i * 13) % 17 - 8) * 0.125f;
    for (int i = 0; i < K * N; i++)
        B[i] = ((i * 7) % 11 - 5) * 0.25f;
    float *dA, *dB, *dC;
    cudaMalloc(&dA, M * K * 4);
    cudaMalloc(&dB, K * N * 4);
    cudaMalloc(&dC, M * N * 4);
    cudaMemcpy(dA, A, M * K * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, K * N * 4, cudaMemcpyHostToDevice);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), block(TILE, TILE);
    matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
    cudaError_t e = cudaMemcpy(C, dC, M * N * 4, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = 0;
            for (int k = 0; k < K; k++)
                want += A[i * K + k] * B[k * N + j];
            ok = ok && fabsf(C[i * N + j] - want) <= 1e-4f * (1 + fabsf(want));
            cs += C[i * N + j] * ((i + j) % 5 + 1);
        }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
