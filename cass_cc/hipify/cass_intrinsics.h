/* cass_intrinsics.h: CUDA device intrinsics that HIP 5.2 lacks, with CUDA's semantics; included
 * by cass_hip_compat.h in device compiles (after cass_ptx.h, whose exact rounding it uses).
 *   - float arithmetic in a chosen rounding mode: __fadd_rz, __fmul_ru, __fdiv_rd, __fsqrt_rz, ...
 *   - SIMD video intrinsics on 2 x 16 or 4 x 8 bits (__vadd2, __vabsdiffu4, __vsadu4, ...) and
 *     __dp2a_lo/__dp2a_hi;
 *   - DPX (CUDA 12): __viaddmax_*, __vimax*_relu, __vibmax/__vibmin with their predicates;
 *   - NaN-propagating half min/max (__hmax_nan, __hmin2_nan, ...);
 *   - CUDA's results where HIP 5.2's differ: the integer averages (__hadd ...) and __sad.
 */
#ifndef CASS_INTRINSICS_H
#define CASS_INTRINSICS_H

/* ---- rounded float arithmetic (rz: toward zero, rd: down, ru: up) ----------------------------- */
#if !defined(OCML_BASIC_ROUNDED_OPERATIONS)
namespace cass_ptx {
/* a / b and sqrt(a) in a directed mode: the double result and the sign of its error (an exact
 * remainder from fma) decide, as in round_f32. */
__device__ inline float div_f32(float a, float b, int mode) {
  double q = (double)a / (double)b;
  double r = __builtin_fma(-q, (double)b, (double)a);
  return round_f32(q, (b < 0) ? -r : r, mode);
}
__device__ inline float sqrt_f32(float a, int mode) {
  double s = __builtin_sqrt((double)a);
  return round_f32(s, __builtin_fma(-s, s, (double)a), mode);
}
}  // namespace cass_ptx

namespace cass_ptx {
/* The double r (rounded to nearest) moved one step where the exact value lies (e: the sign of
 * exact - r) in a directed mode. */
__device__ inline double directed(double r, double e, int mode) {
  if (e == 0 || __builtin_isnan(r) || __builtin_isinf(r)) return r;
  if (mode == 1 && ((r > 0) != (e > 0))) return nextafter(r, 0.0);
  if (mode == 2 && e < 0) return nextafter(r, -__builtin_inf());
  if (mode == 3 && e > 0) return nextafter(r, __builtin_inf());
  return r;
}
/* An infinite result of finite operands is an overflow: the directed modes that round toward
 * zero from it give the largest finite double instead. */
__device__ inline double overflowed(double r, int mode) {
  bool infinite = mode == 0 || (mode == 2 && r < 0) || (mode == 3 && r > 0);
  return infinite ? r : __builtin_copysign(1.7976931348623157e308, r);
}
__device__ inline bool finite(double a) { return __builtin_isfinite(a); }
__device__ inline double add_f64(double a, double b, int mode) {
  CASS_PTX_UNFUSED
  double s = a + b, bb = s - a;
  if (__builtin_isinf(s) && finite(a) && finite(b)) return overflowed(s, mode);
  return directed(s, (a - (s - bb)) + (b - bb), mode);
}
__device__ inline double mul_f64(double a, double b, int mode) {
  double p = a * b;
  if (__builtin_isinf(p) && finite(a) && finite(b)) return overflowed(p, mode);
  return directed(p, __builtin_fma(a, b, -p), mode);
}
__device__ inline double div_f64(double a, double b, int mode) {
  double q = a / b, r = __builtin_fma(-q, b, a);
  if (__builtin_isinf(q) && finite(a) && finite(b) && b != 0) return overflowed(q, mode);
  return directed(q, b < 0 ? -r : r, mode);
}
__device__ inline double sqrt_f64(double a, int mode) {
  double s = __builtin_sqrt(a);
  return directed(s, __builtin_fma(-s, s, a), mode);
}
/* fma's rounding error as two doubles (Boldo and Muller's ErrFma); its sign decides. */
__device__ inline double fma_f64(double a, double b, double c, int mode) {
  CASS_PTX_UNFUSED
  double r = __builtin_fma(a, b, c);
  if (__builtin_isinf(r) && finite(a) && finite(b) && finite(c)) return overflowed(r, mode);
  double u1 = a * b, u2 = __builtin_fma(a, b, -u1);
  double a1 = c + u2, z0 = a1 - c, z = (c - (a1 - z0)) + (u2 - z0);
  double b1 = u1 + a1, w0 = b1 - u1, b2 = (u1 - (b1 - w0)) + (a1 - w0);
  return directed(r, ((b1 - r) + b2) + z, mode);
}
}  // namespace cass_ptx

