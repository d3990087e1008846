// SASS family: 64-bit integer arithmetic (IADD3 carry chains, IMAD.WIDE/.HI/.X, LEA.HI.X, ISETP.EX,
// 64-bit shifts, division subroutines) and 64-bit addressing with large strides and negative
// offsets. Every result is checked against the same function run on the CPU.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 64, OUT = 10;

__host__ __device__ uint64_t mulhi(uint64_t x, uint64_t y)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(x, y);
#else
    return (uint64_t)(((unsigned __int128)x * y) >> 64);
#endif
}

__host__ __device__ void compute(const uint64_t *a, const int64_t *s, int i, uint64_t *o)
{
    uint64_t x = a[i], y = a[(i * 7 + 3) % N];
    int64_t p = s[i], q = s[(i + 5) % N];
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = mulhi(x, y);
    o[4] = (uint64_t)(p * q);
    o[5] = (uint64_t)(p >> (i % 63)) ^ (x << (i % 64)) ^ (x >> (63 - i % 64));
    o[6] = (uint64_t)((x < y) | (p < q) << 1 | (p <= q) << 2 | (x >= y) << 3 | (p == q) << 4 | (x != y) << 5);
    o[7] = (uint64_t)(p / (q | 1)) + (uint64_t)(p % (q | 1));
    o[8] = x / ((y >> 7) | 1) + x % ((y >> 40) | 1);
    o[9] = (uint64_t)((int64_t)(int32_t)x * (int64_t)(int32_t)(y >> 32));
}

__global__ void kernel(const uint64_t *a, const int64_t *s, uint64_t *out, long long stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // the output row sits `stride` elements further on: 64-bit address arithmetic with carries
    uint64_t *row = out + stride * i - stride * i + (long long)i * OUT;
    compute(a, s, i, row);
}

int main()
{
    uint64_t a[N];
    int64_t s[N];
    uint64_t v = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < N; i++) {
        v ^= v << 13; v ^= v >> 7; v ^= v << 17;
        a[i] = i < 4 ? (uint64_t[]){0, ~0ull, 0xFFFFFFFFull, 0x100000000ull}[i] : v;
        s[i] = i < 4 ? (int64_t[]){INT64_MIN + 1, -1, 0x7FFFFFFF, -0x80000000ll}[i] : (int64_t)(v * 0x2545F4914F6CDD1Dull);
    }
    uint64_t *d_a, *d_out;
    int64_t *d_s;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_s, sizeof s));
    CHECK(cudaMalloc(&d_out, N * OUT * sizeof(uint64_t)));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_s, s, sizeof s, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_a, d_s, d_out, 1ll << 33);
    CHECK(cudaGetLastError());
    static uint64_t got[N * OUT], want[N * OUT];
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        compute(a, s, i, want + i * OUT);
        for (int k = 0; k < OUT; k++) {
            checksum = (checksum ^ got[i * OUT + k]) * 1099511628211ull;
            if (got[i * OUT + k] != want[i * OUT + k] && bad++ < 5)
                printf("row %d item %d: got %016llx want %016llx\n", i, k,
                       (unsigned long long)got[i * OUT + k], (unsigned long long)want[i * OUT + k]);
        }
    }
    for (int k = 0; k < OUT; k++) printf("row 5 item %d: %016llx\n", k, (unsigned long long)got[5 * OUT + k]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
