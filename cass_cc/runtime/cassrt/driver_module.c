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
    char **kernel_names;   /* the code object's kernels, for the enumerations */
    unsigned kernel_count;
    struct CUfunc_st *functions;
    struct CUlib_st *library;   /* the library it is the module of, or NULL */
    pthread_mutex_t lock;
};

struct CUlib_st { struct CUmod_st *module; };

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

/* The driver's order of argument errors: a missing output or input value (a NULL pointer) is
 * CUDA_ERROR_INVALID_VALUE, then a missing handle CUDA_ERROR_INVALID_HANDLE. */
static CUresult arguments(int values_given, const void *handle)
{
    return !values_given ? CUDA_ERROR_INVALID_VALUE : !handle ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
}

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

static CUresult load(CUmodule *module, const void *image, size_t file_size, struct cassrt_image_log *log)
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
    e = (CUresult)cassrt_translate_image(image, file_size, arch, &mod->code_object, &size, log);
    if (e == CUDA_SUCCESS && cassrt_code_object_kernels(mod->code_object, size, &mod->kernel_names,
                                                        &mod->kernel_count) != 0) {
        cassrt_note_once("an AMD code object whose dynamic symbols cannot be read");
        e = CUDA_ERROR_INVALID_IMAGE;
    }
    if (e == CUDA_SUCCESS)
        e = result(cassrt_module_load(mod->code_object, &mod->hip_module));
    if (e == CUDA_SUCCESS && (e = bind_heap(mod)) != CUDA_SUCCESS)
        (void)cassrt_module_unload(mod->hip_module);
    if (e != CUDA_SUCCESS) {
        cassrt_free_names(mod->kernel_names, mod->kernel_count);
        free(mod->code_object);
        free(mod);
        return e;
    }
    pthread_mutex_init(&mod->lock, NULL);
    *module = mod;
    return CUDA_SUCCESS;
}

static CUresult load_file(CUmodule *module, const char *path, struct cassrt_image_log *log)
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
    CUresult e = load(module, data, got, log);
    free(data);
    return e;
}

/* JIT options: the ones that report are answered from the translation's log (the error and
 * information logs, their sizes, the wall time); the ones that tune NVIDIA's PTX compiler have
 * nothing to tune in the translation, which is the same whatever they say. A program that passes
 * no log reads the same messages on stderr. */
struct jit_reports {
    char *info, *error;
    unsigned info_size, error_size;
    int info_at, error_at, wall_time_at;   /* the options' indexes, -1 when absent */
};

static CUresult jit_reports(struct jit_reports *r, unsigned n, const CUjit_option *options, void **values)
{
    *r = (struct jit_reports){NULL, NULL, 0, 0, -1, -1, -1};
    if (n && (!options || !values))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER: r->info = values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: r->error = values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: r->info_size = (unsigned)(uintptr_t)values[i]; r->info_at = (int)i; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: r->error_size = (unsigned)(uintptr_t)values[i]; r->error_at = (int)i; break;
        case CU_JIT_WALL_TIME: r->wall_time_at = (int)i; break;
        default: break;
        }
    }
    return CUDA_SUCCESS;
}

/* One log into the program's buffer (cut to its size, NUL included); the size option's value
 * becomes the bytes of messages written, the NUL not counted (cuda.h: "amount of log buffer
 * filled with messages"; not compared with NVIDIA's driver yet). */
static void give_log(const char *text, char *buffer, unsigned size, int at, void **values)
{
    size_t n = 0;
    if (buffer && size) {
        n = strnlen(text, size - 1);
        memcpy(buffer, text, n);
        buffer[n] = '\0';
    }
    if (at >= 0)
        values[at] = (void *)(uintptr_t)n;
}

static void give_reports(const struct jit_reports *r, const struct cassrt_image_log *log, void **values)
{
    give_log(log->info, r->info, r->info_size, r->info_at, values);
    give_log(log->error, r->error, r->error_size, r->error_at, values);
    if (r->wall_time_at >= 0) {
        float ms = (float)(log->seconds * 1000.0);
        values[r->wall_time_at] = NULL;
        memcpy(&values[r->wall_time_at], &ms, sizeof ms);
    }
}

static CUresult load_with_options(CUmodule *module, const void *image, const char *path, unsigned n,
                                  CUjit_option *options, void **values)
{
    struct jit_reports r;
    CUresult e = jit_reports(&r, n, options, values);
    if (e != CUDA_SUCCESS)
        return e;
    struct cassrt_image_log *log = calloc(1, sizeof *log);
    if (!log)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e = path ? load_file(module, path, log) : load(module, image, 0, log);
    give_reports(&r, log, values);
    free(log);
    return e;
}

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname) { return load_file(module, fname, NULL); }

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) { return load(module, image, 0, NULL); }

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
    return load_with_options(module, image, NULL, numOptions, options, optionValues);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) { return load(module, fatCubin, 0, NULL); }

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
    cassrt_free_names(hmod->kernel_names, hmod->kernel_count);
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
    CUresult e = arguments(hfunc && name, hmod);
    if (e != CUDA_SUCCESS)
        return e;
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

/* The module's kernels, in the code object's order; each handle made as cuModuleGetFunction makes it. */
CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    CUresult e = arguments(count != NULL, mod);
    if (e == CUDA_SUCCESS)
        *count = mod->kernel_count;
    return e;
}

CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    CUresult e = arguments(functions != NULL, mod);
    for (unsigned i = 0; e == CUDA_SUCCESS && i < numFunctions && i < mod->kernel_count; i++)
        e = cuModuleGetFunction(&functions[i], mod, mod->kernel_names[i]);
    return e;
}

