/* What libcassrt keeps about each stream beyond what HIP 5.2 can say: the device it was made on,
 * an id, and the attributes a CUDA program set that HIP has no counterpart for (cuda_stream.c).
 * Every stream is made and destroyed through passthrough.def (the runtime's and the driver's
 * calls alike), which records and forgets it here; the default streams have a record each (the
 * per-thread one: one per thread), made on first use. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime_api.h>

#include "cassrt.h"
#include "hip_internal.h"

struct stream_record {
    void *stream;
    int device;
    unsigned long long id;
    unsigned char value[CASSRT_STREAM_ATTRIBUTES][CASSRT_STREAM_ATTRIBUTE_SIZE];
    unsigned char set[CASSRT_STREAM_ATTRIBUTES];
    struct stream_record *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct stream_record *records;
static struct stream_record legacy_record = {(void *)1, 0, 1, {{0}}, {0}, NULL};
static __thread struct stream_record *per_thread_record;
static unsigned long long next_id = 2;   /* 1: the legacy default stream */

static struct stream_record *new_record(void *stream)
{
    struct stream_record *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->stream = stream;
    if (hipGetDevice(&r->device) != hipSuccess)
        r->device = 0;
    r->id = next_id++;
    return r;
}

/* The record of a stream (lock held); NULL for a stream libcassrt did not make. */
static struct stream_record *find(void *stream)
{
    uintptr_t s = (uintptr_t)stream;
    if (s == 0 || s == 1)
        return &legacy_record;
    if (s == 2) {
        if (!per_thread_record)
            per_thread_record = new_record(stream);   /* kept for the thread's life, as its stream */
        return per_thread_record;
    }
    for (struct stream_record *r = records; r; r = r->next)
        if (r->stream == stream)
            return r;
    return NULL;
}

int cassrt_stream_created(void **stream, int e)
{
    if (e != hipSuccess)
        return e;
    pthread_mutex_lock(&lock);
    struct stream_record *r = new_record(*stream);
    if (r) {
        r->next = records;
        records = r;
    }
    pthread_mutex_unlock(&lock);
    if (!r) {
        hipStreamDestroy(*stream);
        return hipErrorOutOfMemory;
    }
    return hipSuccess;
}

void *cassrt_stream_forget(void *stream)
{
    pthread_mutex_lock(&lock);
    for (struct stream_record **p = &records; *p; p = &(*p)->next)
        if ((*p)->stream == stream) {
            struct stream_record *gone = *p;
            *p = gone->next;
            free(gone);
            break;
        }
    pthread_mutex_unlock(&lock);
    return stream;
}

int cassrt_stream_identity(void *stream, unsigned long long *id, int *device)
{
    pthread_mutex_lock(&lock);
    struct stream_record *r = find(stream);
    if (r && id)
        *id = r->id;
    if (r && device)
        *device = (uintptr_t)stream <= 2 ? -1 : r->device;
    pthread_mutex_unlock(&lock);
    if (r && device && *device < 0)
        return hipGetDevice(device);   /* a default stream is the current device's */
    return r ? hipSuccess : hipErrorInvalidHandle;
}

int cassrt_stream_attribute(void *stream, int slot, void *value, int set, int *was_set)
{
    if (slot < 0 || slot >= CASSRT_STREAM_ATTRIBUTES)
        return hipErrorInvalidValue;
    pthread_mutex_lock(&lock);
    struct stream_record *r = find(stream);
    if (r && set) {
        memcpy(r->value[slot], value, CASSRT_STREAM_ATTRIBUTE_SIZE);
        r->set[slot] = 1;
    } else if (r) {
        *was_set = r->set[slot];
        if (r->set[slot])
            memcpy(value, r->value[slot], CASSRT_STREAM_ATTRIBUTE_SIZE);
    }
    pthread_mutex_unlock(&lock);
    return r ? hipSuccess : hipErrorInvalidHandle;
}
