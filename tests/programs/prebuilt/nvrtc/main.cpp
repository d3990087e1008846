// nvrtc: compiles CUDA C++ at run time with NVRTC (g++, -lnvrtc -lcuda; no nvcc, no runtime
// library), twice: once to machine code for a real architecture (nvrtcGetCUBIN), once to PTX for
// compute_80 (nvrtcGetPTX). Each result is loaded with cuModuleLoadDataEx and its kernels, a
// template instantiated through name expressions and a plain extern "C" one, are launched.
//
// usage: nvrtc ARCH    (ARCH: the sm_XY the cubin is compiled for; the GPU must run its code)
//
// Prints the lowered names, a checksum per launch and PASS; exits 1 at the first failure.

#include <cuda.h>
#include <nvrtc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void check_cu(CUresult result, const char *call, int line)
{
    if (result == CUDA_SUCCESS) return;
    const char *name = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "(unknown error)";
    std::printf("FAIL: line %d: %s returned %s (%d)\n", line, call, name, static_cast<int>(result));
    std::exit(1);
}
static void check_nvrtc(nvrtcResult result, const char *call, int line)
{
    if (result == NVRTC_SUCCESS) return;
    std::printf("FAIL: line %d: %s returned %s\n", line, call, nvrtcGetErrorString(result));
    std::exit(1);
}
#define CU(call) check_cu((call), #call, __LINE__)
#define NVRTC(call) check_nvrtc((call), #call, __LINE__)

static void expect(bool ok, const char *what, int line)
{
    if (ok) return;
    std::printf("FAIL: line %d: %s\n", line, what);
    std::exit(1);
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)

static const char *const SOURCE = R"(
template <typename T>
__global__ void scale_add(T *y, const T *x, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void square_words(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned)i * (unsigned)i + 1u;
}
)";

static const char *const EXPRESSIONS[] = {"scale_add<int>", "scale_add<unsigned long long>"};

struct Compiled {
    std::vector<char> image;            // cubin or PTX (NUL-terminated)
    std::vector<std::string> lowered;   // one per EXPRESSIONS entry
};

static Compiled compile(const std::string &arch_option, bool cubin)
{
    nvrtcProgram program;
    NVRTC(nvrtcCreateProgram(&program, SOURCE, "prebuilt_nvrtc.cu", 0, nullptr, nullptr));
    for (const char *expression : EXPRESSIONS) NVRTC(nvrtcAddNameExpression(program, expression));
    const char *options[] = {arch_option.c_str(), "--std=c++17"};
    nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
    if (compiled != NVRTC_SUCCESS) {
        size_t log_size = 0;
        nvrtcGetProgramLogSize(program, &log_size);
        std::string log(log_size, '\0');
        nvrtcGetProgramLog(program, &log[0]);
        std::printf("FAIL: nvrtcCompileProgram(%s): %s\n%s\n", arch_option.c_str(), nvrtcGetErrorString(compiled),
                    log.c_str());
        std::exit(1);
    }
    Compiled out;
    for (const char *expression : EXPRESSIONS) {
        const char *lowered = nullptr;
        NVRTC(nvrtcGetLoweredName(program, expression, &lowered));
        out.lowered.push_back(lowered);   // copied: the program owns the string
    }
    size_t size = 0;
    if (cubin) {
        NVRTC(nvrtcGetCUBINSize(program, &size));
        EXPECT(size > 0);
        out.image.resize(size);
        NVRTC(nvrtcGetCUBIN(program, out.image.data()));
    } else {
        NVRTC(nvrtcGetPTXSize(program, &size));   // counts the terminating NUL
        EXPECT(size > 1);
        out.image.resize(size);
        NVRTC(nvrtcGetPTX(program, out.image.data()));
        EXPECT(out.image.back() == '\0');
    }
    NVRTC(nvrtcDestroyProgram(&program));
    return out;
}

static unsigned blocks_for(int n, unsigned threads) { return (static_cast<unsigned>(n) + threads - 1) / threads; }

