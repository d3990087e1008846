/* The driver API's initialisation, devices, contexts, streams and events.
 *
 * HIP has one context per device, so a CUcontext names a device: the primary context, or one
 * made by cuCtxCreate, which shares the primary one's memory and streams. Making a context
 * current on a thread selects its device there (hipSetDevice). Until a thread sets a context, the
 * primary context of its current device is current, as after CUDA's runtime has initialised, so
 * driver calls work before, after and without cuInit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

enum { MAX_DEVICES = 64, MAX_PUSHED = 64 };

struct CUctx_st { int device; int created; };

static struct CUctx_st primary[MAX_DEVICES];

/* The thread's context stack; `chosen` is 0 until the thread sets or pushes one. */
static __thread struct CUctx_st *stack[MAX_PUSHED];
static __thread int depth, chosen;

static CUresult result(int hip_error) { return (CUresult)cassrt_driver_result(hip_error); }

static CUresult check_device(CUdevice dev)
{
    int count = 0;
    CUresult e = result(cassrt_cudaGetDeviceCount(&count));
    if (e != CUDA_SUCCESS)
        return e;
    return dev >= 0 && dev < count && dev < MAX_DEVICES ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    int count = 0;
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = result(cassrt_cudaGetDeviceCount(&count));
    return e == CUDA_SUCCESS && count == 0 ? CUDA_ERROR_NO_DEVICE : e;
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *count) { return result(cassrt_cudaGetDeviceCount(count)); }

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult e = check_device(ordinal);
    if (e == CUDA_SUCCESS)
        *device = ordinal;
    return e;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    struct cassrt_device_info d;
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = result(cassrt_device_info(dev, &d));
    if (e == CUDA_SUCCESS) {
        strncpy(name, d.name, (size_t)len - 1);
        name[len - 1] = '\0';
    }
    return e;
}

/* A UUID that names the device for as long as it sits in its PCI slot: HIP 5.2 reports none,
 * so it is made from the device's name and PCI address ("cass" and a digest of both). */
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    struct cassrt_device_info d;
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult e = result(cassrt_device_info(dev, &d));
    if (e != CUDA_SUCCESS)
        return e;
    unsigned long long h = 1469598103934665603ull;  /* FNV-1a */
    char what[320];
    snprintf(what, sizeof what, "%s %d:%d:%d", d.name, d.pci_domain_id, d.pci_bus_id, d.pci_device_id);
    for (const char *c = what; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    memcpy(uuid->bytes, "cass", 4);
    for (int i = 0; i < 8; i++)
        uuid->bytes[4 + i] = (char)(h >> (8 * i));
    uuid->bytes[12] = (char)d.pci_domain_id;
    uuid->bytes[13] = (char)d.pci_bus_id;
    uuid->bytes[14] = (char)d.pci_device_id;
    uuid->bytes[15] = (char)dev;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    struct cassrt_device_info d;
    CUresult e = result(cassrt_device_info(dev, &d));
    if (e == CUDA_SUCCESS)
        *bytes = d.total_global_mem;
    return e;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    /* cuMemCreate/cuMemMap and the rest of virtual memory management are not implemented:
     * the device says so, and programs that check take their other path. */
    if (attrib == CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) {
        CUresult e = check_device(dev);
        if (e == CUDA_SUCCESS)
            *pi = 0;
        return e;
    }
    return result(cassrt_device_attribute(pi, attrib, dev));
}

CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CUresult e = cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    return e == CUDA_SUCCESS ? cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) : e;
}

/* --- contexts ---------------------------------------------------------------------------- */

static struct CUctx_st *current(void)
{
    if (chosen)
        return depth ? stack[depth - 1] : NULL;
    int dev = 0;
    if (cassrt_cudaGetDevice(&dev) != 0 || dev < 0 || dev >= MAX_DEVICES)
        return NULL;
    primary[dev].device = dev;
    return &primary[dev];
}

/* The implicit primary context becomes the bottom of the thread's own stack. */
static void adopt_implicit(void)
{
    if (chosen)
        return;
    struct CUctx_st *implicit = current();
    depth = 0;
    if (implicit)
        stack[depth++] = implicit;
    chosen = 1;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = current();
    return CUDA_SUCCESS;
}

