/* The descriptors texture and surface objects were made from, as a program reads them back
 * (cudaGetTextureObjectResourceDesc/TextureDesc, cudaGetSurfaceObjectResourceDesc). The device
 * descriptor cuda_texture.c writes holds what the lifted kernels need, not the program's
 * structures, so a copy of those is kept per object from its creation to its destruction. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"

struct kept_descs {
    unsigned long long object;
    struct cudaResourceDesc resource;
    struct cudaTextureDesc texture;
    struct kept_descs *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept_descs *kept;

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

int cassrt_texture_descs_keep(unsigned long long object, const void *resource, const void *texture)
{
    struct kept_descs *k = calloc(1, sizeof *k);
    if (!k)
        return cudaErrorMemoryAllocation;
    k->object = object;
    k->resource = *(const struct cudaResourceDesc *)resource;
    k->texture = *(const struct cudaTextureDesc *)texture;
    pthread_mutex_lock(&lock);
    k->next = kept;
    kept = k;
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

void cassrt_texture_descs_forget(unsigned long long object)
{
    pthread_mutex_lock(&lock);
    for (struct kept_descs **p = &kept; *p; p = &(*p)->next)
        if ((*p)->object == object) {
            struct kept_descs *gone = *p;
            *p = gone->next;
            free(gone);
            break;
        }
    pthread_mutex_unlock(&lock);
}

/* A copy of the object's resource and/or texture descriptor; cudaErrorInvalidValue for an
 * object that does not exist. */
static cudaError_t read_back(unsigned long long object, struct cudaResourceDesc *resource,
                             struct cudaTextureDesc *texture)
{
    pthread_mutex_lock(&lock);
    struct kept_descs *k = kept;
    while (k && k->object != object)
        k = k->next;
    if (k && resource)
        *resource = k->resource;
    if (k && texture)
        *texture = k->texture;
    pthread_mutex_unlock(&lock);
    return k ? cudaSuccess : result(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    return pResDesc ? read_back(texObject, pResDesc, NULL) : result(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    return pTexDesc ? read_back(texObject, NULL, pTexDesc) : result(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaSurfaceObject_t surfObject)
{
    return pResDesc ? read_back(surfObject, pResDesc, NULL) : result(cudaErrorInvalidValue);
}
