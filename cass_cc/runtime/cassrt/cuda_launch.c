/* Registration entry points that nvcc's host code calls, kernel launches (<<<>>> and
 * cudaLaunchKernel), and per-kernel attributes and occupancy. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"
#include "../cass_device_heap.h" /* the heap's layout */

/* nvcc's generated code declares these in crt/host_runtime.h and crt/device_functions.h; only
 * CUDA's compiler sees those, so they are declared here with the same types. */
void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);
void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);
void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                      dim3 *bDim, dim3 *gDim, int *wSize);
void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant, int global);
void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant,
                                        int global);
char CUDARTAPI __cudaInitModule(void **fatCubinHandle);
unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st *stream);
cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream);
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream);

/* The device heap of malloc/free in kernels. A translated code object that calls them defines
 * __cass_device_heap = {base, size} (passes/lift/device_runtime.py); before the first launch of a
 * kernel from an image, the heap (made on first need, header zeroed) is written into that
 * variable of each of the image's code objects. Each image registers the variable under a host
 * key of its own, its `struct heap_binding`. The heap for cudaLimitMallocHeapSize is
 * CASS_HEAP_SIZE(limit) bytes (cass_device_heap.h). */

struct heap_binding {
    void **image;
    int bound;
    struct heap_binding *next;
};

struct kernel_image {
    struct cassrt_kernel *kernel;
    struct heap_binding *binding;
    struct kernel_image *next;
};

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct heap_binding *bindings;
static struct kernel_image *kernel_images;
static void *heap_base;
static size_t heap_size;

static struct heap_binding *binding_of_image(void **image)
{
    struct heap_binding *b = bindings;
    while (b && b->image != image)
        b = b->next;
    return b;
}

static int heap_ready(void)
{
    if (heap_base)
        return cudaSuccess;
    size_t limit = 0;
    int e = cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
    size_t size = CASS_HEAP_SIZE(limit);
    if (e == cudaSuccess)
        e = cudaMalloc(&heap_base, size);
    if (e == cudaSuccess)
        e = cudaMemset(heap_base, 0, CASS_HEAP_RESERVED);
    if (e != cudaSuccess) {
        heap_base = NULL;
        return e;
    }
    heap_size = size;
    return cudaSuccess;
}

int cassrt_device_heap(uint64_t heap[2])
{
    pthread_mutex_lock(&heap_lock);
    int e = heap_ready();
    heap[0] = (uint64_t)(uintptr_t)heap_base;
    heap[1] = heap_size;
    pthread_mutex_unlock(&heap_lock);
    return e;
}

/* Gives the image of `kernel` the heap, once; images without the variable need nothing (before
 * every launch, and when a graph's kernel node is made: cuda_graph.c). */
int cassrt_bind_heap(struct cassrt_kernel *kernel)
{
    int e = cudaSuccess;
    pthread_mutex_lock(&heap_lock);
    struct kernel_image *ki = kernel_images;
    while (ki && ki->kernel != kernel)
        ki = ki->next;
    struct heap_binding *b = ki ? ki->binding : NULL;
    if (b && !b->bound) {
        void *address;
        size_t size;
        if (cassrt_symbol_address(b, &address, &size) != cudaSuccess)
            b->bound = 1;
        else if ((e = heap_ready()) == cudaSuccess) {
            uint64_t heap[2] = {(uint64_t)(uintptr_t)heap_base, heap_size};
            e = cassrt_symbol_copy(b, heap, sizeof heap, 0, cudaMemcpyHostToDevice, 1, NULL, 0);
            b->bound = e == cudaSuccess;
        }
    }
    pthread_mutex_unlock(&heap_lock);
    return e;
}

