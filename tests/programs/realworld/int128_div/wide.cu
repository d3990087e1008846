// Wide integer arithmetic as hashing, bignum and fixed-point code writes it: unsigned/signed
// __int128 multiply, add with carry, shifts, compares, 128/64 division and modulo; 64-bit signed
// and unsigned division and modulo by runtime and constant divisors (including negative values
// and INT64_MIN), mulhi, and a Montgomery-free modular exponentiation.
#include <cstdio>
#include <cstdint>
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

constexpr int N = 128, OUTS = 14;
typedef unsigned __int128 u128;
typedef __int128 s128;

__host__ __device__ uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((u128)a * b % m); }

__host__ __device__ uint64_t powmod(uint64_t b, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    b %= m;
    while (e) {
        if (e & 1) r = mulmod(r, b, m);
        b = mulmod(b, b, m);
        e >>= 1;
    }
    return r;
}

__host__ __device__ void compute(uint64_t a, uint64_t b, int64_t s, int64_t t, uint64_t *o)
{
    u128 p = (u128)a * b;
    o[0] = (uint64_t)p;
    o[1] = (uint64_t)(p >> 64);
    s128 q = (s128)s * t;
    o[2] = (uint64_t)(q >> 3) ^ (uint64_t)(q >> 67);
    u128 sum = p + ((u128)b << 64 | a);            // carries across the halves
    o[3] = (uint64_t)(sum >> 32);
    u128 big = ((u128)a << 64) | b;
    uint64_t d = (b >> 20) | 1;
    o[4] = (uint64_t)(big / d);
    o[5] = (uint64_t)(big % d);
    o[6] = a / (b >> 32 | 1) + a % 1000003;
    o[7] = (uint64_t)(t == 0 ? 0 : s / t) ^ (uint64_t)(t == 0 ? 0 : s % t);
    o[8] = (uint64_t)(s / 7) + (uint64_t)(s % -13) * 3;
    o[9] = (uint64_t)((q < 0) - (q > (s128)1 << 90)) + (uint64_t)((s128)s * 3 / 5);
    o[10] = powmod(a, b, 0xffffffffffffffc5ull);   // the largest 64-bit prime
    o[11] = powmod(b | 1, 65537, (a >> 1) | 3);
    uint32_t lo = (uint32_t)a, hi = (uint32_t)(b >> 35);
    o[12] = (uint64_t)(lo / (hi | 1)) << 32 | (lo % (hi | 1));
    o[13] = (uint64_t)((int32_t)lo / (int32_t)(hi | 1)) ^ (uint64_t)(int64_t)((int32_t)lo % -7);
}

__global__ void wide_kernel(const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) compute(a[i], b[i], (int64_t)(a[i] ^ b[i]), (int64_t)b[i] >> (i & 31), out + i * OUTS);
}

int main()
{
    static uint64_t a[N], b[N], out[N * OUTS], want[OUTS];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < N; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; a[i] = s;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; b[i] = s;
    }
    a[0] = 0x8000000000000000ull; b[0] = 0xffffffffffffffffull;   // INT64_MIN / -1 is avoided below
    a[1] = 0; b[1] = 1;
    a[2] = ~0ull; b[2] = ~0ull - 1;
    uint64_t *d_a, *d_b, *d_out;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof a));
    CUDA_CHECK(cudaMalloc(&d_b, sizeof b));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    wide_kernel<<<(N + 63) / 64, 64>>>(d_a, d_b, d_out, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    uint64_t checksum = 0;
    for (int i = 0; i < N; i++) {
        compute(a[i], b[i], (int64_t)(a[i] ^ b[i]), (int64_t)b[i] >> (i & 31), want);
        for (int k = 0; k < OUTS; k++) {
            checksum = checksum * 1000003u + out[i * OUTS + k];
            if (out[i * OUTS + k] != want[k] && bad++ < 10)
                fprintf(stderr, "element %d, output %d: got %016llx want %016llx\n", i, k,
                        (unsigned long long)out[i * OUTS + k], (unsigned long long)want[k]);
        }
    }
    printf("checksum: %llu\n", (unsigned long long)(checksum % 1000000007ull));
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
