// Mean and variance of 8 series in double precision: per-thread Welford accumulators merged in
// shared memory with Chan's parallel formula (a struct of three doubles).
#include <cstdio>
#include <cstdlib>
#include <cmath>

struct Moments {
    double n, mean, m2;
};

__device__ __host__ Moments merge(Moments a, Moments b)
{
    if (a.n == 0)
        return b;
    if (b.n == 0)
        return a;
    Moments r;
    r.n = a.n + b.n;
    double d = b.mean - a.mean;
    r.mean = a.mean + d * b.n / r.n;
    r.m2 = a.m2 + b.m2 + d * d * a.n * b.n / r.n;
    return r;
}

__global__ void moments(const double *x, int len, Moments *out)
{
    __shared__ Moments s[128];
    Moments m = {0, 0, 0};
    const double *xs = x + blockIdx.x * len;
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
        m.n += 1;
        double d = xs[i] - m.mean;
        m.mean += d / m.n;
        m.m2 += d * (xs[i] - m.mean);
    }
    s[threadIdx.x] = m;
    __syncthreads();
    for (int h = 64; h; h >>= 1) {
        if (threadIdx.x < h)
            s[threadIdx.x] = merge(s[threadIdx.x], s[threadIdx.x + h]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    const int series = 8, len = 1000;
    double *x = (double *)malloc(series * len * 8);
    for (int s = 0; s < series; s++)
        for (int i = 0; i < len; i++)
            x[s * len + i] = 1000.0 * s + sin(i * 0.1 * (s + 1)) * (s + 1) + 1e-3 * (i % 10);
    double *dx;
    Moments *dm, m[series];
    cudaMalloc(&dx, series * len * 8);
    cudaMalloc(&dm, sizeof m);
    cudaMemcpy(dx, x, series * len * 8, cudaMemcpyHostToDevice);
    moments<<<series, 128>>>(dx, len, dm);
    cudaError_t e = cudaMemcpy(m, dm, sizeof m, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int s = 0; s < series; s++) {
        double mean = 0, var = 0;
        for (int i = 0; i < len; i++)
            mean += x[s * len + i];
        mean /= len;
        for (int i = 0; i < len; i++)
            var += (x[s * len + i] - mean) * (x[s * len + i] - mean);
        var /= len;
        ok = ok && m[s].n == len && fabs(m[s].mean - mean) < 1e-9 * (1 + fabs(mean)) &&
             fabs(m[s].m2 / len - var) < 1e-9 * (1 + var);
        cs += m[s].mean + m[s].m2 / len;
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
