// Single-head scaled dot-product attention, seq 32, head dim 16: a scores kernel (2D grid),
// a softmax kernel, and an output kernel (three kernels), float.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define S 32
#define D 16

__global__ void scores(const float *Q, const float *K, float *P, float scale)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int d = 0; d < D; d++)
        s += Q[i * D + d] * K[j * D + d];
    P[i * S + j] = j <= i ? s * scale : -INFINITY; // causal mask
}

__global__ void softmax_rows(float *P)
{
    __shared__ float row[S];
    float v = P[blockIdx.x * S + threadIdx.x];
    row[threadIdx.x] = v;
    __syncthreads();
    float m = -INFINITY;
    for (int j = 0; j < S; j++)
        m = fmaxf(m, row[j]);
    float sum = 0;
    for (int j = 0; j < S; j++)
        sum += __expf(row[j] - m);
    P[blockIdx.x * S + threadIdx.x] = __expf(v - m) / sum;
}

__global__ void output(const float *P, const float *V, float *O)
{
    int i = blockIdx.x, d = threadIdx.x;
    float s = 0;
    for (int j = 0; j < S; j++)
        s += P[i * S + j] * V[j * D + d];
    O[i * D + d] = s;
}

int main()
{
    float Q[S * D], K[S * D], V[S * D], O[S * D];
    for (int i = 0; i < S * D; i++) {
        Q[i] = sinf(i * 0.13f);
        K[i] = cosf(i * 0.07f);
        V[i] = (float)(i % 23) / 23.0f - 0.5f;
    }
    float *dQ, *dK, *dV, *dP, *dO;
    cudaMalloc(&dQ, sizeof Q);
    cudaMalloc(&dK, sizeof K);
    cudaMalloc(&dV, sizeof V);
    cudaMalloc(&dP, S * S * 4);
    cudaMalloc(&dO, sizeof O);
    cudaMemcpy(dQ, Q, sizeof Q, cudaMemcpyHostToDevice);
    cudaMemcpy(dK, K, sizeof K, cudaMemcpyHostToDevice);
    cudaMemcpy(dV, V, sizeof V, cudaMemcpyHostToDevice);
    const float scale = 1.0f / sqrtf((float)D);
    scores<<<dim3(S / 16, S / 16), dim3(16, 16)>>>(dQ, dK, dP, scale);
    softmax_rows<<<S, S>>>(dP);
    output<<<S, D>>>(dP, dV, dO);
    cudaError_t e = cudaMemcpy(O, dO, sizeof O, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < S; i++) {
        double p[S], m = -1e30, sum = 0;
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int d = 0; d < D; d++)
                s += (double)Q[i * D + d] * K[j * D + d];
            p[j] = s * scale;
            m = fmax(m, p[j]);
        }
        for (int j = 0; j <= i; j++)
            sum += p[j] = exp(p[j] - m);
        for (int d = 0; d < D; d++) {
            double o = 0;
            for (int j = 0; j <= i; j++)
                o += p[j] / sum * V[j * D + d];
            ok = ok && fabs(O[i * D + d] - o) <= 1e-4 * (1 + fabs(o));
            cs += O[i * D + d] * (d + 1);
        }
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
