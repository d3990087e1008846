/* The driver API's modules, libraries, functions, kernels and launches.
 *
 * An image handed to cuModuleLoad*, cuLibraryLoad* (CUDA 12+'s runtime registers the program's
 * fatbins through these) or the runtime's export table is NVIDIA device code; it becomes one AMD
 * code object (image_translation.c) loaded as one HIP module. A library holds one module, and a
 * CUkernel is the CUfunction of that module's kernel (CUDA lets cuLaunchKernel take either).
 * Functions are made once per module and name, so handles compare equal as CUDA's do.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuda.h>

#include "cassrt.h"
#include "passthrough_cuda.h"
#include "../cass_device_heap.h" /* CASS_HEAP_VARIABLE */

struct CUfunc_st {
    void *hip_function;
    char *name;
    struct CUmod_st *module;
    struct CUfunc_st *next;
};

struct CUmod_st {
    void *hip_module;
    void *code_object;     /* kept while the module lives: HIP may read it lazily */
    struct CUfunc_st *functions;
    pthread_mutex_t lock;
};

struct CUlib_st { struct CUmod_st *module; };

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

/* The processor of the current device ("gfx1100" of "gfx1100:xnack-"). */
static CUresult current_arch(char *arch, size_t n)
{
    struct cassrt_device_info info;
    int device = 0;
    CUresult e = result(cassrt_cudaGetDevice(&device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_info(device, &info));
    if (e == CUDA_SUCCESS)
        snprintf(arch, n, "%.*s", (int)strcspn(info.arch, ":"), info.arch);
    return e;
}

/* Kernels that call malloc/free find the device heap through a variable of their code object. */
static CUresult bind_heap(struct CUmod_st *mod)
{
    void *address;
    size_t size;
    uint64_t heap[2];
    if (cassrt_module_global(mod->hip_module, CASS_HEAP_VARIABLE, &address, &size) != 0)
        return CUDA_SUCCESS;
    CUresult e = result(cassrt_device_heap(heap));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_cudaMemcpy(address, heap, sizeof heap, cudaMemcpyHostToDevice));
    return e;
}

static CUresult load(CUmodule *module, const void *image, size_t file_size)
{
    char arch[64];
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = current_arch(arch, sizeof arch);
    if (e != CUDA_SUCCESS)
        return e;
    struct CUmod_st *mod = calloc(1, sizeof *mod);
    size_t size;
    if (!mod)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e = (CUresult)cassrt_translate_image(image, file_size, arch, &mod->code_object, &size);
    if (e == CUDA_SUCCESS)
        e = result(cassrt_module_load(mod->code_object, &mod->hip_module));
    if (e == CUDA_SUCCESS && (e = bind_heap(mod)) != CUDA_SUCCESS)
        (void)cassrt_module_unload(mod->hip_module);
    if (e != CUDA_SUCCESS) {
        free(mod->code_object);
        free(mod);
        return e;
    }
    pthread_mutex_init(&mod->lock, NULL);
    *module = mod;
    return CUDA_SUCCESS;
}

static CUresult load_file(CUmodule *module, const char *path)
{
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    FILE *f = fopen(path, "rb");
    if (!f)
        return CUDA_ERROR_FILE_NOT_FOUND;
    struct stat st;
    char *data = NULL;
    size_t got = 0;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0 && (data = malloc((size_t)st.st_size + 1)))
        got = fread(data, 1, (size_t)st.st_size, f);
    fclose(f);
    if (!data || got != (size_t)st.st_size) {
        free(data);
        return st.st_size == 0 ? CUDA_ERROR_INVALID_IMAGE : CUDA_ERROR_FILE_NOT_FOUND;
    }
    data[got] = '\0';       /* PTX is text: it ends here */
    CUresult e = load(module, data, got);
    free(data);
    return e;
}

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname) { return load_file(module, fname); }

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) { return load(module, image, 0); }

/* JIT options tune or report on NVIDIA's PTX compiler; the translation has none to honour. */
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
    (void)numOptions, (void)options, (void)optionValues;
    return load(module, image, 0);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) { return load(module, fatCubin, 0); }

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult e = result(cassrt_module_unload(hmod->hip_module));
    for (struct CUfunc_st *f = hmod->functions, *next; f; f = next) {
        next = f->next;
        free(f->name);
        free(f);
    }
    pthread_mutex_destroy(&hmod->lock);
    free(hmod->code_object);
    free(hmod);
    return e;
}

