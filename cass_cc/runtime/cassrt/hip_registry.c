/* What the host code registers (images, kernels, variables) and the code objects behind it.
 *
 * cass-nvcc replaces the content of each object's .nv_fatbin section with a clang offload bundle
 * of AMD code objects, so the fatbin wrapper that __cudaRegisterFatBinary receives points at the
 * bundle. Images are loaded on first use (like CUDA's lazy loading): every bundle entry for the
 * device's processor becomes a module, in bundle order; a kernel or variable is looked up in each
 * module in turn (translated code first, the hipify fallback after it).
 *
 * A "cassref-" entry (cass-nvcc --cass-embed-reference) is hipcc's build of the same translation
 * unit, never loaded as the program's code: when the HIP runtime is cass-cc's emulated one (it
 * exports __cassEmuDescribeModule; ROCm's does not), each module is described to it with its
 * entry id and that reference, for `cass-run --check`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cassrt.h"
#include "hip_internal.h"

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define NVIDIA_FATBIN_MAGIC 0xba55ed50u
#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define MAX_MODULES 8

struct fatbin_wrapper { int magic, version; const unsigned char *data; void *unused; };

struct image {
    const unsigned char *data;
    void *translated;    /* the AMD code object of NVIDIA device code (a -cudart shared program) */
    int loaded;          /* 0: not yet; 1: tried (error says how it went) */
    hipError_t error;
    int nmodules;
    hipModule_t modules[MAX_MODULES];
    int nflags;          /* the modules' CASSRT_ASSERT_FLAG variables */
    void *assert_flags[MAX_MODULES];
    struct image *next_asserting;
};

struct cassrt_kernel {
    const void *host_fun;
    const char *name;
    struct image *image;
    hipFunction_t fn;
    struct cassrt_wave_per_warp wave_per_warp;   /* read with fn */
    struct cassrt_kernel *next;
};

struct var {
    const void *host_var;
    const char *name;
    size_t size;
    struct image *image;
    void **managed_host_ptr;
    struct var *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cassrt_kernel *kernels;
static struct var *vars;
static struct image *asserting; /* loaded images with assert flags */

hipStream_t cassrt_hip_stream(void *cuda_stream)
{
    uintptr_t s = (uintptr_t)cuda_stream;
    if (s == 1) /* cudaStreamLegacy: the null stream */
        return NULL;
    if (s == 2) /* cudaStreamPerThread */
        return hipStreamPerThread;
    return (hipStream_t)cuda_stream;
}

void **cassrt_register_image(const void *fatbin_wrapper)
{
    const struct fatbin_wrapper *w = fatbin_wrapper;
    struct image *img = calloc(1, sizeof *img);
    if (!img)
        abort();
    if (w && (unsigned)w->magic == FATBIN_WRAPPER_MAGIC)
        img->data = w->data;
    return (void **)img;
}

/* At exit, or when a shared library that registered the image is unloaded (dlclose): forget its
 * kernels and variables (their host addresses may be reused by a library loaded later) and
 * unload its code objects. */
void cassrt_unregister_image(void **handle)
{
    struct image *img = (struct image *)handle;
    pthread_mutex_lock(&lock);
    for (struct cassrt_kernel **k = &kernels; *k;) {
        struct cassrt_kernel *dead = *k;
        if (dead->image == img) {
            *k = dead->next;
            free(dead);
        } else
            k = &dead->next;
    }
    for (struct var **v = &vars; *v;) {
        struct var *dead = *v;
        if (dead->image == img) {
            *v = dead->next;
            free(dead);
        } else
            v = &dead->next;
    }
    for (struct image **a = &asserting; *a; a = &(*a)->next_asserting)
        if (*a == img) {
            *a = img->next_asserting;
            break;
        }
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < img->nmodules; i++)
        (void)hipModuleUnload(img->modules[i]);
    free(img->translated);
    free(img);
}