/* rounding modes as cass_ptx numbers them: 1 toward zero, 2 down, 3 up */
__device__ inline float __fadd_rz(float a, float b) { return cass_ptx::add_f32(a, b, 1); }
__device__ inline float __fsub_rz(float a, float b) { return cass_ptx::add_f32(a, -b, 1); }
__device__ inline float __fmul_rz(float a, float b) { return cass_ptx::mul_f32(a, b, 1); }
__device__ inline float __fmaf_rz(float a, float b, float c) { return cass_ptx::fma_f32(a, b, c, 1); }
__device__ inline float __fdiv_rz(float a, float b) { return cass_ptx::div_f32(a, b, 1); }
__device__ inline float __frcp_rz(float a) { return cass_ptx::div_f32(1.0f, a, 1); }
__device__ inline float __fsqrt_rz(float a) { return cass_ptx::sqrt_f32(a, 1); }
__device__ inline float __fadd_rd(float a, float b) { return cass_ptx::add_f32(a, b, 2); }
__device__ inline float __fsub_rd(float a, float b) { return cass_ptx::add_f32(a, -b, 2); }
__device__ inline float __fmul_rd(float a, float b) { return cass_ptx::mul_f32(a, b, 2); }
__device__ inline float __fmaf_rd(float a, float b, float c) { return cass_ptx::fma_f32(a, b, c, 2); }
__device__ inline float __fdiv_rd(float a, float b) { return cass_ptx::div_f32(a, b, 2); }
__device__ inline float __frcp_rd(float a) { return cass_ptx::div_f32(1.0f, a, 2); }
__device__ inline float __fsqrt_rd(float a) { return cass_ptx::sqrt_f32(a, 2); }
__device__ inline float __fadd_ru(float a, float b) { return cass_ptx::add_f32(a, b, 3); }
__device__ inline float __fsub_ru(float a, float b) { return cass_ptx::add_f32(a, -b, 3); }
__device__ inline float __fmul_ru(float a, float b) { return cass_ptx::mul_f32(a, b, 3); }
__device__ inline float __fmaf_ru(float a, float b, float c) { return cass_ptx::fma_f32(a, b, c, 3); }
__device__ inline float __fdiv_ru(float a, float b) { return cass_ptx::div_f32(a, b, 3); }
__device__ inline float __frcp_ru(float a) { return cass_ptx::div_f32(1.0f, a, 3); }
__device__ inline float __fsqrt_ru(float a) { return cass_ptx::sqrt_f32(a, 3); }
__device__ inline double __dadd_rz(double a, double b) { return cass_ptx::add_f64(a, b, 1); }
__device__ inline double __dsub_rz(double a, double b) { return cass_ptx::add_f64(a, -b, 1); }
__device__ inline double __dmul_rz(double a, double b) { return cass_ptx::mul_f64(a, b, 1); }
__device__ inline double __ddiv_rz(double a, double b) { return cass_ptx::div_f64(a, b, 1); }
__device__ inline double __drcp_rz(double a) { return cass_ptx::div_f64(1.0, a, 1); }
__device__ inline double __dsqrt_rz(double a) { return cass_ptx::sqrt_f64(a, 1); }
__device__ inline double __fma_rz(double a, double b, double c) { return cass_ptx::fma_f64(a, b, c, 1); }
__device__ inline double __dadd_rd(double a, double b) { return cass_ptx::add_f64(a, b, 2); }
__device__ inline double __dsub_rd(double a, double b) { return cass_ptx::add_f64(a, -b, 2); }
__device__ inline double __dmul_rd(double a, double b) { return cass_ptx::mul_f64(a, b, 2); }
__device__ inline double __ddiv_rd(double a, double b) { return cass_ptx::div_f64(a, b, 2); }
__device__ inline double __drcp_rd(double a) { return cass_ptx::div_f64(1.0, a, 2); }
__device__ inline double __dsqrt_rd(double a) { return cass_ptx::sqrt_f64(a, 2); }
__device__ inline double __fma_rd(double a, double b, double c) { return cass_ptx::fma_f64(a, b, c, 2); }
__device__ inline double __dadd_ru(double a, double b) { return cass_ptx::add_f64(a, b, 3); }
__device__ inline double __dsub_ru(double a, double b) { return cass_ptx::add_f64(a, -b, 3); }
__device__ inline double __dmul_ru(double a, double b) { return cass_ptx::mul_f64(a, b, 3); }
__device__ inline double __ddiv_ru(double a, double b) { return cass_ptx::div_f64(a, b, 3); }
__device__ inline double __drcp_ru(double a) { return cass_ptx::div_f64(1.0, a, 3); }
__device__ inline double __dsqrt_ru(double a) { return cass_ptx::sqrt_f64(a, 3); }
__device__ inline double __fma_ru(double a, double b, double c) { return cass_ptx::fma_f64(a, b, c, 3); }
#endif

