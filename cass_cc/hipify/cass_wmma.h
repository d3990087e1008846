/* cass_wmma.h: nvcuda::wmma (CUDA's <mma.h>) in plain per-lane code, for each 32-lane CUDA warp
 * (a wave32, or a half of a wave64: cass_ptx::lane() and shuffles of width 32 stay in it).
 * Included by cass_hip_compat.h in device compiles; hipify maps <mma.h> to it.
 *
 * Shapes m16n16k16, m32n8k16, m8n32k16, m16n16k8 (tf32) and m8n8k4 (double); matrix_a/matrix_b
 * of half, bfloat16, tf32 (float storage), double, signed and unsigned char; accumulators of
 * float, half, double and int.
 * A fragment of an R x C tile holds element (r, c) of the row-major order f = r * C + c in
 * lane f % 32, slot f / 32 (CUDA leaves the mapping unspecified; element-wise code on x[] works
 * with any). mma_sync gathers each lane's A rows and B column with cross-lane reads and sums
 * in the accumulator's type, products first, k ascending, starting from C.
 */
#ifndef CASS_WMMA_H
#define CASS_WMMA_H

#include <type_traits>

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
}  // namespace precision

namespace cass_detail {

template <typename Use, int _CassM, int _CassN, int _CassK> struct tile;
template <int _CassM, int _CassN, int _CassK> struct tile<matrix_a, _CassM, _CassN, _CassK> { enum { rows = _CassM, cols = _CassK }; };
template <int _CassM, int _CassN, int _CassK> struct tile<matrix_b, _CassM, _CassN, _CassK> { enum { rows = _CassK, cols = _CassN }; };
template <int _CassM, int _CassN, int _CassK> struct tile<accumulator, _CassM, _CassN, _CassK> { enum { rows = _CassM, cols = _CassN }; };

template <typename _CassT> struct storage { typedef _CassT type; };
template <> struct storage<precision::tf32> { typedef float type; };

/* The value an element takes part in a product with: float for the narrow floating types,
 * double for double, int for the integer ones. */
__device__ inline float compute(__half v) { return __half2float(v); }
__device__ inline float compute(hip_bfloat16 v) { return static_cast<float>(v); }
__device__ inline float compute(float v) {
  unsigned bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  bits &= 0xffffe000u;  /* a tf32 operand keeps 10 mantissa bits */
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
}
__device__ inline double compute(double v) { return v; }
__device__ inline int compute(signed char v) { return v; }
__device__ inline int compute(unsigned char v) { return v; }

}  // namespace cass_detail

template <typename Use, int _CassM, int _CassN, int _CassK, typename _CassT, typename Layout = void>
class fragment {
  static_assert((_CassM == 16 && _CassN == 16 && (_CassK == 16 || _CassK == 8)) || (_CassM == 32 && _CassN == 8 && _CassK == 16) ||
                    (_CassM == 8 && _CassN == 32 && _CassK == 16) || (_CassM == 8 && _CassN == 8 && _CassK == 4),
                "cass_wmma.h: the shapes are m16n16k16, m32n8k16, m8n32k16, m16n16k8 (tf32), m8n8k4 (double)");

 public:
  typedef typename cass_detail::storage<_CassT>::type element_type;
  enum {
    rows = cass_detail::tile<Use, _CassM, _CassN, _CassK>::rows,
    cols = cass_detail::tile<Use, _CassM, _CassN, _CassK>::cols,
    num_elements = rows * cols / 32
  };
  element_type x[num_elements];
};

template <typename Use, int _CassM, int _CassN, int _CassK, typename _CassT, typename Layout, typename _CassV>
__device__ inline void fill_fragment(fragment<Use, _CassM, _CassN, _CassK, _CassT, Layout>& f, const _CassV& value) {
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = static_cast<typename fragment<Use, _CassM, _CassN, _CassK, _CassT, Layout>::element_type>(value);
}

namespace cass_detail {

/* Element (r, c) of slot i of this lane, and its offset in memory of leading dimension ldm. */
template <typename Frag>
__device__ inline unsigned offset(int i, unsigned ldm, bool column_major) {
  unsigned f = i * 32 + cass_ptx::lane(), r = f / Frag::cols, c = f % Frag::cols;
  return column_major ? c * ldm + r : r * ldm + c;
}

template <typename Frag, typename _CassP>
__device__ inline void load(Frag& f, const _CassP* p, unsigned ldm, bool column_major) {
  for (int i = 0; i < Frag::num_elements; ++i)
    f.x[i] = static_cast<typename Frag::element_type>(p[offset<Frag>(i, ldm, column_major)]);
}

template <typename Frag, typename _CassP>
__device__ inline void store(_CassP* p, const Frag& f, unsigned ldm, bool column_major) {
  for (int i = 0; i < Frag::num_elements; ++i) p[offset<Frag>(i, ldm, column_major)] = static_cast<_CassP>(f.x[i]);
}

}  // namespace cass_detail

