// Warp-level tensor-core GEMM the way nvcuda::wmma code is written: 16x16x16 tiles of half
// inputs with float accumulation (fragments loaded from global memory and from shared memory),
// bf16 inputs, tf32 inputs (m16n16k8), half accumulation, and int8 inputs with int32
// accumulation, each C = A*B + C over a small matrix. Inputs are small integers and dyadic
// fractions so that every product and partial sum is exact: the result does not depend on
// the order in which the tensor core adds.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int M = 32, N = 32, K = 32;     // 2x2 output tiles, one warp each

// half x half -> float, fragments straight from global memory (row-major A, col-major B)
__global__ void gemm_half(const half *a, const half *b, const float *c, float *d)
{
    int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int tm = tile / (N / 16), tn = tile % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// the same product with the tiles staged in shared memory (ldmatrix), B row-major
__global__ void gemm_half_shared(const half *a, const half *b_rows, float *d)
{
    __shared__ half sa[16 * K], sb[K * 16];
    int tm = blockIdx.x / (N / 16), tn = blockIdx.x % (N / 16);
    for (int i = threadIdx.x; i < 16 * K; i += blockDim.x) {
        sa[i] = a[(tm * 16 + i / K) * K + i % K];
        sb[i] = b_rows[(i / 16) * N + tn * 16 + i % 16];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.5f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, sa + k, K);
        wmma::load_matrix_sync(fb, sb + k * 16, 16);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_col_major);
}

__global__ void gemm_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d)
{
    int tile = blockIdx.x;
    int tm = tile / (N / 16), tn = tile % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

__global__ void gemm_tf32(const float *a, const float *b, float *d)
{
    int tile = blockIdx.x;
    int tm = tile / (N / 16), tn = tile % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
        for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

__global__ void gemm_half_acc(const half *a, const half *b, half *d)
{
    int tile = blockIdx.x;
    int tm = tile / (N / 16), tn = tile % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::fill_fragment(acc, __float2half(1.0f));
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

__global__ void gemm_int8(const signed char *a, const signed char *b, int *d)
{
    int tile = blockIdx.x;
    int tm = tile / (N / 16), tn = tile % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 7);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

int main()
{
    // A is M x K row-major; B is given as Bt (N x K, i.e. B column-major) and as B rows (K x N)
    static float af[M * K], bf[N * K], cf[M * N], want[M * N];
    for (int i = 0; i < M * K; i++) af[i] = (float)((i * 7) % 9 - 4) * 0.5f;
    for (int i = 0; i < N * K; i++) bf[i] = (float)((i * 5) % 11 - 5) * 0.25f;
    for (int i = 0; i < M * N; i++) cf[i] = (float)(i % 13) - 6.0f;
    static half ah[M * K], bh[N * K], bh_rows[K * N], dh[M * N];
    static __nv_bfloat16 ab[M * K], bb[N * K];
    static signed char ai[M * K], bi[N * K];
    for (int i = 0; i < M * K; i++) { ah[i] = __float2half(af[i]); ab[i] = __float2bfloat16(af[i]); ai[i] = (signed char)(af[i] * 2); }
    for (int i = 0; i < N * K; i++) { bh[i] = __float2half(bf[i]); bb[i] = __float2bfloat16(bf[i]); bi[i] = (signed char)(bf[i] * 4); }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) bh_rows[k * N + n] = bh[n * K + k];
    half *d_ah, *d_bh, *d_bhr, *d_dh; __nv_bfloat16 *d_ab, *d_bb; signed char *d_ai, *d_bi;
    float *d_af, *d_bf, *d_cf, *d_d; int *d_di;
    CUDA_CHECK(cudaMalloc(&d_ah, sizeof ah)); CUDA_CHECK(cudaMalloc(&d_bh, sizeof bh));
    CUDA_CHECK(cudaMalloc(&d_bhr, sizeof bh_rows)); CUDA_CHECK(cudaMalloc(&d_dh, sizeof dh));
    CUDA_CHECK(cudaMalloc(&d_ab, sizeof ab)); CUDA_CHECK(cudaMalloc(&d_bb, sizeof bb));
    CUDA_CHECK(cudaMalloc(&d_ai, sizeof ai)); CUDA_CHECK(cudaMalloc(&d_bi, sizeof bi));
    CUDA_CHECK(cudaMalloc(&d_af, sizeof af)); CUDA_CHECK(cudaMalloc(&d_bf, sizeof bf));
    CUDA_CHECK(cudaMalloc(&d_cf, sizeof cf)); CUDA_CHECK(cudaMalloc(&d_d, sizeof cf));
    CUDA_CHECK(cudaMalloc(&d_di, M * N * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_ah, ah, sizeof ah, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bh, bh, sizeof bh, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bhr, bh_rows, sizeof bh_rows, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ab, ab, sizeof ab, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bb, bb, sizeof bb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ai, ai, sizeof ai, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bi, bi, sizeof bi, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_af, af, sizeof af, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bf, bf, sizeof bf, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cf, cf, sizeof cf, cudaMemcpyHostToDevice));

    int bad = 0;
    double checksum = 0;
    static float got[M * N];
    auto product = [&](float scale_c, float add, float times, bool with_c) {
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double s = with_c ? cf[m * N + n] * scale_c : add;
                for (int k = 0; k < K; k++) s += (double)af[m * K + k] * bf[n * K + k];
                want[m * N + n] = (float)(s * times);
            }
    };
    auto compare = [&](const char *what, bool col_major) {
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                int tm = m / 16, tn = n / 16, r = m % 16, c = n % 16;
                float g = col_major ? got[tm * 16 * N + tn * 16 + c * N + r] : got[m * N + n];
                checksum += g * (1 + (m + n) % 3);
                if (g != want[m * N + n] && bad++ < 8)
                    fprintf(stderr, "%s (%d,%d): %g want %g\n", what, m, n, g, want[m * N + n]);
            }
    };
    gemm_half<<<2, 64>>>(d_ah, d_bh, d_cf, d_d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_d, sizeof got, cudaMemcpyDeviceToHost));
    product(1.0f, 0, 1.0f, true);
    compare("half", false);

    gemm_half_shared<<<4, 32>>>(d_ah, d_bhr, d_d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_d, sizeof got, cudaMemcpyDeviceToHost));
    product(0, 0.5f, 2.0f, false);
    compare("half shared", true);

    gemm_bf16<<<4, 32>>>(d_ab, d_bb, d_d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_d, sizeof got, cudaMemcpyDeviceToHost));
    product(0, 0, 1.0f, false);
    compare("bf16", false);

    gemm_tf32<<<4, 32>>>(d_af, d_bf, d_d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, d_d, sizeof got, cudaMemcpyDeviceToHost));
    compare("tf32", false);

    gemm_half_acc<<<4, 32>>>(d_ah, d_bh, d_dh);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(dh, d_dh, sizeof dh, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * N; i++) got[i] = __half2float(dh[i]);
    product(0, 1.0f, 1.0f, false);
    compare("half accumulate", false);

    static int di[M * N];
    gemm_int8<<<4, 32>>>(d_ai, d_bi, d_di);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(di, d_di, sizeof di, cudaMemcpyDeviceToHost));
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int s = 7;
            for (int k = 0; k < K; k++) s += ai[m * K + k] * bi[n * K + k];
            checksum += di[m * N + n];
            if (di[m * N + n] != s && bad++ < 8) fprintf(stderr, "int8 (%d,%d): %d want %d\n", m, n, di[m * N + n], s);
        }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