void cassrt_register_kernel(void **handle, const void *host_fun, const char *device_name)
{
    struct cassrt_kernel *k = calloc(1, sizeof *k);
    if (!k)
        abort();
    k->host_fun = host_fun;
    k->name = device_name;
    k->image = (struct image *)handle;
    pthread_mutex_lock(&lock);
    k->next = kernels;
    kernels = k;
    pthread_mutex_unlock(&lock);
}

void cassrt_register_var(void **handle, const void *host_var, const char *device_name, size_t size,
                         void **managed_host_ptr)
{
    struct var *v = calloc(1, sizeof *v);
    if (!v)
        abort();
    v->host_var = host_var;
    v->name = device_name;
    v->size = size;
    v->image = (struct image *)handle;
    v->managed_host_ptr = managed_host_ptr;
    pthread_mutex_lock(&lock);
    v->next = vars;
    vars = v;
    pthread_mutex_unlock(&lock);
}

struct cassrt_kernel *cassrt_kernel_of(const void *host_fun)
{
    pthread_mutex_lock(&lock);
    struct cassrt_kernel *k = kernels;
    while (k && k->host_fun != host_fun && (const void *)k != host_fun)
        k = k->next;
    pthread_mutex_unlock(&lock);
    return k;
}

const char *cassrt_kernel_name(const struct cassrt_kernel *kernel) { return kernel->name; }

static uint64_t read_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* "gfx90a:sramecc+:xnack-" -> length of "gfx90a" */
static size_t processor_length(const char *target_id) { return strcspn(target_id, ":"); }

#define REFERENCE_KIND "cassref-"

/* Does bundle entry id "<kind>-amdgcn-amd-amdhsa--gfx1100" hold code of `kind` ("hip" matches
 * "hip-" and "hipv4-" entries) for the device's processor? */
static int entry_matches(const char *id, size_t id_len, const char *arch, const char *kind)
{
    const char *sep = NULL;
    for (size_t i = 0; i + 1 < id_len; i++)
        if (id[i] == '-' && id[i + 1] == '-')
            sep = id + i + 2;
    if (!sep || id_len < strlen(kind) || strncmp(id, kind, strlen(kind)) != 0)
        return 0;
    size_t target_len = (size_t)(id + id_len - sep);
    size_t n = processor_length(arch);
    return target_len >= n && strncmp(sep, arch, n) == 0 && (target_len == n || sep[n] == ':');
}

typedef hipError_t (*describe_fn)(hipModule_t module, const char *entry, const void *reference);

/* Tell the emulated runtime where each module came from (its bundle entry) and the reference of
 * the translation unit (NULL without one); nothing to do on ROCm's runtime. */
static void describe_modules(struct image *img, char ids[][128], const unsigned char *reference)
{
    describe_fn describe;
    *(void **)&describe = dlsym(RTLD_DEFAULT, "__cassEmuDescribeModule");
    if (!describe)
        return;
    for (int i = 0; i < img->nmodules; i++)
        (void)describe(img->modules[i], ids[i], reference);
}

