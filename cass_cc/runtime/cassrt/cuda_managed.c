/* Unified-memory hints and the range queries that read them back. HIP places managed memory
 * itself, so cudaMemAdvise and cudaMemPrefetchAsync change no result of the program; what they
 * said about a managed range is kept (hip_managed.c) for cudaMemRangeGetAttribute(s), which
 * answers as CUDA's does. Hints about memory that is not managed are accepted and ignored. */
#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

static struct cassrt_location location_of(struct cudaMemLocation l) { return (struct cassrt_location){l.type, l.id}; }

static cudaError_t hint(const void *devPtr, size_t count, int kind, int set, struct cudaMemLocation location)
{
    if (!cassrt_managed_is_range(devPtr, count))
        return cudaSuccess;
    return result(cassrt_managed_hint(devPtr, count, kind, set, location_of(location)));
}

cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location)
{
    switch (advice) {
    case cudaMemAdviseSetReadMostly:
    case cudaMemAdviseUnsetReadMostly:
        return hint(devPtr, count, CASSRT_HINT_READ_MOSTLY, advice == cudaMemAdviseSetReadMostly, location);
    case cudaMemAdviseSetPreferredLocation:
    case cudaMemAdviseUnsetPreferredLocation:
        return hint(devPtr, count, CASSRT_HINT_PREFERRED, advice == cudaMemAdviseSetPreferredLocation, location);
    case cudaMemAdviseSetAccessedBy:
    case cudaMemAdviseUnsetAccessedBy:
        return hint(devPtr, count, CASSRT_HINT_ACCESSED_BY, advice == cudaMemAdviseSetAccessedBy, location);
    }
    return result(cudaErrorInvalidValue);
}

/* Recorded when asked: the range query that reads it comes after the program waited for it. */
cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream)
{
    (void)flags, (void)stream;
    return hint(devPtr, count, CASSRT_HINT_PREFETCH, 1, location);
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream);

cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

/* A location as the attributes that predate cudaMemLocation give it: a device's ordinal,
 * cudaCpuDeviceId for the host. */
static int device_id(struct cassrt_location l) { return l.type == cudaMemLocationTypeDevice ? l.id : cudaCpuDeviceId; }

static cudaError_t one_int(void *data, size_t dataSize, int value)
{
    if (dataSize != sizeof(int))
        return result(cudaErrorInvalidValue);
    *(int *)data = value;
    return cudaSuccess;
}

/* cudaMemRangeAttributeAccessedBy: the devices (then the host) every byte was advised to be
 * accessed by, the rest of the array cudaInvalidDeviceId. */
static cudaError_t accessed_by(int *data, size_t dataSize, const void *devPtr, size_t count)
{
    size_t room = dataSize / sizeof(int), used = 0;
    int devices = 0;
    if (dataSize == 0 || dataSize % sizeof(int) != 0)
        return result(cudaErrorInvalidValue);
    int e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess)
        return (cudaError_t)e;
    for (int d = 0; d <= devices && used < room; d++) {
        struct cassrt_location who = {d < devices ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost,
                                      d < devices ? d : 0}, where;
        if (cassrt_managed_uniform(devPtr, count, CASSRT_HINT_ACCESSED_BY, &who, &where))
            data[used++] = device_id(who);
    }
    while (used < room)
        data[used++] = cudaInvalidDeviceId;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                               const void *devPtr, size_t count)
{
    if (!data || !cassrt_managed_is_range(devPtr, count))
        return result(cudaErrorInvalidValue);
    struct cassrt_location where;
    int kind = attribute == cudaMemRangeAttributeReadMostly ? CASSRT_HINT_READ_MOSTLY
               : attribute == cudaMemRangeAttributeAccessedBy ? CASSRT_HINT_ACCESSED_BY
               : attribute == cudaMemRangeAttributePreferredLocation ||
                         attribute == cudaMemRangeAttributePreferredLocationType ||
                         attribute == cudaMemRangeAttributePreferredLocationId ? CASSRT_HINT_PREFERRED
                                                                               : CASSRT_HINT_PREFETCH;
    if (kind == CASSRT_HINT_ACCESSED_BY)
        return accessed_by(data, dataSize, devPtr, count);
    int uniform = cassrt_managed_uniform(devPtr, count, kind, NULL, &where);
    switch (attribute) {
    case cudaMemRangeAttributeReadMostly:
        return one_int(data, dataSize, uniform);
    case cudaMemRangeAttributePreferredLocation:
    case cudaMemRangeAttributeLastPrefetchLocation:
        return one_int(data, dataSize, uniform ? device_id(where) : cudaInvalidDeviceId);
    case cudaMemRangeAttributePreferredLocationType:
    case cudaMemRangeAttributeLastPrefetchLocationType:
        return one_int(data, dataSize, uniform ? where.type : cudaMemLocationTypeInvalid);
    case cudaMemRangeAttributePreferredLocationId:
    case cudaMemRangeAttributeLastPrefetchLocationId:
        return one_int(data, dataSize, uniform ? where.id : cudaInvalidDeviceId);
    default:
        return result(cudaErrorInvalidValue);
    }
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                                enum cudaMemRangeAttribute *attributes, size_t numAttributes,
                                                const void *devPtr, size_t count)
{
    if (!data || !dataSizes || !attributes || numAttributes == 0)
        return result(cudaErrorInvalidValue);
    for (size_t i = 0; i < numAttributes; i++) {
        cudaError_t e = cudaMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], devPtr, count);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
