// A particle and softmax workload built with --use_fast_math, as games and ML inference code
// often are: expf/logf/sinf/cosf/powf/sqrtf/division become the hardware approximations
// (MUFU.EX2/LG2/SIN/COS/RSQ/RCP with flush-to-zero), and a float4 softmax over rows.
// Checked against double-precision host math with tolerances that hold for the approximations.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int P = 128, ROWS = 8, COLS = 64, OUTS = 8;

__global__ void particles(const float4 *pos, float *out, float t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float r = sqrtf(p.x * p.x + p.y * p.y + p.z * p.z) + 0.1f;
    float *o = out + i * OUTS;
    o[0] = expf(-r * p.w);
    o[1] = logf(r) + log2f(r) + log10f(r);
    o[2] = sinf(p.x * t) * cosf(p.y * t);
    o[3] = powf(r, 1.5f);
    o[4] = p.z / r;
    o[5] = 1.0f / sqrtf(r);
    o[6] = tanf(p.x * 0.3f) + exp2f(p.y) + exp10f(p.z * 0.1f);
    o[7] = atan2f(p.y, p.x) + tanhf(p.z);
}

__global__ void softmax(const float *in, float *out)
{
    __shared__ float red[COLS];
    int row = blockIdx.x, c = threadIdx.x;
    float v = in[row * COLS + c];
    red[c] = v;
    __syncthreads();
    for (int s = COLS / 2; s > 0; s /= 2) {
        if (c < s) red[c] = fmaxf(red[c], red[c + s]);
        __syncthreads();
    }
    float m = red[0];
    __syncthreads();
    float e = __expf(v - m);
    red[c] = e;
    __syncthreads();
    for (int s = COLS / 2; s > 0; s /= 2) {
        if (c < s) red[c] += red[c + s];
        __syncthreads();
    }
    out[row * COLS + c] = e / red[0];
}

int main()
{
    static float4 pos[P];
    static float out[P * OUTS], in[ROWS * COLS], sm[ROWS * COLS];
    for (int i = 0; i < P; i++)
        pos[i] = make_float4((float)(i % 13) * 0.3f - 1.8f, (float)(i % 7) * 0.5f - 1.5f, (float)(i % 5) - 2.0f,
                             0.1f + (float)(i % 3) * 0.2f);
    for (int i = 0; i < ROWS * COLS; i++) in[i] = (float)((i * 37) % 29) * 0.25f - 3.0f;
    float4 *d_pos; float *d_out, *d_in, *d_sm;
    CUDA_CHECK(cudaMalloc(&d_pos, sizeof pos)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_sm, sizeof sm));
    CUDA_CHECK(cudaMemcpy(d_pos, pos, sizeof pos, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    const float t = 0.7f;
    particles<<<P / 64, 64>>>(d_pos, d_out, t);
    softmax<<<ROWS, COLS>>>(d_in, d_sm);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sm, d_sm, sizeof sm, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < P; i++) {
        double x = pos[i].x, y = pos[i].y, z = pos[i].z, w = pos[i].w;
        double r = sqrt(x * x + y * y + z * z) + 0.1;
        double want[OUTS] = {exp(-r * w), log(r) + log2(r) + log10(r), sin(x * t) * cos(y * t), pow(r, 1.5), z / r,
                             1.0 / sqrt(r), tan(x * 0.3) + exp2(y) + pow(10.0, z * 0.1), atan2(y, x) + tanh(z)};
        for (int k = 0; k < OUTS; k++) {
            double got = out[i * OUTS + k];
            checksum += got * (k + 1);
            if (!(fabs(got - want[k]) <= 2e-5 + 2e-5 * fabs(want[k])) && bad++ < 8)
                fprintf(stderr, "particle %d output %d: %.9g want %.9g\n", i, k, got, want[k]);
        }
    }
    for (int row = 0; row < ROWS; row++) {
        double m = -1e30, s = 0;
        for (int c = 0; c < COLS; c++) m = fmax(m, in[row * COLS + c]);
        for (int c = 0; c < COLS; c++) s += exp(in[row * COLS + c] - m);
        for (int c = 0; c < COLS; c++) {
            double want = exp(in[row * COLS + c] - m) / s, got = sm[row * COLS + c];
            checksum += got;
            if (!(fabs(got - want) <= 1e-6 + 1e-5 * want) && bad++ < 8)
                fprintf(stderr, "softmax (%d,%d): %.9g want %.9g\n", row, c, got, want);
        }
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
