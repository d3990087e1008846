// SASS family: flush-to-zero (built with -ftz=true: FADD/FMUL/FFMA/FSETP/FMNMX .FTZ, the FTZ
// division and square root paths). Denormal inputs and results flush to zeros of the same sign;
// the CPU computes the same with explicit flushing, so every result must match bit for bit.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 64, OUT = 9;

__host__ __device__ uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static float flush(float f) { return fabsf(f) < 1.17549435e-38f ? copysignf(0.0f, f) : f; }

__global__ void kernel(const float *in, uint32_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[i], b = in[(i * 3 + 1) % N], c = in[(i + 17) % N];
    uint32_t *o = out + i * OUT;
    o[0] = bits(a + b);
    o[1] = bits(a * b);
    o[2] = bits(fmaf(a, b, c));
    o[3] = bits(a / b);
    o[4] = bits(sqrtf(fabsf(a)));
    o[5] = bits(fminf(a, b)) ^ bits(fmaxf(b, c)) * 3u;
    o[6] = (a < b) | (a == b) << 1 | (a >= c) << 2 | (a != 0.0f) << 3;
    o[7] = bits(a * 0.5f) ^ bits(b * 1e-20f);
    o[8] = bits(a - c);
}

static void reference(const float *in, int i, uint32_t *o)
{
    float a = flush(in[i]), b = flush(in[(i * 3 + 1) % N]), c = flush(in[(i + 17) % N]);
    o[0] = bits(flush(a + b));
    o[1] = bits(flush(a * b));
    o[2] = bits(flush(fmaf(a, b, c)));
    o[3] = bits(flush(a / b));
    o[4] = bits(flush(sqrtf(fabsf(a))));
    o[5] = bits(flush(fminf(a, b))) ^ bits(flush(fmaxf(b, c))) * 3u;
    o[6] = (a < b) | (a == b) << 1 | (a >= c) << 2 | (a != 0.0f) << 3;
    o[7] = bits(flush(a * 0.5f)) ^ bits(flush(b * 1e-20f));
    o[8] = bits(flush(a - c));
}

int main()
{
    float in[N];
    uint32_t v = 123456789u;
    for (int i = 0; i < N; i++) {
        v ^= v << 13; v ^= v >> 17; v ^= v << 5;
        float m = (float)(v >> 8) / 16777216.0f + 0.5f;
        int e = (i % 4 == 0) ? -140 + (int)(v % 20) : (int)(v % 80) - 40;    // a quarter denormal
        in[i] = ldexpf(m, e) * ((v >> 3) & 1 ? -1.0f : 1.0f);
    }
    in[1] = 1.17549435e-38f; in[2] = -0.0f; in[3] = 2.0e-38f;
    float *d_in; uint32_t *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, N * OUT * 4));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    static uint32_t got[N * OUT], want[N * OUT];
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        reference(in, i, want + i * OUT);
        for (int j = 0; j < OUT; j++) {
            checksum = (checksum ^ got[i * OUT + j]) * 1099511628211ull;
            if (got[i * OUT + j] != want[i * OUT + j] && bad++ < 8)
                printf("row %d item %d: got %08x want %08x\n", i, j, got[i * OUT + j], want[i * OUT + j]);
        }
    }
    for (int j = 0; j < OUT; j++) printf("row 0 item %d: %08x\n", j, got[j]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
