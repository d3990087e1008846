/* Texture objects and CUDA arrays for translated (binary-route) kernels.
 *
 * A cudaTextureObject_t is the device address of a 64-byte texture descriptor that this file
 * writes (struct cass_texture). The lifter (passes/lift/texture.py) turns TEX/TLD into loads of
 * that descriptor and of the texels it points to, with CUDA's addressing and filtering rules, so
 * the two files share the layout below: change one, change both.
 *
 * A cudaArray is linear device memory with packed rows (pitch = width * element size), slices
 * after each other; the texture hardware's tiled layout is invisible to CUDA programs. A cubemap
 * array is a 2D array of six slices, the faces in cudaGraphicsCubeFace's order (+X, -X, +Y, -Y,
 * +Z, -Z). A mipmapped array is one allocation holding its levels after each other, each a packed
 * array whose extents are the previous level's halved (floor, at least 1); the texture descriptor
 * lists where each level starts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

/* Levels of a mipmapped array: 16 cover extents up to 32768 (CUDA's 2D limit is 65536: 17). */
#define CASS_MAX_LEVELS 16

struct cass_texture {
    uint64_t base;              /*  0: device address of texel (0, 0, 0) */
    uint32_t pitch;             /*  8: bytes from one row to the next */
    uint32_t width;             /* 12: extents in texels (1 when the dimension is absent) */
    uint32_t height;            /* 16 */
    uint32_t depth;             /* 20 */
    uint32_t slice_pitch;       /* 24: bytes from one depth slice to the next */
    uint8_t channels;           /* 28: 1, 2 or 4 */
    uint8_t bits;               /* 29: bits per channel: 8, 16 or 32 */
    uint8_t kind;               /* 30: cudaChannelFormatKind: signed, unsigned, float */
    uint8_t read_normalized;    /* 31: cudaReadModeNormalizedFloat on an 8/16-bit integer format */
    uint8_t filter_linear;      /* 32: cudaFilterModeLinear */
    uint8_t normalized_coords;  /* 33 */
    uint8_t address[3];         /* 34: cudaTextureAddressMode per dimension */
    uint8_t linear_resource;    /* 37: cudaResourceTypeLinear (tex1Dfetch: zero out of range) */
    uint8_t dims;               /* 38: the resource's dimensions (1, 2, 3): further coordinates are
                                       ignored (tex1D on a 1D array is a 2D TEX with y = 0) */
    uint8_t reserved;
    float border[4];            /* 40: borderColor */
    float min_lod, max_lod;     /* 56: min/maxMipmapLevelClamp (0 and 0 for a single level) */
    uint8_t levels;             /* 64: mipmap levels (1: base, pitch and extents above are all) */
    uint8_t mipmap_linear;      /* 65: mipmapFilterMode linear: blend the two nearest levels */
    uint8_t padding[2];
    uint32_t level_offset[CASS_MAX_LEVELS]; /* 68: bytes from base to each level's texel (0, 0, 0) */
};
_Static_assert(sizeof(struct cass_texture) == 136, "the lifter reads 132 bytes (padded to base's alignment)");
_Static_assert(offsetof(struct cass_texture, border) == 40, "layout shared with passes/lift/texture.py");
_Static_assert(offsetof(struct cass_texture, level_offset) == 68, "layout shared with passes/lift/texture.py");

struct cudaArray {
    void *data;
    size_t pitch, width, height, depth;         /* width in texels; height, depth at least 1 */
    int dims;                                   /* 1, 2 or 3, from the extents it was made with */
    int layered;                                /* cudaArrayLayered: depth counts the layers */
    int cubemap;                                /* cudaArrayCubemap: six square faces, the slices */
    struct cudaChannelFormatDesc desc;
};

struct cudaMipmappedArray {
    void *data;
    unsigned int levels;
    struct cudaArray level[CASS_MAX_LEVELS];    /* each level's data points into data */
};

