// Half and bfloat16: conversions, arithmetic, comparisons, __half2 pairs, max/min, all on
// values that half holds exactly, so the GPU result must equal the CPU model; bfloat16
// conversion rounds to nearest even.
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

constexpr int N = 64;

__global__ void half_ops(const float *a, const float *b, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    __half ha = __float2half(a[i]), hb = __float2half(b[i]);
    __half sum = __hadd(ha, hb), prod = __hmul(ha, hb), fma = __hfma(ha, hb, sum);
    __half2 pair = __halves2half2(ha, hb);
    __half2 twice = __hadd2(pair, pair);
    __half2 mx = __hmax2(pair, __floats2half2_rn(0.0f, 0.0f));
    out[8 * i + 0] = __half2float(sum);
    out[8 * i + 1] = __half2float(prod);
    out[8 * i + 2] = __half2float(fma);
    out[8 * i + 3] = __low2float(twice) + __high2float(twice);
    out[8 * i + 4] = __half2float(__hmax(ha, hb)) - __half2float(__hmin(ha, hb));
    out[8 * i + 5] = __low2float(mx) + __high2float(mx);
    out[8 * i + 6] = (float)(__hlt(ha, hb) + 2 * __heq(ha, hb) + 4 * __hge(ha, hb));
    __nv_bfloat16 bf = __float2bfloat16(a[i] * 4.0f + 0.0078125f * (i % 3));   // rounds
    out[8 * i + 7] = __bfloat162float(bf);
}

static float rnd_bf16(float x)
{
    unsigned u;
    memcpy(&u, &x, 4);
    u += 0x7fff + ((u >> 16) & 1);
    u &= 0xffff0000u;
    memcpy(&x, &u, 4);
    return x;
}

int main()
{
    float h_a[N], h_b[N], h_out[8 * N];
    for (int i = 0; i < N; i++) {
        h_a[i] = (float)((i * 7) % 23 - 11) * 0.25f;    // quarters in [-2.75, 2.75]
        h_b[i] = (float)((i * 5) % 19 - 9) * 0.5f;      // halves in [-4.5, 4.5]
    }
    float *d_a, *d_b, *d_out;
    cudaMalloc(&d_a, sizeof h_a);
    cudaMalloc(&d_b, sizeof h_b);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, sizeof h_b, cudaMemcpyHostToDevice);
    half_ops<<<2, 32>>>(d_a, d_b, d_out);
    cudaError_t err = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int bad = err != cudaSuccess;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        float a = h_a[i], b = h_b[i];
        float want[8] = {a + b, a * b, a * b + (a + b), 2 * a + 2 * b, (a > b ? a - b : b - a),
                         (a > 0 ? a : 0) + (b > 0 ? b : 0),
                         (float)((a < b) + 2 * (a == b) + 4 * (a >= b)), rnd_bf16(a * 4.0f + 0.0078125f * (i % 3))};
        for (int k = 0; k < 8; k++) {
            if (h_out[8 * i + k] != want[k]) {
                if (bad < 5) printf("mismatch i=%d k=%d got %g want %g\n", i, k, h_out[8 * i + k], want[k]);
                bad++;
            }
            checksum += h_out[8 * i + k];
        }
    }
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_out);
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
