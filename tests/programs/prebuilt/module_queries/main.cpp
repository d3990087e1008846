// module_queries: a host-only driver-API program (g++ and -lcuda) that asks a library and a module
// what they hold: cuLibraryGetKernelCount/cuLibraryEnumerateKernels, cuKernelGetLibrary,
// cuModuleGetFunctionCount/cuModuleEnumerateFunctions (names sorted: the order is the driver's),
// a launch through an enumerated handle, and cuOccupancyMaxPotentialBlockSize with and without
// a limit and a shared-memory callback, checked for what holds on any GPU (the block size has the
// most resident threads of the sizes the search tries; the grid fills the device at that size).
//
// usage: module_queries FATBIN    (kernels.fatbin, built from kernels.cuh)
//
// Prints deterministic lines (counts, names, checks; never sizes that depend on the GPU) and
// PASS; exits 1 at the first failed call or check.

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

static std::vector<char> read_file(const char *path)
{
    std::vector<char> data;
    FILE *f = std::fopen(path, "rb");
    if (f == nullptr) {
        std::printf("FAIL: cannot open %s\n", path);
        std::exit(1);
    }
    char buffer[65536];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) data.insert(data.end(), buffer, buffer + got);
    std::fclose(f);
    return data;
}

static void print_names(const char *what, std::vector<std::string> names)
{
    std::sort(names.begin(), names.end());
    std::printf("%s:", what);
    for (const std::string &n : names) std::printf(" %s", n.c_str());
    std::printf("\n");
}

static int block_sum_calls = 0;
static size_t block_sum_shared(int block_size)
{
    ++block_sum_calls;
    return static_cast<size_t>(block_size) * sizeof(int);
}

// Resident threads per multiprocessor at a block size (with the callback's shared memory, if any).
static long long resident_threads(CUfunction f, int block, CUoccupancyB2DSize shared)
{
    int blocks = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block, shared ? shared(block) : 0));
    return static_cast<long long>(blocks) * block;
}

// The calculator's answer against what it must be on any GPU: within the limit, no tried size
// (the multiples of the warp size up to the limit, and the limit) with more resident threads,
// and the grid that fills every multiprocessor at that size.
static void check_potential(const char *what, CUfunction f, CUoccupancyB2DSize shared, int limit)
{
    CUdevice dev;
    CHECK(cuCtxGetDevice(&dev));
    int warp = 0, sms = 0, device_limit = 0, function_limit = 0;
    CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CHECK(cuDeviceGetAttribute(&device_limit, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev));
    CHECK(cuFuncGetAttribute(&function_limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    int min_grid = 0, block = 0;
    CHECK(cuOccupancyMaxPotentialBlockSize(&min_grid, &block, f, shared, 0, limit));
    int bound = std::min(device_limit, function_limit);
    if (limit > 0) bound = std::min(bound, limit);
    EXPECT(block > 0 && block <= bound);
    long long best = resident_threads(f, block, shared);
    for (int size = warp; size <= bound; size += warp) EXPECT(resident_threads(f, size, shared) <= best);
    EXPECT(resident_threads(f, bound, shared) <= best);
    int per_sm = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, block, shared ? shared(block) : 0));
    EXPECT(min_grid == per_sm * sms);
    int flagged_grid = 0, flagged_block = 0;
    CHECK(cuOccupancyMaxPotentialBlockSizeWithFlags(&flagged_grid, &flagged_block, f, shared, 0, limit,
                                                    CU_OCCUPANCY_DEFAULT));
    EXPECT(flagged_grid == min_grid && flagged_block == block);
    std::printf("max potential block size, %s: consistent\n", what);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::printf("usage: %s FATBIN\n", argv[0]);
        return 2;
    }
    std::vector<char> image = read_file(argv[1]);
    CHECK(cuInit(0));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));

    // 1. The library's kernels.
    CUlibrary lib;
    CHECK(cuLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    unsigned count = 0;
    CHECK(cuLibraryGetKernelCount(&count, lib));
    std::printf("library kernels: %u\n", count);
    std::vector<CUkernel> kernels(count);
    CHECK(cuLibraryEnumerateKernels(kernels.data(), count, lib));
    std::vector<std::string> names;
    for (CUkernel k : kernels) {
        const char *name = nullptr;
        CHECK(cuKernelGetName(&name, k));
        names.push_back(name);
        CUlibrary owner = nullptr;
        CHECK(cuKernelGetLibrary(&owner, k));
        EXPECT(owner == lib);
    }
    print_names("library kernel names", names);
    std::printf("cuKernelGetLibrary: the library, for each kernel\n");
    CUkernel fill_kernel;
    CHECK(cuLibraryGetKernel(&fill_kernel, lib, "fill"));
    EXPECT(std::find(kernels.begin(), kernels.end(), fill_kernel) != kernels.end());

    // 2. The library's module and its functions; a launch through an enumerated handle.
    CUmodule mod;
    CHECK(cuLibraryGetModule(&mod, lib));
    unsigned functions = 0;
    CHECK(cuModuleGetFunctionCount(&functions, mod));
    std::printf("module functions: %u\n", functions);
    std::vector<CUfunction> handles(functions);
    CHECK(cuModuleEnumerateFunctions(handles.data(), functions, mod));
    names.clear();
    CUfunction fill = nullptr;
    for (CUfunction f : handles) {
        const char *name = nullptr;
        CHECK(cuFuncGetName(&name, f));
        names.push_back(name);
        if (std::string(name) == "fill") fill = f;
    }
    print_names("module function names", names);
    EXPECT(fill != nullptr);
    const int n = 1000;
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, n * sizeof(int)));
    int value = 21, elements = n;
    void *params[] = {&out, &value, &elements};
    CHECK(cuLaunchKernel(fill, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
    std::vector<int> host(n);
    CHECK(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
    for (int i = 0; i < n; i++) EXPECT(host[i] == 42 + i);
    CUfunctionLoadingState state;
    CHECK(cuFuncIsLoaded(&state, fill));
    EXPECT(state == CU_FUNCTION_LOADING_STATE_LOADED);
    std::printf("fill through its enumerated handle: %d elements right\n", n);

    // 3. A module loaded on its own from the same image holds the same functions.
    CUmodule alone;
    CHECK(cuModuleLoadData(&alone, image.data()));
    unsigned alone_count = 0;
    CHECK(cuModuleGetFunctionCount(&alone_count, alone));
    std::printf("module loaded alone: %u functions\n", alone_count);
    std::vector<CUfunction> first_two(2);
    CHECK(cuModuleEnumerateFunctions(first_two.data(), 2, alone));
    std::printf("enumerating 2 of them: done\n");

    // 4. The occupancy calculator.
    CUfunction scale, block_sum;
    CHECK(cuModuleGetFunction(&scale, mod, "_Z5scalePffi"));
    CHECK(cuModuleGetFunction(&block_sum, mod, "block_sum"));
    check_potential("no limit", scale, nullptr, 0);
    check_potential("limit 100", scale, nullptr, 100);
    check_potential("shared memory per block size", block_sum, block_sum_shared, 0);
    std::printf("shared memory callback called: %s\n", block_sum_calls > 0 ? "yes" : "no");

    CHECK(cuMemFree(out));
    CHECK(cuModuleUnload(alone));
    CHECK(cuLibraryUnload(lib));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    std::printf("PASS\n");
    return 0;
}