template <typename Use, int _CassM, int _CassN, int _CassK, typename _CassT, typename _CassP>
__device__ inline void load_matrix_sync(fragment<Use, _CassM, _CassN, _CassK, _CassT, row_major>& f, const _CassP* p, unsigned ldm) {
  cass_detail::load(f, p, ldm, false);
}
template <typename Use, int _CassM, int _CassN, int _CassK, typename _CassT, typename _CassP>
__device__ inline void load_matrix_sync(fragment<Use, _CassM, _CassN, _CassK, _CassT, col_major>& f, const _CassP* p, unsigned ldm) {
  cass_detail::load(f, p, ldm, true);
}
template <int _CassM, int _CassN, int _CassK, typename _CassT, typename _CassP>
__device__ inline void load_matrix_sync(fragment<accumulator, _CassM, _CassN, _CassK, _CassT>& f, const _CassP* p, unsigned ldm,
                                        layout_t layout) {
  cass_detail::load(f, p, ldm, layout == mem_col_major);
}
template <int _CassM, int _CassN, int _CassK, typename _CassT, typename _CassP>
__device__ inline void store_matrix_sync(_CassP* p, const fragment<accumulator, _CassM, _CassN, _CassK, _CassT>& f, unsigned ldm,
                                         layout_t layout) {
  cass_detail::store(p, f, ldm, layout == mem_col_major);
}

/* tf32 rounding of CUDA's __float_to_tf32: to nearest, ties away from zero, 10 mantissa bits. */
__device__ inline float __float_to_tf32(float v) {
  unsigned bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & 0xffffe000u;
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
}

/* D = A * B + C. Accumulator slot i of lane l is row i * G + l / _CassN, column l % _CassN (G = 32 / _CassN
 * lanes share a slot index); A's element (r, k) is in slot (r * _CassK + k) / 32 of lane
 * (r * _CassK + k) % 32, so for a fixed i and k the G rows a wavefront needs are in G known slots,
 * read with one cross-lane read each; B's (k, c) is in slot k * _CassN / 32 for every c. */
template <int _CassM, int _CassN, int _CassK, typename _CassTA, typename _CassLA, typename _CassTB, typename _CassLB, typename _CassTC, typename _CassTD>
__device__ inline void mma_sync(fragment<accumulator, _CassM, _CassN, _CassK, _CassTD>& d, const fragment<matrix_a, _CassM, _CassN, _CassK, _CassTA, _CassLA>& a,
                                const fragment<matrix_b, _CassM, _CassN, _CassK, _CassTB, _CassLB>& b,
                                const fragment<accumulator, _CassM, _CassN, _CassK, _CassTC>& c) {
  typedef decltype(cass_detail::compute(a.x[0])) Compute;
  typedef typename std::conditional<std::is_same<Compute, float>::value, float, Compute>::type Sum;
  constexpr int G = 32 / _CassN, slots = _CassM * _CassN / 32;
  int lane = cass_ptx::lane(), group = lane / _CassN, column = lane % _CassN;
  Sum result[slots];
#pragma unroll
  for (int i = 0; i < slots; ++i) {
    Sum sum = static_cast<Sum>(c.x[i]);
#pragma unroll
    for (int k = 0; k < _CassK; ++k) {
      int source = ((i * G + group) * _CassK + k) % 32;
      Compute av = Compute();
#pragma unroll
      for (int g = 0; g < G; ++g) {
        Compute v = __shfl(cass_detail::compute(a.x[((i * G + g) * _CassK + k) / 32]), source, 32);
        if (g == group) av = v;
      }
      Compute bv = __shfl(cass_detail::compute(b.x[k * _CassN / 32]), (k * _CassN) % 32 + column, 32);
      sum = sum + static_cast<Sum>(av) * static_cast<Sum>(bv);
    }
    result[i] = sum;
  }
#pragma unroll
  for (int i = 0; i < slots; ++i) d.x[i] = static_cast<typename fragment<accumulator, _CassM, _CassN, _CassK, _CassTD>::element_type>(result[i]);
}

}  // namespace wmma
}  // namespace nvcuda

#endif  // CASS_WMMA_H
