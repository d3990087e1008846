// Math functions and integer intrinsics: single and double precision library functions and
// fast intrinsics checked against the host's libm within each function's documented error,
// and bit intrinsics (popc, clz, ffs, brev, byte_perm, funnel shifts, mulhi, sad, dp4a)
// checked exactly. The checksum comes from the exact integer results only.
#include <cmath>
#include <cstdio>
#include <cstdint>

constexpr int N = 64, FLOATS = 16, INTS = 12;

__global__ void math(const float *x, const double *dx, const unsigned *u, float *fo, double *dout,
                     long long *io)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float a = x[i];
    float s, c;
    sincosf(a, &s, &c);
    float *f = fo + FLOATS * i;
    f[0] = sinf(a);
    f[1] = cosf(a);
    f[2] = expf(a);
    f[3] = logf(a + 4.0f);
    f[4] = sqrtf(a + 4.0f);
    f[5] = rsqrtf(a + 4.0f);
    f[6] = powf(a + 4.0f, 1.5f);
    f[7] = tanhf(a);
    f[8] = erff(a);
    f[9] = fmaf(a, a, 1.0f);
    f[10] = s * s + c * c;
    f[11] = __expf(a);
    f[12] = __logf(a + 4.0f);
    f[13] = __sinf(a);
    f[14] = __fdividef(a, 3.0f);
    f[15] = atan2f(a, 1.5f) + cbrtf(a) + hypotf(a, 2.0f);
    double d = dx[i];
    dout[3 * i + 0] = sin(d) + cos(d);
    dout[3 * i + 1] = exp(d) * log(d + 4.0);
    dout[3 * i + 2] = sqrt(d + 4.0) + fma(d, d, 0.5);
    unsigned v = u[i], w = u[(i + 1) % N];
    long long *o = io + INTS * i;
    o[0] = __popc(v);
    o[1] = __clz(v);
    o[2] = __ffs(v);
    o[3] = __brev(v);
    o[4] = __byte_perm(v, w, 0x5140);
    o[5] = __funnelshift_l(v, w, 7);
    o[6] = __funnelshift_r(v, w, 35);
    o[7] = __umulhi(v, w);
    o[8] = __usad(v & 0xffff, w & 0xffff, 3);
    o[9] = __dp4a((int)v, (int)w, 5);
    o[10] = __popcll(((unsigned long long)v << 32) | w) + __clzll((unsigned long long)w);
    o[11] = (long long)__mul24((int)(v & 0x7fffff), (int)(w & 0xff)) + __float_as_int(1.0f)
            + __float2int_rn(a * 10.5f);
}

static int close(double got, double want, double rel, double abs_)
{
    return fabs(got - want) <= abs_ + rel * fabs(want);
}

