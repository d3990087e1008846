// cuComplex as signal-processing code uses it: a direct DFT of short complex signals in single
// (cuFloatComplex) and double (cuDoubleComplex) precision with cuCmulf/cuCaddf/cuCdivf/cuCabsf and
// sincosf/sincos twiddles, one signal per block, the spectrum's power reduced in shared memory.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuComplex.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int LEN = 32, SIGNALS = 4;

__global__ void dft_float(const cuFloatComplex *in, cuFloatComplex *out, float *power)
{
    __shared__ float part[LEN];
    const cuFloatComplex *x = in + blockIdx.x * LEN;
    int k = threadIdx.x;
    cuFloatComplex acc = make_cuFloatComplex(0.0f, 0.0f);
    for (int n = 0; n < LEN; n++) {
        float s, c;
        sincosf(-2.0f * (float)M_PI * (float)((k * n) % LEN) / LEN, &s, &c);
        acc = cuCaddf(acc, cuCmulf(x[n], make_cuFloatComplex(c, s)));
    }
    // divide by a complex normaliser and back: exercises cuCdivf
    cuFloatComplex norm = make_cuFloatComplex(1.0f + 0.01f * k, -0.5f);
    acc = cuCmulf(cuCdivf(acc, norm), norm);
    out[blockIdx.x * LEN + k] = acc;
    part[k] = cuCabsf(acc);
    __syncthreads();
    for (int stride = LEN / 2; stride > 0; stride /= 2) {
        if (k < stride) part[k] += part[k + stride];
        __syncthreads();
    }
    if (k == 0) power[blockIdx.x] = part[0];
}

__global__ void dft_double(const cuDoubleComplex *in, cuDoubleComplex *out)
{
    const cuDoubleComplex *x = in + blockIdx.x * LEN;
    int k = threadIdx.x;
    cuDoubleComplex acc = make_cuDoubleComplex(0.0, 0.0);
    for (int n = 0; n < LEN; n++) {
        double s, c;
        sincos(-2.0 * M_PI * (double)((k * n) % LEN) / LEN, &s, &c);
        acc = cuCfma(x[n], make_cuDoubleComplex(c, s), acc);
    }
    out[blockIdx.x * LEN + k] = cuCmul(cuConj(acc), make_cuDoubleComplex(0.0, 1.0));
}

int main()
{
    static cuFloatComplex xf[SIGNALS * LEN], yf[SIGNALS * LEN];
    static cuDoubleComplex xd[SIGNALS * LEN], yd[SIGNALS * LEN];
    float power[SIGNALS];
    for (int i = 0; i < SIGNALS * LEN; i++) {
        int sig = i / LEN, n = i % LEN;
        double re = cos(2 * M_PI * (sig + 1) * n / LEN) + 0.25 * ((n * 7 + sig) % 5 - 2);
        double im = sin(2 * M_PI * (3 * sig + 2) * n / LEN) * 0.5;
        xf[i] = make_cuFloatComplex((float)re, (float)im);
        xd[i] = make_cuDoubleComplex(re, im);
    }
    cuFloatComplex *d_xf, *d_yf; cuDoubleComplex *d_xd, *d_yd; float *d_p;
    CUDA_CHECK(cudaMalloc(&d_xf, sizeof xf)); CUDA_CHECK(cudaMalloc(&d_yf, sizeof yf));
    CUDA_CHECK(cudaMalloc(&d_xd, sizeof xd)); CUDA_CHECK(cudaMalloc(&d_yd, sizeof yd));
    CUDA_CHECK(cudaMalloc(&d_p, sizeof power));
    CUDA_CHECK(cudaMemcpy(d_xf, xf, sizeof xf, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_xd, xd, sizeof xd, cudaMemcpyHostToDevice));
    dft_float<<<SIGNALS, LEN>>>(d_xf, d_yf, d_p);
    dft_double<<<SIGNALS, LEN>>>(d_xd, d_yd);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(yf, d_yf, sizeof yf, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(yd, d_yd, sizeof yd, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(power, d_p, sizeof power, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int sig = 0; sig < SIGNALS; sig++) {
        double pw = 0;
        for (int k = 0; k < LEN; k++) {
            double re = 0, im = 0;
            for (int n = 0; n < LEN; n++) {
                double a = -2 * M_PI * ((k * n) % LEN) / LEN;
                double xr = xd[sig * LEN + n].x, xi = xd[sig * LEN + n].y;
                re += xr * cos(a) - xi * sin(a);
                im += xr * sin(a) + xi * cos(a);
            }
            cuFloatComplex gf = yf[sig * LEN + k];
            cuDoubleComplex gd = yd[sig * LEN + k];
            pw += hypot(re, im);
            // conj(acc) * i = (im, re)
            if (fabs(gf.x - re) > 1e-4 || fabs(gf.y - im) > 1e-4 || fabs(gd.x - im) > 1e-12 || fabs(gd.y - re) > 1e-12) {
                if (bad++ < 5) fprintf(stderr, "signal %d bin %d: float (%g,%g) double (%g,%g) want (%g,%g)\n",
                                       sig, k, gf.x, gf.y, gd.y, gd.x, re, im);
            }
            checksum += gd.x * (k + 1) + gd.y;
        }
        if (fabs(power[sig] - pw) > 1e-3 * pw && bad++ < 5) fprintf(stderr, "power %d: %g want %g\n", sig, power[sig], pw);
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