/* ---- SIMD video intrinsics ------------------------------------------------------------------- */
namespace cass_simd {
/* Applies op to each `Bits`-wide lane of a and b (as signed or unsigned ints), packing the low
 * bits of each result. */
template <int Bits, bool Signed, typename Op>
__device__ inline unsigned lanes(unsigned a, unsigned b, Op op) {
  unsigned r = 0, mask = (1u << Bits) - 1u;
  for (int s = 0; s < 32; s += Bits) {
    int x = (int)((a >> s) & mask), y = (int)((b >> s) & mask);
    if (Signed) {
      x = x & (1 << (Bits - 1)) ? x - (1 << Bits) : x;
      y = y & (1 << (Bits - 1)) ? y - (1 << Bits) : y;
    }
    r |= ((unsigned)op(x, y) & mask) << s;
  }
  return r;
}
__device__ inline int clamp16(int v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }
}  // namespace cass_simd

__device__ inline unsigned __vadd2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, false>(a, b, [](int x, int y) { return x + y; });
}
__device__ inline unsigned __vsub2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, false>(a, b, [](int x, int y) { return x - y; });
}
__device__ inline unsigned __vadd4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return x + y; });
}
__device__ inline unsigned __vsub4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return x - y; });
}
__device__ inline unsigned __vabsdiffu2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, false>(a, b, [](int x, int y) { return x > y ? x - y : y - x; });
}
__device__ inline unsigned __vabsdiffu4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return x > y ? x - y : y - x; });
}
__device__ inline unsigned __vabsss2(unsigned a) {
  return cass_simd::lanes<16, true>(a, 0, [](int x, int) { return cass_simd::clamp16(x < 0 ? -x : x); });
}
__device__ inline unsigned __vavgu4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return (x + y + 1) >> 1; });
}
__device__ inline unsigned __vcmpeq2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, false>(a, b, [](int x, int y) { return x == y ? 0xffff : 0; });
}
__device__ inline unsigned __vcmpgtu4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return x > y ? 0xff : 0; });
}
__device__ inline unsigned __vmaxu4(unsigned a, unsigned b) {
  return cass_simd::lanes<8, false>(a, b, [](int x, int y) { return x > y ? x : y; });
}
__device__ inline unsigned __vmins2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, true>(a, b, [](int x, int y) { return x < y ? x : y; });
}
__device__ inline unsigned __vsetgeu2(unsigned a, unsigned b) {
  return cass_simd::lanes<16, false>(a, b, [](int x, int y) { return x >= y ? 1 : 0; });
}
__device__ inline unsigned __vsadu4(unsigned a, unsigned b) {
  unsigned sum = 0;
  for (int s = 0; s < 32; s += 8) {
    int x = (int)((a >> s) & 0xffu), y = (int)((b >> s) & 0xffu);
    sum += (unsigned)(x > y ? x - y : y - x);
  }
  return sum;
}

