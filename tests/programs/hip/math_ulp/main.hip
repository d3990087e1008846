// Device math against the host's libm: each function within a stated ulp budget (the OCML
// bounds: 4 ulp for the single-precision transcendental functions, 1 for sqrt, 2 for double).
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <cstdint>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

const int N = 64, NF = 6, ND = 3;

__global__ void math_f(const float* x, float* out) {
    int i = threadIdx.x;
    float v = x[i];
    out[0 * N + i] = sinf(v);
    out[1 * N + i] = cosf(v);
    out[2 * N + i] = expf(v * 0.5f);
    out[3 * N + i] = logf(fabsf(v) + 0.5f);
    out[4 * N + i] = sqrtf(fabsf(v));
    out[5 * N + i] = powf(fabsf(v) + 1.0f, 1.7f);
}

__global__ void math_d(const double* x, double* out) {
    int i = threadIdx.x;
    double v = x[i];
    out[0 * N + i] = sin(v);
    out[1 * N + i] = exp(v * 0.5);
    out[2 * N + i] = sqrt(fabs(v));
}

static int64_t ulps_f(float a, float b) {
    int32_t ia, ib;
    memcpy(&ia, &a, 4); memcpy(&ib, &b, 4);
    if (ia < 0) ia = INT32_MIN - ia;
    if (ib < 0) ib = INT32_MIN - ib;
    return ia > ib ? (int64_t)ia - ib : (int64_t)ib - ia;
}

static int64_t ulps_d(double a, double b) {
    int64_t ia, ib;
    memcpy(&ia, &a, 8); memcpy(&ib, &b, 8);
    if (ia < 0) ia = INT64_MIN - ia;
    if (ib < 0) ib = INT64_MIN - ib;
    return ia > ib ? ia - ib : ib - ia;
}

int main() {
    float hx[N], hf[NF * N];
    double dx[N], hd[ND * N];
    for (int i = 0; i < N; i++) { hx[i] = -6.0f + i * 0.19f; dx[i] = -6.0 + i * 0.19; }
    float *x, *of;
    double *xd, *od;
    CHECK(hipMalloc(&x, sizeof hx));
    CHECK(hipMalloc(&of, sizeof hf));
    CHECK(hipMalloc(&xd, sizeof dx));
    CHECK(hipMalloc(&od, sizeof hd));
    CHECK(hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(xd, dx, sizeof dx, hipMemcpyHostToDevice));
    math_f<<<1, N>>>(x, of);
    math_d<<<1, N>>>(xd, od);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(hf, of, sizeof hf, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(hd, od, sizeof hd, hipMemcpyDeviceToHost));
    const char* fname[NF] = {"sinf", "cosf", "expf", "logf", "sqrtf", "powf"};
    const int fbudget[NF] = {4, 4, 4, 4, 1, 4};
    const char* dname[ND] = {"sin", "exp", "sqrt"};
    const int dbudget[ND] = {2, 2, 1};
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < N; i++) {
        float v = hx[i];
        float ref[NF] = {(float)sin((double)v), (float)cos((double)v), (float)exp(v * 0.5),
                         (float)log(fabs(v) + 0.5), (float)sqrt(fabs(v)),
                         (float)pow(fabs(v) + 1.0, 1.7)};
        for (int f = 0; f < NF; f++) {
            int64_t u = ulps_f(hf[f * N + i], ref[f]);
            // sin/cos near their zeros: compare in absolute terms (the ulp of a tiny result)
            bool ok = u <= fbudget[f] || ((f < 2) && fabsf(hf[f * N + i] - ref[f]) < 1e-6f);
            if (!ok) { bad++; printf("%s(%g) = %.9g, host %.9g (%lld ulp)\n", fname[f], v, hf[f * N + i], ref[f], (long long)u); }
            sum += hf[f * N + i];
        }
        double dv = dx[i];
        double dref[ND] = {sin(dv), exp(dv * 0.5), sqrt(fabs(dv))};
        for (int f = 0; f < ND; f++) {
            int64_t u = ulps_d(hd[f * N + i], dref[f]);
            if (u > dbudget[f]) { bad++; printf("%s(%g) = %.17g, host %.17g (%lld ulp)\n", dname[f], dv, hd[f * N + i], dref[f], (long long)u); }
            sum += hd[f * N + i];
        }
    }
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
