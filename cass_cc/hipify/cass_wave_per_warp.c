/* cass_wave_per_warp.c: the host half of cass_wave_per_warp.h, merged into every object the
 * source route compiles for a wave64 target (docs/wave64.md).
 *
 * A translation unit whose warps wait for each other runs one CUDA warp per 64-lane wave there:
 * its kernels need work-groups of twice CUDA's blockDim.x. Its object registers its kernels
 * through cass_wpw___hipRegisterFunction (llvm-objcopy renames the call), which notes them;
 * every object's launches and kernel queries (the stubs of <<<...>>>, cudaLaunchKernel,
 * cooperative launches, graph kernel nodes, attributes and occupancy) call the cass_wpw_ forms
 * below, which give a noted kernel the doubled work-group on a wave64 device and pass the rest
 * through unchanged. Each object carries these as weak definitions; the program keeps one.
 *
 * A noted kernel needs CUDA's blockDim.x to be a multiple of 32 (each row of the block then
 * fills whole waves) and at most 512 threads: a launch outside that fails with
 * hipErrorInvalidConfiguration and says why on stderr.
 */
#include <hip/hip_runtime_api.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CASS_WEAK __attribute__((weak))

/* The registry: kernels (host handles) of units that run one warp per wave. */
struct cass_wpw_kernel {
  const void *handle;
  const char *name;
};
struct cass_wpw_registry {
  pthread_mutex_t lock;
  struct cass_wpw_kernel *kernels;
  size_t count, capacity;
};
CASS_WEAK struct cass_wpw_registry cass_wpw_registry = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

CASS_WEAK const char *cass_wpw_kernel_name(const void *handle) {
  const char *name = NULL;
  pthread_mutex_lock(&cass_wpw_registry.lock);
  for (size_t i = 0; i < cass_wpw_registry.count && !name; i++)
    if (cass_wpw_registry.kernels[i].handle == handle) name = cass_wpw_registry.kernels[i].name;
  pthread_mutex_unlock(&cass_wpw_registry.lock);
  return name;
}

CASS_WEAK void cass_wpw___hipRegisterFunction(void *modules, const void *handle, char *device_function,
                                              const char *device_name, unsigned thread_limit, void *tid,
                                              void *bid, dim3 *block_dim, dim3 *grid_dim, int *wave_size) {
  extern void __hipRegisterFunction(void *, const void *, char *, const char *, unsigned, void *, void *,
                                    dim3 *, dim3 *, int *);
  pthread_mutex_lock(&cass_wpw_registry.lock);
  if (cass_wpw_registry.count == cass_wpw_registry.capacity) {
    size_t capacity = cass_wpw_registry.capacity ? 2 * cass_wpw_registry.capacity : 16;
    struct cass_wpw_kernel *grown = realloc(cass_wpw_registry.kernels, capacity * sizeof *grown);
    if (!grown) {
      fprintf(stderr, "cass-cc: out of memory registering kernel '%s'\n", device_name);
      abort();
    }
    cass_wpw_registry.kernels = grown;
    cass_wpw_registry.capacity = capacity;
  }
  cass_wpw_registry.kernels[cass_wpw_registry.count].handle = handle;
  cass_wpw_registry.kernels[cass_wpw_registry.count].name = device_name;
  cass_wpw_registry.count++;
  pthread_mutex_unlock(&cass_wpw_registry.lock);
  __hipRegisterFunction(modules, handle, device_function, device_name, thread_limit, tid, bid, block_dim,
                        grid_dim, wave_size);
}

/* Whether the current device runs 64-lane waves (the real wave size, not CUDA's warpSize). */
static int cass_wpw_wave64(void) {
  int device = 0, size = 32;
  if (hipGetDevice(&device) != hipSuccess ||
      hipDeviceGetAttribute(&size, hipDeviceAttributeWarpSize, device) != hipSuccess)
    return 0;
  return size == 64;
}

/* The kernel `handle` when it runs one warp per wave on this device, else NULL. */
static const char *cass_wpw_applies(const void *handle) {
  const char *name = cass_wpw_kernel_name(handle);
  return name && cass_wpw_wave64() ? name : NULL;
}

/* CUDA's block -> the work-group of a one-warp-per-wave launch. Where there is none it says why
 * and gives a work-group no device has, which the runtime refuses as its own error
 * (hipErrorInvalidConfiguration, and hipGetLastError reports it, as CUDA's would). */
extern char *__cxa_demangle(const char *name, char *buffer, size_t *length, int *status) __attribute__((weak));

