// The module API: hipModuleLoad (a file) and hipModuleLoadData (an image in memory),
// hipModuleGetFunction, hipModuleGetGlobal, and hipModuleLaunchKernel with kernelParams and
// with `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER).
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

struct Pair { int scale; int offset; };

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "kernels.hsaco";
    hipModule_t file_module, data_module;
    CHECK(hipModuleLoad(&file_module, path));
    FILE* f = fopen(path, "rb");
    if (!f) { printf("cannot open %s\nFAIL\n", path); return 1; }
    std::vector<char> image(1 << 20);
    image.resize(fread(image.data(), 1, image.size(), f));
    fclose(f);
    CHECK(hipModuleLoadData(&data_module, image.data()));
    image.assign(image.size(), 0);  // the runtime must have copied the image

    hipFunction_t saxpy, affine;
    CHECK(hipModuleGetFunction(&saxpy, file_module, "saxpy"));
    CHECK(hipModuleGetFunction(&affine, data_module, "affine"));
    hipFunction_t missing;
    int bad = hipModuleGetFunction(&missing, file_module, "no_such_kernel") == hipSuccess;

    hipDeviceptr_t bias_ptr;
    size_t bias_size = 0;
    CHECK(hipModuleGetGlobal(&bias_ptr, &bias_size, file_module, "bias"));
    int new_bias = 10;
    CHECK(hipMemcpyHtoD(bias_ptr, &new_bias, sizeof new_bias));

    const int n = 100;
    float hx[n], hy[n];
    for (int i = 0; i < n; i++) { hx[i] = i; hy[i] = 1; }
    float *x, *y;
    CHECK(hipMalloc(&x, sizeof hx));
    CHECK(hipMalloc(&y, sizeof hy));
    CHECK(hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(y, hy, sizeof hy, hipMemcpyHostToDevice));
    float a = 2.0f;
    int count = n;
    void* params[] = {&a, &x, &y, &count};
    CHECK(hipModuleLaunchKernel(saxpy, 2, 1, 1, 64, 1, 1, 0, 0, params, nullptr));
    CHECK(hipMemcpy(hy, y, sizeof hy, hipMemcpyDeviceToHost));

    int hv[n];
    for (int i = 0; i < n; i++) hv[i] = i;
    int* v;
    CHECK(hipMalloc(&v, sizeof hv));
    CHECK(hipMemcpy(v, hv, sizeof hv, hipMemcpyHostToDevice));
    struct { int* v; Pair p; int n; } args = {v, {3, -4}, n};
    size_t args_size = sizeof args;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                     &args_size, HIP_LAUNCH_PARAM_END};
    CHECK(hipModuleLaunchKernel(affine, 1, 1, 1, 128, 1, 1, 0, 0, nullptr, extra));
    CHECK(hipMemcpy(hv, v, sizeof hv, hipMemcpyDeviceToHost));

    double sum = 0;
    for (int i = 0; i < n; i++) {
        bad += hy[i] != 2.0f * i + 1 + 10;
        bad += hv[i] != 3 * i - 4;
        sum += hy[i] + hv[i];
    }
    bad += bias_size != sizeof(int);
    CHECK(hipModuleUnload(file_module));
    CHECK(hipModuleUnload(data_module));
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