/* Two 16-bit halves of a times two bytes of b (the low two for _lo, the high two for _hi), plus c. */
__device__ inline int __dp2a_lo(int a, int b, int c) {
  return c + (short)a * (signed char)b + (short)(a >> 16) * (signed char)(b >> 8);
}
__device__ inline int __dp2a_hi(int a, int b, int c) {
  return c + (short)a * (signed char)(b >> 16) + (short)(a >> 16) * (signed char)(b >> 24);
}
__device__ inline unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) {
  return c + (a & 0xffffu) * (b & 0xffu) + (a >> 16) * ((b >> 8) & 0xffu);
}
__device__ inline unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) {
  return c + (a & 0xffffu) * ((b >> 16) & 0xffu) + (a >> 16) * (b >> 24);
}

/* ---- DPX (dynamic programming) ---------------------------------------------------------------- */
__device__ inline int __viaddmax_s32(int a, int b, int c) {
  int s = (int)((unsigned)a + (unsigned)b);
  return s > c ? s : c;
}
__device__ inline unsigned __viaddmax_s16x2(unsigned a, unsigned b, unsigned c) {
  unsigned sum = __vadd2(a, b);
  return cass_simd::lanes<16, true>(sum, c, [](int x, int y) { return x > y ? x : y; });
}
__device__ inline int __vimax_s32_relu(int a, int b) {
  int m = a > b ? a : b;
  return m > 0 ? m : 0;
}
__device__ inline int __vimax3_s32_relu(int a, int b, int c) { return __vimax_s32_relu(__vimax_s32_relu(a, b), c); }
__device__ inline unsigned __vimax_s16x2_relu(unsigned a, unsigned b) {
  return cass_simd::lanes<16, true>(a, b, [](int x, int y) { int m = x > y ? x : y; return m > 0 ? m : 0; });
}
__device__ inline unsigned __vimax3_s16x2_relu(unsigned a, unsigned b, unsigned c) {
  return __vimax_s16x2_relu(__vimax_s16x2_relu(a, b), c);
}
__device__ inline int __vibmax_s32(int a, int b, bool* pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
__device__ inline unsigned __vibmin_u32(unsigned a, unsigned b, bool* pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
__device__ inline unsigned __vibmax_s16x2(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) {
  short ah = (short)(a >> 16), al = (short)a, bh = (short)(b >> 16), bl = (short)b;
  *pred_hi = ah >= bh;
  *pred_lo = al >= bl;
  return (unsigned)(unsigned short)(ah >= bh ? ah : bh) << 16 | (unsigned short)(al >= bl ? al : bl);
}

/* ---- half min/max that propagate NaN (a canonical NaN, as CUDA) --------------------------------- */
__device__ inline __half __hmax_nan(__half a, __half b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_half(0x7fff) : __hgt(a, b) ? a : b;
}
__device__ inline __half __hmin_nan(__half a, __half b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_half(0x7fff) : __hlt(a, b) ? a : b;
}
__device__ inline __half2 __hmax2_nan(__half2 a, __half2 b) {
  return __halves2half2(__hmax_nan(__low2half(a), __low2half(b)), __hmax_nan(__high2half(a), __high2half(b)));
}
__device__ inline __half2 __hmin2_nan(__half2 a, __half2 b) {
  return __halves2half2(__hmin_nan(__low2half(a), __low2half(b)), __hmin_nan(__high2half(a), __high2half(b)));
}

/* ---- integer averages ---------------------------------------------------------------------
 * HIP 5.2's __hadd and __rhadd return 0 or 1 (a `||` for a `|`) and its __uhadd/__urhadd overflow;
 * CUDA computes (x + y) >> 1 and (x + y + 1) >> 1 without overflow. CUDA code's calls go to
 * cass_* versions by the names below; the other overloads (__half, bfloat16) pass through. */
template <typename _CassT>
__host__ __device__ inline auto cass_hadd(_CassT a, _CassT b) -> decltype(__hadd(a, b)) { return __hadd(a, b); }
__device__ inline int cass_hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
__device__ inline int cass_rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
__device__ inline unsigned cass_uhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b) >> 1);
}
__device__ inline unsigned cass_urhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b + 1) >> 1);
}
#define __hadd cass_hadd
#define __rhadd cass_rhadd
#define __uhadd cass_uhadd
#define __urhadd cass_urhadd