void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin)
{
    void **image = cassrt_register_image(fatCubin);
    struct heap_binding *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->image = image;
    pthread_mutex_lock(&heap_lock);
    b->next = bindings;
    bindings = b;
    pthread_mutex_unlock(&heap_lock);
    cassrt_register_var(image, b, CASS_HEAP_VARIABLE, 2 * sizeof(uint64_t), NULL);
    return image;
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    pthread_mutex_lock(&heap_lock);
    for (struct kernel_image **k = &kernel_images; *k;) {
        struct kernel_image *dead = *k;
        if (dead->binding->image == fatCubinHandle) {
            *k = dead->next;
            free(dead);
        } else
            k = &dead->next;
    }
    for (struct heap_binding **b = &bindings; *b;) {
        struct heap_binding *dead = *b;
        if (dead->image == fatCubinHandle) {
            *b = dead->next;
            free(dead);
        } else
            b = &dead->next;
    }
    pthread_mutex_unlock(&heap_lock);
    cassrt_unregister_image(fatCubinHandle);
}

void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                      dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    cassrt_register_kernel(fatCubinHandle, hostFun, deviceName);
    struct kernel_image *ki = calloc(1, sizeof *ki);
    if (!ki)
        abort();
    ki->kernel = cassrt_kernel_of(hostFun);
    pthread_mutex_lock(&heap_lock);
    ki->binding = binding_of_image(fatCubinHandle);
    if (ki->binding) {
        ki->next = kernel_images;
        kernel_images = ki;
    } else
        free(ki);
    pthread_mutex_unlock(&heap_lock);
}

void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    cassrt_register_var(fatCubinHandle, hostVar, deviceName, size, NULL);
}

void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant,
                                        int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    cassrt_register_var(fatCubinHandle, hostVarPtrAddress, deviceName, size, hostVarPtrAddress);
}

char CUDARTAPI __cudaInitModule(void **fatCubinHandle) { return (char)cassrt_init_managed(fatCubinHandle); }

/* <<<grid, block, shared, stream>>> pushes a configuration that the kernel's stub pops; the
 * launch's argument expressions may launch kernels themselves, hence a stack. */
