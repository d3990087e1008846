/* How NVIDIA's runtime finds the driver: cuGetProcAddress and cuGetExportTable.
 *
 * The runtime that nvcc links into a program (libcudart_static.a, or libcudart.so) opens
 * libcuda.so.1 and asks for each driver function by name and by the CUDA version whose ABI it
 * was built against; build.py's table (cassrt_procs, from cudaTypedefs.h) knows, per name, the
 * first ABI and since when it has today's. The library implements only today's ABIs (what
 * cuda.h declares), so an older one is a stub that says so.
 *
 * The export tables are the runtime's private interface to the driver, named by UUID. Facts
 * about them (slots and what they do) come from ../shared/notes/cuda-driver-interface.md; a slot
 * whose use is not known answers CUDA_ERROR_NOT_SUPPORTED and says so once, naming it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "cassrt.h"

static int by_name(const void *key, const void *entry)
{
    return strcmp(key, ((const struct cassrt_proc *)entry)->name);
}

CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult *symbolStatus)
{
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!symbol || !pfn)
        return CUDA_ERROR_INVALID_VALUE;
    *pfn = NULL;
    const struct cassrt_proc *p = bsearch(symbol, cassrt_procs, cassrt_proc_count, sizeof *p, by_name);
    if (p && cudaVersion < p->first_version)
        status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    else if (p) {
        /* An older ABI is answered with a stub that says so when called: the runtime asks for
         * many functions it never calls. */
        int per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
        if (cudaVersion < p->current_from)
            *pfn = p->older_abi;
        else
            *pfn = per_thread && p->per_thread_entry ? p->per_thread_entry : p->entry;
        status = CU_GET_PROC_ADDRESS_SUCCESS;
    }
    if (symbolStatus)
        *symbolStatus = status;
    return status == CU_GET_PROC_ADDRESS_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* --- export tables -------------------------------------------------------------------------- */

struct table { const char *name; CUuuid id; void **slots; };

#define UNKNOWN_SLOT(table, n)                                                                     \
    static CUresult table##_##n(void)                                                              \
    {                                                                                              \
        cassrt_note_once("cuGetExportTable: slot " #n " of " #table " is not supported");         \
        return CUDA_ERROR_NOT_SUPPORTED;                                                           \
    }

/* CUDART_INTERFACE: modules from the runtime's registered fatbins, and primary contexts. */
static CUresult module_from_wrapper(CUmodule *module, const void *fatbin_wrapper)
{
    return cuModuleLoadFatBinary(module, fatbin_wrapper);
}

static CUresult module_from_wrapper_ext(CUmodule *module, const void *fatbin_wrapper, void *a, void *b, unsigned c)
{
    (void)a, (void)b, (void)c;
    return cuModuleLoadFatBinary(module, fatbin_wrapper);
}

static CUresult module_from_fatbin(const void *fatbin, CUmodule *module, void *a, void *b, unsigned c)
{
    (void)a, (void)b, (void)c;
    return cuModuleLoadFatBinary(module, fatbin);
}

static CUresult primary_context(CUcontext *context, CUdevice device) { return cuDevicePrimaryCtxRetain(context, device); }
static CUresult nothing(void) { return CUDA_SUCCESS; }

UNKNOWN_SLOT(CUDART_INTERFACE, 3)
UNKNOWN_SLOT(CUDART_INTERFACE, 4)
UNKNOWN_SLOT(CUDART_INTERFACE, 5)
UNKNOWN_SLOT(CUDART_INTERFACE, 9)
UNKNOWN_SLOT(CUDART_INTERFACE, 10)
UNKNOWN_SLOT(CUDART_INTERFACE, 11)

static void *cudart_interface[13] = {
    (void *)(13 * sizeof(void *)), (void *)module_from_wrapper, (void *)primary_context,
    (void *)CUDART_INTERFACE_3, (void *)CUDART_INTERFACE_4, (void *)CUDART_INTERFACE_5,
    (void *)module_from_wrapper_ext, (void *)nothing, (void *)module_from_fatbin,
    (void *)CUDART_INTERFACE_9, (void *)CUDART_INTERFACE_10, (void *)CUDART_INTERFACE_11, (void *)nothing,
};

/* TOOLS_TLS and TOOLS_RUNTIME_CALLBACK_HOOKS: profiler hooks. Slots 2 and 6 hand the runtime a
 * buffer and its size (1024 and 14 words); zero throughout means that no tool is attached. The
 * buffers are larger than said, whichever unit the runtime counts in. */
UNKNOWN_SLOT(TOOLS_TLS, 1)
UNKNOWN_SLOT(TOOLS_TLS, 2)
UNKNOWN_SLOT(TOOLS_TLS, 3)
static void *tools_tls[4] = {(void *)(4 * sizeof(void *)), (void *)TOOLS_TLS_1, (void *)TOOLS_TLS_2,
                             (void *)TOOLS_TLS_3};

static uint64_t hook_words_2[1024], hook_words_6[14];

static void hooks_2(void **buffer, size_t *size)
{
    *buffer = hook_words_2;
    *size = 1024;
}

static void hooks_6(void **buffer, size_t *size)
{
    *buffer = hook_words_6;
    *size = 14;
}

UNKNOWN_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 1)
UNKNOWN_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 3)
UNKNOWN_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 4)
UNKNOWN_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 5)
static void *callback_hooks[7] = {
    (void *)(7 * sizeof(void *)), (void *)TOOLS_RUNTIME_CALLBACK_HOOKS_1, (void *)hooks_2,
    (void *)TOOLS_RUNTIME_CALLBACK_HOOKS_3, (void *)TOOLS_RUNTIME_CALLBACK_HOOKS_4,
    (void *)TOOLS_RUNTIME_CALLBACK_HOOKS_5, (void *)hooks_6,
};

