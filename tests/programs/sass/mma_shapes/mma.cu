// SASS family: warp-level MMA shapes that hand-written tensor-core kernels (CUTLASS, FlashAttention
// style inline PTX) and wmma with double use: mma.sync m16n8k8 f16 -> f32, m16n8k8 tf32 -> f32,
// m16n8k32 s8 -> s32, m16n8k16 u8 x s8, wmma 8x8x4 double (DMMA), ldmatrix .x1/.x2 (.trans).
// Each warp multiplies one tile; the fragments are loaded by the PTX ISA's documented layouts.
// All values are small integers or dyadic fractions, so every sum is exact.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>
#include <mma.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\nFAIL\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

// m16n8k8, f16 inputs, f32 accumulators. A 16x8 row-major, B 8x8 (B[k][n] at b[k*8+n]), D 16x8.
__global__ void mma_16808_f16(const half *a, const half *b, float *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    half2 a0 = __halves2half2(a[g * 8 + 2 * t], a[g * 8 + 2 * t + 1]);
    half2 a1 = __halves2half2(a[(g + 8) * 8 + 2 * t], a[(g + 8) * 8 + 2 * t + 1]);
    half2 b0 = __halves2half2(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
    float c[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(*(unsigned *)&a0), "r"(*(unsigned *)&a1), "r"(*(unsigned *)&b0));
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)] = c[i];
}

// m16n8k8, tf32 inputs (f32 bit patterns exactly representable in tf32)
__global__ void mma_16808_tf32(const float *a, const float *b, float *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a0 = __float_as_uint(a[g * 8 + t]), a1 = __float_as_uint(a[(g + 8) * 8 + t]);
    unsigned a2 = __float_as_uint(a[g * 8 + t + 4]), a3 = __float_as_uint(a[(g + 8) * 8 + t + 4]);
    unsigned b0 = __float_as_uint(b[t * 8 + g]), b1 = __float_as_uint(b[(t + 4) * 8 + g]);
    float c[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)] = c[i];
}

__device__ unsigned pack4(const signed char *p, int stride)
{
    return (unsigned)(unsigned char)p[0] | (unsigned)(unsigned char)p[stride] << 8 |
           (unsigned)(unsigned char)p[2 * stride] << 16 | (unsigned)(unsigned char)p[3 * stride] << 24;
}

// m16n8k32, s8 x s8 -> s32. A 16x32 row-major, B 32x8 (B[k][n] at b[k*8+n]).
__global__ void mma_16832_s8(const signed char *a, const signed char *b, int *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned ar[4], br[2];
    ar[0] = pack4(a + g * 32 + 4 * t, 1);
    ar[1] = pack4(a + (g + 8) * 32 + 4 * t, 1);
    ar[2] = pack4(a + g * 32 + 4 * t + 16, 1);
    ar[3] = pack4(a + (g + 8) * 32 + 4 * t + 16, 1);
    br[0] = pack4(b + (4 * t) * 8 + g, 8);
    br[1] = pack4(b + (4 * t + 16) * 8 + g, 8);
    int c[4] = {-100, 0, 100, 7};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]));
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)] = c[i];
}

// m16n8k16, u8 (A) x s8 (B) -> s32
__global__ void mma_16816_u8s8(const unsigned char *a, const signed char *b, int *d)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    const signed char *as = reinterpret_cast<const signed char *>(a);
    unsigned a0 = pack4(as + g * 16 + 4 * t, 1), a1 = pack4(as + (g + 8) * 16 + 4 * t, 1);
    unsigned b0 = pack4(b + (4 * t) * 8 + g, 8);
    int c[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(a0), "r"(a1), "r"(b0));
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >= 2)) * 8 + 2 * t + (i & 1)] = c[i];
}

// wmma 8x8x4 in double precision (DMMA)
__global__ void wmma_double(const double *a, const double *b, double *d)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::fill_fragment(acc, 0.25);
    for (int k = 0; k < 8; k += 4) {
        wmma::load_matrix_sync(fa, a + k, 8);          // A 8x8 row-major
        wmma::load_matrix_sync(fb, b + k * 8, 8);      // B 8x8 row-major
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}

