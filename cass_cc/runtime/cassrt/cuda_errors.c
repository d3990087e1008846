/* Errors with CUDA's codes and strings; the thread's last error; one-time notes. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"

#define ERR(name, value, message) _Static_assert(name == value, "errors.def is out of date: " #name);
#include "errors.def"
#undef ERR

static const struct cassrt_error errors[] = {
#define ERR(name, value, message) {value, #name, message},
#include "errors.def"
#undef ERR
};

const struct cassrt_error *cassrt_find_error(const struct cassrt_error *table, size_t count, int code)
{
    for (size_t i = 0; i < count; i++)
        if (table[i].code == code)
            return &table[i];
    return NULL;
}

static const struct cassrt_error *find_error(int code)
{
    return cassrt_find_error(errors, sizeof errors / sizeof errors[0], code);
}

static __thread cudaError_t last_error = cudaSuccess;
/* A failed device assert leaves CUDA's context unusable: every later call returns the error. */
static cudaError_t sticky_error = cudaSuccess;

/* HIP's codes have CUDA's values (hip_errors.c checks the ones HIP shares); a HIP code CUDA
 * lacks becomes cudaErrorUnknown. */
int cassrt_result(int hip_error)
{
    cudaError_t e = find_error(hip_error) ? (cudaError_t)hip_error : cudaErrorUnknown;
    if (e == cudaErrorAssert)
        __atomic_store_n(&sticky_error, e, __ATOMIC_RELAXED);
    cudaError_t sticky = __atomic_load_n(&sticky_error, __ATOMIC_RELAXED);
    if (sticky != cudaSuccess)
        e = sticky;
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

void cassrt_note_once(const char *what)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char seen[64][128];
    static int nseen;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nseen; i++)
        if (strncmp(seen[i], what, sizeof seen[i] - 1) == 0) {
            pthread_mutex_unlock(&lock);
            return;
        }
    if (nseen < 64)
        snprintf(seen[nseen++], sizeof seen[0], "%s", what);
    pthread_mutex_unlock(&lock);
    fprintf(stderr, "libcassrt: %s\n", what);
}

/* Reading the last error clears it, a sticky one too (measured on an H200: after a failed assert,
 * two cudaGetLastError calls in a row return cudaErrorAssert, then cudaSuccess); the context stays
 * unusable, so the next call that reaches it sets it again. */
cudaError_t CUDARTAPI cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return last_error; }

const char *CUDARTAPI cudaGetErrorString(cudaError_t error)
{
    const struct cassrt_error *e = find_error(error);
    return e ? e->message : "unrecognized error code";
}

const char *CUDARTAPI cudaGetErrorName(cudaError_t error)
{
    const struct cassrt_error *e = find_error(error);
    return e ? e->name : "unrecognized error code";
}
