// Generic code the way header-only CUDA libraries write it: one kernel template instantiated for
// eight element types (char .. double, half) and three functors, a variadic template reduction,
// constexpr/if-constexpr dispatch, a CRTP policy, and device printf with the formats diagnostic
// code prints (%d %u %ld %lld %llx %f %e %g %s %c %p %% and field widths) from a few threads.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <cuda_fp16.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int N = 96;

struct Square { template <typename T> __host__ __device__ T operator()(T x) const { return x * x; } };
struct Negate { template <typename T> __host__ __device__ T operator()(T x) const { return -x; } };
struct Clamp {
    template <typename T> __host__ __device__ T operator()(T x) const {
        if constexpr (std::is_floating_point<T>::value) return x < T(-2) ? T(-2) : x > T(2) ? T(2) : x;
        else return x < T(-20) ? T(-20) : x > T(20) ? T(20) : x;
    }
};

template <typename T> __host__ __device__ T from_int(int i) { return static_cast<T>(i); }
template <> __host__ __device__ half from_int<half>(int i) { return __int2half_rn(i); }
template <typename T> __host__ __device__ double to_double(T v) { return static_cast<double>(v); }
template <> __host__ __device__ double to_double<half>(half v) { return (double)__half2float(v); }

template <typename T, typename F>
__global__ void transform(const int *in, T *out, F f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(from_int<T>(in[i] % 23 - 11));
}

template <typename T> __device__ T sum_all(T x) { return x; }
template <typename T, typename... Rest> __device__ T sum_all(T x, Rest... rest) { return x + sum_all(rest...); }

template <typename Derived> struct Policy {
    __device__ int apply(int v) const { return static_cast<const Derived *>(this)->step(v) * 2; }
};
struct AddThree : Policy<AddThree> { __device__ int step(int v) const { return v + 3; } };
struct Shift : Policy<Shift> { __device__ int step(int v) const { return v << 2; } };

template <int K>
__global__ void variadic(const int *in, long long *out)
{
    int i = threadIdx.x;
    int a = in[i], b = in[(i + 1) % N], c = in[(i + 2) % N];
    long long s = sum_all<long long>(a, b, c, (long long)K);
    if constexpr (K % 2 == 0) s += AddThree().apply(a);
    else s += Shift().apply(a);
    out[i] = s;
}

__global__ void report(const int *in)
{
    int i = threadIdx.x;
    if (i % 16 != 0) return;
    long lv = -1234567L * (i + 1);
    unsigned long long big = 0xDEADBEEF00000000ull + i;
    printf("thread %2d: in=%d u=%u l=%ld ll=%lld hex=%llx\n", i, in[i], (unsigned)in[i] * 3u, lv, (long long)lv * 1000, big);
    printf("  f=%f e=%e g=%g w=[%8.3f] [%-6d] s=%s c=%c pct=100%%\n", 1.5 * i, 12345.678 * i, 0.0001 * i,
           3.14159, i, i ? "odd-block" : "first", 'A' + i / 16);
    printf("  null pointer prints as %p\n", (void *)0);
}

template <typename T, typename F> static int run(const int *d_in, const int *in, F f, double *checksum)
{
    T *d_out;
    T out[N];
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    transform<<<(N + 31) / 32, 32>>>(d_in, d_out, f, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_out));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        T want = f(from_int<T>(in[i] % 23 - 11));
        *checksum += to_double(out[i]);
        if (to_double(out[i]) != to_double(want) && bad++ < 3)
            fprintf(stderr, "%s: element %d: %g want %g\n", __PRETTY_FUNCTION__, i, to_double(out[i]), to_double(want));
    }
    return bad;
}

template <typename T> static int run_all(const int *d_in, const int *in, double *checksum)
{
    return run<T>(d_in, in, Square(), checksum) + run<T>(d_in, in, Negate(), checksum) + run<T>(d_in, in, Clamp(), checksum);
}

int main()
{
    int in[N];
    for (int i = 0; i < N; i++) in[i] = (i * 7919) % 1000 - 500;
    int *d_in;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    double checksum = 0;
    int bad = 0;
    bad += run_all<signed char>(d_in, in, &checksum);
    bad += run_all<short>(d_in, in, &checksum);
    bad += run_all<int>(d_in, in, &checksum);
    bad += run_all<long long>(d_in, in, &checksum);
    bad += run_all<unsigned>(d_in, in, &checksum);
    bad += run_all<float>(d_in, in, &checksum);
    bad += run_all<double>(d_in, in, &checksum);
    bad += run<half>(d_in, in, Negate(), &checksum) + run<half>(d_in, in, Square(), &checksum);

    long long *d_v, v[N];
    CUDA_CHECK(cudaMalloc(&d_v, sizeof v));
    variadic<4><<<1, N>>>(d_in, d_v);
    CUDA_CHECK(cudaMemcpy(v, d_v, sizeof v, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        long long want = (long long)in[i] + in[(i + 1) % N] + in[(i + 2) % N] + 4 + (in[i] + 3) * 2;
        checksum += (double)v[i];
        if (v[i] != want && bad++ < 3) fprintf(stderr, "variadic<4> %d\n", i);
    }
    variadic<7><<<1, N>>>(d_in, d_v);
    CUDA_CHECK(cudaMemcpy(v, d_v, sizeof v, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        long long want = (long long)in[i] + in[(i + 1) % N] + in[(i + 2) % N] + 7 + (in[i] << 2) * 2;
        checksum += (double)v[i];
        if (v[i] != want && bad++ < 3) fprintf(stderr, "variadic<7> %d\n", i);
    }
    report<<<1, 64>>>(d_in);
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
