// Gather through an index permutation, then scatter back through its inverse; vectorised
// int4 loads/stores for the payload, templated on the element type.
#include <cstdio>
#include <cstdlib>

template <typename T>
__global__ void gather(const T *src, const int *idx, T *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[idx[i]];
}

template <typename T>
__global__ void scatter(const T *src, const int *idx, T *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[idx[i]] = src[i];
}

int main()
{
    const int n = 1000;
    int *perm = (int *)malloc(n * 4);
    int4 *payload = (int4 *)malloc(n * sizeof(int4)), *back = (int4 *)malloc(n * sizeof(int4));
    double *vals = (double *)malloc(n * 8), *vg = (double *)malloc(n * 8);
    for (int i = 0; i < n; i++) {
        perm[i] = (i * 379) % n; // 379 is coprime with 1000
        payload[i] = make_int4(i, -i, i * i, 7);
        vals[i] = i * 0.5;
    }
    int *dp;
    int4 *d4a, *d4b;
    double *dva, *dvb;
    cudaMalloc(&dp, n * 4);
    cudaMalloc(&d4a, n * sizeof(int4));
    cudaMalloc(&d4b, n * sizeof(int4));
    cudaMalloc(&dva, n * 8);
    cudaMalloc(&dvb, n * 8);
    cudaMemcpy(dp, perm, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d4a, payload, n * sizeof(int4), cudaMemcpyHostToDevice);
    cudaMemcpy(dva, vals, n * 8, cudaMemcpyHostToDevice);
    int blocks = (n + 127) / 128;
    gather<int4><<<blocks, 128>>>(d4a, dp, d4b, n);
    cudaMemset(d4a, 0, n * sizeof(int4));
    scatter<int4><<<blocks, 128>>>(d4b, dp, d4a, n);
    gather<double><<<blocks, 128>>>(dva, dp, dvb, n);
    cudaMemcpy(back, d4a, n * sizeof(int4), cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(vg, dvb, n * 8, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && back[i].x == i && back[i].y == -i && back[i].z == i * i && back[i].w == 7;
        ok = ok && vg[i] == vals[perm[i]];
        cs += vg[i] * (i % 3);
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
