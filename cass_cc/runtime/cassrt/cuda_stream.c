/* Stream identity and attributes: cudaStreamGetId, cudaStreamGetDevice, cudaStreamSet/
 * GetAttribute and cudaStreamCopyAttributes, with their per-thread forms (nvcc -default-stream
 * per-thread renames the calls; their stream 0 is the thread's). HIP 5.2 has none of them; the
 * record behind them is hip_stream.c's.
 *
 * Of the stream attributes, the L2 access policy window and the synchronization policy are
 * performance hints: kept and reported back as set, they change nothing here (HIP streams have
 * no persisting L2 lines; a synchronization waits as HIP's does). The priority is the one the
 * stream was made with and cannot change. The memory synchronization domains are refused. */
#include <cuda_runtime_api.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

_Static_assert(sizeof(cudaStreamAttrValue) <= CASSRT_STREAM_ATTRIBUTE_SIZE, "hip_stream.c keeps attribute values");

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

static cudaStream_t on_thread(cudaStream_t stream) { return stream ? stream : cudaStreamPerThread; }

/* The slot hip_stream.c keeps an attribute in, or -1 for those not kept. */
static int slot_of(cudaStreamAttrID attr)
{
    return attr == cudaStreamAttributeAccessPolicyWindow ? 0 : attr == cudaStreamAttributeSynchronizationPolicy ? 1 : -1;
}

/* Why an attribute is refused: cudaErrorNotSupported for the stream attributes that are not
 * kept, cudaErrorInvalidValue for the IDs that are no stream attribute. */
static cudaError_t refused(cudaStreamAttrID attr)
{
    if (attr == cudaStreamAttributeMemSyncDomainMap || attr == cudaStreamAttributeMemSyncDomain) {
        cassrt_note_once("cudaStreamSetAttribute/GetAttribute: memory synchronization domains are not supported");
        return result(cudaErrorNotSupported);
    }
    return result(cudaErrorInvalidValue);
}

static cudaError_t set_attribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    if (!value)
        return result(cudaErrorInvalidValue);
    if (attr == cudaStreamAttributePriority) {
        cassrt_note_once("cudaStreamSetAttribute: a stream's priority is the one it was made with");
        return result(cudaErrorNotSupported);
    }
    int slot = slot_of(attr);
    if (slot < 0)
        return refused(attr);
    cudaStreamAttrValue copy = {0};
    if (slot == 0)
        copy.accessPolicyWindow = value->accessPolicyWindow;
    else
        copy.syncPolicy = value->syncPolicy;
    return result(cassrt_stream_attribute(stream, slot, &copy, 1, NULL));
}

static cudaError_t get_attribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue *value)
{
    if (!value)
        return result(cudaErrorInvalidValue);
    if (attr == cudaStreamAttributePriority)
        return result(cassrt_cudaStreamGetPriority(stream, &value->priority));
    int slot = slot_of(attr), was_set = 0;
    if (slot < 0)
        return refused(attr);
    cudaStreamAttrValue kept = {0};
    int e = cassrt_stream_attribute(stream, slot, &kept, 0, &was_set);
    if (e != cudaSuccess)
        return result(e);
    if (slot == 0)   /* unset: no window (all zero) */
        value->accessPolicyWindow = kept.accessPolicyWindow;
    else
        /* a stream whose policy was never set reads -1 on an H200 (no cudaSyncPolicy value) */
        value->syncPolicy = was_set ? kept.syncPolicy : (enum cudaSynchronizationPolicy)-1;
    return cudaSuccess;
}

/* The kept attributes of src, set or not, become dst's. */
static cudaError_t copy_attributes(cudaStream_t dst, cudaStream_t src)
{
    cudaStreamAttrID kept[] = {cudaStreamAttributeAccessPolicyWindow, cudaStreamAttributeSynchronizationPolicy};
    for (unsigned i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        cudaStreamAttrValue value;
        cudaError_t e = get_attribute(src, kept[i], &value);
        if (e == cudaSuccess)
            e = set_attribute(dst, kept[i], &value);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

static cudaError_t get_id(cudaStream_t stream, unsigned long long *streamId)
{
    return streamId ? result(cassrt_stream_identity(stream, streamId, NULL)) : result(cudaErrorInvalidValue);
}

static cudaError_t get_device(cudaStream_t stream, int *device)
{
    return device ? result(cassrt_stream_identity(stream, NULL, device)) : result(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             const cudaStreamAttrValue *value)
{
    return set_attribute(hStream, attr, value);
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             cudaStreamAttrValue *value_out)
{
    return get_attribute(hStream, attr, value_out);
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) { return copy_attributes(dst, src); }

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    return get_id(hStream, streamId);
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int *device) { return get_device(hStream, device); }

cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  const cudaStreamAttrValue *value);
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  cudaStreamAttrValue *value_out);
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);

cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  const cudaStreamAttrValue *value)
{
    return set_attribute(on_thread(hStream), attr, value);
}

cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  cudaStreamAttrValue *value_out)
{
    return get_attribute(on_thread(hStream), attr, value_out);
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
    return copy_attributes(on_thread(dst), on_thread(src));
}

cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    return get_id(on_thread(hStream), streamId);
}

cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    return get_device(on_thread(hStream), device);
}