// Loads one compiled image and launches its three kernels; returns a checksum of their results.
static unsigned long long run(const char *label, const Compiled &compiled, bool with_jit_log)
{
    CUmodule module = nullptr;
    if (with_jit_log) {
        // The PTX path: ask for the JIT's error log (it is only printed on failure).
        static char log[8192];
        CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *values[] = {log, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof log))};
        CUresult loaded = cuModuleLoadDataEx(&module, compiled.image.data(), 2, options, values);
        if (loaded != CUDA_SUCCESS) {
            const char *name = nullptr;
            cuGetErrorName(loaded, &name);
            std::printf("FAIL: cuModuleLoadDataEx(%s) returned %s\n%s\n", label, name ? name : "?", log);
            std::exit(1);
        }
    } else {
        CU(cuModuleLoadDataEx(&module, compiled.image.data(), 0, nullptr, nullptr));
    }
    CUfunction scale_int, scale_u64, square_words;
    CU(cuModuleGetFunction(&scale_int, module, compiled.lowered[0].c_str()));
    CU(cuModuleGetFunction(&scale_u64, module, compiled.lowered[1].c_str()));
    CU(cuModuleGetFunction(&square_words, module, "square_words"));

    const int n = 3000;
    unsigned long long checksum = 0;

    // scale_add<int>: y = 5 * x + y.
    {
        std::vector<int> x(n), y(n), back(n);
        for (int i = 0; i < n; ++i) {
            x[i] = i % 97 - 48;
            y[i] = 1000 - i;
        }
        CUdeviceptr dx = 0, dy = 0;
        CU(cuMemAlloc(&dx, n * sizeof(int)));
        CU(cuMemAlloc(&dy, n * sizeof(int)));
        CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(int)));
        CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(int)));
        int a = 5, n_arg = n;
        void *params[] = {&dy, &dx, &a, &n_arg};
        CU(cuLaunchKernel(scale_int, blocks_for(n, 256), 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(back.data(), dy, n * sizeof(int)));
        for (int i = 0; i < n; ++i) {
            EXPECT(back[i] == 5 * x[i] + y[i]);
            checksum += static_cast<unsigned long long>(static_cast<uint32_t>(back[i])) * (i + 1);
        }
        CU(cuMemFree(dx));
        CU(cuMemFree(dy));
    }
    // scale_add<unsigned long long>: 64-bit arithmetic that wraps.
    {
        std::vector<unsigned long long> x(n), y(n), back(n);
        for (int i = 0; i < n; ++i) {
            x[i] = 0x9E3779B97F4A7C15ull * static_cast<unsigned long long>(i + 1);
            y[i] = static_cast<unsigned long long>(i) << 40;
        }
        CUdeviceptr dx = 0, dy = 0;
        CU(cuMemAlloc(&dx, n * sizeof(unsigned long long)));
        CU(cuMemAlloc(&dy, n * sizeof(unsigned long long)));
        CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(unsigned long long)));
        CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(unsigned long long)));
        unsigned long long a = 0xFFFFFFFF00000003ull;
        int n_arg = n;
        void *params[] = {&dy, &dx, &a, &n_arg};
        CU(cuLaunchKernel(scale_u64, blocks_for(n, 128), 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(back.data(), dy, n * sizeof(unsigned long long)));
        for (int i = 0; i < n; ++i) {
            EXPECT(back[i] == a * x[i] + y[i]);
            checksum ^= back[i] + static_cast<unsigned long long>(i);
        }
        CU(cuMemFree(dx));
        CU(cuMemFree(dy));
    }
    // square_words, the extern "C" kernel.
    {
        std::vector<unsigned> back(n);
        CUdeviceptr d = 0;
        CU(cuMemAlloc(&d, n * sizeof(unsigned)));
        int n_arg = n;
        void *params[] = {&d, &n_arg};
        CU(cuLaunchKernel(square_words, blocks_for(n, 64), 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(back.data(), d, n * sizeof(unsigned)));
        for (int i = 0; i < n; ++i) {
            EXPECT(back[i] == static_cast<unsigned>(i) * static_cast<unsigned>(i) + 1u);
            checksum += back[i];
        }
        CU(cuMemFree(d));
    }
    CU(cuModuleUnload(module));
    return checksum;
}

int main(int argc, char **argv)
{
    if (argc != 2 || std::strncmp(argv[1], "sm_", 3) != 0) {
        std::printf("usage: %s sm_XY (the architecture of the cubin; the GPU must run it)\n", argv[0]);
        return 2;
    }
    int major = 0, minor = 0;
    NVRTC(nvrtcVersion(&major, &minor));
    EXPECT(major >= 12);

    const Compiled cubin = compile(std::string("--gpu-architecture=") + argv[1], true);
    const Compiled ptx = compile("--gpu-architecture=compute_80", false);
    EXPECT(std::strstr(ptx.image.data(), ".target sm_80") != nullptr);
    EXPECT(cubin.lowered == ptx.lowered);
    for (size_t i = 0; i < cubin.lowered.size(); ++i)
        std::printf("lowered name: %s -> %s\n", EXPRESSIONS[i], cubin.lowered[i].c_str());

    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext context = nullptr;
    CU(cuDevicePrimaryCtxRetain(&context, dev));
    CU(cuCtxSetCurrent(context));

    const unsigned long long from_cubin = run("cubin", cubin, false);
    std::printf("cubin (nvrtcGetCUBIN): checksum %llu\n", from_cubin);
    const unsigned long long from_ptx = run("ptx", ptx, true);
    std::printf("ptx (nvrtcGetPTX, compute_80): checksum %llu\n", from_ptx);
    EXPECT(from_cubin == from_ptx);

    CU(cuDevicePrimaryCtxRelease(dev));
    std::printf("PASS\n");
    return 0;
}
