/* Device malloc/free for the source route and the hipify fallback (every target).
 *
 * HIP's device malloc/free (clang's __clang_hip_runtime_wrapper.h) call ROCm's __ockl_dm_alloc
 * and __ockl_dm_dealloc, and ROCm 5.2's versions use s_memrealtime, which gfx11 lacks ("Cannot
 * select: intrinsic %llvm.amdgcn.s.memrealtime"). Defining the two functions here keeps ockl's
 * out of the link. The allocator is the one the binary route lifts malloc/free to
 * (passes/lift/device_runtime.py), with the same heap layout: blocks of power-of-two sizes with a
 * 16-byte header (its size class, the next free block), lock-free free lists per class and lane
 * (64-bit compare-and-swap of a block offset and an ABA tag), fed by a bump pointer; freed blocks
 * are reused for requests of the same class. The heap is the one libcassrt writes into
 * __cass_device_heap = {base, size} (binary-route programs, whose hipify fallback code objects
 * then share the translated kernels' heap); without it (the source route, on HIP's runtime) it
 * is a zero-initialised array of the code object (twice CUDA's default heap size, as libcassrt
 * makes it, and no file space).
 * Each code object then has its own, so memory must be freed by kernels of the translation unit
 * that allocated it (free ignores pointers of other heaps).
 */
#ifndef CASS_DEVICE_HEAP_H
#define CASS_DEVICE_HEAP_H

/* The heap's layout, written here once: libcassrt (cassrt/cuda_launch.c) includes this file, and
 * Python (cass_cc/runtime/device_heap.py, for the lifter's allocator and the emulated runtime)
 * reads these #defines, so each must stay an integer expression of numbers and earlier names
 * (or a string); function-like macros are C's alone. */
#define CASS_HEAP_VARIABLE "__cass_device_heap" /* {u64 base, u64 size}, which libcassrt writes */
#define CASS_HEAP_CLASSES 40                    /* size classes: blocks of 2^MIN_SHIFT .. 2^MAX_SHIFT bytes */
#define CASS_HEAP_LISTS 32                      /* free lists per class: one per lane of a wave32 (mod 32 on wave64) */
#define CASS_HEAP_MIN_SHIFT 5
#define CASS_HEAP_MAX_SHIFT (CASS_HEAP_MIN_SHIFT + CASS_HEAP_CLASSES - 1)
#define CASS_HEAP_BLOCK_HEADER 16               /* before the user's bytes: the block's class at 0, ... */
#define CASS_HEAP_NEXT_FREE 8                   /* ... the next free block's list word at 8 */
#define CASS_HEAP_OFFSET_SHIFT 4                /* a list head: block offset >> 4 | ABA tag << 32 */
#define CASS_HEAP_LIST_HEADS 16                 /* the bump offset (u64) at 0, the list heads from here */
#define CASS_HEAP_HEAD (CASS_HEAP_LIST_HEADS + 8 * CASS_HEAP_CLASSES * CASS_HEAP_LISTS) /* blocks start here */
#define CASS_HEAP_RESERVED 16384                /* zeroed at the heap's start: covers CASS_HEAP_HEAD */
#define CASS_HEAP_DEFAULT_LIMIT (8 << 20)       /* cudaLimitMallocHeapSize by default, as on CUDA */
/* The heap for a limit: requests round up to powers of two, so twice the limit (and the header)
 * holds requests adding up to the limit, as they fit on CUDA. */
#define CASS_HEAP_SIZE(limit) (2 * (limit) + CASS_HEAP_RESERVED)

#if defined(__HIP__) && defined(__HIP_DEVICE_COMPILE__)

static constexpr unsigned long long __cass_heap_bytes = CASS_HEAP_SIZE(CASS_HEAP_DEFAULT_LIMIT);

/* 16-byte aligned blocks after the header */
__device__ __attribute__((weak, aligned(16))) unsigned long long __cass_heap[__cass_heap_bytes / 8];
__device__ __attribute__((weak, aligned(16))) unsigned long long __cass_device_heap[2]; /* CASS_HEAP_VARIABLE */

struct __cass_heap_span { char *base; unsigned long long size; };

static __device__ inline __cass_heap_span __cass_heap_get(void)
{
    unsigned long long base = __cass_device_heap[0];
    if (base)
        return {(char *)base, __cass_device_heap[1]};
    return {(char *)__cass_heap, __cass_heap_bytes};
}

static __device__ inline unsigned long long *__cass_heap_list(char *base, unsigned cls, unsigned lane)
{
    return (unsigned long long *)(base + CASS_HEAP_LIST_HEADS) + cls * CASS_HEAP_LISTS + lane;
}

