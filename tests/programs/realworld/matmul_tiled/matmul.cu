// cuda-samples matrixMul shape: template<int BLOCK_SIZE> tiled kernel with two __shared__ tiles,
// #pragma unroll over the tile, dim3 grid/threads, non-multiple sizes handled with guards,
// timing with events over several iterations, GFLOP/s on stderr.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define checkCudaErrors(call)                                                               \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int hA, int wA, int wB)
{
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int row = by * BLOCK_SIZE + ty, col = bx * BLOCK_SIZE + tx;
    float Csub = 0;
    for (int t = 0; t < (wA + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
        int ac = t * BLOCK_SIZE + tx, br = t * BLOCK_SIZE + ty;
        As[ty][tx] = (row < hA && ac < wA) ? A[row * wA + ac] : 0.0f;
        Bs[ty][tx] = (br < wA && col < wB) ? B[br * wB + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < hA && col < wB)
        C[row * wB + col] = Csub;
}

int main()
{
    const int block_size = 16;
    const int hA = 40, wA = 24, wB = 36;
    std::vector<float> A(hA * wA), B(wA * wB), C(hA * wB);
    for (int i = 0; i < hA * wA; ++i)
        A[i] = (float)((i % 9) - 4) * 0.5f;
    for (int i = 0; i < wA * wB; ++i)
        B[i] = (float)((i % 7) - 3) * 0.25f;
    float *dA, *dB, *dC;
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&dA), A.size() * sizeof(float)));
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&dB), B.size() * sizeof(float)));
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&dC), C.size() * sizeof(float)));
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCudaErrors(cudaMemcpyAsync(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
    checkCudaErrors(cudaMemcpyAsync(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
    dim3 threads(block_size, block_size);
    dim3 grid((wB + threads.x - 1) / threads.x, (hA + threads.y - 1) / threads.y);
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start, stream));
    const int nIter = 2;
    for (int j = 0; j < nIter; j++)
        MatrixMulCUDA<block_size><<<grid, threads, 0, stream>>>(dC, dA, dB, hA, wA, wB);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaEventRecord(stop, stream));
    checkCudaErrors(cudaEventSynchronize(stop));
    float msecTotal = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));
    double gflops = (2.0 * hA * wA * wB * 1.0e-9) / (msecTotal / nIter / 1000.0);
    fprintf(stderr, "Performance= %.2f GFlop/s, Time= %.3f msec\n", gflops, msecTotal / nIter);
    checkCudaErrors(cudaMemcpyAsync(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    int bad = 0;
    double checksum = 0;
    for (int r = 0; r < hA; ++r)
        for (int c = 0; c < wB; ++c) {
            float ref = 0;
            for (int k = 0; k < wA; ++k)
                ref += A[r * wA + k] * B[k * wB + c];
            if (C[r * wB + c] != ref) // products and sums of quarters: exact
                bad++;
            checksum += C[r * wB + c] * (c + 1);
        }
    checkCudaErrors(cudaFree(dA));
    checkCudaErrors(cudaFree(dB));
    checkCudaErrors(cudaFree(dC));
    checkCudaErrors(cudaStreamDestroy(stream));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
