// cuRAND's host API against the ordering measured on an H200, recomputed here with the device
// API (curand_kernel.h, compiled into this program's own kernel):
//   XORWOW value g = position g / 4096 of subsequence g % 4096;
//   PHILOX4_32_10 value g = element g % 4 of the first curand4() of subsequence g / 4;
//   uniform = bits * 2^-32 + 2^-33; an offset k starts at value k;
//   normals are the device API's Box-Muller pairs, a pair's two values adjacent (see expected_normal).
// Prints one line per check and "ALL OK" when every value is equal bit for bit.
#include <cstdio>
#include <cmath>
#include <cstring>
#include <vector>
#include <curand.h>
#include <curand_kernel.h>

#define CHECK(call) do { int s_ = (int)(call); if (s_) { printf("%s failed: %d\n", #call, s_); return 1; } } while (0)

__global__ void expected_xorwow(unsigned *out, const unsigned long long *index, int n, unsigned long long seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandStateXORWOW_t s;
    curand_init(seed, index[i] % 4096, 0, &s);
    skipahead(index[i] / 4096, &s);
    out[i] = curand(&s);
}

__global__ void expected_philox(unsigned *out, const unsigned long long *index, int n, unsigned long long seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, index[i] / 4, 0, &s);
    uint4 r = curand4(&s);
    unsigned v[4] = {r.x, r.y, r.z, r.w};
    out[i] = v[index[i] % 4];
}

// Normals: the device API's Box-Muller pairs (XORWOW: pair g / 2 comes from subsequence
// (g / 2) % 4096 at pair position (g / 2) / 4096, as a published NVIDIA run of
// curandGenerateNormalDouble shows; Philox: one curand_normal4 per block of four).
__global__ void expected_normal(float *out, const unsigned long long *index, int n, unsigned long long seed, int philox)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (philox) {
        curandStatePhilox4_32_10_t s;
        curand_init(seed, index[i] / 4, 0, &s);
        float4 r = curand_normal4(&s);
        float v[4] = {r.x, r.y, r.z, r.w};
        out[i] = v[index[i] % 4];
    } else {
        curandStateXORWOW_t s;
        unsigned long long pair = index[i] / 2;
        curand_init(seed, pair % 4096, 0, &s);
        skipahead(pair / 4096 * 2, &s);
        float2 r = curand_normal2(&s);
        out[i] = index[i] % 2 ? r.y : r.x;
    }
}

static int failures = 0;

static void compare(const char *what, const unsigned *got, const unsigned *want, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (bad++ < 3) printf("  %s[%d]: %08x, expected %08x\n", what, i, got[i], want[i]);
        }
    printf("%s: %d of %d equal\n", what, n - bad, n);
    failures += bad != 0;
}