/* ---- __sad: |x - y| + z (mod 2^32). HIP 5.2 computes x - y in int, whose overflow is undefined;
 * clang-22 folds its `x > y ? x - y : y - x` into an abs that assumes none and returns z - |x - y|
 * when the difference passes 2^31. The difference in unsigned arithmetic is exact mod 2^32. ---- */
__device__ inline unsigned cass_sad(int x, int y, unsigned z) {
  return (x > y ? static_cast<unsigned>(x) - static_cast<unsigned>(y)
                : static_cast<unsigned>(y) - static_cast<unsigned>(x)) + z;
}
#define __sad cass_sad

/* ---- add, subtract, multiply rounded to nearest and never fused into an fma (CUDA's __fadd_rn,
 * __dmul_rn ...; HIP 5.2's are the plain operators, which -ffp-contract=fast fuses). --------- */
#define CASS_UNFUSED_OP(NAME, TYPE, OP) \
  __device__ inline TYPE NAME(TYPE a, TYPE b) { CASS_PTX_UNFUSED return a OP b; }
CASS_UNFUSED_OP(cass_fadd_rn, float, +)
CASS_UNFUSED_OP(cass_fsub_rn, float, -)
CASS_UNFUSED_OP(cass_fmul_rn, float, *)
CASS_UNFUSED_OP(cass_dadd_rn, double, +)
CASS_UNFUSED_OP(cass_dsub_rn, double, -)
CASS_UNFUSED_OP(cass_dmul_rn, double, *)
#undef CASS_UNFUSED_OP

/* ---- __fns: the position of the offset-th set bit of mask counted from bit base, toward the
 * most significant bit for a positive offset and the least for a negative one; offset 0 asks
 * whether bit base is set. 0xffffffff when there is none (PTX fns.b32). -------------------- */
__device__ inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return base < 32 && ((mask >> base) & 1u) ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1, count = (offset > 0 ? offset : -offset) - 1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step) {
    if ((mask >> pos) & 1u) {
      if (count == 0) return static_cast<unsigned>(pos);
      --count;
    }
  }
  return 0xffffffffu;
}

/* ---- cuda_pipeline.h's primitives: the copy is done at once (as cp.async in cass_ptx.h), so
 * there is nothing to wait for; __syncthreads still orders the block's copies. --------------- */
__device__ inline void __pipeline_memcpy_async(void* dst, const void* src, size_t bytes,
                                               size_t zero_fill = 0) {
  cass_ptx::copy_zero_fill(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src),
                           static_cast<unsigned>(bytes), static_cast<unsigned>(bytes - zero_fill));
}
__device__ inline void __pipeline_commit() {}
__device__ inline void __pipeline_wait_prior(size_t prior) { (void)prior; }

#endif  // CASS_INTRINSICS_H
