/* The unified-memory hints a program gave (cudaMemAdvise, cudaMemPrefetchAsync), kept for the
 * range queries (cuda_managed.c). HIP places managed memory itself; these records change nothing
 * but what cudaMemRangeGetAttribute answers. Each record belongs to its managed allocation and
 * goes when the allocation is freed (passthrough.def's cudaFree). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <hip/hip_runtime_api.h>

#include "cassrt.h"
#include "hip_internal.h"

struct hint {
    uintptr_t base, start, end;   /* the allocation, and the bytes [start, end) of it */
    struct cassrt_location location;
    int kind, set;
    struct hint *next;            /* later hints after earlier ones: the last one covering a byte holds */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct hint *hints, **tail = &hints;

/* The managed allocation holding [ptr, ptr + count): its base, or 0 where there is none. */
static uintptr_t allocation_of(const void *ptr, size_t count)
{
    hipPointerAttribute_t a;
    void *base = NULL;
    size_t size = 0;
    if (!ptr || !count || hipPointerGetAttributes(&a, ptr) != hipSuccess || !a.isManaged ||
        hipMemGetAddressRange(&base, &size, (void *)ptr) != hipSuccess)
        return 0;
    if ((uintptr_t)ptr + count > (uintptr_t)base + size)
        return 0;
    return (uintptr_t)base;
}

int cassrt_managed_is_range(const void *ptr, size_t count) { return allocation_of(ptr, count) != 0; }

int cassrt_managed_hint(const void *ptr, size_t count, int kind, int set, struct cassrt_location location)
{
    uintptr_t base = allocation_of(ptr, count);
    if (!base)
        return hipErrorInvalidValue;
    struct hint *h = calloc(1, sizeof *h);
    if (!h)
        return hipErrorOutOfMemory;
    *h = (struct hint){base, (uintptr_t)ptr, (uintptr_t)ptr + count, location, kind, set, NULL};
    pthread_mutex_lock(&lock);
    *tail = h;
    tail = &h->next;
    pthread_mutex_unlock(&lock);
    return hipSuccess;
}

void *cassrt_managed_forget(void *ptr)
{
    pthread_mutex_lock(&lock);
    for (struct hint **p = &hints; *p;) {
        if ((*p)->base == (uintptr_t)ptr) {
            struct hint *gone = *p;
            *p = gone->next;
            free(gone);
        } else {
            p = &(*p)->next;
        }
    }
    for (tail = &hints; *tail; tail = &(*tail)->next)
        ;
    pthread_mutex_unlock(&lock);
    return ptr;
}

static int same(struct cassrt_location a, struct cassrt_location b) { return a.type == b.type && a.id == b.id; }

/* The last hint of `kind` covering byte `at` (for CASSRT_HINT_ACCESSED_BY: about `who`). */
static const struct hint *last_hint(uintptr_t at, int kind, const struct cassrt_location *who)
{
    const struct hint *found = NULL;
    for (const struct hint *h = hints; h; h = h->next)
        if (h->kind == kind && h->start <= at && at < h->end && (!who || same(h->location, *who)))
            found = h;
    return found;
}

/* Whether byte `at` has a set hint whose location is *location (the first byte asked: any, which
 * becomes *location). */
static int agrees(uintptr_t at, int kind, const struct cassrt_location *who, struct cassrt_location *location,
                  int *first)
{
    const struct hint *h = last_hint(at, kind, who);
    if (!h || !h->set || (!*first && !same(h->location, *location)))
        return 0;
    *location = h->location;
    *first = 0;
    return 1;
}

int cassrt_managed_uniform(const void *ptr, size_t count, int kind, const struct cassrt_location *who,
                           struct cassrt_location *location)
{
    uintptr_t lo = (uintptr_t)ptr, hi = lo + count;
    int first = 1;
    pthread_mutex_lock(&lock);
    /* Hints change only at their ends: the range's first byte and every end inside it decide. */
    int uniform = agrees(lo, kind, who, location, &first);
    for (const struct hint *h = hints; h && uniform; h = h->next) {
        if (h->start > lo && h->start < hi)
            uniform = agrees(h->start, kind, who, location, &first);
        if (uniform && h->end > lo && h->end < hi)
            uniform = agrees(h->end, kind, who, location, &first);
    }
    pthread_mutex_unlock(&lock);
    return uniform;
}