static cudaError_t fail(cudaError_t e)
{
    return (cudaError_t)cassrt_result(e);
}

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* Channel count and bits per channel of a format the descriptor can express, or 0. */
static int format_of(const struct cudaChannelFormatDesc *d, int *channels, int *bits)
{
    int sizes[4] = {d->x, d->y, d->z, d->w}, n = 0;
    while (n < 4 && sizes[n])
        n++;
    for (int i = n; i < 4; i++)
        if (sizes[i])
            return 0;
    if (n == 0 || n == 3)
        return 0;
    for (int i = 1; i < n; i++)
        if (sizes[i] != sizes[0])
            return 0;
    if (sizes[0] != 8 && sizes[0] != 16 && sizes[0] != 32)
        return 0;
    if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
        d->f != cudaChannelFormatKindFloat)
        return 0;
    if (d->f == cudaChannelFormatKindFloat && sizes[0] == 8)
        return 0;
    *channels = n;
    *bits = sizes[0];
    return 1;
}

static size_t element_size(const struct cudaChannelFormatDesc *d)
{
    int channels, bits;
    return format_of(d, &channels, &bits) ? (size_t)channels * bits / 8 : 0;
}

/* depth counts layers when layered (then height 0 makes a 1D layered array). Array makers return
 * their error without recording it: the runtime's functions record it, the driver's do not. */
static cudaError_t make_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                              size_t height, size_t depth, int layered)
{
    if (!array || !desc || width == 0)
        return cudaErrorInvalidValue;
    size_t elem = element_size(desc);
    if (!elem)
        return cudaErrorInvalidChannelDescriptor;
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a)
        return cudaErrorMemoryAllocation;
    a->width = width, a->height = height ? height : 1, a->depth = depth ? depth : 1;
    a->pitch = width * elem;
    a->dims = depth && !layered ? 3 : height ? 2 : 1;
    a->layered = layered;
    a->desc = *desc;
    cudaError_t e = (cudaError_t)cassrt_cudaMalloc(&a->data, a->pitch * a->height * a->depth);
    if (e != cudaSuccess) {
        free(a);
        return e;
    }
    *array = a;
    return cudaSuccess;
}

static cudaError_t make_3d_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                 struct cudaExtent extent, unsigned int flags)
{
    if ((flags & cudaArrayCubemap) && (flags & cudaArrayLayered)) {
        cassrt_note_once("cudaMalloc3DArray, cuArray3DCreate: layered cubemap arrays are not supported");
        return cudaErrorNotSupported;
    }
    if (flags & cudaArrayCubemap) {
        if (extent.width != extent.height || extent.depth != 6)
            return cudaErrorInvalidValue;     /* square faces, six of them */
        cudaError_t e = make_array(array, desc, extent.width, extent.height, extent.depth, 1);
        if (e == cudaSuccess)
            (*array)->cubemap = 1;
        return e;
    }
    if ((flags & cudaArrayLayered) && !extent.depth)
        return cudaErrorInvalidValue;
    return make_array(array, desc, extent.width, extent.height, extent.depth, (flags & cudaArrayLayered) != 0);
}

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                      size_t height, unsigned int flags)
{
    (void)flags;            /* surface load/store and texture gather work on every array here */
    return fail(make_array(array, desc, width, height, 0, 0));
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags)
{
    return fail(make_3d_array(array, desc, extent, flags));
}

int cassrt_array_create(void **array, const int bits[4], int kind, const size_t extent[3], unsigned flags)
{
    struct cudaChannelFormatDesc desc = {bits[0], bits[1], bits[2], bits[3], (enum cudaChannelFormatKind)kind};
    struct cudaExtent size = {extent[0], extent[1], extent[2]};
    return make_3d_array((cudaArray_t *)array, &desc, size, flags);
}

static size_t halved(size_t n, unsigned int level)
{
    n >>= level;
    return n ? n : 1;
}

cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                               const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                               unsigned int numLevels, unsigned int flags)
{
    if (!mipmappedArray || !desc || extent.width == 0 || (extent.depth && !extent.height))
        return fail(cudaErrorInvalidValue);
    if (flags & (cudaArrayLayered | cudaArrayCubemap)) {
        cassrt_note_once("cudaMallocMipmappedArray: layered and cubemap mipmapped arrays are not supported");
        return fail(cudaErrorNotSupported);
    }
    size_t elem = element_size(desc);
    if (!elem)
        return fail(cudaErrorInvalidChannelDescriptor);
    /* CUDA clamps the level count to [1, 1 + floor(log2(largest extent))]. */
    size_t largest = extent.width > extent.height ? extent.width : extent.height;
    largest = largest > extent.depth ? largest : extent.depth;
    unsigned int most = 1;
    while (largest >> most)
        most++;
    unsigned int levels = numLevels < 1 ? 1 : numLevels > most ? most : numLevels;
    if (levels > CASS_MAX_LEVELS) {
        cassrt_note_once("cudaMallocMipmappedArray: more than 16 levels (an extent over 32768) is not supported");
        return fail(cudaErrorNotSupported);
    }
    struct cudaMipmappedArray *m = calloc(1, sizeof *m);
    if (!m)
        return fail(cudaErrorMemoryAllocation);
    m->levels = levels;
    size_t offsets[CASS_MAX_LEVELS], total = 0;
    for (unsigned int l = 0; l < levels; l++) {
        struct cudaArray *a = &m->level[l];
        a->width = halved(extent.width, l);
        a->height = extent.height ? halved(extent.height, l) : 1;
        a->depth = extent.depth ? halved(extent.depth, l) : 1;
        a->pitch = a->width * elem;
        a->dims = extent.depth ? 3 : extent.height ? 2 : 1;
        a->desc = *desc;
        offsets[l] = total;
        total += (a->pitch * a->height * a->depth + 255) & ~(size_t)255;   /* levels 256-byte aligned */
    }
    if (total > UINT32_MAX) {
        free(m);
        cassrt_note_once("cudaMallocMipmappedArray: mipmapped arrays of 4 GiB or more are not supported");
        return fail(cudaErrorNotSupported);
    }
    cudaError_t e = cudaMalloc(&m->data, total);
    if (e != cudaSuccess) {
        free(m);
        return e;
    }
    for (unsigned int l = 0; l < levels; l++)
        m->level[l].data = (char *)m->data + offsets[l];
    *mipmappedArray = m;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level)
{
    if (!levelArray || !mipmappedArray || level >= mipmappedArray->levels)
        return fail(cudaErrorInvalidValue);
    /* The level belongs to the mipmapped array: cudaFreeMipmappedArray releases it. */
    *levelArray = (cudaArray_t)&mipmappedArray->level[level];
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    if (!mipmappedArray)
        return cudaSuccess;
    cudaError_t e = cudaFree(mipmappedArray->data);
    free(mipmappedArray);
    return e;
}

int cassrt_array_destroy(void *array)
{
    cudaArray_t a = array;
    if (!a)
        return cudaSuccess;
    int e = cassrt_cudaFree(a->data);
    free(a);
    return e;
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array) { return fail(cassrt_array_destroy(array)); }

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    if (!desc || !array)
        return fail(cudaErrorInvalidValue);
    *desc = array->desc;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array)
{
    if (!array)
        return fail(cudaErrorInvalidValue);
    if (desc)
        *desc = array->desc;
    if (extent) {
        extent->width = array->width;
        extent->height = array->dims > 1 ? array->height : 0;
        extent->depth = array->dims == 3 || array->layered ? array->depth : 0;
    }
    if (flags)
        *flags = array->cubemap ? cudaArrayCubemap : array->layered ? cudaArrayLayered : 0;
    return cudaSuccess;
}