static hipError_t load_bundle(struct image *img)
{
    char note[512];
    if (!img->data) {
        cassrt_note_once("a fatbin registration carries no device code (bad fatbin wrapper)");
        return hipErrorInvalidImage;
    }
    int device = 0;
    hipDeviceProp_t props;
    hipError_t e = hipGetDevice(&device);
    if (e == hipSuccess)
        e = hipGetDeviceProperties(&props, device);
    if (e != hipSuccess)
        return e;
    if (memcmp(img->data, BUNDLE_MAGIC, strlen(BUNDLE_MAGIC)) != 0) {
        uint32_t magic;
        memcpy(&magic, img->data, sizeof magic);
        if (magic != NVIDIA_FATBIN_MAGIC) {
            cassrt_note_once("unknown device code format in a fatbin registration");
            return hipErrorNoBinaryForGpu;
        }
        /* A program built by plain nvcc with the shared runtime: its fatbin is translated now,
         * as the driver library translates what reaches it. */
        char arch[64];
        size_t size;
        snprintf(arch, sizeof arch, "%.*s", (int)processor_length(props.gcnArchName), props.gcnArchName);
        if (cassrt_translate_image(img->data, 0, arch, &img->translated, &size, NULL) != 0)
            return hipErrorNoBinaryForGpu;
        e = hipModuleLoadData(&img->modules[0], img->translated);
        if (e == hipSuccess)
            img->nmodules = 1;
        return e;
    }
    const unsigned char *p = img->data + strlen(BUNDLE_MAGIC);
    uint64_t n = read_u64(p);
    p += 8;
    char ids[MAX_MODULES][128];
    const unsigned char *reference = NULL;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t offset = read_u64(p), size = read_u64(p + 8), id_len = read_u64(p + 16);
        const char *id = (const char *)p + 24;
        p += 24 + id_len;
        if (size != 0 && entry_matches(id, id_len, props.gcnArchName, REFERENCE_KIND))
            reference = img->data + offset;
        if (size == 0 || !entry_matches(id, id_len, props.gcnArchName, "hip"))
            continue;
        if (img->nmodules == MAX_MODULES)
            break;
        snprintf(ids[img->nmodules], sizeof ids[0], "%.*s", (int)id_len, id);
        e = hipModuleLoadData(&img->modules[img->nmodules], img->data + offset);
        if (e != hipSuccess) {
            snprintf(note, sizeof note, "cannot load the code object '%.*s' (%s)", (int)id_len, id,
                     hipGetErrorString(e));
            cassrt_note_once(note);
            return e;
        }
        img->nmodules++;
    }
    describe_modules(img, ids, reference);
    if (img->nmodules == 0) {
        snprintf(note, sizeof note, "no code object for %s in this program: rebuild with "
                 "cass-nvcc --cass-offload-arch=%.*s", props.gcnArchName,
                 (int)processor_length(props.gcnArchName), props.gcnArchName);
        cassrt_note_once(note);
        return hipErrorNoBinaryForGpu;
    }
    return hipSuccess;
}

/* Remembers the assert flags of a loaded image's modules (lock held). */
static void find_assert_flags(struct image *img)
{
    for (int i = 0; i < img->nmodules; i++) {
        hipDeviceptr_t dptr;
        size_t bytes = 0;
        if (hipModuleGetGlobal(&dptr, &bytes, img->modules[i], CASSRT_ASSERT_FLAG) == hipSuccess && bytes == 4)
            img->assert_flags[img->nflags++] = (void *)dptr;
    }
    if (img->nflags) {
        img->next_asserting = asserting;
        asserting = img;
    }
}

static hipError_t load_image(struct image *img)
{
    pthread_mutex_lock(&lock);
    if (!img->loaded) {
        img->error = load_bundle(img);
        img->loaded = 1;
        if (img->error == hipSuccess)
            find_assert_flags(img);
    }
    pthread_mutex_unlock(&lock);
    return img->error;
}

hipError_t cassrt_waited(hipError_t e)
{
    if (e != hipSuccess)
        return e;
    pthread_mutex_lock(&lock);
    for (struct image *img = asserting; img && e == hipSuccess; img = img->next_asserting)
        for (int i = 0; i < img->nflags && e == hipSuccess; i++) {
            int32_t raised = 0;
            e = hipMemcpy(&raised, img->assert_flags[i], sizeof raised, hipMemcpyDeviceToHost);
            if (e == hipSuccess && raised)
                e = hipErrorAssert;
        }
    pthread_mutex_unlock(&lock);
    return e;
}