int main()
{
    float h_x[N];
    double h_dx[N];
    unsigned h_u[N];
    for (int i = 0; i < N; i++) {
        h_x[i] = (float)(i - N / 2) / 16.0f;          // [-2, 2)
        h_dx[i] = (double)(i - N / 2) / 10.0;
        h_u[i] = 0x9E3779B9u * (unsigned)(i + 1) ^ (unsigned)(i << 20);
    }
    h_u[3] = 0;
    float *d_x, *d_f, h_f[FLOATS * N];
    double *d_dx, *d_d, h_d[3 * N];
    unsigned *d_u;
    long long *d_i, h_i[INTS * N];
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_dx, sizeof h_dx);
    cudaMalloc(&d_u, sizeof h_u);
    cudaMalloc(&d_f, sizeof h_f);
    cudaMalloc(&d_d, sizeof h_d);
    cudaMalloc(&d_i, sizeof h_i);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    cudaMemcpy(d_dx, h_dx, sizeof h_dx, cudaMemcpyHostToDevice);
    cudaMemcpy(d_u, h_u, sizeof h_u, cudaMemcpyHostToDevice);
    math<<<2, 32>>>(d_x, d_dx, d_u, d_f, d_d, d_i);
    cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost);
    cudaError_t err = cudaMemcpy(h_i, d_i, sizeof h_i, cudaMemcpyDeviceToHost);
    int bad = err != cudaSuccess;
    long long checksum = 0;
    for (int i = 0; i < N; i++) {
        double a = h_x[i];
        double wf[FLOATS] = {sin(a), cos(a), exp(a), log(a + 4), sqrt(a + 4), 1 / sqrt(a + 4),
                             pow(a + 4, 1.5), tanh(a), erf(a), a * a + 1, 1.0, exp(a), log(a + 4),
                             sin(a), a / 3, atan2(a, 1.5) + cbrt(a) + hypot(a, 2.0)};
        for (int k = 0; k < FLOATS; k++) {
            double rel = k >= 11 && k <= 13 ? 2e-3 : 4e-6;     // fast intrinsics are coarser
            if (!close(h_f[FLOATS * i + k], wf[k], rel, k == 13 ? 1e-3 : 1e-6)) {
                if (bad < 5) printf("float %d[%d]: %.9g want %.9g\n", i, k, h_f[FLOATS * i + k], wf[k]);
                bad++;
            }
        }
        double d = h_dx[i];
        double wd[3] = {sin(d) + cos(d), exp(d) * log(d + 4), sqrt(d + 4) + d * d + 0.5};
        for (int k = 0; k < 3; k++)
            if (!close(h_d[3 * i + k], wd[k], 1e-13, 1e-15)) {
                if (bad < 5) printf("double %d[%d]: %.17g want %.17g\n", i, k, h_d[3 * i + k], wd[k]);
                bad++;
            }
        uint32_t v = h_u[i], w = h_u[(i + 1) % N];
        long long wi[INTS];
        wi[0] = __builtin_popcount(v);
        wi[1] = v ? __builtin_clz(v) : 32;
        wi[2] = v ? __builtin_ctz(v) + 1 : 0;
        uint32_t r = 0;
        for (int b = 0; b < 32; b++) r |= ((v >> b) & 1u) << (31 - b);
        wi[3] = r;
        uint64_t both = ((uint64_t)w << 32) | v;
        uint32_t perm = 0;
        for (int k = 0; k < 4; k++) perm |= (uint32_t)((both >> (8 * ((0x5140 >> (4 * k)) & 7))) & 0xff) << (8 * k);
        wi[4] = perm;
        wi[5] = (uint32_t)((((uint64_t)w << 32) | v) << 7 >> 32);
        wi[6] = (uint32_t)((((uint64_t)w << 32) | v) >> (35 & 31));
        wi[7] = (uint32_t)(((uint64_t)v * w) >> 32);
        int dv = (int)(v & 0xffff) - (int)(w & 0xffff);
        wi[8] = (uint32_t)((dv < 0 ? -dv : dv) + 3);
        int dp = 5;
        for (int k = 0; k < 4; k++) dp += (int8_t)(v >> (8 * k)) * (int8_t)(w >> (8 * k));
        wi[9] = dp;
        uint64_t big = ((uint64_t)v << 32) | w;
        wi[10] = __builtin_popcountll(big) + (w ? __builtin_clz(w) + 32 : 64);
        wi[11] = (long long)(int)((v & 0x7fffff) * (w & 0xff)) + 0x3f800000 + (long long)lrintf(h_x[i] * 10.5f);
        for (int k = 0; k < INTS; k++) {
            if (h_i[INTS * i + k] != wi[k]) {
                if (bad < 5) printf("int %d[%d]: %lld want %lld\n", i, k, h_i[INTS * i + k], wi[k]);
                bad++;
            }
            checksum += h_i[INTS * i + k];
        }
    }
    cudaFree(d_x);
    cudaFree(d_dx);
    cudaFree(d_u);
    cudaFree(d_f);
    cudaFree(d_d);
    cudaFree(d_i);
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
