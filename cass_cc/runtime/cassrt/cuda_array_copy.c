/* The runtime's copies between CUDA arrays and linear memory, and between arrays, in all their
 * forms: synchronous and asynchronous, on the legacy default stream and on the per-thread one
 * (the _ptds/_ptsz names that nvcc -default-stream per-thread calls).
 *
 * An array is packed rows of `pitch` bytes (cuda_texture.c), so every one of these copies is a 2D
 * copy of linear memory: `width` bytes of `height` rows from a byte column and a row of the array.
 * The deprecated linear forms (cudaMemcpyToArray ...) copy `count` bytes from (wOffset, hOffset)
 * on, row after row: with packed rows, one run of memory.
 */
#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t fail(cudaError_t e) { return (cudaError_t)cassrt_result(e); }

/* How a copy is ordered: the stream it runs on and whether the call waits for it. A synchronous
 * copy on the legacy default stream is cudaMemcpy2D itself (its rules for pageable host memory);
 * a synchronous per-thread one runs on the thread's stream and waits for that stream. */
struct order { cudaStream_t stream; int wait; };

static const struct order LEGACY = {0, 1};
static const struct order PER_THREAD = {cudaStreamPerThread, 1};

static struct order on(cudaStream_t stream) { return (struct order){stream, 0}; }

/* An asynchronous per-thread form's stream: its 0 is the thread's stream. */
static struct order on_thread(cudaStream_t stream) { return on(stream ? stream : cudaStreamPerThread); }

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind, struct order order)
{
    if (!order.wait)
        return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, order.stream);
    if (!order.stream)
        return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
    cudaError_t e = cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, order.stream);
    return e ? e : cudaStreamSynchronize(order.stream);
}

/* Byte column x of row y of an array (rows run on through the slices), where `height` rows of
 * `width` bytes from there fit inside it; NULL where they do not. */
static char *array_at(cudaArray_const_t array, size_t x, size_t y, size_t width, size_t height)
{
    struct cassrt_array_memory m;
    if (cassrt_array_memory(array, &m) || x + width > m.pitch || y + height > m.rows * m.slices)
        return NULL;
    return m.base + y * m.pitch + x;
}

static size_t pitch_of(cudaArray_const_t array)
{
    struct cassrt_array_memory m;
    return cassrt_array_memory(array, &m) ? 0 : m.pitch;
}

/* `count` bytes from byte column x of row y of an array on: NULL where they run past its end. */
static char *run_at(cudaArray_const_t array, size_t x, size_t y, size_t count)
{
    struct cassrt_array_memory m;
    if (cassrt_array_memory(array, &m) || x > m.pitch || y * m.pitch + x + count > m.pitch * m.rows * m.slices)
        return NULL;
    return m.base + y * m.pitch + x;
}

static cudaError_t to_array(cudaArray_t dst, size_t x, size_t y, const void *src, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind, struct order order)
{
    char *to = array_at(dst, x, y, width, height);
    return to ? copy_2d(to, pitch_of(dst), src, spitch, width, height, kind, order) : fail(cudaErrorInvalidValue);
}

static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t x, size_t y, size_t width,
                              size_t height, enum cudaMemcpyKind kind, struct order order)
{
    char *from = array_at(src, x, y, width, height);
    return from ? copy_2d(dst, dpitch, from, pitch_of(src), width, height, kind, order)
                : fail(cudaErrorInvalidValue);
}

static cudaError_t run_to_array(cudaArray_t dst, size_t x, size_t y, const void *src, size_t count,
                                enum cudaMemcpyKind kind, struct order order)
{
    char *to = run_at(dst, x, y, count);
    return to ? copy_2d(to, count, src, count, count, 1, kind, order) : fail(cudaErrorInvalidValue);
}

static cudaError_t run_from_array(void *dst, cudaArray_const_t src, size_t x, size_t y, size_t count,
                                  enum cudaMemcpyKind kind, struct order order)
{
    char *from = run_at(src, x, y, count);
    return from ? copy_2d(dst, count, from, count, count, 1, kind, order) : fail(cudaErrorInvalidValue);
}

static cudaError_t array_to_array_2d(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                     size_t sy, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     struct order order)
{
    char *to = array_at(dst, dx, dy, width, height), *from = array_at(src, sx, sy, width, height);
    if (!to || !from)
        return fail(cudaErrorInvalidValue);
    return copy_2d(to, pitch_of(dst), from, pitch_of(src), width, height, kind, order);
}

static cudaError_t array_to_array(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                  size_t sy, size_t count, enum cudaMemcpyKind kind, struct order order)
{
    char *to = run_at(dst, dx, dy, count), *from = run_at(src, sx, sy, count);
    if (!to || !from)
        return fail(cudaErrorInvalidValue);
    return copy_2d(to, count, from, count, count, 1, kind, order);
}

/* --- the legacy default stream's forms ---------------------------------------------------- */

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, LEGACY);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height,
                                               enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, on(stream));
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, LEGACY);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, on(stream));
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind)
{
    return run_to_array(dst, wOffset, hOffset, src, count, kind, LEGACY);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return run_to_array(dst, wOffset, hOffset, src, count, kind, on(stream));
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind)
{
    return run_from_array(dst, src, wOffset, hOffset, count, kind, LEGACY);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return run_from_array(dst, src, wOffset, hOffset, count, kind, on(stream));
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_to_array_2d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind,
                             LEGACY);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, enum cudaMemcpyKind kind)
{
    return array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind, LEGACY);
}

/* --- the per-thread default stream's forms ------------------------------------------------ */

cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height,
                                               enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void *src, size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind);

cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height,
                                               enum cudaMemcpyKind kind)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void *src, size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, on_thread(stream));
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, on_thread(stream));
}

cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind)
{
    return run_to_array(dst, wOffset, hOffset, src, count, kind, PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return run_to_array(dst, wOffset, hOffset, src, count, kind, on_thread(stream));
}

cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind)
{
    return run_from_array(dst, src, wOffset, hOffset, count, kind, PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream)
{
    return run_from_array(dst, src, wOffset, hOffset, count, kind, on_thread(stream));
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return array_to_array_2d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind,
                             PER_THREAD);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind)
{
    return array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind, PER_THREAD);
}