/* Replaces the top of the stack; NULL pops it. */
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
    adopt_implicit();
    if (!ctx) {
        depth -= depth > 0;
        return CUDA_SUCCESS;
    }
    CUresult e = result(cassrt_cudaSetDevice(ctx->device));
    if (e == CUDA_SUCCESS)
        stack[depth ? depth - 1 : depth++] = ctx;
    return e;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx)
{
    adopt_implicit();
    if (!ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (depth == MAX_PUSHED)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult e = result(cassrt_cudaSetDevice(ctx->device));
    if (e == CUDA_SUCCESS)
        stack[depth++] = ctx;
    return e;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
    adopt_implicit();
    if (!depth)
        return CUDA_ERROR_INVALID_CONTEXT;
    struct CUctx_st *top = stack[--depth];
    if (pctx)
        *pctx = top;
    return depth ? result(cassrt_cudaSetDevice(stack[depth - 1]->device)) : CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    struct CUctx_st *ctx = current();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    *device = ctx->device;
    return CUDA_SUCCESS;
}

/* Every context has today's API (3020: the _v2 calls, 64-bit device pointers); NULL asks about
 * the current one. NVIDIA's runtime asks before a peer copy. */
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx && !current())
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    return current() ? result(cassrt_cudaDeviceSynchronize()) : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    (void)flags;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (ctxCreateParams && (ctxCreateParams->execAffinityParams || ctxCreateParams->cigParams)) {
        cassrt_note_once("cuCtxCreate: execution affinity and CIG parameters are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    CUresult e = check_device(dev);
    if (e != CUDA_SUCCESS)
        return e;
    struct CUctx_st *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *ctx = (struct CUctx_st){dev, 1};
    e = cuCtxPushCurrent(ctx);
    if (e != CUDA_SUCCESS)
        free(ctx);
    else
        *pctx = ctx;
    return e;
}

CUresult CUDAAPI cuCtxDestroy(CUcontext ctx)
{
    if (!ctx || !ctx->created)
        return CUDA_ERROR_INVALID_CONTEXT;
    /* off this thread's stack (other threads must not hold it current, as in CUDA) */
    for (int i = 0; i < depth; i++)
        if (stack[i] == ctx) {
            memmove(&stack[i], &stack[i + 1], (size_t)(depth - i - 1) * sizeof stack[0]);
            depth--, i--;
        }
    free(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult e = check_device(dev);
    if (e == CUDA_SUCCESS) {
        primary[dev].device = dev;
        *pctx = &primary[dev];
    }
    return e;
}

/* The primary context lives as long as the process (as HIP's device does). */
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return check_device(dev); }

/* --- streams and events: CUstream and CUevent are the runtime's cudaStream_t and cudaEvent_t;
 * CU_STREAM_* and CU_EVENT_* flags have the values of cudaStream* and cudaEvent* flags. ------ */

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return result(cassrt_cudaStreamCreateWithFlags((cudaStream_t *)phStream, Flags));
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    return result(cassrt_cudaStreamCreateWithPriority((cudaStream_t *)phStream, flags, priority));
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream) { return result(cassrt_cudaStreamDestroy((cudaStream_t)hStream)); }

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
    return result(cassrt_cudaStreamSynchronize((cudaStream_t)hStream));
}

CUresult CUDAAPI cuStreamQuery(CUstream hStream) { return result(cassrt_cudaStreamQuery((cudaStream_t)hStream)); }

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    return result(cassrt_cudaStreamWaitEvent((cudaStream_t)hStream, (cudaEvent_t)hEvent, Flags));
}

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    return result(cassrt_cudaEventCreateWithFlags((cudaEvent_t *)phEvent, Flags));
}

CUresult CUDAAPI cuEventDestroy(CUevent hEvent) { return result(cassrt_cudaEventDestroy((cudaEvent_t)hEvent)); }

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream)
{
    return result(cassrt_cudaEventRecord((cudaEvent_t)hEvent, (cudaStream_t)hStream));
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) { return result(cassrt_cudaEventSynchronize((cudaEvent_t)hEvent)); }

CUresult CUDAAPI cuEventQuery(CUevent hEvent) { return result(cassrt_cudaEventQuery((cudaEvent_t)hEvent)); }

CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return result(cassrt_cudaEventElapsedTime(pMilliseconds, (cudaEvent_t)hStart, (cudaEvent_t)hEnd));
}
