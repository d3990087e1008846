// Iterative radix-2 FFT of 4 signals of 256 points, one block each, in shared memory: the
// bit-reversal permutation uses inline PTX (brev.b32), twiddles come from sincospif;
// thread 0 of block 0 prints the DC term with device printf. Checked against a direct DFT.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define N 256
#define LOGN 8

__device__ unsigned bitrev(unsigned x)
{
    unsigned r;
    asm volatile("brev.b32 %0, %1;" : "=r"(r) : "r"(x));
    return r >> (32 - LOGN);
}

__global__ void fft(const float2 *in, float2 *out)
{
    __shared__ float2 s[N];
    const float2 *x = in + blockIdx.x * N;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        s[bitrev(i)] = x[i];
    __syncthreads();
    for (int len = 2; len <= N; len <<= 1) {
        int half = len >> 1;
        for (int k = threadIdx.x; k < N / 2; k += blockDim.x) {
            int group = k / half, pos = k % half, i = group * len + pos, j = i + half;
            float sn, cs;
            sincospif(-2.0f * pos / len, &sn, &cs);
            float2 a = s[i], b = s[j];
            float2 t = make_float2(b.x * cs - b.y * sn, b.x * sn + b.y * cs);
            s[i] = make_float2(a.x + t.x, a.y + t.y);
            s[j] = make_float2(a.x - t.x, a.y - t.y);
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        out[blockIdx.x * N + i] = s[i];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("device: X[0] = %.3f\n", s[0].x);
}

int main()
{
    const int sigs = 4;
    float2 *x = (float2 *)malloc(sigs * N * sizeof(float2)), *X = (float2 *)malloc(sigs * N * sizeof(float2));
    for (int g = 0; g < sigs; g++)
        for (int i = 0; i < N; i++)
            x[g * N + i] = make_float2((float)((i * (g + 3)) % 17) / 8.0f - 1.0f, g == 1 ? 0.25f : 0.0f);
    float2 *dx, *dX;
    cudaMalloc(&dx, sigs * N * sizeof(float2));
    cudaMalloc(&dX, sigs * N * sizeof(float2));
    cudaMemcpy(dx, x, sigs * N * sizeof(float2), cudaMemcpyHostToDevice);
    fft<<<sigs, 64>>>(dx, dX);
    cudaError_t e = cudaMemcpy(X, dX, sigs * N * sizeof(float2), cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int g = 0; g < sigs; g++)
        for (int k = 0; k < N; k++) {
            double re = 0, im = 0;
            for (int t = 0; t < N; t++) {
                double a = -2.0 * M_PI * ((k * t) % N) / N;
                re += x[g * N + t].x * cos(a) - x[g * N + t].y * sin(a);
                im += x[g * N + t].x * sin(a) + x[g * N + t].y * cos(a);
            }
            ok = ok && fabs(X[g * N + k].x - re) < 1e-3 * (1 + fabs(re)) && fabs(X[g * N + k].y - im) < 1e-3 * (1 + fabs(im));
            cs += re * re + im * im;
        }
    double gpu = 0;
    for (int i = 0; i < sigs * N; i++)
        gpu += (double)X[i].x * X[i].x + (double)X[i].y * X[i].y;
    ok = ok && fabs(gpu - cs) < 1e-4 * cs;
    printf("checksum: %.6e\n", gpu);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
