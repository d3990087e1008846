// Tensor-core inline PTX as hand-written GEMM and attention kernels use it: mma.sync.aligned
// m16n8k8/m16n8k16 with f16 (f32 and f16 accumulators), bf16, tf32, s8 and u8 x s8 inputs, and
// ldmatrix .x1/.x2/.x4 with and without .trans. One warp per tile; each lane builds its fragments
// by the PTX ISA's layouts (lane = 4g + t: A rows g and g+8, B column g, D rows g, g+8 at
// columns 2t, 2t+1). All inputs are small integers or dyadic fractions, so every sum is exact.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

static unsigned rng = 2024;
static int next_small(int range) { rng = rng * 1103515245u + 12345u; return (int)((rng >> 16) % (2 * range + 1)) - range; }

// ---------------------------------------------------------------- device: fragments
__device__ unsigned pack_h(float lo, float hi)
{
    return (unsigned)__half_as_ushort(__float2half(lo)) | (unsigned)__half_as_ushort(__float2half(hi)) << 16;
}

__device__ unsigned pack_bf(float lo, float hi)
{
    return (unsigned)__bfloat16_as_ushort(__float2bfloat16(lo)) |
           (unsigned)__bfloat16_as_ushort(__float2bfloat16(hi)) << 16;
}

__device__ unsigned pack_b(const int *p, int stride)
{
    return (unsigned)(p[0] & 255) | (unsigned)(p[stride] & 255) << 8 | (unsigned)(p[2 * stride] & 255) << 16 |
           (unsigned)(p[3 * stride] & 255) << 24;
}

__device__ void store_d(float *d, const float c[4], int g, int t)
{
    for (int i = 0; i < 4; i++) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = c[i];
}

// A is 16xK row-major (a[r*K+k]), B is Kx8 (b[k*8+n]), values as float (or int)
__global__ void mma_f16(const float *a, const float *b, float *d8, float *d16, float *dh)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    // m16n8k8, f32 accumulators
    unsigned a0 = pack_h(a[g * 16 + 2 * t], a[g * 16 + 2 * t + 1]);
    unsigned a1 = pack_h(a[(g + 8) * 16 + 2 * t], a[(g + 8) * 16 + 2 * t + 1]);
    unsigned b0 = pack_h(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
    float c[4] = {1.0f, -2.0f, 0.5f, 4.0f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a0), "r"(a1), "r"(b0));
    store_d(d8, c, g, t);
    // m16n8k16 with f32 and with f16 accumulators
    unsigned a2 = pack_h(a[g * 16 + 2 * t + 8], a[g * 16 + 2 * t + 9]);
    unsigned a3 = pack_h(a[(g + 8) * 16 + 2 * t + 8], a[(g + 8) * 16 + 2 * t + 9]);
    unsigned b1 = pack_h(b[(2 * t + 8) * 8 + g], b[(2 * t + 9) * 8 + g]);
    float e[4] = {0.0f, 0.25f, -1.0f, 3.0f};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    store_d(d16, e, g, t);
    unsigned h0 = pack_h(1.0f, 2.0f), h1 = pack_h(-0.5f, 8.0f);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    float hv[4] = {__half2float(__ushort_as_half(h0 & 0xffff)), __half2float(__ushort_as_half(h0 >> 16)),
                   __half2float(__ushort_as_half(h1 & 0xffff)), __half2float(__ushort_as_half(h1 >> 16))};
    store_d(dh, hv, g, t);
}

__global__ void mma_bf16_tf32(const float *a, const float *b, float *dbf, float *dtf)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a0 = pack_bf(a[g * 16 + 2 * t], a[g * 16 + 2 * t + 1]);
    unsigned a1 = pack_bf(a[(g + 8) * 16 + 2 * t], a[(g + 8) * 16 + 2 * t + 1]);
    unsigned a2 = pack_bf(a[g * 16 + 2 * t + 8], a[g * 16 + 2 * t + 9]);
    unsigned a3 = pack_bf(a[(g + 8) * 16 + 2 * t + 8], a[(g + 8) * 16 + 2 * t + 9]);
    unsigned b0 = pack_bf(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
    unsigned b1 = pack_bf(b[(2 * t + 8) * 8 + g], b[(2 * t + 9) * 8 + g]);
    float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    store_d(dbf, c, g, t);
    // tf32 m16n8k8: the first 8 columns of A and rows of B
    unsigned t0 = __float_as_uint(a[g * 16 + t]), t1 = __float_as_uint(a[(g + 8) * 16 + t]);
    unsigned t2 = __float_as_uint(a[g * 16 + t + 4]), t3 = __float_as_uint(a[(g + 8) * 16 + t + 4]);
    unsigned u0 = __float_as_uint(b[t * 8 + g]), u1 = __float_as_uint(b[(t + 4) * 8 + g]);
    float e[4] = {2.0f, 2.0f, 2.0f, 2.0f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3])
                 : "r"(t0), "r"(t1), "r"(t2), "r"(t3), "r"(u0), "r"(u1));
    store_d(dtf, e, g, t);
}