/* The resource part of a descriptor; returns cudaSuccess or why the resource is refused. */
static cudaError_t describe_resource(struct cass_texture *t, const struct cudaResourceDesc *r)
{
    const struct cudaChannelFormatDesc *format;
    int channels, bits;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        cudaArray_const_t a = r->res.array.array;
        if (!a)
            return cudaErrorInvalidValue;
        format = &a->desc;
        t->base = (uint64_t)(uintptr_t)a->data;
        t->pitch = (uint32_t)a->pitch;
        t->width = (uint32_t)a->width, t->height = (uint32_t)a->height, t->depth = (uint32_t)a->depth;
        t->slice_pitch = (uint32_t)(a->pitch * a->height);
        t->dims = (uint8_t)a->dims;
        t->levels = 1;
        break;
    }
    case cudaResourceTypeMipmappedArray: {
        cudaMipmappedArray_const_t m = r->res.mipmap.mipmap;
        if (!m)
            return cudaErrorInvalidValue;
        const struct cudaArray *a = &m->level[0];
        format = &a->desc;
        t->base = (uint64_t)(uintptr_t)m->data;
        t->pitch = (uint32_t)a->pitch;
        t->width = (uint32_t)a->width, t->height = (uint32_t)a->height, t->depth = (uint32_t)a->depth;
        t->slice_pitch = (uint32_t)(a->pitch * a->height);
        t->dims = (uint8_t)a->dims;
        t->levels = (uint8_t)m->levels;
        for (unsigned int l = 0; l < m->levels; l++)
            t->level_offset[l] = (uint32_t)((char *)m->level[l].data - (char *)m->data);
        break;
    }
    case cudaResourceTypeLinear:
        format = &r->res.linear.desc;
        if (!r->res.linear.devPtr || !element_size(format))
            return r->res.linear.devPtr ? cudaErrorInvalidChannelDescriptor : cudaErrorInvalidValue;
        t->base = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        t->width = (uint32_t)(r->res.linear.sizeInBytes / element_size(format));
        t->height = t->depth = 1;
        t->pitch = t->slice_pitch = (uint32_t)r->res.linear.sizeInBytes;
        t->linear_resource = 1;
        t->dims = 1;
        t->levels = 1;
        break;
    case cudaResourceTypePitch2D:
        format = &r->res.pitch2D.desc;
        if (!r->res.pitch2D.devPtr || !element_size(format) ||
            r->res.pitch2D.pitchInBytes < r->res.pitch2D.width * element_size(format))
            return r->res.pitch2D.devPtr && element_size(format) ? cudaErrorInvalidValue
                                                                  : cudaErrorInvalidChannelDescriptor;
        t->base = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        t->pitch = (uint32_t)r->res.pitch2D.pitchInBytes;
        t->width = (uint32_t)r->res.pitch2D.width, t->height = (uint32_t)r->res.pitch2D.height;
        t->depth = 1;
        t->slice_pitch = (uint32_t)(t->pitch * t->height);
        t->dims = 2;
        t->levels = 1;
        break;
    default:
        return cudaErrorInvalidValue;
    }
    if (!format_of(format, &channels, &bits))
        return cudaErrorInvalidChannelDescriptor;
    t->channels = (uint8_t)channels, t->bits = (uint8_t)bits, t->kind = (uint8_t)format->f;
    return cudaSuccess;
}

/* The border colour of a normalised-integer texture is a texel value too: the H200 returns 0.25,
 * 0.5 and 0.75 on 8-bit unorm as 64/255, 127/255 and 191/255, the nearest step with ties toward
 * zero (texture_modes). Its probe lines show the same rule for 16-bit unorm (0.5 -> 32767/65535)
 * and 8-bit snorm (0.5 -> 63/127) on the H200. */
static float border_in_format(float c, int bits, int is_signed)
{
    double top = is_signed ? (double)((1 << (bits - 1)) - 1) : (double)((1 << bits) - 1);
    double low = is_signed ? -1.0 : 0.0;
    double v = c != c ? 0.0 : c < low ? low : c > 1.0 ? 1.0 : c;
    double q = (v < 0 ? -v : v) * top;
    double steps = (double)(long)(q + 0.5);
    if (steps - q == 0.5)
        steps -= 1.0;
    return (float)((v < 0 ? -steps : steps) / top);
}

