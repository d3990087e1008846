// Float products scaled by a power of two, the way physics and statistics code writes them
// (`0.5 * m * v * v`, `sum * 0.25f`, `x * y * 8.0f`): ptxas folds each into one FMUL.D2/.D4/.D8/
// .M4/.M8. The inputs push the scaled results into the denormal range (where a product whose last
// bit is set, halved, needs one more bit) and past the largest float (a product that overflows
// before it is halved). The host checks every result against what the H200 does (a probe of 2550
// products, 2026-12-02): the exact product times the scale, rounded to float once, which for
// those inputs is not the product rounded and then scaled, as the source reads. The checksum is
// of the result bits.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int N = 256, OUTS = 6;

// One scale per grid row (blockIdx.y), so that each product is folded with its own scale.
__global__ void scaled(const float *a, const float *b, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i], r;
    switch (blockIdx.y) {
    case 0: r = (x * y) * 0.5f; break;
    case 1: r = (x * y) * 0.25f; break;
    case 2: r = (x * y) * 0.125f; break;
    case 3: r = (x * y) * 4.0f; break;
    case 4: r = (x * y) * 8.0f; break;
    default: r = x * y * 0.5; break;    // a double constant: the product is widened, halved, narrowed
    }
    o[i * OUTS + blockIdx.y] = r;
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main()
{
    static float a[N], b[N], out[N * OUTS];
    const float tiny = std::ldexp(1.0f, -126);
    // products at the bottom of the normal range with their last bit set or clear, times 1, 3/4, 1/3
    for (int i = 0; i < 64; i++) {
        a[i] = tiny * (1.0f + (float)i * std::ldexp(1.0f, -23));
        b[i] = i % 3 == 0 ? 1.0f : i % 3 == 1 ? 0.75f : 1.0f / 3.0f;
    }
    // products near the largest float: some overflow before the division, some only after a multiply
    for (int i = 64; i < 96; i++) {
        a[i] = 3.0e38f;
        b[i] = 0.5f + (float)(i - 64) * 0.05f;
    }
    // pseudo-random products of every magnitude, both signs
    uint32_t s = 12345;
    for (int i = 96; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = std::ldexp(1.0f + (s >> 8) * std::ldexp(1.0f, -24), (int)(s % 140) - 70) * ((s & 1) ? -1.0f : 1.0f);
        s = s * 1664525u + 1013904223u;
        b[i] = std::ldexp(1.0f + (s >> 8) * std::ldexp(1.0f, -24), (int)(s % 140) - 70);
    }
    a[250] = NAN; a[251] = INFINITY; b[251] = 0.0f; a[252] = -0.0f; b[253] = INFINITY;

    float *da, *db, *dout;
    CUDA_CHECK(cudaMalloc(&da, sizeof a));
    CUDA_CHECK(cudaMalloc(&db, sizeof b));
    CUDA_CHECK(cudaMalloc(&dout, sizeof out));
    CUDA_CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    scaled<<<dim3(N / 64, OUTS), 64>>>(da, db, dout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));

    const float scale[OUTS] = {0.5f, 0.25f, 0.125f, 4.0f, 8.0f, 0.5f};
    uint64_t checksum = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double product = (double)a[i] * b[i];           // exact: 48 bits
        for (int k = 0; k < OUTS; k++) {
            float want = (float)(product * scale[k]);    // one rounding
            float got = out[i * OUTS + k];
            checksum = checksum * 31 + bits(got);
            bool same = bits(got) == bits(want) || (std::isnan(got) && std::isnan(want));
            if (!same && bad++ < 8)
                fprintf(stderr, "%a * %a, output %d: %a (0x%08x) want %a (0x%08x)\n", a[i], b[i], k, got,
                        bits(got), want, bits(want));
        }
    }
    printf("checksum: %llu\n", (unsigned long long)checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