// integer inputs: A 16x32 (ia[r*32+k]), B 32x8 (ib[k*8+n])
__global__ void mma_int(const int *ia, const int *ib, int *ds8, int *du8)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a0 = pack_b(ia + g * 32 + 4 * t, 1), a1 = pack_b(ia + (g + 8) * 32 + 4 * t, 1);
    unsigned a2 = pack_b(ia + g * 32 + 4 * t + 16, 1), a3 = pack_b(ia + (g + 8) * 32 + 4 * t + 16, 1);
    unsigned b0 = pack_b(ib + (4 * t) * 8 + g, 8), b1 = pack_b(ib + (4 * t + 16) * 8 + g, 8);
    int c[4] = {-100, 0, 100, 7};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    for (int i = 0; i < 4; i++) ds8[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = c[i];
    // u8 x s8, m16n8k16: A's first 16 columns read as unsigned bytes
    int e[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+r"(e[0]), "+r"(e[1]), "+r"(e[2]), "+r"(e[3]) : "r"(a0), "r"(a1), "r"(b0));
    for (int i = 0; i < 4; i++) du8[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = e[i];
}

// ldmatrix: a 32x8 tile of 16-bit values in shared memory; each lane returns what it received
__global__ void ldmatrix_forms(const unsigned short *in, unsigned *out)
{
    __shared__ unsigned short tile[32 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 32 * 8; i += 32) tile[i] = in[i];
    __syncwarp();
    unsigned r[7];
    unsigned row8 = (unsigned)__cvta_generic_to_shared(&tile[(lane & 7) * 8]);
    unsigned row16 = (unsigned)__cvta_generic_to_shared(&tile[(lane & 15) * 8]);
    unsigned row32 = (unsigned)__cvta_generic_to_shared(&tile[lane * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(row8));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[1]), "=r"(r[2]) : "r"(row16));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]) : "r"(row32));
    for (int i = 0; i < 7; i++) out[lane * 7 + i] = r[i];
}