static void cass_wpw_work_group(const char *name, dim3 *block) {
  unsigned threads = block->x * block->y * block->z;
  if (block->x % 32 != 0 || threads > 512) {
    char *readable = __cxa_demangle ? __cxa_demangle(name, NULL, NULL, NULL) : NULL;
    fprintf(stderr,
            "cass-cc: kernel '%s' runs one CUDA warp per 64-lane wave (its warps wait for each other), "
            "which needs blockDim.x a multiple of 32 and at most 512 threads; the launch asked for "
            "(%u, %u, %u): use the binary route (the default)\n",
            readable ? readable : name, block->x, block->y, block->z);
    free(readable);
    block->x = 2048;
    block->y = block->z = 1;
    return;
  }
  block->x *= 2;
}

CASS_WEAK hipError_t cass_wpw_hipLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared,
                                              hipStream_t stream) {
  const char *name = cass_wpw_applies(f);
  if (name) cass_wpw_work_group(name, &block);
  return hipLaunchKernel(f, grid, block, args, shared, stream);
}

CASS_WEAK hipError_t cass_wpw_hipLaunchKernel_spt(const void *f, dim3 grid, dim3 block, void **args,
                                                  size_t shared, hipStream_t stream) {
  extern hipError_t hipLaunchKernel_spt(const void *, dim3, dim3, void **, size_t, hipStream_t);
  const char *name = cass_wpw_applies(f);
  if (name) cass_wpw_work_group(name, &block);
  return hipLaunchKernel_spt(f, grid, block, args, shared, stream);
}

CASS_WEAK hipError_t cass_wpw_hipLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args,
                                                         unsigned shared, hipStream_t stream) {
  const char *name = cass_wpw_applies(f);
  if (name) cass_wpw_work_group(name, &block);
  return hipLaunchCooperativeKernel(f, grid, block, args, shared, stream);
}

CASS_WEAK hipError_t cass_wpw_hipGraphAddKernelNode(hipGraphNode_t *node, hipGraph_t graph,
                                                    const hipGraphNode_t *dependencies, size_t count,
                                                    const hipKernelNodeParams *params) {
  hipKernelNodeParams own = *params;
  const char *name = cass_wpw_applies(params->func);
  if (name) cass_wpw_work_group(name, &own.blockDim);
  return hipGraphAddKernelNode(node, graph, dependencies, count, &own);
}

CASS_WEAK hipError_t cass_wpw_hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *params) {
  hipKernelNodeParams own = *params;
  const char *name = cass_wpw_applies(params->func);
  if (name) cass_wpw_work_group(name, &own.blockDim);
  return hipGraphKernelNodeSetParams(node, &own);
}

CASS_WEAK hipError_t cass_wpw_hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node,
                                                              const hipKernelNodeParams *params) {
  hipKernelNodeParams own = *params;
  const char *name = cass_wpw_applies(params->func);
  if (name) cass_wpw_work_group(name, &own.blockDim);
  return hipGraphExecKernelNodeSetParams(exec, node, &own);
}

/* A node's parameters read back as the program set them: CUDA's block. */
CASS_WEAK hipError_t cass_wpw_hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *params) {
  hipError_t e = hipGraphKernelNodeGetParams(node, params);
  if (e == hipSuccess && cass_wpw_applies(params->func)) params->blockDim.x /= 2;
  return e;
}

CASS_WEAK hipError_t cass_wpw_hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *f) {
  hipError_t e = hipFuncGetAttributes(attr, f);
  if (e == hipSuccess && cass_wpw_applies(f)) attr->maxThreadsPerBlock = attr->maxThreadsPerBlock / 2;
  return e;
}

CASS_WEAK hipError_t cass_wpw_hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *f, int block_size,
                                                                           size_t shared) {
  int lanes = cass_wpw_applies(f) ? 2 * block_size : block_size;
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, lanes, shared);
}

CASS_WEAK hipError_t cass_wpw_hipOccupancyMaxPotentialBlockSize(int *grid, int *block, const void *f, size_t shared,
                                                                int limit) {
  int applies = cass_wpw_applies(f) != NULL;
  int lanes_limit = applies ? (limit > 0 && limit <= 512 ? 2 * limit : 1024) : limit;
  hipError_t e = hipOccupancyMaxPotentialBlockSize(grid, block, f, shared, lanes_limit);
  if (e == hipSuccess && applies) *block /= 2;
  return e;
}
