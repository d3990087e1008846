// Vector types and <cmath> in device code: a tiny all-pairs n-body step with float4 positions,
// float3 accelerations (make_float3), __ldg, __restrict__, rsqrtf; int2 index pairs; a math table
// (expf, logf, sinf, cosf, powf, tanhf, erff, sqrt, exp on doubles, fmaxf) checked against the host
// within a tolerance; std::numeric_limits in device code (relaxed constexpr).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__));  \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__host__ __device__ inline float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__host__ __device__ inline float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }

__host__ __device__ inline float3 bodyAccel(float4 bi, float4 bj, float3 ai)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
    float invDist = 1.0f / sqrtf(distSqr);
    float s = bj.w * invDist * invDist * invDist;
    return ai + s * r;
}

__global__ void nbodyStep(const float4 *__restrict__ pos, float3 *__restrict__ acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 bi = __ldg(&pos[i]);
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; ++j)
        a = bodyAccel(bi, __ldg(&pos[j]), a);
    acc[i] = a;
}

__global__ void mathTable(const float *__restrict__ x, float *__restrict__ out, double *__restrict__ dout,
                          const int2 *__restrict__ pairs, int *__restrict__ pairOut, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    out[i * 8 + 0] = expf(v);
    out[i * 8 + 1] = logf(v + 2.0f);
    out[i * 8 + 2] = sinf(v);
    out[i * 8 + 3] = cosf(v);
    out[i * 8 + 4] = powf(v + 2.0f, 1.5f);
    out[i * 8 + 5] = tanhf(v);
    out[i * 8 + 6] = erff(v);
    out[i * 8 + 7] = fmaxf(fabsf(v), std::numeric_limits<float>::min());
    dout[i * 2 + 0] = sqrt((double)v + 2.0);
    dout[i * 2 + 1] = exp((double)v);
    int2 p = pairs[i];
    pairOut[i] = p.x * p.y + min(p.x, p.y) - max(p.x, p.y) +
                 (std::numeric_limits<int>::max() - p.x > 0 ? 1 : 0);
}

static bool close(double got, double ref, double tol) { return std::fabs(got - ref) <= tol * (1.0 + std::fabs(ref)); }

int main()
{
    const int n = 48;
    float4 hPos[n];
    for (int i = 0; i < n; ++i)
        hPos[i] = make_float4(std::cos(i * 0.7f) * 2.0f, std::sin(i * 0.3f), (i % 5) * 0.25f, 1.0f + (i % 3));
    float4 *dPos;
    float3 *dAcc, hAcc[n];
    CUDA_CHECK(cudaMalloc(&dPos, sizeof hPos));
    CUDA_CHECK(cudaMalloc(&dAcc, sizeof hAcc));
    CUDA_CHECK(cudaMemcpy(dPos, hPos, sizeof hPos, cudaMemcpyHostToDevice));
    nbodyStep<<<2, 32>>>(dPos, dAcc, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hAcc, dAcc, sizeof hAcc, cudaMemcpyDeviceToHost));

    float hx[n], hOut[n * 8];
    double hd[n * 2];
    int2 hPairs[n];
    int hPairOut[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = -1.5f + 3.0f * i / n;
        hPairs[i] = make_int2(i - 20, 3 * i + 1);
    }
    float *dx, *dOut;
    double *dd;
    int2 *dPairs;
    int *dPairOut;
    CUDA_CHECK(cudaMalloc(&dx, sizeof hx));
    CUDA_CHECK(cudaMalloc(&dOut, sizeof hOut));
    CUDA_CHECK(cudaMalloc(&dd, sizeof hd));
    CUDA_CHECK(cudaMalloc(&dPairs, sizeof hPairs));
    CUDA_CHECK(cudaMalloc(&dPairOut, sizeof hPairOut));
    CUDA_CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dPairs, hPairs, sizeof hPairs, cudaMemcpyHostToDevice));
    mathTable<<<2, 32>>>(dx, dOut, dd, dPairs, dPairOut, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hOut, dOut, sizeof hOut, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hPairOut, dPairOut, sizeof hPairOut, cudaMemcpyDeviceToHost));

    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < n; ++i) {
        float3 a = make_float3(0.0f, 0.0f, 0.0f);
        for (int j = 0; j < n; ++j)
            a = bodyAccel(hPos[i], hPos[j], a);
        if (!close(hAcc[i].x, a.x, 1e-4) || !close(hAcc[i].y, a.y, 1e-4) || !close(hAcc[i].z, a.z, 1e-4))
            bad++;
        checksum += a.x + a.y + a.z;
        float v = hx[i];
        double ref[8] = {std::exp(v), std::log(v + 2.0f), std::sin(v), std::cos(v), std::pow(v + 2.0f, 1.5f),
                         std::tanh(v), std::erf(v), std::fmax(std::fabs(v), std::numeric_limits<float>::min())};
        for (int k = 0; k < 8; ++k) {
            if (!close(hOut[i * 8 + k], ref[k], 1e-5))
                bad++;
            checksum += ref[k];
        }
        if (!close(hd[i * 2], std::sqrt((double)v + 2.0), 1e-15) || !close(hd[i * 2 + 1], std::exp((double)v), 1e-15))
            bad++;
        int px = hPairs[i].x, py = hPairs[i].y;
        if (hPairOut[i] != px * py + std::min(px, py) - std::max(px, py) + 1)
            bad++;
    }
    if (bad)
        fprintf(stderr, "%d mismatches\n", bad);
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
