/* The interface between libcassrt's two halves.
 *
 * CUDA's and HIP's headers cannot be included in one translation unit (their vector types
 * clash), so the files that export the CUDA runtime API (cuda_*.c) and the driver API
 * (driver_*.c), compiled against CUDA's headers, reach HIP only through the functions declared
 * here, and hip_*.c (compiled against HIP's headers) implement them. Only plain C types cross this line; HIP's error codes are
 * returned as int (they have CUDA's numeric values, which hip_errors.c checks at compile time).
 */
#ifndef CASSRT_H
#define CASSRT_H

#include <stddef.h>
#include <stdint.h>

/* A kernel registered by __cudaRegisterFunction; the CUDA side sees it as cudaKernel_t. */
struct cassrt_kernel;

/* Device facts for cudaGetDeviceProperties/cudaDeviceGetAttribute, read from hipDeviceProp_t. */
struct cassrt_device_info {
    char name[256];
    char arch[256];                 /* gcnArchName, e.g. "gfx1100" */
    size_t total_global_mem, shared_mem_per_block, total_const_mem, mem_pitch;
    size_t texture_alignment, texture_pitch_alignment, shared_mem_per_multiprocessor;
    int regs_per_block, warp_size, max_threads_per_block, max_threads_dim[3], max_grid_size[3];
    int clock_rate_khz, memory_clock_rate_khz, memory_bus_width, multiprocessor_count;
    int l2_cache_size, max_threads_per_multiprocessor, compute_mode, concurrent_kernels;
    int pci_domain_id, pci_bus_id, pci_device_id, is_multi_gpu_board, can_map_host_memory;
    int integrated, cooperative_launch, ecc_enabled, managed_memory, concurrent_managed_access;
    int pageable_memory_access, direct_managed_mem_access_from_host, max_texture_1d;
    int max_texture_2d[2], max_texture_3d[3];
    int memory_pools_supported;     /* stream-ordered allocation (cudaMallocAsync, pools) */
};

/* Launch geometry as CUDA's dim3 holds it. */
struct cassrt_dim { unsigned x, y, z; };

/* A translated code object whose kernels call assert() defines this i32 (passes/lift/printf.py's
 * ASSERT_FLAG); a failed assert sets it to 1 and ends its wave. libcassrt reads it whenever it has
 * waited for the device (hip_registry.c: cassrt_waited) and reports cudaErrorAssert, as CUDA does
 * at the next synchronization, from then on (cuda_errors.c: the context is unusable, as CUDA's). */
#define CASSRT_ASSERT_FLAG "__cass_assert_raised"

/* --- registration (hip_registry.c) -------------------------------------------------------- */
void **cassrt_register_image(const void *fatbin_wrapper);
void cassrt_unregister_image(void **handle);
void cassrt_register_kernel(void **handle, const void *host_fun, const char *device_name);
void cassrt_register_var(void **handle, const void *host_var, const char *device_name, size_t size,
                         void **managed_host_ptr);
int cassrt_init_managed(void **handle);
/* The kernel registered for a host stub, or the kernel itself where host_fun is one (a
 * cudaKernel_t, which the runtime's launches and queries take in place of the stub); else NULL. */
struct cassrt_kernel *cassrt_kernel_of(const void *host_fun);
const char *cassrt_kernel_name(const struct cassrt_kernel *kernel);

/* --- kernels (hip_launch.c) --------------------------------------------------------------- */
int cassrt_launch(struct cassrt_kernel *kernel, struct cassrt_dim grid, struct cassrt_dim block,
                  void **args, size_t shared_mem, void *stream);
struct cassrt_function_info {
    size_t shared_size, const_size, local_size;
    int max_threads_per_block, num_regs, max_dynamic_shared;
};
int cassrt_function_info(struct cassrt_kernel *kernel, struct cassrt_function_info *info);
int cassrt_set_max_dynamic_shared(struct cassrt_kernel *kernel, int bytes);
int cassrt_launch_host_func(void *stream, void (*fn)(void *), void *data);
int cassrt_stream_add_callback(void *stream, void (*callback)(void *stream, int status, void *data), void *data);
int cassrt_occupancy(struct cassrt_kernel *kernel, int block_size, size_t dynamic_shared, int *blocks);

/* The device heap of malloc/free in kernels given to the image of `kernel` (cuda_launch.c). */
int cassrt_bind_heap(struct cassrt_kernel *kernel);

