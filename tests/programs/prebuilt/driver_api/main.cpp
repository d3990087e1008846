// driver_api: a host-only program on the CUDA driver API (g++ and -lcuda; no nvcc for the host, no
// runtime library). It loads kernels.fatbin from memory and kernels.cubin from a path (both built
// from kernels.cuh) and exercises devices, contexts, modules, globals, memory, streams, the three
// ways to launch, events, function attributes and error names.
//
// usage: driver_api DIR    (DIR holds kernels.fatbin and kernels.cubin)
//
// Prints one deterministic line per step (integer checksums, never names, times or addresses) and
// PASS; exits 1 at the first failed call or check.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void check(CUresult result, const char *call, int line)
{
    if (result == CUDA_SUCCESS) return;
    const char *name = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "(unknown error)";
    std::printf("FAIL: line %d: %s returned %s (%d)\n", line, call, name, static_cast<int>(result));
    std::exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

static void expect(bool ok, const char *what, int line)
{
    if (ok) return;
    std::printf("FAIL: line %d: %s\n", line, what);
    std::exit(1);
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)

// Position-weighted sum, so a permutation or a shifted copy changes it.
template <typename T> static unsigned long long weighted(const std::vector<T> &v)
{
    unsigned long long sum = 0;
    for (size_t i = 0; i < v.size(); ++i)
        sum += (static_cast<unsigned long long>(i) + 1) * static_cast<unsigned long long>(static_cast<uint32_t>(v[i]));
    return sum;
}

static std::vector<char> read_file(const std::string &path)
{
    std::vector<char> data;
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        std::printf("FAIL: cannot open %s\n", path.c_str());
        std::exit(1);
    }
    char buffer[65536];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) data.insert(data.end(), buffer, buffer + got);
    std::fclose(f);
    return data;
}