int main()
{
    const size_t n = 10000;
    const unsigned long long seed = 1234ULL, offset = 4000;
    const unsigned long long picks[] = {0, 1, 2, 3, 4, 5, 4095, 4096, 4097, 8191, 8192, 9999};
    const int np = sizeof picks / sizeof picks[0];
    unsigned long long *d_index;
    unsigned *d_bits, *d_want;
    CHECK(cudaMalloc(&d_index, sizeof picks));
    CHECK(cudaMalloc(&d_bits, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_want, np * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_index, picks, sizeof picks, cudaMemcpyHostToDevice));
    std::vector<unsigned> bits(n), want(np), got(np), shifted(n);
    std::vector<float> uniform(n), normal(n), lognormal(n), normal_want(np);
    float *d_normal;
    CHECK(cudaMalloc(&d_normal, n * sizeof(float)));

    const curandRngType_t types[] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_PHILOX4_32_10};
    const char *names[] = {"xorwow", "philox"};
    for (int t = 0; t < 2; t++) {
        curandGenerator_t gen;
        CHECK(curandCreateGenerator(&gen, types[t]));
        CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
        CHECK(curandGenerate(gen, d_bits, n));
        CHECK(cudaMemcpy(bits.data(), d_bits, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        if (t == 0) expected_xorwow<<<1, 64>>>(d_want, d_index, np, seed);
        else expected_philox<<<1, 64>>>(d_want, d_index, np, seed);
        CHECK(cudaMemcpy(want.data(), d_want, np * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int i = 0; i < np; i++) got[i] = bits[picks[i]];
        char what[64];
        snprintf(what, sizeof what, "%s bits", names[t]);
        compare(what, got.data(), want.data(), np);

        // A fresh generator restarts the sequence; an offset starts it later.
        CHECK(curandDestroyGenerator(gen));
        CHECK(curandCreateGenerator(&gen, types[t]));
        CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
        CHECK(curandSetGeneratorOffset(gen, offset));
        CHECK(curandGenerate(gen, d_bits, n - offset));
        CHECK(cudaMemcpy(shifted.data(), d_bits, (n - offset) * sizeof(unsigned), cudaMemcpyDeviceToHost));
        snprintf(what, sizeof what, "%s offset", names[t]);
        compare(what, shifted.data(), bits.data() + offset, (int)(n - offset));
        CHECK(curandDestroyGenerator(gen));

        // The host generator gives the same values into host memory, as uniforms here.
        CHECK(curandCreateGeneratorHost(&gen, types[t]));
        CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
        CHECK(curandGenerateUniform(gen, uniform.data(), n));
        std::vector<unsigned> ubits(n), uwant(n);
        for (size_t i = 0; i < n; i++) {
            float w = (float)bits[i] * 2.3283064e-10f + 2.3283064e-10f / 2.0f;
            memcpy(&uwant[i], &w, 4);
            memcpy(&ubits[i], &uniform[i], 4);
        }
        snprintf(what, sizeof what, "%s uniform (host generator)", names[t]);
        compare(what, ubits.data(), uwant.data(), (int)n);
        CHECK(curandDestroyGenerator(gen));

        // Normals (mean 0, stddev 1) as the device API makes them; log-normals are their exp.
        CHECK(curandCreateGenerator(&gen, types[t]));
        CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
        CHECK(curandGenerateNormal(gen, d_normal, n, 0.0f, 1.0f));
        CHECK(cudaMemcpy(normal.data(), d_normal, n * sizeof(float), cudaMemcpyDeviceToHost));
        expected_normal<<<1, 64>>>(d_normal, d_index, np, seed, t);
        CHECK(cudaMemcpy(normal_want.data(), d_normal, np * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < np; i++) memcpy(&got[i], &normal[picks[i]], 4), memcpy(&want[i], &normal_want[i], 4);
        snprintf(what, sizeof what, "%s normal", names[t]);
        compare(what, got.data(), want.data(), np);
        CHECK(curandDestroyGenerator(gen));
        CHECK(curandCreateGenerator(&gen, types[t]));
        CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
        CHECK(curandGenerateLogNormal(gen, d_normal, n, 0.0f, 1.0f));
        CHECK(cudaMemcpy(lognormal.data(), d_normal, n * sizeof(float), cudaMemcpyDeviceToHost));
        int far = 0;
        for (size_t i = 0; i < n; i++)
            far += fabsf(lognormal[i] - expf(normal[i])) > 1e-5f * expf(normal[i]);
        printf("%s lognormal: %d of %d within 1e-5 of exp(normal)\n", names[t], (int)n - far, (int)n);
        failures += far != 0;
        printf("%s odd-length normal: %d\n", names[t], (int)curandGenerateNormal(gen, d_normal, 3, 0.0f, 1.0f));
        CHECK(curandDestroyGenerator(gen));
    }
    int version;
    CHECK(curandGetVersion(&version));
    printf("version %d\n", version);
    printf(failures ? "FAILED\n" : "ALL OK\n");
    return failures != 0;
}