/* --- graphs built node by node (hip_graph.c): graphs and nodes are HIP's handles; CUDA's node
 * parameters arrive as plain values. Kernel nodes name the registered kernel, launched as a launch
 * launches it (one warp per wave where its code says so). */
int cassrt_graph_add_kernel(void **node, void *graph, void *const *deps, size_t count, struct cassrt_kernel *kernel,
                            struct cassrt_dim grid, struct cassrt_dim block, unsigned shared_mem, void **params,
                            void **extra);
int cassrt_graph_add_memset(void **node, void *graph, void *const *deps, size_t count, void *dst, size_t pitch,
                            unsigned value, unsigned element_size, size_t width, size_t height);
struct cassrt_copy_3d;   /* below, with the 3D copies */
int cassrt_graph_add_memcpy_3d(void **node, void *graph, void *const *deps, size_t count,
                               const struct cassrt_copy_3d *copy);
int cassrt_graph_add_host(void **node, void *graph, void *const *deps, size_t count, void (*fn)(void *),
                          void *data);
/* A node's parameters changed: in the graph (exec NULL) or in one instantiated graph only. */
int cassrt_graph_kernel_params(void *exec, void *node, struct cassrt_kernel *kernel, struct cassrt_dim grid,
                               struct cassrt_dim block,
                               unsigned shared_mem, void **params, void **extra);
int cassrt_graph_memset_params(void *exec, void *node, void *dst, size_t pitch, unsigned value, unsigned element_size,
                               size_t width, size_t height);
int cassrt_graph_host_params(void *exec, void *node, void (*fn)(void *), void *data);
int cassrt_graph_memset_get(void *node, void **dst, size_t *pitch, unsigned *value, unsigned *element_size,
                            size_t *width, size_t *height);
int cassrt_graph_host_get(void *node, void (**fn)(void *), void **data);
/* An instantiated graph updated from a graph of its shape: *update_result is the
 * cudaGraphExecUpdateResult (HIP's numbers are CUDA's), *error_node the node that differs. */
int cassrt_graph_exec_update(void *exec, void *graph, void **error_node, int *update_result);
/* Adds (remove = 0) or removes the edges from[i] -> to[i]. */
int cassrt_graph_edges_change(void *graph, void *const *from, void *const *to, size_t count, int remove);
int cassrt_graph_edges(void *graph, void **from, void **to, size_t *count);
/* A node's dependencies (dependents = 0) or the nodes that depend on it (dependents = 1). */
int cassrt_graph_node_links(void *node, void **nodes, size_t *count, int dependents);
/* The node's type as HIP numbers them (hipGraphNodeType). */
int cassrt_graph_node_type(void *node, int *type);
/* A stream's capture status (cudaStreamCaptureStatus's numbers) and, while capturing, its id. */
int cassrt_capture_info(void *stream, int *status, unsigned long long *id);

/* --- streams (hip_stream.c): what libcassrt records about each stream. passthrough.def's calls
 * that make a stream pass HIP's result through cassrt_stream_created, those that destroy one
 * pass the stream through cassrt_stream_forget first. */
int cassrt_stream_created(void **stream, int hip_error);
void *cassrt_stream_forget(void *stream);
/* A stream's id (unique while the program runs) and device; hipErrorInvalidHandle for a stream
 * libcassrt did not make. The special handles (0, legacy, per-thread) as CUDA's. */
int cassrt_stream_identity(void *stream, unsigned long long *id, int *device);
/* Attributes kept for CUDA (cuda_stream.c): slot < CASSRT_STREAM_ATTRIBUTES, values of
 * CASSRT_STREAM_ATTRIBUTE_SIZE bytes; a get says whether the slot was ever set (*was_set). */
#define CASSRT_STREAM_ATTRIBUTES 2
#define CASSRT_STREAM_ATTRIBUTE_SIZE 64
int cassrt_stream_attribute(void *stream, int slot, void *value, int set, int *was_set);

/* --- symbols (hip_registry.c) ------------------------------------------------------------- */
int cassrt_symbol_address(const void *host_var, void **device_ptr, size_t *size);
int cassrt_symbol_copy(const void *host_var, void *host_buf, size_t count, size_t offset, int kind,
                       int to_device, void *stream, int async);

/* --- 3D pitched memory (hip_passthrough.c): cudaMemcpy3DParms and HIP's hipMemcpy3DParms are
 * separate types, so only plain numbers cross from cuda_memory.c to the HIP side. */
