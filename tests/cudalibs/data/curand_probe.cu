// cuRAND outputs at chosen indices, as hex, for every generate function cass-cc implements, with
// XORWOW and PHILOX4_32_10, from offset 0 and from offset 4001: run with NVIDIA's library on an
// NVIDIA GPU, this is the reference cass-cc's libcurand must print bit for bit.
#include <cstdio>
#include <cstring>
#include <vector>
#include <curand.h>

#define CHECK(call) do { int s_ = (int)(call); if (s_) { printf("%s failed: %d\n", #call, s_); return 1; } } while (0)

static const size_t N = 10000;
static const size_t PICKS[] = {0, 1, 2, 3, 4, 5, 6, 7, 4094, 4095, 4096, 4097, 8191, 8192, 8193, 9998, 9999};

template <typename T>
static void print(const char *what, const std::vector<T> &v, size_t n)
{
    printf("%s:", what);
    for (size_t p : PICKS) {
        if (p >= n) continue;
        unsigned long long bits = 0;
        memcpy(&bits, &v[p], sizeof(T));
        printf(" %zu=%0*llx", p, (int)(2 * sizeof(T)), bits);
    }
    printf("\n");
}

int main()
{
    const curandRngType_t types[] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_PHILOX4_32_10};
    const char *names[] = {"xorwow", "philox"};
    void *d;
    CHECK(cudaMalloc(&d, N * sizeof(double)));
    std::vector<unsigned> u(N);
    std::vector<float> f(N);
    std::vector<double> g(N);
    for (int t = 0; t < 2; t++)
        for (unsigned long long offset : {0ull, 4001ull}) {
            size_t n = N - offset;
            char what[96];
#define RUN(call, vec, label)                                                                       \
            {                                                                                       \
                curandGenerator_t gen;                                                              \
                CHECK(curandCreateGenerator(&gen, types[t]));                                       \
                CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));                            \
                CHECK(curandSetGeneratorOffset(gen, offset));                                       \
                CHECK(call);                                                                        \
                CHECK(cudaMemcpy(vec.data(), d, n * sizeof(vec[0]), cudaMemcpyDeviceToHost));      \
                snprintf(what, sizeof what, "%s offset %llu %s", names[t], offset, label);          \
                print(what, vec, n);                                                                \
                CHECK(curandDestroyGenerator(gen));                                                 \
            }
            RUN(curandGenerate(gen, (unsigned *)d, n), u, "bits")
            RUN(curandGenerateUniform(gen, (float *)d, n), f, "uniform")
            RUN(curandGenerateNormal(gen, (float *)d, n - n % 2, 1.5f, 2.0f), f, "normal(1.5,2)")
            RUN(curandGenerateLogNormal(gen, (float *)d, n - n % 2, 0.5f, 0.25f), f, "lognormal(0.5,0.25)")
            RUN(curandGenerateUniformDouble(gen, (double *)d, n), g, "uniform double")
            RUN(curandGenerateNormalDouble(gen, (double *)d, n - n % 2, 1.5, 2.0), g, "normal double(1.5,2)")
            RUN(curandGenerateLogNormalDouble(gen, (double *)d, n - n % 2, 0.5, 0.25), g, "lognormal double(0.5,0.25)")
        }
    return 0;
}
