/* cass_array_copies.h: CUDA's array copies that HIP 5.2 lacks, over the 2D and 3D copies it has:
 * the linear ones (cudaMemcpyToArrayAsync, cudaMemcpyFromArrayAsync, cudaMemcpyArrayToArray),
 * which run on through the array's rows from (wOffset, hOffset), cudaMemcpy2DArrayToArray, and
 * cudaMemcpy3DPeer(Async). Included by cass_hip_compat.h. */
#ifndef CASS_ARRAY_COPIES_H
#define CASS_ARRAY_COPIES_H

namespace cass_array_copies {

inline size_t element_bytes(hipArray_const_t array) {
  return static_cast<size_t>(array->desc.x + array->desc.y + array->desc.z + array->desc.w) / 8;
}

/* A run of `count` bytes from (x, y) of an array whose rows are `row` bytes, as at most three
 * rectangles (the rest of the first row, whole rows, the start of the last): copy(x, y, offset
 * into the linear side, width, height). */
template <typename _CassCopy>
inline hipError_t by_rows(size_t row, size_t x, size_t y, size_t count, _CassCopy copy) {
  if (x > row) return hipErrorInvalidValue;
  size_t first = count < row - x ? count : row - x, done = 0;
  hipError_t e = first ? copy(x, y, done, first, 1) : hipSuccess;
  done += first;
  size_t rows = row ? (count - done) / row : 0;
  if (e == hipSuccess && rows) e = copy(0, y + 1, done, row, rows);
  done += rows * row;
  if (e == hipSuccess && done < count) e = copy(0, y + 1 + rows, done, count - done, 1);
  return e;
}

}  // namespace cass_array_copies

inline hipError_t cass_hipMemcpyToArrayAsync(hipArray* dst, size_t wOffset, size_t hOffset, const void* src,
                                             size_t count, hipMemcpyKind kind, hipStream_t stream = 0) {
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  size_t row = dst->width * cass_array_copies::element_bytes(dst);
  auto copy = [&](size_t x, size_t y, size_t at, size_t w, size_t h) {
    return hipMemcpy2DToArrayAsync(dst, x, y, static_cast<const char*>(src) + at, row, w, h, kind, stream);
  };
  return cass_array_copies::by_rows(row, wOffset, hOffset, count, copy);
}

inline hipError_t cass_hipMemcpyFromArrayAsync(void* dst, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, hipMemcpyKind kind, hipStream_t stream = 0) {
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  size_t row = src->width * cass_array_copies::element_bytes(src);
  auto copy = [&](size_t x, size_t y, size_t at, size_t w, size_t h) {
    return hipMemcpy2DFromArrayAsync(static_cast<char*>(dst) + at, row, src, x, y, w, h, kind, stream);
  };
  return cass_array_copies::by_rows(row, wOffset, hOffset, count, copy);
}

/* Through device memory: the two arrays' rows may differ, so the run splits differently on each
 * side. The copies are ordered on the null stream; the buffer goes when they are done. */
inline hipError_t cass_hipMemcpyArrayToArray(hipArray* dst, size_t wOffsetDst, size_t hOffsetDst,
                                             hipArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, hipMemcpyKind kind = hipMemcpyDeviceToDevice) {
  if (kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  if (count == 0) return hipSuccess;
  void* staging = nullptr;
  hipError_t e = hipMalloc(&staging, count);
  if (e != hipSuccess) return e;
  e = cass_hipMemcpyFromArrayAsync(staging, src, wOffsetSrc, hOffsetSrc, count, hipMemcpyDeviceToDevice, 0);
  if (e == hipSuccess)
    e = cass_hipMemcpyToArrayAsync(dst, wOffsetDst, hOffsetDst, staging, count, hipMemcpyDeviceToDevice, 0);
  hipError_t s = hipStreamSynchronize(0);
  hipError_t f = hipFree(staging);
  return e != hipSuccess ? e : s != hipSuccess ? s : f;
}

/* One rectangle, array to array: hipMemcpy3D counts an array's x and width in elements. */
inline hipError_t cass_hipMemcpy2DArrayToArray(hipArray* dst, size_t wOffsetDst, size_t hOffsetDst,
                                               hipArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height,
                                               hipMemcpyKind kind = hipMemcpyDeviceToDevice) {
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  if (kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  size_t e = cass_array_copies::element_bytes(src);
  if (e == 0 || e != cass_array_copies::element_bytes(dst) || wOffsetDst % e || wOffsetSrc % e || width % e)
    return hipErrorInvalidValue;
  hipMemcpy3DParms p = {};
  p.srcArray = const_cast<hipArray*>(src);
  p.srcPos = make_hipPos(wOffsetSrc / e, hOffsetSrc, 0);
  p.dstArray = dst;
  p.dstPos = make_hipPos(wOffsetDst / e, hOffsetDst, 0);
  p.extent = make_hipExtent(width / e, height, 1);
  p.kind = hipMemcpyDeviceToDevice;
  return hipMemcpy3D(&p);
}

/* cudaMemcpy3DPeerParms: a 3D copy whose two sides name their devices. */
struct cass_hipMemcpy3DPeerParms {
  hipArray* srcArray;
  hipPos srcPos;
  hipPitchedPtr srcPtr;
  int srcDevice;
  hipArray* dstArray;
  hipPos dstPos;
  hipPitchedPtr dstPtr;
  int dstDevice;
  hipExtent extent;
};

namespace cass_array_copies {
/* ROCm copies between devices' memory (peer access or through the host) by the sides' addresses,
 * so the devices need not be named again; only their existence is checked. */
inline hipError_t as_3d(const cass_hipMemcpy3DPeerParms* peer, hipMemcpy3DParms* p) {
  int devices = 0;
  hipError_t e = hipGetDeviceCount(&devices);
  if (e != hipSuccess) return e;
  if (peer == nullptr || peer->srcDevice < 0 || peer->srcDevice >= devices || peer->dstDevice < 0 ||
      peer->dstDevice >= devices)
    return hipErrorInvalidValue;
  *p = hipMemcpy3DParms{};
  p->srcArray = peer->srcArray;
  p->srcPos = peer->srcPos;
  p->srcPtr = peer->srcPtr;
  p->dstArray = peer->dstArray;
  p->dstPos = peer->dstPos;
  p->dstPtr = peer->dstPtr;
  p->extent = peer->extent;
  p->kind = hipMemcpyDeviceToDevice;
  return hipSuccess;
}
}  // namespace cass_array_copies

inline hipError_t cass_hipMemcpy3DPeer(const cass_hipMemcpy3DPeerParms* peer) {
  hipMemcpy3DParms p;
  hipError_t e = cass_array_copies::as_3d(peer, &p);
  return e == hipSuccess ? hipMemcpy3D(&p) : e;
}

inline hipError_t cass_hipMemcpy3DPeerAsync(const cass_hipMemcpy3DPeerParms* peer, hipStream_t stream = 0) {
  hipMemcpy3DParms p;
  hipError_t e = cass_array_copies::as_3d(peer, &p);
  return e == hipSuccess ? hipMemcpy3DAsync(&p, stream) : e;
}

#endif  // CASS_ARRAY_COPIES_H
