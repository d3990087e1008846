// The directed-rounding and conversion intrinsics that interval arithmetic, fixed-point and
// quantisation code uses: __fadd/__fsub/__fmul/__fmaf/__fdiv/__frcp/__fsqrt _rn/_rz/_rd/_ru,
// the same for double (__dadd_rd, __dmul_ru, __fma_rz, __ddiv_rd, __drcp_ru, __dsqrt_rz),
// __float2int_r*, __float2uint_r*, __float2ll_r*, __double2int_r*, __double2float_r*,
// __int2float_r*, __ll2float_r*, __ull2double_r*, __float2half_r*, __half2int_r*,
// __double2hiint/__hiloint2double, __float_as_uint and __saturatef. The checks are the defining
// properties (a directed result brackets the exact one and is at most one ulp away; RN is the
// nearest; conversions agree with the host's exactly rounded ones).
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
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

constexpr int N = 64, FOUTS = 28, DOUTS = 24, IOUTS = 24;

__global__ void float_kernel(const float *x, const float *y, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i], b = y[i];
    float *r = o + i * FOUTS;
    r[0] = __fadd_rn(a, b); r[1] = __fadd_rz(a, b); r[2] = __fadd_rd(a, b); r[3] = __fadd_ru(a, b);
    r[4] = __fmul_rn(a, b); r[5] = __fmul_rz(a, b); r[6] = __fmul_rd(a, b); r[7] = __fmul_ru(a, b);
    r[8] = __fmaf_rn(a, b, 0.1f); r[9] = __fmaf_rz(a, b, 0.1f); r[10] = __fmaf_rd(a, b, 0.1f); r[11] = __fmaf_ru(a, b, 0.1f);
    r[12] = __fdiv_rn(a, b); r[13] = __fdiv_rz(a, b); r[14] = __fdiv_rd(a, b); r[15] = __fdiv_ru(a, b);
    r[16] = __frcp_rn(b); r[17] = __frcp_rz(b); r[18] = __frcp_rd(b); r[19] = __frcp_ru(b);
    float p = fabsf(a) + 1e-3f;
    r[20] = __fsqrt_rn(p); r[21] = __fsqrt_rz(p); r[22] = __fsqrt_rd(p); r[23] = __fsqrt_ru(p);
    r[24] = __fsub_rn(a, b); r[25] = __fsub_rz(a, b); r[26] = __fsub_rd(a, b); r[27] = __fsub_ru(a, b);
}

__global__ void double_kernel(const double *x, const double *y, double *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = x[i], b = y[i];
    double *r = o + i * DOUTS;
    r[0] = __dadd_rn(a, b); r[1] = __dadd_rz(a, b); r[2] = __dadd_rd(a, b); r[3] = __dadd_ru(a, b);
    r[4] = __dmul_rn(a, b); r[5] = __dmul_rz(a, b); r[6] = __dmul_rd(a, b); r[7] = __dmul_ru(a, b);
    r[8] = __fma_rn(a, b, 0.1); r[9] = __fma_rz(a, b, 0.1); r[10] = __fma_rd(a, b, 0.1); r[11] = __fma_ru(a, b, 0.1);
    r[12] = __ddiv_rn(a, b); r[13] = __ddiv_rz(a, b); r[14] = __ddiv_rd(a, b); r[15] = __ddiv_ru(a, b);
    r[16] = __drcp_rn(b); r[17] = __drcp_rz(b); r[18] = __drcp_rd(b); r[19] = __drcp_ru(b);
    double p = fabs(a) + 1e-3;
    r[20] = __dsqrt_rn(p); r[21] = __dsqrt_rz(p); r[22] = __dsqrt_rd(p); r[23] = __dsqrt_ru(p);
}

__global__ void convert_kernel(const float *x, const double *y, const long long *z, int *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i] * 1000.0f;
    double d = y[i] * 1e6;
    long long l = z[i];
    int *r = o + i * IOUTS;
    r[0] = __float2int_rn(a); r[1] = __float2int_rz(a); r[2] = __float2int_rd(a); r[3] = __float2int_ru(a);
    r[4] = (int)__float2uint_rn(fabsf(a)); r[5] = (int)__float2uint_ru(fabsf(a));
    r[6] = (int)(__float2ll_rd(a * 1e6f) >> 12); r[7] = (int)(__float2ull_ru(fabsf(a) * 1e6f) >> 12);
    r[8] = __double2int_rn(d); r[9] = __double2int_rz(d); r[10] = __double2int_rd(d); r[11] = __double2int_ru(d);
    r[12] = (int)__float_as_uint(__double2float_rd(y[i])); r[13] = (int)__float_as_uint(__double2float_ru(y[i]));
    r[14] = (int)__float_as_uint(__double2float_rz(y[i])); r[15] = (int)__float_as_uint(__int2float_rd((int)(d * 37.0)));
    r[16] = (int)__float_as_uint(__ll2float_ru(l)); r[17] = (int)__float_as_uint(__ull2float_rz((unsigned long long)l));
    r[18] = (int)(__double_as_longlong(__ull2double_rd((unsigned long long)l * 2654435761ull)) >> 20);
    r[19] = __double2hiint(__hiloint2double(r[0], r[9]) * 2.0);
    r[20] = (int)__half_as_ushort(__float2half_rd(x[i])) | (int)__half_as_ushort(__float2half_ru(x[i])) << 16;
    r[21] = (int)__half_as_ushort(__float2half_rz(x[i] * 3.0f)) | __half2int_rd(__float2half(a * 0.01f)) << 16;
    r[22] = __half2int_ru(__float2half(a * 0.01f)) * 1000 + __half2int_rz(__float2half(a * 0.01f));
    r[23] = (int)__float_as_uint(__saturatef(x[i] * 2.0f));
}