// ldmatrix .x1 and .x2.trans from shared memory: each lane returns what it received
__global__ void ldmatrix_forms(const unsigned short *in, unsigned *out)
{
    __shared__ unsigned short tile[16 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 16 * 8; i += 32) tile[i] = in[i];
    __syncwarp();
    unsigned r0, r1, r2;
    unsigned addr1 = (unsigned)__cvta_generic_to_shared(&tile[(lane & 7) * 8]);
    unsigned addr2 = (unsigned)__cvta_generic_to_shared(&tile[(lane & 15) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr1));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r1), "=r"(r2) : "r"(addr2));
    out[lane * 3] = r0;
    out[lane * 3 + 1] = r1;
    out[lane * 3 + 2] = r2;
}

int main()
{
    int bad = 0;
    double checksum = 0;
    // m16n8k8 f16
    half ah[16 * 8], bh[8 * 8];
    float af[16 * 8], bf[8 * 8], df[16 * 8];
    for (int i = 0; i < 128; i++) { af[i] = (float)((i * 5) % 9 - 4) * 0.5f; ah[i] = __float2half(af[i]); }
    for (int i = 0; i < 64; i++) { bf[i] = (float)((i * 3) % 7 - 3) * 0.25f; bh[i] = __float2half(bf[i]); }
    half *d_ah, *d_bh; float *d_af, *d_bf, *d_df;
    CHECK(cudaMalloc(&d_ah, sizeof ah)); CHECK(cudaMalloc(&d_bh, sizeof bh));
    CHECK(cudaMalloc(&d_af, sizeof af)); CHECK(cudaMalloc(&d_bf, sizeof bf)); CHECK(cudaMalloc(&d_df, sizeof df));
    CHECK(cudaMemcpy(d_ah, ah, sizeof ah, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_bh, bh, sizeof bh, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_af, af, sizeof af, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_bf, bf, sizeof bf, cudaMemcpyHostToDevice));
    mma_16808_f16<<<1, 32>>>(d_ah, d_bh, d_df);
    CHECK(cudaMemcpy(df, d_df, sizeof df, cudaMemcpyDeviceToHost));
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            float want = (float)(1 + (m >= 8) * 2 + (n & 1));
            for (int k = 0; k < 8; k++) want += af[m * 8 + k] * bf[k * 8 + n];
            checksum += df[m * 8 + n];
            if (df[m * 8 + n] != want && bad++ < 5) printf("m16n8k8 f16 (%d,%d): %g want %g\n", m, n, df[m * 8 + n], want);
        }
    mma_16808_tf32<<<1, 32>>>(d_af, d_bf, d_df);
    CHECK(cudaMemcpy(df, d_df, sizeof df, cudaMemcpyDeviceToHost));
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            float want = 0.5f;
            for (int k = 0; k < 8; k++) want += af[m * 8 + k] * bf[k * 8 + n];
            checksum += 2 * df[m * 8 + n];
            if (df[m * 8 + n] != want && bad++ < 5) printf("m16n8k8 tf32 (%d,%d): %g want %g\n", m, n, df[m * 8 + n], want);
        }
    // m16n8k32 s8
    signed char a8[16 * 32], b8[32 * 8];
    unsigned char au[16 * 16];
    int d8[16 * 8];
    for (int i = 0; i < 512; i++) a8[i] = (signed char)((i * 37) % 255 - 127);
    for (int i = 0; i < 256; i++) { b8[i] = (signed char)((i * 91) % 255 - 127); au[i] = (unsigned char)(i * 53); }
    signed char *d_a8, *d_b8; unsigned char *d_au; int *d_d8;
    CHECK(cudaMalloc(&d_a8, sizeof a8)); CHECK(cudaMalloc(&d_b8, sizeof b8)); CHECK(cudaMalloc(&d_au, sizeof au));
    CHECK(cudaMalloc(&d_d8, sizeof d8));
    CHECK(cudaMemcpy(d_a8, a8, sizeof a8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_b8, b8, sizeof b8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_au, au, sizeof au, cudaMemcpyHostToDevice));
    mma_16832_s8<<<1, 32>>>(d_a8, d_b8, d_d8);
    CHECK(cudaMemcpy(d8, d_d8, sizeof d8, cudaMemcpyDeviceToHost));
    const int c0[4] = {-100, 0, 100, 7};
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            int want = c0[(m >= 8) * 2 + (n & 1)];
            for (int k = 0; k < 32; k++) want += a8[m * 32 + k] * b8[k * 8 + n];
            checksum += d8[m * 8 + n];
            if (d8[m * 8 + n] != want && bad++ < 5) printf("m16n8k32 s8 (%d,%d): %d want %d\n", m, n, d8[m * 8 + n], want);
        }
    mma_16816_u8s8<<<1, 32>>>(d_au, d_b8, d_d8);
    CHECK(cudaMemcpy(d8, d_d8, sizeof d8, cudaMemcpyDeviceToHost));
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            int want = 0;
            for (int k = 0; k < 16; k++) want += au[m * 16 + k] * b8[k * 8 + n];
            checksum += 3.0 * d8[m * 8 + n];
            if (d8[m * 8 + n] != want && bad++ < 5) printf("m16n8k16 u8.s8 (%d,%d): %d want %d\n", m, n, d8[m * 8 + n], want);
        }
    // wmma double
    double ad[64], bd[64], dd[64];
    for (int i = 0; i < 64; i++) { ad[i] = (double)((i * 11) % 13 - 6) * 0.125; bd[i] = (double)((i * 7) % 5 - 2); }
    double *d_ad, *d_bd, *d_dd;
    CHECK(cudaMalloc(&d_ad, sizeof ad)); CHECK(cudaMalloc(&d_bd, sizeof bd)); CHECK(cudaMalloc(&d_dd, sizeof dd));
    CHECK(cudaMemcpy(d_ad, ad, sizeof ad, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_bd, bd, sizeof bd, cudaMemcpyHostToDevice));
    wmma_double<<<1, 32>>>(d_ad, d_bd, d_dd);
    CHECK(cudaMemcpy(dd, d_dd, sizeof dd, cudaMemcpyDeviceToHost));
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++) {
            double want = 0.25;
            for (int k = 0; k < 8; k++) want += ad[m * 8 + k] * bd[k * 8 + n];
            checksum += dd[m * 8 + n];
            if (dd[m * 8 + n] != want && bad++ < 5) printf("wmma double (%d,%d): %g want %g\n", m, n, dd[m * 8 + n], want);
        }
    // ldmatrix
    unsigned short tile[128];
    unsigned out[96];
    for (int i = 0; i < 128; i++) tile[i] = (unsigned short)(i * 7 + 1000);
    unsigned short *d_tile; unsigned *d_out;
    CHECK(cudaMalloc(&d_tile, sizeof tile)); CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_tile, tile, sizeof tile, cudaMemcpyHostToDevice));
    ldmatrix_forms<<<1, 32>>>(d_tile, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        unsigned w0 = tile[g * 8 + 2 * t] | (unsigned)tile[g * 8 + 2 * t + 1] << 16;
        unsigned w1 = tile[(2 * t) * 8 + g] | (unsigned)tile[(2 * t + 1) * 8 + g] << 16;
        unsigned w2 = tile[(8 + 2 * t) * 8 + g] | (unsigned)tile[(8 + 2 * t + 1) * 8 + g] << 16;
        checksum += (double)(out[lane * 3] ^ out[lane * 3 + 1] ^ out[lane * 3 + 2]);
        if ((out[lane * 3] != w0 || out[lane * 3 + 1] != w1 || out[lane * 3 + 2] != w2) && bad++ < 5)
            printf("ldmatrix lane %d: %08x %08x %08x want %08x %08x %08x\n", lane, out[lane * 3], out[lane * 3 + 1],
                   out[lane * 3 + 2], w0, w1, w2);
    }
    CHECK(cudaGetLastError());
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