/* CONTEXT_LOCAL_STORAGE_INTERFACE_V0301: the runtime's per-context values, each with the
 * destructor it gave (kept, not called: contexts here live as long as the process). */
struct stored { CUcontext context; void *key, *value, *destructor; struct stored *next; };
static struct stored *storage;
static pthread_mutex_t storage_lock = PTHREAD_MUTEX_INITIALIZER;

static CUcontext context_or_current(CUcontext context)
{
    if (!context)
        (void)cuCtxGetCurrent(&context);
    return context;
}

static struct stored **find_stored(CUcontext context, void *key)
{
    struct stored **s = &storage;
    while (*s && !((*s)->context == context && (*s)->key == key))
        s = &(*s)->next;
    return s;
}

static CUresult storage_put(CUcontext context, void *key, void *value, void *destructor)
{
    context = context_or_current(context);
    pthread_mutex_lock(&storage_lock);
    struct stored **s = find_stored(context, key);
    if (!*s && (*s = calloc(1, sizeof **s))) {
        (*s)->context = context;
        (*s)->key = key;
    }
    if (*s) {
        (*s)->value = value;
        (*s)->destructor = destructor;
    }
    pthread_mutex_unlock(&storage_lock);
    return *s ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult storage_delete(CUcontext context, void *key)
{
    context = context_or_current(context);
    pthread_mutex_lock(&storage_lock);
    struct stored **s = find_stored(context, key), *dead = *s;
    if (dead)
        *s = dead->next;
    pthread_mutex_unlock(&storage_lock);
    free(dead);
    return dead ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult storage_get(void **value, CUcontext context, void *key)
{
    context = context_or_current(context);
    pthread_mutex_lock(&storage_lock);
    struct stored *s = *find_stored(context, key);
    if (s)
        *value = s->value;
    pthread_mutex_unlock(&storage_lock);
    return s ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

UNKNOWN_SLOT(CONTEXT_LOCAL_STORAGE, 3)
static void *context_storage[4] = {(void *)storage_put, (void *)storage_delete, (void *)storage_get,
                                   (void *)CONTEXT_LOCAL_STORAGE_3};

UNKNOWN_SLOT(CTX_CREATE_BYPASS, 1)
static void *ctx_create_bypass[2] = {(void *)(2 * sizeof(void *)), (void *)CTX_CREATE_BYPASS_1};

UNKNOWN_SLOT(HEAP_ACCESS, 1)
UNKNOWN_SLOT(HEAP_ACCESS, 2)
static void *heap_access[3] = {(void *)(3 * sizeof(void *)), (void *)HEAP_ACCESS_1, (void *)HEAP_ACCESS_2};

/* CONTEXT_CHECKS: [2] (context, u32 *flags, const void **extra) reports no special state of the
 * context (0 and NULL), [3] succeeds. */
static CUresult context_check(CUcontext context, uint32_t *flags, const void **extra)
{
    (void)context;
    if (flags)
        *flags = 0;
    if (extra)
        *extra = NULL;
    return CUDA_SUCCESS;
}
UNKNOWN_SLOT(CONTEXT_CHECKS, 1)
static void *context_checks[4] = {(void *)(4 * sizeof(void *)), (void *)CONTEXT_CHECKS_1, (void *)context_check,
                                  (void *)nothing};

static const struct table tables[] = {
    {"CUDART_INTERFACE", {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}},
     cudart_interface},
    {"TOOLS_TLS", {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}},
     tools_tls},
    {"TOOLS_RUNTIME_CALLBACK_HOOKS",
     {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}}, callback_hooks},
    {"CONTEXT_LOCAL_STORAGE_INTERFACE_V0301",
     {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}}, context_storage},
    {"CTX_CREATE_BYPASS", {{0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86}},
     ctx_create_bypass},
    {"HEAP_ACCESS", {{0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae}},
     heap_access},
    {"INTEGRITY_CHECK", {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}},
     cassrt_integrity_table},
    {"CONTEXT_CHECKS", {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}},
     context_checks},
};

/* Asked for before cuInit; NVIDIA's runtime goes on without it, and takes a shortcut through
 * its initialisation when it is there: refused without a word. */
static const CUuuid refused_quietly = {{0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46,
                                        0x9e, 0x7c, 0x0d, 0xd9}};

CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    *ppExportTable = NULL;
    if (memcmp(refused_quietly.bytes, pExportTableId->bytes, sizeof refused_quietly.bytes) == 0)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (memcmp(tables[i].id.bytes, pExportTableId->bytes, sizeof tables[i].id.bytes) == 0) {
            *ppExportTable = tables[i].slots;
            return CUDA_SUCCESS;
        }
    char text[160];
    const unsigned char *b = (const unsigned char *)pExportTableId->bytes;
    snprintf(text, sizeof text, "cuGetExportTable: table %02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-"
             "%02X%02X%02X%02X%02X%02X is not supported", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
             b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    cassrt_note_once(text);
    return CUDA_ERROR_INVALID_VALUE;
}