// ---- host references: the host FPU with its rounding mode set ----
static const int MODES[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

// the operands pass through volatile copies, so the compiler cannot evaluate the operation before
// fesetround changes the mode (it assumes round-to-nearest otherwise)
template <typename T> static T vol(T v) { volatile T t = v; return t; }

template <typename F> static auto rounded(int mode, F f) -> decltype(f())
{
    fesetround(MODES[mode]);
    volatile auto v = f();
    fesetround(FE_TONEAREST);
    return v;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t dbits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

int main()
{
    static float x[N], y[N], fo[N * FOUTS];
    static double dx[N], dy[N], dout[N * DOUTS];
    static long long z[N];
    static int io[N * IOUTS];
    uint32_t s = 0x1234567u;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u; x[i] = ((int)(s >> 8) - (1 << 23)) * (1.0f / 1048576.0f);
        s = s * 1664525u + 1013904223u; y[i] = ((s >> 8) | 1) * (1.0f / 4194304.0f) * ((s & 1) ? 1.0f : -1.0f);
        dx[i] = (double)x[i] / 3.0; dy[i] = (double)y[i] * 1.0000001;
        s = s * 1664525u + 1013904223u; z[i] = ((long long)s << 29) ^ ((long long)(i * 7919) << 3) ^ (i & 1 ? -1LL << 62 : 0);
    }
    x[0] = 0.5f; y[0] = 3.0f; x[1] = -2.5f; y[1] = 0.5f;   // ties and exact cases
    float *d_x, *d_y, *d_fo; double *d_dx, *d_dy, *d_do; long long *d_z; int *d_io;
    CUDA_CHECK(cudaMalloc(&d_x, sizeof x)); CUDA_CHECK(cudaMalloc(&d_y, sizeof y)); CUDA_CHECK(cudaMalloc(&d_fo, sizeof fo));
    CUDA_CHECK(cudaMalloc(&d_dx, sizeof dx)); CUDA_CHECK(cudaMalloc(&d_dy, sizeof dy)); CUDA_CHECK(cudaMalloc(&d_do, sizeof dout));
    CUDA_CHECK(cudaMalloc(&d_z, sizeof z)); CUDA_CHECK(cudaMalloc(&d_io, sizeof io));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice)); CUDA_CHECK(cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_dx, dx, sizeof dx, cudaMemcpyHostToDevice)); CUDA_CHECK(cudaMemcpy(d_dy, dy, sizeof dy, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_z, z, sizeof z, cudaMemcpyHostToDevice));
    float_kernel<<<N / 32, 32>>>(d_x, d_y, d_fo);
    double_kernel<<<N / 32, 32>>>(d_dx, d_dy, d_do);
    convert_kernel<<<N / 32, 32>>>(d_x, d_dx, d_z, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(fo, d_fo, sizeof fo, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(dout, d_do, sizeof dout, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(io, d_io, sizeof io, cudaMemcpyDeviceToHost));
    int bad = 0;
    uint64_t checksum = 0;
    for (int i = 0; i < N; i++) {
        float a = x[i], b = y[i], p = fabsf(a) + 1e-3f;
        for (int m = 0; m < 4; m++) {
            float want[7] = {rounded(m, [&] { return vol(a) + vol(b); }), rounded(m, [&] { return vol(a) * vol(b); }),
                             rounded(m, [&] { return fmaf(vol(a), vol(b), 0.1f); }), rounded(m, [&] { return vol(a) / vol(b); }),
                             rounded(m, [&] { return 1.0f / vol(b); }), rounded(m, [&] { return sqrtf(vol(p)); }),
                             rounded(m, [&] { return vol(a) - vol(b); })};
            for (int op = 0; op < 7; op++) {
                float got = fo[i * FOUTS + op * 4 + m];
                checksum = checksum * 31 + fbits(got);
                if (fbits(got) != fbits(want[op]) && bad++ < 10)
                    fprintf(stderr, "float op %d mode %d (%a, %a): %a want %a\n", op, m, a, b, got, want[op]);
            }
        }
        double da = dx[i], db = dy[i], dp = fabs(da) + 1e-3;
        for (int m = 0; m < 4; m++) {
            double want[6] = {rounded(m, [&] { return vol(da) + vol(db); }), rounded(m, [&] { return vol(da) * vol(db); }),
                              rounded(m, [&] { return fma(vol(da), vol(db), 0.1); }), rounded(m, [&] { return vol(da) / vol(db); }),
                              rounded(m, [&] { return 1.0 / vol(db); }), rounded(m, [&] { return sqrt(vol(dp)); })};
            for (int op = 0; op < 6; op++) {
                double got = dout[i * DOUTS + op * 4 + m];
                checksum = checksum * 31 + dbits(got);
                if (dbits(got) != dbits(want[op]) && bad++ < 10)
                    fprintf(stderr, "double op %d mode %d (%a, %a): %a want %a\n", op, m, da, db, got, want[op]);
            }
        }
        float fa = x[i] * 1000.0f;
        double d = dx[i] * 1e6;
        long long l = z[i];
        int want[IOUTS];
        want[0] = (int)nearbyintf(fa); want[1] = (int)truncf(fa); want[2] = (int)floorf(fa); want[3] = (int)ceilf(fa);
        want[4] = (int)(unsigned)nearbyintf(fabsf(fa)); want[5] = (int)(unsigned)ceilf(fabsf(fa));
        want[6] = (int)((long long)floorf(fa * 1e6f) >> 12); want[7] = (int)((unsigned long long)ceilf(fabsf(fa) * 1e6f) >> 12);
        want[8] = (int)nearbyint(d); want[9] = (int)trunc(d); want[10] = (int)floor(d); want[11] = (int)ceil(d);
        want[12] = (int)fbits(rounded(2, [&] { return (float)vol(dx[i]); }));
        want[13] = (int)fbits(rounded(3, [&] { return (float)vol(dx[i]); }));
        want[14] = (int)fbits(rounded(1, [&] { return (float)vol(dx[i]); }));
        int scaled = (int)(d * 37.0);
        want[15] = (int)fbits(rounded(2, [&] { return (float)vol(scaled); }));
        want[16] = (int)fbits(rounded(3, [&] { return (float)vol(l); }));
        want[17] = (int)fbits(rounded(1, [&] { return (float)(unsigned long long)vol(l); }));
        want[18] = (int)(dbits(rounded(2, [&] { return (double)((unsigned long long)vol(l) * 2654435761ull); })) >> 20);
        uint64_t hilo = (uint64_t)(uint32_t)want[0] << 32 | (uint32_t)want[9];
        double hd; memcpy(&hd, &hilo, 8); hd *= 2.0;
        want[19] = (int)(dbits(hd) >> 32);
        for (int k = 0; k < 20; k++) {
            checksum = checksum * 31 + (uint32_t)io[i * IOUTS + k];
            if (io[i * IOUTS + k] != want[k] && bad++ < 10)
                fprintf(stderr, "conversion %d (x=%a): %d (0x%08x) want %d (0x%08x)\n", k, x[i], io[i * IOUTS + k],
                        io[i * IOUTS + k], want[k], want[k]);
        }
        // half conversions: compare against the exactly rounded values computed in double
        auto half_dir = [](float v, int mode) {   // bits of v rounded to half in the direction
            float lo = __half2float(__float2half_rn(v));
            __half hn = __float2half_rn(v);
            unsigned short b = __half_as_ushort(hn);
            if (lo == v) return (int)b;
            bool up = lo < v;   // rn went down when up is true
            bool want_up = mode == 3 || (mode == 1 && v < 0);
            bool want_down = mode == 2 || (mode == 1 && v > 0);
            if (up && want_up) return (int)(unsigned short)(v > 0 ? b + 1 : b - 1);
            if (!up && want_down) return (int)(unsigned short)(v > 0 ? b - 1 : b + 1);
            return (int)b;
        };
        int w20 = half_dir(x[i], 2) | half_dir(x[i], 3) << 16;
        float h3 = x[i] * 3.0f, hv = __half2float(__float2half(fa * 0.01f));
        int w21 = half_dir(h3, 1) | (int)floorf(hv) << 16;
        int w22 = (int)ceilf(hv) * 1000 + (int)truncf(hv);
        float sat = x[i] * 2.0f;
        int w23 = (int)fbits(sat < 0 ? 0.0f : sat > 1 ? 1.0f : sat);
        int w[4] = {w20, w21, w22, w23};
        for (int k = 0; k < 4; k++) {
            checksum = checksum * 31 + (uint32_t)io[i * IOUTS + 20 + k];
            if (io[i * IOUTS + 20 + k] != w[k] && bad++ < 10)
                fprintf(stderr, "half/saturate %d (x=%a): 0x%08x want 0x%08x\n", k, x[i], io[i * IOUTS + 20 + k], w[k]);
        }
    }
    printf("checksum: %llu\n", (unsigned long long)(checksum % 1000000007ull));
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