/* A texture or (sampled = 0: the sampling fields are unused) a surface object. */
static cudaError_t create_object(unsigned long long *pObject, const struct cudaResourceDesc *pResDesc,
                                 const struct cudaTextureDesc *pTexDesc, int sampled)
{
    struct cass_texture t;
    memset(&t, 0, sizeof t);
    cudaError_t e = describe_resource(&t, pResDesc);
    if (e != cudaSuccess)
        return fail(e);
    int integer = t.kind != cudaChannelFormatKindFloat;
    t.read_normalized = integer && t.bits < 32 && pTexDesc->readMode == cudaReadModeNormalizedFloat;
    t.filter_linear = pTexDesc->filterMode == cudaFilterModeLinear;
    if (t.filter_linear && integer && !t.read_normalized)
        return fail(cudaErrorInvalidValue);    /* CUDA filters only values it returns as floats */
    t.normalized_coords = pTexDesc->normalizedCoords != 0;
    for (int i = 0; i < 3; i++)
        t.address[i] = (uint8_t)pTexDesc->addressMode[i];
    if (sampled && pResDesc->resType == cudaResourceTypeArray && pResDesc->res.array.array->cubemap) {
        /* Point sampling of one face needs no seam rule; filtering across an edge would. */
        if (t.filter_linear || !t.normalized_coords) {
            cassrt_note_once("cudaCreateTextureObject: cubemaps are sampled with point filtering and "
                             "normalized coordinates only");
            return fail(cudaErrorNotSupported);
        }
        /* a face clamps at its edges whatever addressMode says (OpenGL's and Direct3D's rule) */
        t.address[0] = t.address[1] = cudaAddressModeClamp;
    }
    if (t.levels > 1) {
        if (pTexDesc->mipmapLevelBias != 0.0f) {
            cassrt_note_once("cudaCreateTextureObject: a mipmapLevelBias other than 0 is not supported");
            return fail(cudaErrorNotSupported);
        }
        t.mipmap_linear = pTexDesc->mipmapFilterMode == cudaFilterModeLinear;
        if (t.mipmap_linear && integer && !t.read_normalized)
            return fail(cudaErrorInvalidValue);    /* blending levels is filtering, as above */
        t.min_lod = pTexDesc->minMipmapLevelClamp;
        t.max_lod = pTexDesc->maxMipmapLevelClamp;
    }
    memcpy(t.border, pTexDesc->borderColor, sizeof t.border);
    if (t.read_normalized)
        for (int c = 0; c < 4; c++)
            t.border[c] = border_in_format(t.border[c], t.bits, t.kind == cudaChannelFormatKindSigned);
    void *device = NULL;
    e = cudaMalloc(&device, sizeof t);
    if (e != cudaSuccess)
        return e;
    e = cudaMemcpy(device, &t, sizeof t, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        cudaFree(device);
        return e;
    }
    e = fail(cassrt_texture_descs_keep((unsigned long long)(uintptr_t)device, pResDesc, pTexDesc));
    if (e != cudaSuccess) {
        cudaFree(device);
        return e;
    }
    *pObject = (unsigned long long)(uintptr_t)device;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const struct cudaResourceViewDesc *pResViewDesc)
{
    if (!pTexObject || !pResDesc || !pTexDesc)
        return fail(cudaErrorInvalidValue);
    if (pResViewDesc) {
        cassrt_note_once("cudaCreateTextureObject: resource views are not supported");
        return fail(cudaErrorNotSupported);
    }
    return create_object(pTexObject, pResDesc, pTexDesc, 1);
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    if (!texObject)
        return cudaSuccess;
    cassrt_texture_descs_forget(texObject);
    return cudaFree((void *)(uintptr_t)texObject);
}

/* A surface object is the same descriptor (the lifter's SULD/SUST read base, pitches, extents and
 * the element size); CUDA binds surfaces to arrays only. */
cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    if (!pSurfObject || !pResDesc)
        return fail(cudaErrorInvalidValue);
    if (pResDesc->resType != cudaResourceTypeArray)
        return fail(cudaErrorInvalidValue);
    struct cudaTextureDesc point;
    memset(&point, 0, sizeof point);
    point.readMode = cudaReadModeElementType;
    return create_object(pSurfObject, pResDesc, &point, 0);
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return cudaDestroyTextureObject(surfObject);
}

/* An array's memory as the 3D copies need it (cudaMemcpy3D, cuMemcpy2D/3D); cudaErrorInvalidValue
 * for a null array. */
int cassrt_array_memory(const void *array, struct cassrt_array_memory *memory)
{
    cudaArray_const_t a = array;
    if (!a)
        return cudaErrorInvalidValue;
    memory->base = a->data;
    memory->pitch = a->pitch;
    memory->rows = a->height;
    memory->slices = a->depth;
    memory->element = element_size(&a->desc);
    return cudaSuccess;
}
