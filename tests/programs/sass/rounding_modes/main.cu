// SASS family: rounding modifiers. FADD/FMUL/FFMA/DADD/DMUL/DFMA .RZ/.RM/.RP, float<->int and
// float<->double conversions in every direction (I2F/F2I/F2F .RZ/.RM/.RP, FRND), and division and
// square root with directed rounding (their slow paths use FFMA.RZ/.RM/.RP). The CPU computes the
// same operations under fesetround, so every result must match bit for bit.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <cfenv>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 64, OUT = 24;

// CUDA's float -> integer conversions saturate and turn NaN into 0 (C leaves that undefined)
static long long sat(double v, double lo, double hi) { return v != v ? 0 : v <= lo ? (long long)lo : v >= hi ? (long long)hi : (long long)v; }
static int32_t to_i32(double v) { return (int32_t)sat(v, -2147483648.0, 2147483647.0); }
static int64_t to_i64(double v) { return v != v ? 0 : v <= -9223372036854775808.0 ? INT64_MIN : v >= 9223372036854775808.0 ? INT64_MAX : (int64_t)v; }
static uint32_t to_u32(double v) { return (uint32_t)sat(v, 0.0, 4294967295.0); }

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t dl(double d) { uint64_t u; memcpy(&u, &d, 8); return (uint32_t)u ^ (uint32_t)(u >> 32) * 3u; }

__global__ void kernel(const float *fa, const double *da, const long long *la, uint32_t *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = fa[i], y = fa[(i + 1) % N], z = fa[(i * 5 + 3) % N];
    double p = da[i], q = da[(i + 3) % N], r = da[(i * 7 + 1) % N];
    long long l = la[i];
    uint32_t *w = o + i * OUT;
    auto f = [](float v) { return __float_as_uint(v); };
    auto d = [](double v) { unsigned long long u = __double_as_longlong(v); return (uint32_t)u ^ (uint32_t)(u >> 32) * 3u; };
    w[0] = f(__fadd_rz(x, y)); w[1] = f(__fadd_rd(x, y)); w[2] = f(__fadd_ru(x, y));
    w[3] = f(__fmul_rz(x, y)); w[4] = f(__fmul_rd(x, y)); w[5] = f(__fmul_ru(x, y));
    w[6] = f(__fmaf_rz(x, y, z)); w[7] = f(__fmaf_rd(x, y, z)); w[8] = f(__fmaf_ru(x, y, z));
    w[9] = f(__fdiv_rz(x, y)); w[10] = f(__fdiv_ru(x, y)); w[11] = f(__fsqrt_rd(fabsf(x)));
    w[12] = d(__dadd_rz(p, q)); w[13] = d(__dmul_rd(p, q)); w[14] = d(__fma_ru(p, q, r));
    w[15] = d(__ddiv_rz(p, q));
    w[16] = f(__ll2float_rz(l)); w[17] = f(__ll2float_ru(l)); w[18] = f(__int2float_rd((int)l));
    w[19] = (uint32_t)__float2int_rd(x * 1e6f) ^ (uint32_t)__float2int_ru(y * 1e6f) << 1;
    w[20] = (uint32_t)__float2ll_rz(x * 1e12f) ^ (uint32_t)__double2uint_rn(fabs(p) * 1e3);
    w[21] = f(__double2float_rz(p)) ^ f(__double2float_ru(q));
    w[22] = d(__ll2double_rd((long long)((unsigned long long)l * 1000003u))) ^ (uint32_t)__double2ll_rd(p * 1e9);
    w[23] = f(rintf(x * 1e5f)) ^ f(floorf(y * 1e3f)) ^ f(ceilf(z)) ^ f(truncf(x * 77.0f));
}