/* Translation happens when the module loads, not when a kernel is first used. */
CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult e = CUDA_SUCCESS;
    pthread_mutex_lock(&hmod->lock);
    struct CUfunc_st *f = hmod->functions;
    while (f && strcmp(f->name, name) != 0)
        f = f->next;
    if (!f) {
        void *hip_function;
        e = result(cassrt_module_function(hmod->hip_module, name, &hip_function));
        if (e == CUDA_SUCCESS && (!(f = calloc(1, sizeof *f)) || !(f->name = strdup(name)))) {
            free(f);
            f = NULL;
            e = CUDA_ERROR_OUT_OF_MEMORY;
        }
        if (e == CUDA_SUCCESS) {
            f->hip_function = hip_function;
            f->module = hmod;
            f->next = hmod->functions;
            hmod->functions = f;
        }
    }
    pthread_mutex_unlock(&hmod->lock);
    if (e == CUDA_SUCCESS)
        *hfunc = f;
    return e;
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    void *address;
    size_t size;
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult e = result(cassrt_module_global(hmod->hip_module, name, &address, &size));
    if (e != CUDA_SUCCESS)
        return e;
    if (dptr)
        *dptr = (CUdeviceptr)(uintptr_t)address;
    if (bytes)
        *bytes = size;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    if (!hmod)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    *hmod = hfunc->module;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    *name = hfunc->name;
    return CUDA_SUCCESS;
}

/* --- libraries and kernels --------------------------------------------------------------- */

static CUresult library_of(CUlibrary *library, CUmodule mod)
{
    struct CUlib_st *lib = malloc(sizeof *lib);
    if (!lib) {
        (void)cuModuleUnload(mod);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    lib->module = mod;
    *library = lib;
    return CUDA_SUCCESS;
}

/* Library options (CU_LIBRARY_BINARY_IS_PRESERVED: the runtime keeps the image alive) change
 * nothing here: the image is translated while loading and not read again. */
CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions)
{
    CUmodule mod = NULL;
    (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!library)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = load(&mod, code, 0);
    return e == CUDA_SUCCESS ? library_of(library, mod) : e;
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions)
{
    CUmodule mod = NULL;
    (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!library)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = load_file(&mod, fileName);
    return e == CUDA_SUCCESS ? library_of(library, mod) : e;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library)
{
    if (!library)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult e = cuModuleUnload(library->module);
    free(library);
    return e;
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    if (!pMod)
        return CUDA_ERROR_INVALID_VALUE;
    if (!library)
        return CUDA_ERROR_INVALID_HANDLE;
    *pMod = library->module;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    if (!library)
        return CUDA_ERROR_INVALID_HANDLE;
    return cuModuleGetFunction((CUfunction *)pKernel, library->module, name);
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    if (!library)
        return CUDA_ERROR_INVALID_HANDLE;
    return cuModuleGetGlobal(dptr, bytes, library->module, name);
}

/* A managed variable lives in the code object; the host reaches it at the same address (host-
 * visible on the emulator and with managed memory on large-BAR GPUs). */
CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    return cuLibraryGetGlobal(dptr, bytes, library, name);
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    if (!pFunc)
        return CUDA_ERROR_INVALID_VALUE;
    if (!kernel)
        return CUDA_ERROR_INVALID_HANDLE;
    *pFunc = (CUfunction)kernel;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    (void)pLib, (void)kernel;
    cassrt_note_once("cuKernelGetLibrary is not supported");
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc) { return cuFuncGetName(name, (CUfunction)hfunc); }

