// A half-precision GEMM written the way CUTLASS-style and llama.cpp-style kernels are: a
// two-stage cp.async pipeline (cp.async.cg 16-byte copies, commit_group / wait_group) fills
// shared-memory tiles, ldmatrix.x4 loads the A fragments and ldmatrix.x2.trans the B fragments,
// and mma.sync.m16n8k16 accumulates in f32. C (64x64) = A (64x128, row-major) * B (128x64,
// row-major); inputs are small dyadic values, so every sum is exact and the result is compared
// bit for bit with the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int M = 64, N = 64, K = 128, KT = 16, STAGES = 2, THREADS = 128;

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_addr(dst)), "l"(src));
}

// one block: 4 warps, warp w computes rows 16w .. 16w+15 of C, all 64 columns (8 n-tiles)
__global__ void __launch_bounds__(THREADS) gemm(const half *A, const half *B, float *C)
{
    __shared__ __align__(16) half sA[STAGES][M][KT];
    __shared__ __align__(16) half sB[STAGES][KT][N];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    auto load_stage = [&](int stage, int k0) {
        int r = tid / 2, c = (tid % 2) * 8;                  // A: 64 rows x 2 chunks of 8 halves
        cp_async16(&sA[stage][r][c], A + r * K + k0 + c);
        int kr = tid / 8, nc = (tid % 8) * 8;                // B: 16 rows x 8 chunks
        cp_async16(&sB[stage][kr][nc], B + (k0 + kr) * N + nc);
        asm volatile("cp.async.commit_group;");
    };
    float acc[8][4] = {};
    load_stage(0, 0);
    for (int ks = 0; ks < K / KT; ks++) {
        int stage = ks % STAGES;
        if (ks + 1 < K / KT) {
            load_stage((ks + 1) % STAGES, (ks + 1) * KT);
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_group 0;");
        }
        __syncthreads();
        unsigned a[4];
        int mat = lane / 8, row = (mat & 1) * 8 + lane % 8, col = (mat >> 1) * 8;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                     : "r"(smem_addr(&sA[stage][warp * 16 + row][col])));
        for (int nt = 0; nt < 8; nt++) {
            unsigned b[2];
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                         : "=r"(b[0]), "=r"(b[1]) : "r"(smem_addr(&sB[stage][lane % 16][nt * 8])));
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[nt][0]), "+f"(acc[nt][1]), "+f"(acc[nt][2]), "+f"(acc[nt][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
        __syncthreads();
    }
    int g = lane / 4, t = lane % 4;
    for (int nt = 0; nt < 8; nt++)
        for (int i = 0; i < 4; i++)
            C[(warp * 16 + g + 8 * (i >= 2)) * N + nt * 8 + 2 * t + (i & 1)] = acc[nt][i];
}

int main()
{
    static half A[M * K], B[K * N];
    static float af[M * K], bf[K * N], C[M * N];
    for (int i = 0; i < M * K; i++) { af[i] = (float)((i * 13) % 9 - 4) * 0.5f; A[i] = __float2half(af[i]); }
    for (int i = 0; i < K * N; i++) { bf[i] = (float)((i * 7) % 5 - 2) * 0.25f; B[i] = __float2half(bf[i]); }
    half *d_A, *d_B; float *d_C;
    CUDA_CHECK(cudaMalloc(&d_A, sizeof A)); CUDA_CHECK(cudaMalloc(&d_B, sizeof B)); CUDA_CHECK(cudaMalloc(&d_C, sizeof C));
    CUDA_CHECK(cudaMemcpy(d_A, A, sizeof A, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_B, B, sizeof B, cudaMemcpyHostToDevice));
    gemm<<<1, THREADS>>>(d_A, d_B, d_C);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(C, d_C, sizeof C, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double want = 0;
            for (int k = 0; k < K; k++) want += (double)af[m * K + k] * bf[k * N + n];
            checksum += C[m * N + n] * (1 + (m ^ n) % 5);
            if (C[m * N + n] != (float)want && bad++ < 8) fprintf(stderr, "C[%d][%d] = %g want %g\n", m, n, C[m * N + n], want);
        }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
