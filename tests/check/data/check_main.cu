// cass-run --check's test program: kernels of several kinds (float arithmetic, an integer
// max, a __device__ counter bumped by atomics, a float atomic sum, a cooperative-groups tile
// reduction with shfl_down on 16-lane tiles, sinf and expf, whose translated and reference
// results differ in the last bits (nvcc's and ROCm's libraries)) and one kernel of another
// translation unit
// (check_extra.cu). It checks every result on the host and prints PASS or FAIL.
#include <cooperative_groups.h>
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ int positives;

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void pairMax(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = max(a[i], b[i]);
}

__global__ void countPositive(const int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && a[i] > 0)
        atomicAdd(&positives, 1);
}

__global__ void floatSum(const float *x, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, x[i]);
}

// Every lane's partial sum is written: lanes whose shfl_down source lies past their tile keep
// their own value (CUDA's rule), so a shuffle that crosses into the next tile shows there.
__global__ void tileSums(const int *in, int *sums, int *partials)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    partials[i] = v;
    if (tile.thread_rank() == 0)
        sums[i / 16] = v;
}

__global__ void sines(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = sinf(x[i]) * expf(x[i] * 0.01f);
}

void scaleOnDevice(int *data, int n, int factor);  // check_extra.cu

int main()
{
    const int n = 64;
    float hx[n], hy[n], hy0[n], hw[n];
    int ha[n], hb[n], hm[n], hs[n / 16], hscaled[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = 0.25f * i - 3.0f;
        hy[i] = hy0[i] = 1.5f * (i % 7);
        ha[i] = (i * 37) % 101 - 50;
        hb[i] = (i * 53) % 97 - 48;
    }
    float *x, *y, *total, *w;
    int *a, *b, *m, *s, *p;
    cudaMalloc(&x, sizeof hx);
    cudaMalloc(&y, sizeof hy);
    cudaMalloc(&total, sizeof(float));
    cudaMalloc(&w, sizeof hw);
    cudaMalloc(&a, sizeof ha);
    cudaMalloc(&b, sizeof hb);
    cudaMalloc(&m, sizeof hm);
    cudaMalloc(&s, sizeof hs);
    cudaMalloc(&p, sizeof ha);
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemset(total, 0, sizeof(float));
    int zero = 0;
    cudaMemcpyToSymbol(positives, &zero, sizeof zero);

    saxpy<<<2, 32>>>(2.0f, x, y, n);
    pairMax<<<2, 32>>>(a, b, m, n);
    countPositive<<<2, 32>>>(a, n);
    floatSum<<<2, 32>>>(x, total, n);
    tileSums<<<2, 32>>>(a, s, p);
    sines<<<2, 32>>>(x, w, n);
    cudaDeviceSynchronize();

    float htotal;
    int hpositives;
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    cudaMemcpy(hm, m, sizeof hm, cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
    cudaMemcpy(&htotal, total, sizeof htotal, cudaMemcpyDeviceToHost);
    cudaMemcpy(hw, w, sizeof hw, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&hpositives, positives, sizeof hpositives);
    for (int i = 0; i < n; ++i)
        hscaled[i] = ha[i];
    scaleOnDevice(hscaled, n, 3);

    int bad = 0, expectPositives = 0;
    float expectTotal = 0.0f;
    for (int i = 0; i < n; ++i) {
        bad += hy[i] != 2.0f * hx[i] + hy0[i];
        bad += hm[i] != (ha[i] > hb[i] ? ha[i] : hb[i]);
        bad += hscaled[i] != 3 * ha[i];
        expectPositives += ha[i] > 0;
        expectTotal += hx[i];
        float e = sinf(hx[i]) * expf(hx[i] * 0.01f);
        bad += fabsf(hw[i] - e) > 1e-5f * fabsf(e) + 1e-6f;
    }
    for (int t = 0; t < n / 16; ++t) {
        int sum = 0;
        for (int k = 0; k < 16; ++k)
            sum += ha[t * 16 + k];
        bad += hs[t] != sum;
    }
    bad += hpositives != expectPositives;
    bad += htotal != expectTotal;  // sums of quarter multiples: exact in any order
    printf("bad %d\n%s\n", bad, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