int main()
{
    float a[16 * 16], b[16 * 8];
    int ia[16 * 32], ib[32 * 8];
    unsigned short tin[32 * 8];
    for (int i = 0; i < 16 * 16; i++) a[i] = next_small(8) * 0.25f;
    for (int i = 0; i < 16 * 8; i++) b[i] = next_small(6) * 0.5f;
    for (int i = 0; i < 16 * 32; i++) ia[i] = next_small(127);
    for (int i = 0; i < 32 * 8; i++) ib[i] = next_small(127);
    for (int i = 0; i < 32 * 8; i++) tin[i] = (unsigned short)(i * 37 + 11);

    float *d_a, *d_b, *d_out;
    int *d_ia, *d_ib, *d_iout;
    unsigned short *d_tin;
    unsigned *d_lm;
    cudaMalloc(&d_a, sizeof a);
    cudaMalloc(&d_b, sizeof b);
    cudaMalloc(&d_out, 5 * 128 * sizeof(float));
    cudaMalloc(&d_ia, sizeof ia);
    cudaMalloc(&d_ib, sizeof ib);
    cudaMalloc(&d_iout, 2 * 128 * sizeof(int));
    cudaMalloc(&d_tin, sizeof tin);
    cudaMalloc(&d_lm, 32 * 7 * sizeof(unsigned));
    cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice);
    cudaMemcpy(d_ia, ia, sizeof ia, cudaMemcpyHostToDevice);
    cudaMemcpy(d_ib, ib, sizeof ib, cudaMemcpyHostToDevice);
    cudaMemcpy(d_tin, tin, sizeof tin, cudaMemcpyHostToDevice);
    mma_f16<<<1, 32>>>(d_a, d_b, d_out, d_out + 128, d_out + 256);
    mma_bf16_tf32<<<1, 32>>>(d_a, d_b, d_out + 384, d_out + 512);
    mma_int<<<1, 32>>>(d_ia, d_ib, d_iout, d_iout + 128);
    ldmatrix_forms<<<1, 32>>>(d_tin, d_lm);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s\nFAIL\n", cudaGetErrorString(err));
        return 1;
    }
    float out[5 * 128];
    int iout[2 * 128];
    unsigned lm[32 * 7];
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(iout, d_iout, sizeof iout, cudaMemcpyDeviceToHost);
    cudaMemcpy(lm, d_lm, sizeof lm, cudaMemcpyDeviceToHost);

    int errors = 0;
    unsigned long long hash = 1469598103934665603ull;
    auto check = [&](const char *what, int i, double got, double want) {
        long long bits = (long long)(got * 1024.0);
        hash = (hash ^ (unsigned long long)bits) * 1099511628211ull;
        if (got != want && errors++ < 10) printf("mismatch %s[%d]: got %g want %g\n", what, i, got, want);
    };
    const float c8[4] = {1.0f, -2.0f, 0.5f, 4.0f}, c16[4] = {0.0f, 0.25f, -1.0f, 3.0f};
    const float ch[4] = {1.0f, 2.0f, -0.5f, 8.0f};
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            int slot = (r >= 8) * 2 + (n & 1);     // which accumulator register holds (r, n)
            double s8 = 0, s16 = 0, sbf = 0, stf = 0;
            long long i32 = 0, u16 = 0;
            for (int k = 0; k < 16; k++) {
                double p = (double)a[r * 16 + k] * b[k * 8 + n];
                if (k < 8) s8 += p, stf += p;
                s16 += p;
                sbf += p;
            }
            for (int k = 0; k < 32; k++) i32 += (long long)ia[r * 32 + k] * ib[k * 8 + n];
            for (int k = 0; k < 16; k++) u16 += (long long)(ia[r * 32 + k] & 255) * ib[k * 8 + n];
            int i = r * 8 + n;
            check("f16 k8", i, out[i], s8 + c8[slot]);
            check("f16 k16", i, out[128 + i], s16 + c16[slot]);
            check("f16 k16 f16-acc", i, out[256 + i], s16 + ch[slot]);   // exact in half too
            check("bf16 k16", i, out[384 + i], sbf);
            check("tf32 k8", i, out[512 + i], stf + 2.0);
            check("s8 k32", i, iout[i], (double)(int)(i32 + (slot == 0 ? -100 : slot == 1 ? 0 : slot == 2 ? 100 : 7)));
            check("u8s8 k16", i, iout[128 + i], (double)u16);
        }
    for (int l = 0; l < 32; l++) {
        unsigned want[7];
        // .x1: matrix 0 (rows 0..7), lane l gets row l/4, columns 2(l%4), 2(l%4)+1
        want[0] = tin[(l >> 2) * 8 + 2 * (l & 3)] | (unsigned)tin[(l >> 2) * 8 + 2 * (l & 3) + 1] << 16;
        // .x2.trans: matrix i = rows 8i..8i+7; lane l gets column l/4 of rows 2(l%4), 2(l%4)+1
        for (int i = 0; i < 2; i++)
            want[1 + i] = tin[(8 * i + 2 * (l & 3)) * 8 + (l >> 2)] |
                          (unsigned)tin[(8 * i + 2 * (l & 3) + 1) * 8 + (l >> 2)] << 16;
        // .x4: matrices of rows 0..7, 8..15, 16..23, 24..31
        for (int i = 0; i < 4; i++)
            want[3 + i] = tin[(8 * i + (l >> 2)) * 8 + 2 * (l & 3)] |
                          (unsigned)tin[(8 * i + (l >> 2)) * 8 + 2 * (l & 3) + 1] << 16;
        for (int i = 0; i < 7; i++) check("ldmatrix", l * 7 + i, lm[l * 7 + i], want[i]);
    }
    printf("checksum: %llu\n", hash % 1000000007ull);
    printf("%s\n", errors ? "FAIL" : "PASS");
    return errors ? 1 : 0;
}