hipError_t cassrt_kernel_function(struct cassrt_kernel *kernel, hipFunction_t *fn)
{
    if (!kernel)
        return hipErrorInvalidDeviceFunction;
    if (kernel->fn) {
        *fn = kernel->fn;
        return hipSuccess;
    }
    hipError_t e = load_image(kernel->image);
    if (e != hipSuccess)
        return e;
    hipError_t last = hipErrorNotFound;
    for (int i = 0; i < kernel->image->nmodules; i++) {
        last = hipModuleGetFunction(fn, kernel->image->modules[i], kernel->name);
        if (last == hipSuccess) {
            hipError_t e = cassrt_wave_per_warp_find(kernel->image->modules[i], kernel->name, &kernel->wave_per_warp);
            if (e != hipSuccess)
                return e;
            kernel->fn = *fn;
            return hipSuccess;
        }
    }
    char note[512];
    snprintf(note, sizeof note, "kernel %s is missing from the program's code objects (%s)", kernel->name,
             hipGetErrorName(last));
    cassrt_note_once(note);
    return hipErrorInvalidDeviceFunction;
}

const struct cassrt_wave_per_warp *cassrt_kernel_wave_per_warp(const struct cassrt_kernel *kernel)
{
    return &kernel->wave_per_warp;
}

static struct var *find_var(const void *host_var)
{
    pthread_mutex_lock(&lock);
    struct var *v = vars;
    while (v && v->host_var != host_var)
        v = v->next;
    pthread_mutex_unlock(&lock);
    return v;
}

/* The device address of `v` in module i, or hipErrorNotFound when that module lacks it. */
static hipError_t var_in_module(struct var *v, int i, void **ptr, size_t *size)
{
    hipDeviceptr_t dptr;
    size_t bytes = 0;
    hipError_t e = hipModuleGetGlobal(&dptr, &bytes, v->image->modules[i], v->name);
    if (e == hipSuccess) {
        *ptr = (void *)dptr;
        *size = bytes;
    }
    return e;
}

int cassrt_symbol_address(const void *host_var, void **device_ptr, size_t *size)
{
    struct var *v = find_var(host_var);
    if (!v)
        return hipErrorInvalidSymbol;
    hipError_t e = load_image(v->image);
    if (e != hipSuccess)
        return e;
    for (int i = 0; i < v->image->nmodules; i++)
        if (var_in_module(v, i, device_ptr, size) == hipSuccess)
            return hipSuccess;
    return hipErrorInvalidSymbol;
}

/* Writes go to the variable in every module (a kernel from the fallback code object has its own
 * copy of the TU's variables); reads come from the first. */
int cassrt_symbol_copy(const void *host_var, void *host_buf, size_t count, size_t offset, int kind,
                       int to_device, void *stream, int async)
{
    struct var *v = find_var(host_var);
    if (!v)
        return hipErrorInvalidSymbol;
    hipError_t e = load_image(v->image);
    if (e != hipSuccess)
        return e;
    int found = 0;
    for (int i = 0; i < v->image->nmodules; i++) {
        char *base;
        size_t size;
        if (var_in_module(v, i, (void **)&base, &size) != hipSuccess)
            continue;
        if (offset + count > size)
            return hipErrorInvalidValue;
        found = 1;
        void *dst = to_device ? base + offset : host_buf;
        const void *src = to_device ? (const void *)host_buf : base + offset;
        e = async ? hipMemcpyAsync(dst, src, count, (hipMemcpyKind)kind, cassrt_hip_stream(stream))
                  : hipMemcpy(dst, src, count, (hipMemcpyKind)kind);
        if (e != hipSuccess || !to_device)
            return e;
    }
    return found ? hipSuccess : hipErrorInvalidSymbol;
}

/* Managed variables: the host reaches them through the pointer registered for each; point it at
 * the variable's storage in the code object (host-visible on the emulator and with managed
 * memory on large-BAR GPUs). */
int cassrt_init_managed(void **handle)
{
    struct image *img = (struct image *)handle;
    if (load_image(img) != hipSuccess)
        return 0;
    for (struct var *v = vars; v; v = v->next) {
        if (v->image != img || !v->managed_host_ptr)
            continue;
        size_t size;
        void *ptr = NULL;
        for (int i = 0; i < img->nmodules && !ptr; i++)
            if (var_in_module(v, i, &ptr, &size) != hipSuccess)
                ptr = NULL;
        if (!ptr)
            return 0;
        *v->managed_host_ptr = ptr;
    }
    return 1;
}
