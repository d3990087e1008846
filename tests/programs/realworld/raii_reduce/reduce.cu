// Modern host C++: an RAII device buffer template, std::vector, C++17 (if constexpr, structured
// bindings, std::optional, fold expressions), host lambdas; a templated block reduction with
// extern __shared__ of a templated type through the cuda-samples SharedMemory<T> idiom.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>
#include <cuda_runtime.h>

static void throwOnError(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <typename T> class DeviceBuffer {
  public:
    explicit DeviceBuffer(size_t n) : n_(n) { throwOnError(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc"); }
    DeviceBuffer(const std::vector<T> &h) : DeviceBuffer(h.size()) { upload(h); }
    ~DeviceBuffer() { cudaFree(p_); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    DeviceBuffer(DeviceBuffer &&o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
    void upload(const std::vector<T> &h) { throwOnError(cudaMemcpy(p_, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "upload"); }
    std::vector<T> download() const
    {
        std::vector<T> h(n_);
        throwOnError(cudaMemcpy(h.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
        return h;
    }
    T *get() const { return p_; }
    size_t size() const { return n_; }

  private:
    T *p_ = nullptr;
    size_t n_;
};

template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <typename T, unsigned int blockSize>
__global__ void reduce(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned int n)
{
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    T mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (i + blockSize < n)
            mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = mySum;
    __syncthreads();
#pragma unroll
    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;
}

template <typename T> std::optional<T> gpuSum(const std::vector<T> &h)
{
    constexpr unsigned threads = 64;
    const unsigned blocks = 4;
    DeviceBuffer<T> in(h), out(blocks);
    reduce<T, threads><<<blocks, threads, threads * sizeof(T)>>>(in.get(), out.get(), (unsigned)h.size());
    if (cudaGetLastError() != cudaSuccess)
        return std::nullopt;
    auto partial = out.download();
    return std::accumulate(partial.begin(), partial.end(), T(0));
}

template <typename... B> constexpr bool allOf(B... b) { return (b && ...); }

template <typename T> auto check(const char *name, size_t n)
{
    std::vector<T> h(n);
    int k = 0;
    std::generate(h.begin(), h.end(), [&k]() {
        ++k;
        if constexpr (std::is_integral_v<T>)
            return T((k * 37) % 101 - 50);
        else
            return T(((k * 37) % 101 - 50) * 0.25);
    });
    T ref = std::accumulate(h.begin(), h.end(), T(0));
    auto got = gpuSum(h);
    bool ok = got.has_value() && *got == ref; // exact: all values are multiples of 1/4
    fprintf(stderr, "%s: %s\n", name, ok ? "ok" : "mismatch");
    return std::make_tuple(ok, got.value_or(T(0)));
}

int main()
{
    try {
        auto [okI, sumI] = check<int>("int", 1000);
        auto [okF, sumF] = check<float>("float", 777);
        auto [okD, sumD] = check<double>("double", 513);
        bool ok = allOf(okI, okF, okD);
        printf("checksum: %.6e\n", (double)sumI + sumF + sumD);
        printf(ok ? "PASS\n" : "FAIL\n");
        return ok ? 0 : 1;
    } catch (const std::exception &e) {
        fprintf(stderr, "exception: %s\n", e.what());
        printf("FAIL\n");
        return 1;
    }
}