static __device__ inline unsigned long long __cass_heap_load(unsigned long long *p)
{
    return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

static __device__ inline bool __cass_heap_cas(unsigned long long *p, unsigned long long old,
                                               unsigned long long desired)
{
    return __hip_atomic_compare_exchange_strong(p, &old, desired, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED,
                                                __HIP_MEMORY_SCOPE_AGENT);
}

/* The free list a thread uses in a class: its lane in the wave modulo the lists (the two halves of
 * a wave64 share them, as the waves of every CU do: the heads are lock-free). mbcnt_lo alone
 * gave lanes 32-63 list 32, which is the next class's list 0: a freed block went to the list of
 * blocks twice its size, and a later request got it, overlapping its neighbour. */
static __device__ inline unsigned __cass_heap_lane(void)
{
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)) % CASS_HEAP_LISTS;
}

/* The offset of a block taken off a free list, 0 when empty. */
static __device__ inline unsigned long long __cass_heap_pop(char *base, unsigned long long *head)
{
    for (;;) {
        unsigned long long h = __cass_heap_load(head), first = h & 0xFFFFFFFFull;
        if (!first)
            return 0;
        unsigned long long next = __cass_heap_load((unsigned long long *)(base + (first << CASS_HEAP_OFFSET_SHIFT) + CASS_HEAP_NEXT_FREE));
        if (__cass_heap_cas(head, h, (next & 0xFFFFFFFFull) | (((h >> 32) + 1) << 32)))
            return first << CASS_HEAP_OFFSET_SHIFT;
    }
}

/* A thread frees to and first allocates from its lane's list; the other lanes' lists are
 * searched when the heap is used up. */
extern "C" __device__ unsigned long long __ockl_dm_alloc(unsigned long long size)
{
    __cass_heap_span heap = __cass_heap_get();
    char *base = heap.base;
    if (size >= (1ull << CASS_HEAP_MAX_SHIFT))
        return 0;
    unsigned shift = 64 - __builtin_clzll(size + CASS_HEAP_BLOCK_HEADER - 1); /* 2^shift >= size + header */
    if (shift < CASS_HEAP_MIN_SHIFT)
        shift = CASS_HEAP_MIN_SHIFT;
    unsigned cls = shift - CASS_HEAP_MIN_SHIFT;
    unsigned long long bytes = 1ull << shift;
    if (cls >= CASS_HEAP_CLASSES)
        return 0;
    unsigned long long block = __cass_heap_pop(base, __cass_heap_list(base, cls, __cass_heap_lane()));
    if (block)
        return (unsigned long long)(base + block + CASS_HEAP_BLOCK_HEADER);
    unsigned long long *bump = (unsigned long long *)base;
    /* a request that cannot fit leaves the bump offset alone, so it cannot starve later ones */
    if (__cass_heap_load(bump) + CASS_HEAP_HEAD + bytes <= heap.size) {
        unsigned long long start = __hip_atomic_fetch_add(bump, bytes, __ATOMIC_RELAXED,
                                                          __HIP_MEMORY_SCOPE_AGENT);
        if (start + CASS_HEAP_HEAD + bytes <= heap.size) {
            *(unsigned long long *)(base + start + CASS_HEAP_HEAD) = cls;
            return (unsigned long long)(base + start + CASS_HEAP_HEAD + CASS_HEAP_BLOCK_HEADER);
        }
        __hip_atomic_fetch_add(bump, -bytes, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); /* others took it */
    }
    for (unsigned other = 0; other < CASS_HEAP_LISTS; other++)
        if ((block = __cass_heap_pop(base, __cass_heap_list(base, cls, other))))
            return (unsigned long long)(base + block + CASS_HEAP_BLOCK_HEADER);
    return 0;
}

extern "C" __device__ void __ockl_dm_dealloc(unsigned long long address)
{
    __cass_heap_span heap = __cass_heap_get();
    char *base = heap.base;
    if (address < (unsigned long long)base + CASS_HEAP_HEAD + CASS_HEAP_BLOCK_HEADER ||
        address >= (unsigned long long)base + heap.size)
        return;                                                 /* NULL, or not from this heap */
    unsigned long long offset = address - CASS_HEAP_BLOCK_HEADER - (unsigned long long)base;
    unsigned long long cls = *(unsigned long long *)(base + offset);
    if (cls >= CASS_HEAP_CLASSES)
        return;                                                 /* no block start: nothing to push */
    unsigned long long *head = __cass_heap_list(base, cls, __cass_heap_lane());
    for (;;) {                                                  /* push it on the lane's list */
        unsigned long long h = __cass_heap_load(head);
        __hip_atomic_store((unsigned long long *)(base + offset + CASS_HEAP_NEXT_FREE), h & 0xFFFFFFFFull, __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_AGENT);
        if (__cass_heap_cas(head, h, (offset >> CASS_HEAP_OFFSET_SHIFT) | (((h >> 32) + 1) << 32)))
            return;
    }
}

#endif
#endif