static void reference(const float *fa, const double *da, const long long *la, int i, uint32_t *w)
{
    volatile float x = fa[i], y = fa[(i + 1) % N], z = fa[(i * 5 + 3) % N];
    volatile double p = da[i], q = da[(i + 3) % N], r = da[(i * 7 + 1) % N];
    volatile long long l = la[i];
    const int modes[3] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    for (int m = 0; m < 3; m++) {
        fesetround(modes[m]);
        w[0 + m] = fb(x + y);
        w[3 + m] = fb(x * y);
        w[6 + m] = fb(fmaf(x, y, z));
    }
    fesetround(FE_TOWARDZERO); w[9] = fb(x / y); w[12] = dl(p + q); w[15] = dl(p / q); w[16] = fb((float)l);
    float t1 = x * 1e6f, t2 = y * 1e6f, t3 = x * 1e12f;     // products rounded to nearest below
    w[21] = 0;
    fesetround(FE_UPWARD); w[10] = fb(x / y); w[14] = dl(fma(p, q, r)); w[17] = fb((float)l);
    fesetround(FE_DOWNWARD); w[11] = fb(sqrtf(fabsf(x))); w[13] = dl(p * q); w[18] = fb((float)(int)l);
    fesetround(FE_TONEAREST);
    t1 = x * 1e6f; t2 = y * 1e6f; t3 = x * 1e12f;
    w[19] = (uint32_t)to_i32(floorf(t1)) ^ (uint32_t)to_i32(ceilf(t2)) << 1;
    double ap = fabs(p) * 1e3;
    w[20] = (uint32_t)to_i64(truncf(t3)) ^ to_u32(nearbyint(ap));
    volatile long long big = (long long)((unsigned long long)l * 1000003u);
    volatile float c1, c2;
    volatile double c3;
    fesetround(FE_TOWARDZERO); c1 = (float)p;
    fesetround(FE_UPWARD); c2 = (float)q;
    fesetround(FE_DOWNWARD); c3 = (double)big;
    fesetround(FE_TONEAREST);
    w[21] = fb(c1) ^ fb(c2);
    w[22] = dl(c3) ^ (uint32_t)to_i64(floor(p * 1e9));
    w[23] = fb(rintf(x * 1e5f)) ^ fb(floorf(y * 1e3f)) ^ fb(ceilf(z)) ^ fb(truncf(x * 77.0f));
}

int main()
{
    float fa[N]; double da[N]; long long la[N];
    uint64_t v = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        v ^= v << 13; v ^= v >> 7; v ^= v << 17;
        fa[i] = ldexpf((float)(v >> 40) / 16777216.0f + 0.5f, (int)(v % 40) - 20) * ((v >> 3) & 1 ? -1.0f : 1.0f);
        da[i] = ldexp((double)(v >> 11) / 9007199254740992.0 + 0.5, (int)(v % 60) - 30) * ((v >> 5) & 1 ? -1.0 : 1.0);
        la[i] = (long long)(v >> (v % 20)) * ((v >> 7) & 1 ? -1 : 1);
    }
    fa[0] = 1e-45f; fa[1] = 3.4e38f; da[0] = 1.7976931348623157e308; da[3] = 1.5;
    float *d_f; double *d_d; long long *d_l; uint32_t *d_o;
    CHECK(cudaMalloc(&d_f, sizeof fa)); CHECK(cudaMalloc(&d_d, sizeof da));
    CHECK(cudaMalloc(&d_l, sizeof la)); CHECK(cudaMalloc(&d_o, N * OUT * 4));
    CHECK(cudaMemcpy(d_f, fa, sizeof fa, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_d, da, sizeof da, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_l, la, sizeof la, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_f, d_d, d_l, d_o);
    CHECK(cudaGetLastError());
    static uint32_t got[N * OUT], want[N * OUT];
    CHECK(cudaMemcpy(got, d_o, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        reference(fa, da, la, i, want + i * OUT);
        for (int j = 0; j < OUT; j++) {
            checksum = (checksum ^ got[i * OUT + j]) * 1099511628211ull;
            if (got[i * OUT + j] != want[i * OUT + j] && bad++ < 8)
                printf("row %d item %d: got %08x want %08x\n", i, j, got[i * OUT + j], want[i * OUT + j]);
        }
    }
    for (int j = 0; j < OUT; j++) printf("row 4 item %d: %08x\n", j, got[4 * OUT + j]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
