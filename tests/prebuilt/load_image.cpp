// load_image: a driver-API program (g++ -lcuda, as on an NVIDIA machine) that loads each image
// file given, the ways a CUDA program does, and prints what the driver answered: the result of
// cuModuleLoad (by name), cuModuleLoadData, cuModuleLoadDataEx and cuLibraryLoadData (the last
// two asking for the JIT error and information logs and the wall time), and the logs. It never
// stops at an error: the tests feed it images that cannot load, and it must come back from every
// call. Images are read into a buffer with zeros after them, so that a damaged image whose header
// claims more bytes than the file has is still readable memory, as a program's image always is.
//
// usage: load_image FILE...      prints one block per file, then "done"; exit 0
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const char *name_of(CUresult e)
{
    const char *name = nullptr;
    return cuGetErrorName(e, &name) == CUDA_SUCCESS ? name : "(unknown CUresult)";
}

static std::vector<char> read_file(const char *path)
{
    std::vector<char> data;
    FILE *f = std::fopen(path, "rb");
    if (!f)
        return data;
    char chunk[65536];
    size_t got;
    while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0)
        data.insert(data.end(), chunk, chunk + got);
    std::fclose(f);
    data.resize(data.size() + (1 << 20), '\0');
    return data;
}

static void print_log(const char *what, const char *text, uintptr_t bytes)
{
    std::printf("%s (%zu bytes):\n%s%s", what, (size_t)bytes, text, bytes && text[bytes - 1] != '\n' ? "\n" : "");
}

int main(int argc, char **argv)
{
    CUdevice device;
    CUcontext context;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS || cuCtxSetCurrent(context) != CUDA_SUCCESS) {
        std::printf("FAIL: no device\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        std::printf("== %s\n", argv[i]);
        std::vector<char> image = read_file(argv[i]);
        CUmodule module;
        CUresult e = cuModuleLoad(&module, argv[i]);
        std::printf("cuModuleLoad: %s\n", name_of(e));
        if (e == CUDA_SUCCESS)
            cuModuleUnload(module);
        e = cuModuleLoadData(&module, image.data());
        std::printf("cuModuleLoadData: %s\n", name_of(e));
        if (e == CUDA_SUCCESS)
            cuModuleUnload(module);

        static char error_log[8192], info_log[2048];
        error_log[0] = info_log[0] = '\0';
        CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                                  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME, CU_JIT_OPTIMIZATION_LEVEL};
        void *values[] = {error_log, (void *)(uintptr_t)sizeof error_log, info_log, (void *)(uintptr_t)sizeof info_log,
                          nullptr, (void *)(uintptr_t)4};
        e = cuModuleLoadDataEx(&module, image.data(), 6, options, values);
        float wall_ms;
        std::memcpy(&wall_ms, &values[4], sizeof wall_ms);
        std::printf("cuModuleLoadDataEx: %s (wall time %s)\n", name_of(e), wall_ms >= 0.0f ? "reported" : "negative");
        print_log("error log", error_log, (uintptr_t)values[1]);
        print_log("info log", info_log, (uintptr_t)values[3]);
        if (e == CUDA_SUCCESS)
            cuModuleUnload(module);

        // A log buffer smaller than the message: cut, NUL-terminated, its size reported.
        char small[24];
        std::memset(small, 'x', sizeof small);
        CUjit_option library_options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *library_values[] = {small, (void *)(uintptr_t)16};
        CUlibrary library;
        e = cuLibraryLoadData(&library, image.data(), library_options, library_values, 2, nullptr, nullptr, 0);
        std::printf("cuLibraryLoadData: %s\n", name_of(e));
        std::printf("small error log (%zu bytes): %s\n", (size_t)(uintptr_t)library_values[1],
                    std::memchr(small, '\0', 16) ? small : "(not terminated within its 16 bytes)");
        if (e == CUDA_SUCCESS)
            cuLibraryUnload(library);
    }
    cuDevicePrimaryCtxRelease(device);
    std::printf("done\n");
    return 0;
}