#define MAX_NESTED_CONFIGS 16
struct call_config { dim3 grid, block; size_t shared_mem; struct CUstream_st *stream; };
static __thread struct call_config configs[MAX_NESTED_CONFIGS];
static __thread int nconfigs;

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st *stream)
{
    if (nconfigs == MAX_NESTED_CONFIGS)
        return (unsigned)cassrt_result(cudaErrorInvalidConfiguration);
    configs[nconfigs++] = (struct call_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream)
{
    if (nconfigs == 0)
        return (cudaError_t)cassrt_result(cudaErrorMissingConfiguration);
    struct call_config *c = &configs[--nconfigs];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shared_mem;
    *(struct CUstream_st **)stream = c->stream;
    return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    struct cassrt_kernel *k = cassrt_kernel_of(hostFun);
    *kernel = (cudaKernel_t)k;
    return k ? cudaSuccess : (cudaError_t)cassrt_result(cudaErrorInvalidDeviceFunction);
}

static cudaError_t launch(struct cassrt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream)
{
    struct cassrt_dim g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    int e = k ? cassrt_bind_heap(k) : cudaSuccess;
    if (e != cudaSuccess)
        return (cudaError_t)cassrt_result(e);
    return (cudaError_t)cassrt_result(cassrt_launch(k, g, b, args, shared, stream));
}

/* A cooperative launch needs every block resident at once: a grid larger than the device holds
 * is refused (the check the driver's cooperative launches share), then it launches as usual —
 * the translated kernel carries its own grid-sync workspace, and a grid that fits runs all
 * together. */
static cudaError_t launch_cooperative(struct cassrt_kernel *k, dim3 grid, dim3 block, void **args,
                                      size_t shared, cudaStream_t stream)
{
    struct cassrt_dim g = {grid.x, grid.y, grid.z};
    int per_cu = 0;
    int e = cassrt_occupancy(k, (int)(block.x * block.y * block.z), shared, &per_cu);
    if (e == cudaSuccess)
        e = cassrt_cooperative_fits(g, per_cu);
    if (e != cudaSuccess)
        return (cudaError_t)cassrt_result(e);
    return launch(k, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream)
{
    return launch((struct cassrt_kernel *)kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream)
{
    return launch((struct cassrt_kernel *)kernel, gridDim, blockDim, args, sharedMem,
                  stream ? stream : cudaStreamPerThread);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream)
{
    return launch(cassrt_kernel_of(func), gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream)
{
    struct cassrt_kernel *k = cassrt_kernel_of(func);
    if (!k)
        return (cudaError_t)cassrt_result(cudaErrorInvalidDeviceFunction);
    return launch_cooperative(k, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                       void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem,
                                       stream ? stream : cudaStreamPerThread);
}

/* Launch attributes: cooperative is honoured; programmatic stream serialization (PDL, which Thrust's
   and CUB's launches ask for) only permits the grid to overlap the previous kernel in the stream, so
   a launch that waits for that kernel, as every launch here does, is one of the schedules CUDA allows
   (the translated sm_80 code has no griddepcontrol to wait on); Ignore entries are empty by
   definition. The others are refused, never ignored. */
cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    int cooperative = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        if (config->attrs[i].id == cudaLaunchAttributeIgnore ||
            config->attrs[i].id == cudaLaunchAttributeProgrammaticStreamSerialization)
            continue;
        if (config->attrs[i].id != cudaLaunchAttributeCooperative) {
            cassrt_note_once("cudaLaunchKernelEx: only the cooperative launch attribute is supported");
            return (cudaError_t)cassrt_result(cudaErrorNotSupported);
        }
        cooperative = config->attrs[i].val.cooperative != 0;
    }
    struct cassrt_kernel *k = cassrt_kernel_of(func);
    if (cooperative && k)
        return launch_cooperative(k, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                  config->stream);
    return launch(k, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    cudaLaunchConfig_t on_thread = *config;
    on_thread.stream = config->stream ? config->stream : cudaStreamPerThread;
    return cudaLaunchKernelExC(&on_thread, func, args);
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return (cudaError_t)cassrt_result(cassrt_launch_host_func(stream, fn, userData));
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags)
{
    if (flags != 0)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    return (cudaError_t)cassrt_result(
        cassrt_stream_add_callback(stream, (void (*)(void *, int, void *))callback, userData));
}

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    struct cassrt_function_info info;
    int e = cassrt_function_info(cassrt_kernel_of(func), &info);
    if (e != cudaSuccess)
        return (cudaError_t)cassrt_result(e);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = info.shared_size;
    attr->constSizeBytes = info.const_size;
    attr->localSizeBytes = info.local_size;
    attr->maxThreadsPerBlock = info.max_threads_per_block;
    attr->numRegs = info.num_regs;
    attr->ptxVersion = 80;    /* the kernels were translated from sm_80 code */
    attr->binaryVersion = 80;
    attr->maxDynamicSharedSizeBytes = info.max_dynamic_shared;
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    struct cassrt_kernel *k = cassrt_kernel_of(func);
    if (!k)
        return (cudaError_t)cassrt_result(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudaSuccess; /* a hint */
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) {
        cassrt_note_once("cudaFuncSetAttribute: only the dynamic shared memory size and carveout are supported");
        return (cudaError_t)cassrt_result(cudaErrorNotSupported);
    }
    struct cassrt_device_info d;
    int device = 0, e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cassrt_result(cassrt_device_info(device, &d));
    if (e != cudaSuccess)
        return (cudaError_t)e;
    /* The AMD kernel can use up to the device's LDS without opting in. */
    if (value < 0 || (size_t)value > d.shared_mem_per_block)
        return (cudaError_t)cassrt_result(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    (void)cacheConfig; /* a hint; RDNA3's L1/LDS split is fixed */
    return cassrt_kernel_of(func) ? cudaSuccess : (cudaError_t)cassrt_result(cudaErrorInvalidDeviceFunction);
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                            int blockSize,
                                                                            size_t dynamicSMemSize,
                                                                            unsigned int flags)
{
    (void)flags;
    return (cudaError_t)cassrt_result(cassrt_occupancy(cassrt_kernel_of(func), blockSize, dynamicSMemSize,
                                                       numBlocks));
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                    int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                  0);
}