static unsigned blocks_for(int n, unsigned threads) { return (static_cast<unsigned>(n) + threads - 1) / threads; }

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::printf("usage: %s DIR (DIR holds kernels.fatbin and kernels.cubin)\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];

    // 1. Driver, device, attributes.
    CHECK(cuInit(0));
    int count = 0;
    CHECK(cuDeviceGetCount(&count));
    EXPECT(count >= 1);
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    char name[256] = {0};
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    EXPECT(std::strlen(name) > 0);
    int warp = 0;
    CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    std::printf("step 1 device: count >= 1, name not empty, warp size %d\n", warp);
    EXPECT(warp == 32);

    // 2. The primary context, made current.
    CUcontext primary = nullptr, current = nullptr;
    CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
    CHECK(cuCtxSetCurrent(primary));
    CHECK(cuCtxGetCurrent(&current));
    EXPECT(current == primary);
    CUdevice ctx_dev = -1;
    CHECK(cuCtxGetDevice(&ctx_dev));
    EXPECT(ctx_dev == dev);
    std::printf("step 2 primary context: current\n");

    // 3. A context of its own: created (and current), used, destroyed; then the primary again.
    {
        CUcontext own = nullptr;
        CHECK(cuCtxCreate(&own, nullptr, 0, dev));
        CHECK(cuCtxGetCurrent(&current));
        EXPECT(current == own && own != primary);
        const int n = 1000;
        CUdeviceptr d = 0;
        CHECK(cuMemAlloc(&d, n * sizeof(uint32_t)));
        CHECK(cuMemsetD32(d, 0x01020304u, n));
        std::vector<uint32_t> h(n, 0);
        CHECK(cuMemcpyDtoH(h.data(), d, n * sizeof(uint32_t)));
        for (int i = 0; i < n; ++i) EXPECT(h[i] == 0x01020304u);
        CHECK(cuMemFree(d));
        CHECK(cuCtxDestroy(own));
        CHECK(cuCtxSetCurrent(primary));
        CHECK(cuCtxGetCurrent(&current));
        EXPECT(current == primary);
        std::printf("step 3 created context: memset checksum %llu, destroyed\n", weighted(h));
    }

    // 4. Modules: the fatbin from memory, the cubin from its path.
    std::vector<char> fatbin = read_file(dir + "/kernels.fatbin");
    CUmodule fat = nullptr, cub = nullptr;
    CHECK(cuModuleLoadData(&fat, fatbin.data()));
    const std::string cubin_path = dir + "/kernels.cubin";
    CHECK(cuModuleLoad(&cub, cubin_path.c_str()));
    CUfunction add_one, axpy_int, use_globals, scale_fat, scale_cub, tile_sum;
    CHECK(cuModuleGetFunction(&add_one, fat, "add_one"));
    CHECK(cuModuleGetFunction(&axpy_int, fat, "axpy_int"));
    CHECK(cuModuleGetFunction(&use_globals, fat, "use_globals"));
    CHECK(cuModuleGetFunction(&scale_fat, fat, "_Z5scalePffi"));
    CHECK(cuModuleGetFunction(&scale_cub, cub, "_Z5scalePffi"));
    CHECK(cuModuleGetFunction(&tile_sum, cub, "tile_sum"));
    std::printf("step 4 modules: fatbin from memory, cubin from file, 6 functions\n");

    // 5. Module globals: a __device__ array and a __constant__ value written and read back, and a
    //    __device__ counter that the kernel increments.
    {
        CUdeviceptr table = 0, scale_value = 0, hits = 0;
        size_t table_bytes = 0, scale_bytes = 0, hits_bytes = 0;
        CHECK(cuModuleGetGlobal(&table, &table_bytes, fat, "dev_table"));
        CHECK(cuModuleGetGlobal(&scale_value, &scale_bytes, fat, "dev_scale"));
        CHECK(cuModuleGetGlobal(&hits, &hits_bytes, fat, "dev_hits"));
        EXPECT(table_bytes == 256 * sizeof(int) && scale_bytes == sizeof(int) && hits_bytes == sizeof(unsigned));
        CHECK(cuMemsetD32(hits, 0u, 1));
        std::vector<int> h_table(256);
        for (int i = 0; i < 256; ++i) h_table[i] = (i * 37) % 101 - 50;
        const int factor = 3;
        CHECK(cuMemcpyHtoD(table, h_table.data(), table_bytes));
        CHECK(cuMemcpyHtoD(scale_value, &factor, sizeof factor));
        int factor_back = 0;
        CHECK(cuMemcpyDtoH(&factor_back, scale_value, sizeof factor_back));
        EXPECT(factor_back == factor);

        const int n = 1000;
        CUdeviceptr out = 0;
        CHECK(cuMemAlloc(&out, n * sizeof(int)));
        int n_arg = n;
        void *params[] = {&out, &n_arg};
        CHECK(cuLaunchKernel(use_globals, blocks_for(n, 128), 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
        CHECK(cuCtxSynchronize());
        std::vector<int> h_out(n), table_back(256);
        unsigned hits_back = 0;
        CHECK(cuMemcpyDtoH(h_out.data(), out, n * sizeof(int)));
        CHECK(cuMemcpyDtoH(table_back.data(), table, table_bytes));
        CHECK(cuMemcpyDtoH(&hits_back, hits, sizeof hits_back));
        for (int i = 0; i < n; ++i) EXPECT(h_out[i] == h_table[i % 256] * factor + i);
        EXPECT(table_back == h_table);
        EXPECT(hits_back == static_cast<unsigned>(n));
        CHECK(cuMemFree(out));
        std::printf("step 5 globals: %zu + %zu + %zu bytes, out checksum %llu, table checksum %llu, hits %u\n",
                    table_bytes, scale_bytes, hits_bytes, weighted(h_out), weighted(table_back), hits_back);
    }

    // 6. Memory: allocation, memset, the three synchronous copies, then their Async forms on a stream.
    const int n = 4096;
    const size_t bytes = n * sizeof(int);
    CUdeviceptr a = 0, b = 0, c = 0;
    CHECK(cuMemAlloc(&a, bytes));
    CHECK(cuMemAlloc(&b, bytes));
    CHECK(cuMemAlloc(&c, bytes));
    CUstream stream = nullptr;
    // A blocking stream: it orders itself after the synchronous copies of the NULL stream.
    CHECK(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    std::vector<int> host(n), back(n);
    for (int i = 0; i < n; ++i) host[i] = (i * 7919) % 1000 - 500;
    {
        CHECK(cuMemsetD32(a, 7u, n));
        CHECK(cuMemcpyDtoH(back.data(), a, bytes));
        for (int i = 0; i < n; ++i) EXPECT(back[i] == 7);
        CHECK(cuMemcpyHtoD(b, host.data(), bytes));
        CHECK(cuMemcpyDtoD(c, b, bytes));
        CHECK(cuMemcpyDtoH(back.data(), c, bytes));
        EXPECT(back == host);
        const unsigned long long sync_sum = weighted(back);

        std::vector<int> reversed(host.rbegin(), host.rend()), back2(n, 0);
        CHECK(cuMemcpyHtoDAsync(a, reversed.data(), bytes, stream));
        CHECK(cuMemcpyDtoDAsync(c, a, bytes, stream));
        CHECK(cuMemcpyDtoHAsync(back2.data(), c, bytes, stream));
        CHECK(cuStreamSynchronize(stream));
        EXPECT(back2 == reversed);
        std::printf("step 6 memory: copies checksum %llu, async copies checksum %llu\n", sync_sum, weighted(back2));
    }

    // 7. cuLaunchKernel with kernelParams: add_one (C name, fatbin), scale (mangled, both modules).
    {
        CHECK(cuMemcpyHtoD(a, host.data(), bytes));
        int n_arg = n;
        void *params[] = {&a, &n_arg};
        CHECK(cuLaunchKernel(add_one, blocks_for(n, 256), 1, 1, 256, 1, 1, 0, stream, params, nullptr));
        CHECK(cuStreamSynchronize(stream));
        CHECK(cuMemcpyDtoH(back.data(), a, bytes));
        for (int i = 0; i < n; ++i) EXPECT(back[i] == host[i] + 1);
        const unsigned long long add_sum = weighted(back);

        std::vector<float> x(n), x_back(n);
        for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i - 2048);
        CHECK(cuMemcpyHtoD(c, x.data(), n * sizeof(float)));
        float factor = 0.5f;
        void *scale_params[] = {&c, &factor, &n_arg};
        CHECK(cuLaunchKernel(scale_fat, blocks_for(n, 128), 1, 1, 128, 1, 1, 0, nullptr, scale_params, nullptr));
        factor = -4.0f;
        CHECK(cuLaunchKernel(scale_cub, blocks_for(n, 64), 1, 1, 64, 1, 1, 0, nullptr, scale_params, nullptr));
        CHECK(cuCtxSynchronize());
        CHECK(cuMemcpyDtoH(x_back.data(), c, n * sizeof(float)));
        long long scaled_sum = 0;
        for (int i = 0; i < n; ++i) {
            EXPECT(x_back[i] == x[i] * -2.0f);   // exact: small integers times powers of two
            scaled_sum += static_cast<long long>(x_back[i]) * (i + 1);
        }
        std::printf("step 7 kernelParams launches: add_one checksum %llu, scale checksum %lld\n", add_sum, scaled_sum);
    }

    // 8. cuLaunchKernel with `extra`: the arguments packed into one buffer at their ABI offsets.
    {
        CHECK(cuMemcpyHtoD(b, host.data(), bytes));   // x
        CHECK(cuMemsetD32(c, 1000u, n));              // y
        struct {
            CUdeviceptr y;   // offset 0
            CUdeviceptr x;   // offset 8
            int a;           // offset 16
            int n;           // offset 20
        } args = {c, b, 3, n};
        static_assert(sizeof args == 24, "axpy_int's parameter buffer is 24 bytes");
        size_t args_size = sizeof args;
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                         CU_LAUNCH_PARAM_END};
        CHECK(cuLaunchKernel(axpy_int, blocks_for(n, 256), 1, 1, 256, 1, 1, 0, stream, nullptr, extra));
        CHECK(cuStreamSynchronize(stream));
        CHECK(cuMemcpyDtoH(back.data(), c, bytes));
        for (int i = 0; i < n; ++i) EXPECT(back[i] == 3 * host[i] + 1000);
        std::printf("step 8 extra launch: axpy checksum %llu\n", weighted(back));
    }

    // 9. cuLaunchKernelEx with a launch configuration (no attributes) on the stream.
    {
        CUlaunchConfig config;
        std::memset(&config, 0, sizeof config);
        config.gridDimX = blocks_for(n, 128);
        config.gridDimY = 1;
        config.gridDimZ = 1;
        config.blockDimX = 128;
        config.blockDimY = 1;
        config.blockDimZ = 1;
        config.sharedMemBytes = 0;
        config.hStream = stream;
        config.attrs = nullptr;
        config.numAttrs = 0;
        int factor = -2, n_arg = n;
        void *params[] = {&c, &b, &factor, &n_arg};   // y = -2 * x + (3 * x + 1000) = x + 1000
        CHECK(cuLaunchKernelEx(&config, axpy_int, params, nullptr));
        CHECK(cuStreamSynchronize(stream));
        CHECK(cuMemcpyDtoH(back.data(), c, bytes));
        for (int i = 0; i < n; ++i) EXPECT(back[i] == host[i] + 1000);
        std::printf("step 9 cuLaunchKernelEx: axpy checksum %llu\n", weighted(back));
    }

    // 10. Dynamic shared memory and a 2D grid of 2D blocks (cubin module), between two events.
    {
        const int width = 128, height = 64, tile = 16;
        const unsigned gx = width / tile, gy = height / tile;
        std::vector<unsigned> image(width * height), sums(gx * gy, 0);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) image[y * width + x] = static_cast<unsigned>((x * 7 + y * 13) % 101);
        CUdeviceptr d_image = 0, d_sums = 0;
        CHECK(cuMemAlloc(&d_image, image.size() * sizeof(unsigned)));
        CHECK(cuMemAlloc(&d_sums, sums.size() * sizeof(unsigned)));
        CHECK(cuMemcpyHtoD(d_image, image.data(), image.size() * sizeof(unsigned)));
        CUevent start = nullptr, stop = nullptr;
        CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
        CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
        int w = width, h = height;
        void *params[] = {&d_image, &d_sums, &w, &h};
        CHECK(cuEventRecord(start, stream));
        CHECK(cuLaunchKernel(tile_sum, gx, gy, 1, tile, tile, 1, tile * tile * sizeof(unsigned), stream, params,
                             nullptr));
        CHECK(cuEventRecord(stop, stream));
        CHECK(cuEventSynchronize(stop));
        CHECK(cuEventQuery(stop));
        float ms = -1.0f;
        CHECK(cuEventElapsedTime(&ms, start, stop));
        EXPECT(ms >= 0.0f);
        CHECK(cuMemcpyDtoH(sums.data(), d_sums, sums.size() * sizeof(unsigned)));
        unsigned long long total = 0;
        for (unsigned by = 0; by < gy; ++by)
            for (unsigned bx = 0; bx < gx; ++bx) {
                unsigned expected = 0;
                for (int y = 0; y < tile; ++y)
                    for (int x = 0; x < tile; ++x) expected += image[(by * tile + y) * width + bx * tile + x];
                EXPECT(sums[by * gx + bx] == expected);
                total += expected;
            }
        CHECK(cuEventDestroy(start));
        CHECK(cuEventDestroy(stop));
        CHECK(cuMemFree(d_image));
        CHECK(cuMemFree(d_sums));
        std::printf("step 10 dynamic shared memory, 2D grid %ux%u of 16x16, events: total %llu, checksum %llu\n", gx,
                    gy, total, weighted(sums));
    }

    // 11. A function attribute.
    {
        int max_threads = 0;
        CHECK(cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, tile_sum));
        EXPECT(max_threads > 0);
        std::printf("step 11 function attribute: max threads per block > 0\n");
    }

    // 12. A deliberately bad call and its error name.
    {
        CUfunction missing = nullptr;
        CUresult result = cuModuleGetFunction(&missing, fat, "no_such_kernel");
        const char *error = nullptr;
        CHECK(cuGetErrorName(result, &error));
        std::printf("step 12 missing function: %s\n", error);
        EXPECT(result == CUDA_ERROR_NOT_FOUND);
    }

    // 13. Tear down.
    CHECK(cuCtxSynchronize());
    CHECK(cuStreamDestroy(stream));
    CHECK(cuMemFree(a));
    CHECK(cuMemFree(b));
    CHECK(cuMemFree(c));
    CHECK(cuModuleUnload(fat));
    CHECK(cuModuleUnload(cub));
    CHECK(cuCtxSynchronize());
    CHECK(cuDevicePrimaryCtxRelease(dev));
    std::printf("step 13 teardown: modules unloaded, primary context released\n");
    std::printf("PASS\n");
    return 0;
}