int cassrt_malloc_3d(void **ptr, size_t *pitch, size_t width, size_t height, size_t depth);
int cassrt_memcpy_3d(void *dst, size_t dst_pitch, size_t dst_xsize, size_t dst_ysize, const size_t dst_pos[3],
                     const void *src, size_t src_pitch, size_t src_xsize, size_t src_ysize,
                     const size_t src_pos[3], const size_t extent[3], int kind, void *stream, int async);
int cassrt_memset_3d(void *ptr, size_t pitch, size_t xsize, size_t ysize, int value, const size_t extent[3],
                     void *stream, int async);
/* A cudaMemcpy3DParms (cuda_parms) as plain numbers, its arrays as their memory (cuda_memory.c). */
struct cassrt_copy_3d {
    void *dst;
    size_t dst_pitch, dst_xsize, dst_ysize, dst_pos[3];
    const void *src;
    size_t src_pitch, src_xsize, src_ysize, src_pos[3], extent[3];
    int kind;
};
int cassrt_copy_3d_of(const void *cuda_parms, struct cassrt_copy_3d *copy);

/* --- CUDA arrays (cuda_texture.c), shared by the runtime's functions and the driver's: a CUarray
 * is a cudaArray_t. The channel format crosses as its bits per channel (x, y, z, w) and its
 * cudaChannelFormatKind; flags are cudaArray* flags. Neither function records a last error (the
 * runtime's callers do, the driver's do not). */
int cassrt_array_create(void **array, const int bits[4], int kind, const size_t extent[3], unsigned flags);
int cassrt_array_destroy(void *array);
/* An array's memory: packed rows of `pitch` bytes, `rows` of them per slice, `slices` slices (1D
 * and 2D arrays: 1), elements of `element` bytes. */
struct cassrt_array_memory { char *base; size_t pitch, rows, slices, element; };
int cassrt_array_memory(const void *array, struct cassrt_array_memory *memory);

/* The descriptors a texture or surface object was made from (cudaResourceDesc, cudaTextureDesc),
 * kept for the getters from creation to destruction (cuda_texture_descs.c). */
int cassrt_texture_descs_keep(unsigned long long object, const void *resource, const void *texture);
void cassrt_texture_descs_forget(unsigned long long object);

/* --- unified-memory hints (hip_managed.c), kept for cudaMemRangeGetAttribute. A location is
 * CUDA's cudaMemLocation (type, id); kinds are what a hint is about. */
struct cassrt_location { int type, id; };
enum { CASSRT_HINT_READ_MOSTLY, CASSRT_HINT_PREFERRED, CASSRT_HINT_ACCESSED_BY, CASSRT_HINT_PREFETCH };
/* Whether [ptr, ptr + count) lies in one managed allocation. */
int cassrt_managed_is_range(const void *ptr, size_t count);
/* Records a hint (set, or unset) over a managed range; hipErrorInvalidValue for another range. */
int cassrt_managed_hint(const void *ptr, size_t count, int kind, int set, struct cassrt_location location);
/* Forgets the hints of the allocation at ptr (before it is freed); returns ptr. */
void *cassrt_managed_forget(void *ptr);
/* Whether every byte of the range has a set hint of `kind` (about `who` for ACCESSED_BY, else
 * NULL), all with one location (*location). */
int cassrt_managed_uniform(const void *ptr, size_t count, int kind, const struct cassrt_location *who,
                           struct cassrt_location *location);

/* --- pointers (hip_device.c) -------------------------------------------------------------- */
enum cassrt_memory_type { CASSRT_UNREGISTERED, CASSRT_HOST, CASSRT_DEVICE, CASSRT_MANAGED };
struct cassrt_pointer_info { enum cassrt_memory_type type; int device; void *device_pointer, *host_pointer; };
int cassrt_pointer_info(const void *ptr, struct cassrt_pointer_info *info);

/* --- device (hip_device.c) ---------------------------------------------------------------- */
int cassrt_device_info(int device, struct cassrt_device_info *info);
/* cudaDeviceGetAttribute's answer (cuda_device.c), shared with cuDeviceGetAttribute. */
int cassrt_device_attribute(int *value, int attr, int device);

/* The device heap of malloc/free in kernels (cuda_launch.c): {base, size}, allocated on first
 * use; a module whose code object defines CASS_HEAP_VARIABLE gets these two words in it. */
int cassrt_device_heap(uint64_t heap[2]);