/* Every function is loaded with its module (translation is eager). */
CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    CUresult e = arguments(state != NULL, function);
    if (e == CUDA_SUCCESS)
        *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return e;
}

CUresult CUDAAPI cuFuncLoad(CUfunction function) { return function ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    void *address;
    size_t size;
    CUresult e = arguments(name != NULL, hmod);
    if (e == CUDA_SUCCESS)
        e = result(cassrt_module_global(hmod->hip_module, name, &address, &size));
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
    CUresult e = arguments(hmod != NULL, hfunc);
    if (e == CUDA_SUCCESS)
        *hmod = hfunc->module;
    return e;
}

CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
    CUresult e = arguments(name != NULL, hfunc);
    if (e == CUDA_SUCCESS)
        *name = hfunc->name;
    return e;
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
    mod->library = lib;
    *library = lib;
    return CUDA_SUCCESS;
}

/* Library options (CU_LIBRARY_BINARY_IS_PRESERVED: the runtime keeps the image alive) change
 * nothing here: the image is translated while loading and not read again. JIT options as
 * cuModuleLoadDataEx's. */
CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions)
{
    CUmodule mod = NULL;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!library)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = load_with_options(&mod, code, NULL, numJitOptions, jitOptions, jitOptionsValues);
    return e == CUDA_SUCCESS ? library_of(library, mod) : e;
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions)
{
    CUmodule mod = NULL;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    if (!library || !fileName)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = load_with_options(&mod, NULL, fileName, numJitOptions, jitOptions, jitOptionsValues);
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
    CUresult e = arguments(pMod != NULL, library);
    if (e == CUDA_SUCCESS)
        *pMod = library->module;
    return e;
}

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    CUresult e = arguments(count != NULL, lib);
    return e == CUDA_SUCCESS ? cuModuleGetFunctionCount(count, lib->module) : e;
}

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    CUresult e = arguments(kernels != NULL, lib);
    return e == CUDA_SUCCESS ? cuModuleEnumerateFunctions((CUfunction *)kernels, numKernels, lib->module) : e;
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
    CUresult e = arguments(pFunc != NULL, kernel);
    if (e == CUDA_SUCCESS)
        *pFunc = (CUfunction)kernel;
    return e;
}

/* A kernel comes from a library; a function of a module loaded on its own is no kernel. */
CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    CUresult e = arguments(pLib != NULL, kernel);
    if (e == CUDA_SUCCESS && !((CUfunction)kernel)->module->library)
        e = CUDA_ERROR_INVALID_HANDLE;
    if (e == CUDA_SUCCESS)
        *pLib = ((CUfunction)kernel)->module->library;
    return e;
}

CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc) { return cuFuncGetName(name, (CUfunction)hfunc); }

/* --- function attributes ------------------------------------------------------------------ */

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    CUresult e = arguments(pi != NULL, hfunc);
    if (e != CUDA_SUCCESS)
        return e;
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
    CUresult e = arguments(numBlocks != NULL, func);
    return e == CUDA_SUCCESS ? result(cassrt_function_occupancy(func->hip_function, blockSize, dynamicSMemSize,
                                                                numBlocks))
                             : e;
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                      int blockSize, size_t dynamicSMemSize,
                                                                      unsigned int flags)
{
    (void)flags;    /* CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: there is no cache override to disable */
    return cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}

/* The block size with the most threads resident per multiprocessor, trying every multiple of the
 * warp size from the largest the device and the function allow (the limit itself first when it
 * is no multiple) down, as CUDA's own search does; dynamic shared memory per block is the
 * callback's answer for the size tried, or the fixed amount without one. minGridSize is the
 * grid that fills the device at that size. */
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                           CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                           size_t dynamicSMemSize, int blockSizeLimit,
                                                           unsigned int flags)
{
    int device = 0, per_sm = 0, warp = 0, device_limit = 0, sms = 0, function_limit = 0;
    CUresult e = arguments(minGridSize && blockSize, func);
    if (e == CUDA_SUCCESS)
        e = result(cassrt_cudaGetDevice(&device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_attribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_attribute(&warp, cudaDevAttrWarpSize, device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_attribute(&device_limit, cudaDevAttrMaxThreadsPerBlock, device));
    if (e == CUDA_SUCCESS)
        e = result(cassrt_device_attribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (e == CUDA_SUCCESS)
        e = cuFuncGetAttribute(&function_limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func);
    if (e != CUDA_SUCCESS)
        return e;
    int limit = blockSizeLimit > 0 && blockSizeLimit < device_limit ? blockSizeLimit : device_limit;
    limit = function_limit < limit ? function_limit : limit;
    int best_size = 0, best_blocks = 0, best_threads = 0;
    for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
        int size = aligned < limit ? aligned : limit, blocks = 0;
        size_t shared = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
        e = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, func, size, shared, flags);
        if (e != CUDA_SUCCESS)
            return e;
        if (size * blocks > best_threads) {
            best_size = size;
            best_blocks = blocks;
            best_threads = size * blocks;
        }
        if (best_threads == per_sm)
            break;
    }
    *minGridSize = best_blocks * sms;
    *blockSize = best_size;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
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

/* A cooperative grid must fit on the device at once (hip_module.c, shared with the runtime's). */
static CUresult check_cooperative(CUfunction f, struct cassrt_dim grid, struct cassrt_dim block, unsigned shared)
{
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    int per_cu = 0;
    int e = cassrt_function_occupancy(f->hip_function, (int)(block.x * block.y * block.z), shared, &per_cu);
    return result(e ? e : cassrt_cooperative_fits(grid, per_cu));
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
    CUresult e = check_cooperative(f, grid, block, sharedMemBytes);
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
        CUresult e = check_cooperative(f, grid, block, config->sharedMemBytes);
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