/* --- function attributes ------------------------------------------------------------------ */

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (attrib <= CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
        return result(cassrt_function_attribute(hfunc->hip_function, (int)attrib, pi));
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = 0;    /* no thread-block clusters: none required, none allowed */
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* The dynamic shared memory a launch may ask for is checked at the launch against the device's
 * limit, and the carveout is a hint; both are accepted as CUDA does within the device's limits. */
CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        int device = 0, limit = 0;
        CUresult e = result(cassrt_cudaGetDevice(&device));
        if (e == CUDA_SUCCESS)
            e = result(cassrt_device_attribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        if (e != CUDA_SUCCESS)
            return e;
        return value >= 0 && value <= limit ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
        return value >= -1 && value <= 100 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    cassrt_note_once("cuFuncSetAttribute: only the dynamic shared memory size and the carveout are supported");
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* The L1/shared split is a preference CUDA may ignore, and HIP has none to set. */
CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    (void)config;
    return hfunc ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    (void)dev;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    (void)dev;
    return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    (void)dev;
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize)
{
    if (!numBlocks)
        return CUDA_ERROR_INVALID_VALUE;
    if (!func)
        return CUDA_ERROR_INVALID_HANDLE;
    return result(cassrt_function_occupancy(func->hip_function, blockSize, dynamicSMemSize, numBlocks));
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                      int blockSize, size_t dynamicSMemSize,
                                                                      unsigned int flags)
{
    (void)flags;    /* CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: there is no cache override to disable */
    return cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}

/* --- launches ------------------------------------------------------------------------------- */

static CUresult launch(CUfunction f, struct cassrt_dim grid, struct cassrt_dim block, unsigned shared,
                       CUstream stream, void **params, void **extra)
{
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    return result(cassrt_function_launch(f->hip_function, grid, block, shared, stream, params, extra));
}

/* Every block of a cooperative grid must be resident at once (grid-wide barriers wait on each
 * other), so a grid larger than the device holds is refused, as CUDA does. */
static CUresult check_cooperative(CUfunction f, struct cassrt_dim grid, struct cassrt_dim block, unsigned shared)
{
    int per_cu = 0, cus = 0, device = 0;
    CUresult e = cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, f, (int)(block.x * block.y * block.z), shared);
    if (e == CUDA_SUCCESS)
        e = result(cassrt_cudaGetDevice(&device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_attribute(&cus, cudaDevAttrMultiProcessorCount, device));
    if (e == CUDA_SUCCESS && (unsigned long long)grid.x * grid.y * grid.z > (unsigned long long)per_cu * (unsigned)cus)
        e = CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    return e;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    struct cassrt_dim grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};
    return launch(f, grid, block, sharedMemBytes, hStream, kernelParams, extra);
}

CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                     void **kernelParams, void **extra)
{
    return cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                          hStream ? hStream : CU_STREAM_PER_THREAD, kernelParams, extra);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams)
{
    struct cassrt_dim grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};
    CUresult e = f ? check_cooperative(f, grid, block, sharedMemBytes) : CUDA_ERROR_INVALID_HANDLE;
    return e == CUDA_SUCCESS ? launch(f, grid, block, sharedMemBytes, hStream, kernelParams, NULL) : e;
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX,
                                                unsigned int blockDimY, unsigned int blockDimZ,
                                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
    return cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                     sharedMemBytes, hStream ? hStream : CU_STREAM_PER_THREAD, kernelParams);
}

/* Launch attributes as cudaLaunchKernelExC takes them (cuda_launch.c): cooperative is honoured;
 * programmatic stream serialization only lets the grid overlap the kernel before it, which a
 * launch that waits for that kernel satisfies; a 1x1x1 cluster is no cluster; the rest are
 * refused, never ignored. */
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    if (!config)
        return CUDA_ERROR_INVALID_VALUE;
    struct cassrt_dim grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
    struct cassrt_dim block = {config->blockDimX, config->blockDimY, config->blockDimZ};
    int cooperative = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_IGNORE || a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
            continue;
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
            cooperative = a->value.cooperative != 0;
        else if (!(a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION && a->value.clusterDim.x * a->value.clusterDim.y *
                                                                      a->value.clusterDim.z == 1)) {
            cassrt_note_once("cuLaunchKernelEx: only the cooperative, programmatic-serialization and "
                             "1x1x1 cluster attributes are supported");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    if (cooperative) {
        CUresult e = f ? check_cooperative(f, grid, block, config->sharedMemBytes) : CUDA_ERROR_INVALID_HANDLE;
        if (e != CUDA_SUCCESS)
            return e;
    }
    return launch(f, grid, block, config->sharedMemBytes, config->hStream, kernelParams, extra);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    if (!config || config->hStream)
        return cuLaunchKernelEx(config, f, kernelParams, extra);
    CUlaunchConfig per_thread = *config;
    per_thread.hStream = CU_STREAM_PER_THREAD;
    return cuLaunchKernelEx(&per_thread, f, kernelParams, extra);
}