/* --- modules loaded by the driver API (hip_module.c): HIP modules and functions, as handles. */
int cassrt_module_load(const void *code_object, void **module);
int cassrt_module_unload(void *module);
int cassrt_module_function(void *module, const char *name, void **function);
int cassrt_module_global(void *module, const char *name, void **device_ptr, size_t *size);
/* params: CUDA's argument pointers (the code object declares CUDA's layout); or extra: a
 * parameter buffer as cuLaunchKernel's `extra` gives it (CUDA's END/POINTER/SIZE markers). */
int cassrt_function_launch(void *function, struct cassrt_dim grid, struct cassrt_dim block,
                           unsigned shared_mem, void *stream, void **params, void **extra);
/* CUfunction_attribute and hipFunction_attribute number the attributes alike. */
int cassrt_function_attribute(void *function, int attribute, int *value);
int cassrt_function_occupancy(void *function, int block_size, size_t dynamic_shared, int *blocks);
/* Whether a cooperative grid fits on the current device at once (every block of it resident, as
 * grid-wide barriers need), given how many of its blocks a multiprocessor holds (from
 * cassrt_occupancy or cassrt_function_occupancy, which count a kernel run one warp per wave in its
 * lanes): success, or cudaErrorCooperativeLaunchTooLarge. The runtime's launches and the driver's
 * share it. */
int cassrt_cooperative_fits(struct cassrt_dim grid, int per_cu);

/* --- AMD code objects (code_object.c) ----------------------------------------------------- */
/* The names of a code object's kernels: *names malloc'd (free with cassrt_free_names), *count of
 * them; -1 for bytes that are no ELF64 file. */
int cassrt_code_object_kernels(const void *code_object, size_t size, char ***names, unsigned *count);
void cassrt_free_names(char **names, unsigned count);

/* --- NVIDIA device code at run time (image_translation.c) ---------------------------------- */
/* What one image's translation said, for the JIT log buffers a program may pass
 * (cuModuleLoadDataEx, cuLibraryLoadData): each text NUL-terminated, cut to its array. */
struct cassrt_image_log {
    char error[8192];   /* why it failed: what the image is not, or the translator's message */
    char info[1024];    /* what happened: translated now or found in the image cache, and where */
    double seconds;     /* spent in the translation or the cache lookup */
};

/* A fatbin (or its wrapper), cubin or PTX image translated for `offload_arch`, from the image
 * cache or by running the translator: *code_object (malloc'd, *size bytes) on success. The
 * result is a CUresult: CUDA_ERROR_INVALID_IMAGE, _INVALID_PTX or _NO_BINARY_FOR_GPU with a
 * note on stderr saying why (in `log` too, when it is not NULL). `file_size` is the image's size
 * when known (a file), else 0. With CASS_IMAGE_STATS_FILE set, one JSON line per image is
 * appended to that file (kind, bytes, cached, result, seconds): what `cass-cc bench` reads. */
int cassrt_translate_image(const void *image, size_t file_size, const char *offload_arch,
                           void **code_object, size_t *size, struct cassrt_image_log *log);

/* --- cuGetProcAddress's table (procs.c, generated by build.py from cudaTypedefs.h) ---------- */
struct cassrt_proc {
    const char *name;                   /* as asked for: "cuMemAlloc" */
    int first_version;                  /* the CUDA version of its first ABI */
    int current_from;                   /* from this version on, the ABI is today's */
    void *entry, *per_thread_entry;     /* today's ABI; its per-thread-stream form or NULL */
    void *older_abi;                    /* a stub saying that an older ABI is not supported */
};
extern const struct cassrt_proc cassrt_procs[];    /* sorted by name */
extern const size_t cassrt_proc_count;

/* The INTEGRITY_CHECK export table (driver_integrity.c), which driver_proc.c hands out. */
extern void *cassrt_integrity_table[3];

/* --- errors (cuda_errors.c) --------------------------------------------------------------- */
/* Records a HIP error code (numerically CUDA's) as the thread's last error; returns it. */
int cassrt_result(int hip_error);
/* Prints "libcassrt: <what>" once per distinct text (on stderr). */
void cassrt_note_once(const char *what);
/* A HIP error code as the driver API's CUresult (driver_errors.c); records nothing. */
int cassrt_driver_result(int hip_error);
/* An error code's name and message (the runtime's errors.def, the driver's driver_errors.def). */
struct cassrt_error { int code; const char *name, *message; };
const struct cassrt_error *cassrt_find_error(const struct cassrt_error *table, size_t count, int code);

#endif
