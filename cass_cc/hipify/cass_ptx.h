/* cass_ptx.h: the helpers that cass-cc's translation of inline PTX (cass_cc/hipify/inline_asm.py)
 * calls, each with the semantics the PTX ISA gives the instruction it stands for. Included by
 * cass_hip_compat.h in device compiles.
 *
 * PTX registers become C++ variables of the constraint's type ("r": unsigned int, "l": unsigned
 * long long, "h": unsigned short, "f": float, "d": double; .pred: bool); an instruction reads
 * them as its own type with as<_CassT>, which reinterprets bits (PTX's registers are untyped) and
 * truncates or extends integers (a wider register for a narrower type).
 */
#ifndef CASS_PTX_H
#define CASS_PTX_H

#include <limits>
#include <type_traits>

namespace cass_ptx {

template <typename _CassT, typename _CassV>
__device__ inline _CassT as_bits(_CassV v, std::false_type) {
  _CassT t{};  /* bits: the low bytes of a wider register, a narrower one zero-extended */
  __builtin_memcpy(&t, &v, sizeof(_CassT) < sizeof(_CassV) ? sizeof(_CassT) : sizeof(_CassV));
  return t;
}
template <typename _CassT, typename _CassV>
__device__ inline _CassT as_bits(_CassV v, std::true_type) { return static_cast<_CassT>(v); }
template <typename _CassT, typename _CassV>
__device__ inline _CassT as(_CassV v) {
  return as_bits<_CassT>(v, std::integral_constant<bool, std::is_same<_CassT, _CassV>::value ||
                                                        (std::is_integral<_CassT>::value && std::is_integral<_CassV>::value)>());
}

/* How an asm operand's C++ value maps to its register: 0 a pointer (its address), 1 a number
 * (converted), 2 anything else (__half, a struct of the register's size: its bits). */
template <typename _CassV>
using kind_of = std::integral_constant<int, std::is_pointer<_CassV>::value ? 0
                                            : (std::is_arithmetic<_CassV>::value || std::is_enum<_CassV>::value) ? 1 : 2>;

template <typename _CassR, typename _CassV>
__device__ inline _CassR arg_as(const _CassV& v, std::integral_constant<int, 0>) {
  return static_cast<_CassR>(reinterpret_cast<unsigned long long>(v));
}
template <typename _CassR, typename _CassV>
__device__ inline _CassR arg_as(const _CassV& v, std::integral_constant<int, 1>) {
  return static_cast<_CassR>(v);
}
template <typename _CassR, typename _CassV>
__device__ inline _CassR arg_as(const _CassV& v, std::integral_constant<int, 2>) {
  static_assert(sizeof(_CassV) == sizeof(_CassR), "an asm operand of another size than its register");
  _CassR r;
  __builtin_memcpy(&r, &v, sizeof(_CassR));
  return r;
}
/* An asm input operand's value in its constraint's register type. */
template <typename _CassR, typename _CassV>
__device__ inline _CassR arg(const _CassV& v) { return arg_as<_CassR>(v, kind_of<_CassV>()); }

template <typename _CassL, typename _CassR>
__device__ inline void put_as(_CassL& lvalue, _CassR r, std::integral_constant<int, 0>) {
  lvalue = reinterpret_cast<_CassL>(static_cast<unsigned long long>(r));
}
template <typename _CassL, typename _CassR>
__device__ inline void put_as(_CassL& lvalue, _CassR r, std::integral_constant<int, 1>) {
  lvalue = static_cast<_CassL>(r);
}
template <typename _CassL, typename _CassR>
__device__ inline void put_as(_CassL& lvalue, _CassR r, std::integral_constant<int, 2>) {
  static_assert(sizeof(_CassL) == sizeof(_CassR), "an asm operand of another size than its register");
  __builtin_memcpy(&lvalue, &r, sizeof(_CassR));
}
/* Writes an asm output register back to its C++ lvalue (the inverse of arg). */
template <typename _CassL, typename _CassR>
__device__ inline void put(_CassL& lvalue, _CassR r) { put_as(lvalue, r, kind_of<_CassL>()); }

/* A .shared address (an offset in the block's shared window) as a generic pointer. */
template <typename _CassT>
__device__ inline _CassT* shared(unsigned long long address) {
  return (_CassT*)(__attribute__((address_space(3))) _CassT*)(unsigned long long)(unsigned)address;
}
__device__ inline unsigned long long to_shared(unsigned long long generic) {
  return (unsigned)(unsigned long long)(__attribute__((address_space(3))) void*)(void*)generic;
}
__device__ inline unsigned long long from_shared(unsigned long long window) {
  return (unsigned long long)(void*)(__attribute__((address_space(3))) void*)(unsigned long long)(unsigned)window;
}

/* cp.async: `n` bytes, of which those past `from_source` are zeros. */
__device__ inline void copy_zero_fill(unsigned char* dst, const unsigned char* src, unsigned n,
                                      unsigned from_source) {
  for (unsigned i = 0; i < n; ++i) dst[i] = i < from_source ? src[i] : 0;
}

/* ---- special registers ------------------------------------------------------------------ */

/* CUDA's lane and the wave lane of its warp's lane 0: a 64-lane wave (gfx9) holds two CUDA
 * warps, each in its 32-lane half (cass_wave64.h); a 32-lane wave is one warp. */
#if __AMDGCN_WAVEFRONT_SIZE == 64
__device__ inline unsigned lane() { return __lane_id() & 31u; }
__device__ inline unsigned warp_base() { return __lane_id() & 32u; }
#else
__device__ inline unsigned lane() { return __lane_id(); }
__device__ inline unsigned warp_base() { return 0u; }
#endif
__device__ inline unsigned lanemask_eq() { return 1u << lane(); }
__device__ inline unsigned lanemask_lt() { return (1u << lane()) - 1u; }
__device__ inline unsigned lanemask_le() { return (unsigned)((2ull << lane()) - 1u); }
__device__ inline unsigned lanemask_gt() { return ~lanemask_le(); }
__device__ inline unsigned lanemask_ge() { return ~lanemask_lt(); }
__device__ inline unsigned warp_in_block() {
  return (cass_threadIdx.x + cass_blockDim.x * (cass_threadIdx.y + cass_blockDim.y * cass_threadIdx.z)) / 32u;
}
/* The 64-bit real-time counter (100 MHz). gfx11 and later read it with a message, for which
 * clang 15 has no builtin, and HIP 5.2's clock64() on gfx11 reads the 20-bit SHADER_CYCLES
 * register, which wraps within a millisecond: %clock64 and %clock count real-time ticks instead
 * (monotonic, 64 bits, as CUDA code that measures or waits expects). gfx9 and gfx10 (gfx942,
 * gfx90a, gfx1030) have no such message, but s_memrealtime. */
__device__ inline unsigned long long realtime() {
#if defined(__GFX9__) || defined(__GFX10__)
  return __builtin_amdgcn_s_memrealtime();
#else
  unsigned long long ticks;
  asm volatile("s_sendmsg_rtn_b64 %0, sendmsg(MSG_RTN_GET_REALTIME)\n\ts_waitcnt lgkmcnt(0)"
               : "=s"(ticks));
  return ticks;
#endif
}
/* %globaltimer counts nanoseconds. */
__device__ inline unsigned long long globaltimer() { return 10ull * realtime(); }

/* ---- integer and bit operations ---------------------------------------------------------- */

/* lop3.b32: bit i of the result is bit (a_i*4 + b_i*2 + c_i) of the table. */
__device__ inline unsigned lop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned r = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (!((lut >> k) & 1u)) continue;
    r |= ((k & 4u) ? a : ~a) & ((k & 2u) ? b : ~b) & ((k & 1u) ? c : ~c);
  }
  return r;
}

/* shf.l / shf.r on the 64-bit value b:a; .wrap takes the amount mod 32, .clamp caps it at 32. */
__device__ inline unsigned shf_l(unsigned a, unsigned b, unsigned n, bool clamp) {
  n = clamp ? (n < 32u ? n : 32u) : (n & 31u);
  return (unsigned)((((unsigned long long)b << 32 | a) << n) >> 32);
}
__device__ inline unsigned shf_r(unsigned a, unsigned b, unsigned n, bool clamp) {
  n = clamp ? (n < 32u ? n : 32u) : (n & 31u);
  return (unsigned)(((unsigned long long)b << 32 | a) >> n);
}

/* prmt.b32: modes 0 (default), 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16. */
__device__ inline unsigned prmt(unsigned a, unsigned b, unsigned c, int mode) {
  unsigned long long bytes = (unsigned long long)b << 32 | a;
  unsigned sel[4];
  if (mode == 0) {
    for (int i = 0; i < 4; ++i) sel[i] = (c >> (4 * i)) & 0xfu;
  } else {
    unsigned s = c & 3u;
    static const unsigned char table[6][4][4] = {
        {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},   /* f4e */
        {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},   /* b4e */
        {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},   /* rc8 */
        {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},   /* ecl */
        {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},   /* ecr */
        {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};  /* rc16 */
    for (int i = 0; i < 4; ++i) sel[i] = table[mode - 1][s][i];
  }
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned byte = (unsigned)(bytes >> (8 * (sel[i] & 7u))) & 0xffu;
    if (mode == 0 && (sel[i] & 8u)) byte = (byte & 0x80u) ? 0xffu : 0u;  /* replicate the sign */
    r |= byte << (8 * i);
  }
  return r;
}

/* bfe: `len` bits from `pos` (both taken from their low 8 bits), sign-filled for signed _CassT. */
template <typename _CassT>
__device__ inline _CassT bfe(_CassT a, unsigned pos, unsigned len) {
  using U = typename std::make_unsigned<_CassT>::type;
  constexpr unsigned bits = 8 * sizeof(_CassT);
  pos &= 0xffu;
  len &= 0xffu;
  U ua = (U)a;
  bool sign = std::is_signed<_CassT>::value &&
              (len == 0 ? false : ((ua >> (pos + len - 1 < bits ? pos + len - 1 : bits - 1)) & 1u));
  U r = 0;
  for (unsigned i = 0; i < bits; ++i) {
    U bit = i < len ? (pos + i < bits ? (ua >> (pos + i)) & 1u : (U)sign) : (U)sign;
    r |= bit << i;
  }
  return (_CassT)r;
}

/* bfi: `b` with `len` low bits of `f` inserted at `pos`. */
template <typename _CassT>
__device__ inline _CassT bfi(_CassT f, _CassT b, unsigned pos, unsigned len) {
  constexpr unsigned bits = 8 * sizeof(_CassT);
  pos &= 0xffu;
  len &= 0xffu;
  _CassT r = b;
  for (unsigned i = 0; i < len && pos + i < bits; ++i) {
    _CassT one = (_CassT)1 << (pos + i);
    r = ((f >> i) & 1) ? (r | one) : (r & ~one);
  }
  return r;
}

/* bmsk: `width` ones from bit `pos` (.clamp: both at most 32; .wrap: both modulo 32). */
__device__ inline unsigned bmsk(unsigned pos, unsigned width, bool clamp) {
  pos = clamp ? (pos < 32u ? pos : 32u) : (pos & 31u);
  width = clamp ? (width < 32u ? width : 32u) : (width & 31u);
  return (unsigned)((((1ull << width) - 1ull) << pos) & 0xffffffffull);
}
/* szext: the low n bits of a (.clamp: n at most 32; .wrap: n modulo 32), extended by _CassT's sign. */
template <typename _CassT>
__device__ inline _CassT szext(unsigned a, unsigned n, bool clamp) {
  n = clamp ? (n < 32u ? n : 32u) : (n & 31u);
  if (n == 0) return 0;
  if (n == 32) return (_CassT)a;
  unsigned low = a & ((1u << n) - 1u);
  if (std::is_signed<_CassT>::value && (low >> (n - 1)) & 1u) low |= ~((1u << n) - 1u);
  return (_CassT)low;
}

template <typename _CassT> __device__ inline unsigned clz(_CassT a) {
  return a == 0 ? 8 * sizeof(_CassT) : sizeof(_CassT) == 8 ? __builtin_clzll(a) : __builtin_clz(a);
}
template <typename _CassT> __device__ inline unsigned popc(_CassT a) {
  return sizeof(_CassT) == 8 ? __builtin_popcountll(a) : __builtin_popcount(a);
}
/* bfind: the position of the most significant non-sign bit, 0xffffffff when there is none;
 * .shiftamt gives the left shift that would bring it to the top. */
template <typename _CassT> __device__ inline unsigned bfind(_CassT a, bool shiftamt) {
  using U = typename std::make_unsigned<_CassT>::type;
  U u = (std::is_signed<_CassT>::value && a < 0) ? (U)~a : (U)a;
  if (u == 0) return 0xffffffffu;
  unsigned msb = 8 * sizeof(_CassT) - 1 - clz<U>(u);
  return shiftamt ? 8 * sizeof(_CassT) - 1 - msb : msb;
}

/* shl/shr: amounts past the width give 0 (or the sign for signed shr), as in PTX. */
template <typename _CassT> __device__ inline _CassT shl(_CassT a, unsigned n) {
  return n >= 8 * sizeof(_CassT) ? (_CassT)0 : (_CassT)(a << n);
}
template <typename _CassT> __device__ inline _CassT shr(_CassT a, unsigned n) {
  if (n >= 8 * sizeof(_CassT)) return std::is_signed<_CassT>::value && a < 0 ? (_CassT)-1 : (_CassT)0;
  return (_CassT)(a >> n);
}

template <typename _CassT> __device__ inline _CassT mul_hi(_CassT a, _CassT b) {
  using W = typename std::conditional<std::is_signed<_CassT>::value, long long, unsigned long long>::type;
  if (sizeof(_CassT) == 8)
    return std::is_signed<_CassT>::value ? (_CassT)__mul64hi((long long)a, (long long)b)
                                    : (_CassT)__umul64hi((unsigned long long)a, (unsigned long long)b);
  return (_CassT)(((W)a * (W)b) >> (4 * sizeof(_CassT)) >> (4 * sizeof(_CassT)));
}

/* Carry chains: the carry (or borrow) flag lives in a variable of the asm statement. */
template <typename _CassT> __device__ inline _CassT add_carry(_CassT a, _CassT b, unsigned carry_in, unsigned* carry_out) {
  _CassT s = a + b;
  unsigned c = s < a;
  _CassT r = s + (_CassT)carry_in;
  if (carry_out) *carry_out = c | (r < s);
  return r;
}
template <typename _CassT> __device__ inline _CassT sub_borrow(_CassT a, _CassT b, unsigned borrow_in, unsigned* borrow_out) {
  _CassT d = a - b;
  unsigned c = a < b;
  _CassT r = d - (_CassT)borrow_in;
  if (borrow_out) *borrow_out = c | (d < (_CassT)borrow_in);
  return r;
}

template <typename _CassT> __device__ inline _CassT sat_add(_CassT a, _CassT b) {
  _CassT r;
  return __builtin_add_overflow(a, b, &r) ? (b > 0 ? std::numeric_limits<_CassT>::max() : std::numeric_limits<_CassT>::min()) : r;
}
template <typename _CassT> __device__ inline _CassT sat_sub(_CassT a, _CassT b) {
  _CassT r;
  return __builtin_sub_overflow(a, b, &r) ? (b < 0 ? std::numeric_limits<_CassT>::max() : std::numeric_limits<_CassT>::min()) : r;
}

/* dp4a: four byte products (signed or unsigned bytes of each source) added to c. */
template <bool SignedA, bool SignedB>
__device__ inline unsigned dp4a(unsigned a, unsigned b, unsigned c) {
  int sum = (int)c;
  for (int i = 0; i < 32; i += 8) {
    int x = SignedA ? (int)(signed char)(a >> i) : (int)((a >> i) & 0xffu);
    int y = SignedB ? (int)(signed char)(b >> i) : (int)((b >> i) & 0xffu);
    sum += x * y;
  }
  return (unsigned)sum;
}

/* ---- floating point ---------------------------------------------------------------------- */

__device__ inline float ftz(float x) {
  return __builtin_fabsf(x) < 1.17549435e-38f ? __builtin_copysignf(0.0f, x) : x;
}
__device__ inline float sat(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
__device__ inline double sat(double x) { return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0; }

/* PTX rounds every instruction on its own: none of these may be fused into an fma. */
#define CASS_PTX_UNFUSED _Pragma("clang fp contract(off)")
template <typename _CassF> __device__ inline _CassF add(_CassF a, _CassF b) { CASS_PTX_UNFUSED return a + b; }
template <typename _CassF> __device__ inline _CassF sub(_CassF a, _CassF b) { CASS_PTX_UNFUSED return a - b; }
template <typename _CassF> __device__ inline _CassF mul(_CassF a, _CassF b) { CASS_PTX_UNFUSED return a * b; }

/* .f16 and .f16x2 arithmetic on the registers' bits. */
__device__ inline unsigned short h_add(unsigned short a, unsigned short b) {
  return __half_as_ushort(__hadd(__ushort_as_half(a), __ushort_as_half(b)));
}
__device__ inline unsigned short h_sub(unsigned short a, unsigned short b) {
  return __half_as_ushort(__hsub(__ushort_as_half(a), __ushort_as_half(b)));
}
__device__ inline unsigned short h_mul(unsigned short a, unsigned short b) {
  return __half_as_ushort(__hmul(__ushort_as_half(a), __ushort_as_half(b)));
}
__device__ inline unsigned short h_fma(unsigned short a, unsigned short b, unsigned short c) {
  return __half_as_ushort(__hfma(__ushort_as_half(a), __ushort_as_half(b), __ushort_as_half(c)));
}
__device__ inline unsigned h2_add(unsigned a, unsigned b) {
  return as<unsigned>(__hadd2(as<__half2>(a), as<__half2>(b)));
}
__device__ inline unsigned h2_sub(unsigned a, unsigned b) {
  return as<unsigned>(__hsub2(as<__half2>(a), as<__half2>(b)));
}
__device__ inline unsigned h2_mul(unsigned a, unsigned b) {
  return as<unsigned>(__hmul2(as<__half2>(a), as<__half2>(b)));
}
__device__ inline unsigned h2_fma(unsigned a, unsigned b, unsigned c) {
  return as<unsigned>(__hfma2(as<__half2>(a), as<__half2>(b), as<__half2>(c)));
}

/* Rounding modes of PTX: 0 rn, 1 rz, 2 rm, 3 rp. */
/* The float nearest to s + e (|e| far below s's last place) in rounding `mode`; exact for a
 * double pair that holds the true value, as TwoSum and exact products give. */
__device__ inline float round_f32(double s, double e, int mode) {
  float f = (float)s;
  if (mode == 0 || __builtin_isnan(s)) return f;
  bool above = (double)f > s || ((double)f == s && e < 0);
  bool below = (double)f < s || ((double)f == s && e > 0);
  bool up = mode == 3 || (mode == 1 && s < 0);      /* the direction that is allowed */
  if (up && below) return nextafterf(f, __builtin_inff());
  if (!up && above) return nextafterf(f, -__builtin_inff());
  return f;
}
__device__ inline void two_sum(double a, double b, double* s, double* e) {
  CASS_PTX_UNFUSED
  *s = a + b;
  double bb = *s - a;
  *e = (a - (*s - bb)) + (b - bb);
}
__device__ inline float add_f32(float a, float b, int mode) {
  double s, e;
  two_sum(a, b, &s, &e);
  return round_f32(s, e, mode);
}
__device__ inline float mul_f32(float a, float b, int mode) {
  CASS_PTX_UNFUSED
  return round_f32((double)a * (double)b, 0.0, mode);  /* exact in double */
}
__device__ inline float fma_f32(float a, float b, float c, int mode) {
  CASS_PTX_UNFUSED
  double s, e;
  two_sum((double)a * (double)b, c, &s, &e);
  return round_f32(s, e, mode);
}

/* float -> integer: rounded by `mode` (rni, rzi, rmi, rpi), saturated to _CassT, NaN gives 0. */
template <typename _CassT>
__device__ inline _CassT f2i(double x, int mode) {
  if (__builtin_isnan(x)) return 0;
  double r = mode == 0 ? __builtin_rint(x) : mode == 1 ? __builtin_trunc(x)
             : mode == 2 ? __builtin_floor(x) : __builtin_ceil(x);
  if (r <= (double)std::numeric_limits<_CassT>::min()) return std::numeric_limits<_CassT>::min();
  if (r >= (double)std::numeric_limits<_CassT>::max()) return std::numeric_limits<_CassT>::max();
  return (_CassT)r;
}
/* Round to an integral value in the same float type. */
template <typename _CassF>
__device__ inline _CassF round_integral(_CassF x, int mode) {
  return mode == 0 ? __builtin_rint(x) : mode == 1 ? __builtin_trunc(x)
         : mode == 2 ? __builtin_floor(x) : __builtin_ceil(x);
}

/* ---- warp operations ---------------------------------------------------------------------- */

/* shfl.{up,down,bfly,idx}: modes 0..3; c packs the clamp lane (bits 4:0) and the segment mask
 * (bits 12:8), as PTX defines them. *in_range is PTX's predicate output. */
__device__ inline unsigned shfl(int mode, unsigned a, unsigned b, unsigned c, bool* in_range) {
  unsigned lane_id = lane();
  unsigned clamp = c & 0x1fu, segmask = (c >> 8) & 0x1fu;
  b &= 0x1fu;   /* PTX reads the lane operand's low 5 bits */
  unsigned max_lane = (lane_id & segmask) | (clamp & ~segmask);
  unsigned min_lane = lane_id & segmask;
  int j;
  bool ok;
  switch (mode) {
    case 0: j = (int)lane_id - (int)b; ok = j >= (int)max_lane; break;
    case 1: j = (int)(lane_id + b); ok = j <= (int)max_lane; break;
    case 2: j = (int)(lane_id ^ b); ok = j <= (int)max_lane; break;
    default: j = (int)(min_lane | (b & ~segmask & 0x1fu)); ok = j <= (int)max_lane; break;
  }
  if (!ok) j = (int)lane_id;
  if (in_range) *in_range = ok;
  return (unsigned)__builtin_amdgcn_ds_bpermute((int)((warp_base() | (unsigned)j) << 2), (int)a);
}

/* ---- warp matrix multiply (mma.sync m16n8k*, row.col) and ldmatrix --------------------------
 * The fragments are in the PTX ISA's layouts: lane = 4 * g + t holds A rows g and g + 8 at columns
 * t * E + h * _CassK / 2 + e (register 2h + row half, element e of E per 32-bit register), B column g at
 * the same k, and C/D rows g, g + 8 at columns 2t, 2t + 1. Each lane gathers the rows and columns
 * it needs from the others with cross-lane reads, then sums exactly as written (products in the
 * accumulator type, k ascending). */
enum { MMA_F16 = 0, MMA_BF16 = 1, MMA_TF32 = 2, MMA_S8 = 3, MMA_U8 = 4 };

template <int Kind>
__device__ inline typename std::conditional<(Kind >= MMA_S8), int, float>::type mma_element(unsigned r, int e) {
  if (Kind == MMA_F16) return __half2float(__ushort_as_half((unsigned short)(r >> (16 * e))));
  if (Kind == MMA_BF16) return as<float>((r >> (16 * e)) << 16);
  if (Kind == MMA_TF32) return as<float>(r & 0xffffe000u);   /* tf32 keeps 10 mantissa bits */
  if (Kind == MMA_S8) return (int)(signed char)(r >> (8 * e));
  return (int)((r >> (8 * e)) & 0xffu);
}

__device__ inline float mma_add(float a, float b) { return add<float>(a, b); }
__device__ inline int mma_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }

__device__ inline unsigned lane_value(unsigned v, unsigned from) {
  return (unsigned)__builtin_amdgcn_ds_bpermute((int)((warp_base() | from) << 2), (int)v);
}

template <int _CassK, int AKind, int BKind, typename Acc>
__device__ inline void mma_m16n8(const unsigned* a, const unsigned* b, Acc d[4]) {
  constexpr int E = AKind == MMA_TF32 ? 1 : AKind >= MMA_S8 ? 4 : 2;   /* elements per register */
  constexpr int H = _CassK / (4 * E);                                        /* B registers */
  unsigned l = lane(), g = l >> 2, t = l & 3u;
  for (unsigned tp = 0; tp < 4; ++tp) {
    for (int h = 0; h < H; ++h) {
      unsigned a0 = lane_value(a[2 * h], 4 * g + tp), a1 = lane_value(a[2 * h + 1], 4 * g + tp);
      unsigned b0 = lane_value(b[h], 8 * t + tp), b1 = lane_value(b[h], 8 * t + 4 + tp);
      for (int e = 0; e < E; ++e) {
        Acc x0 = mma_element<AKind>(a0, e), x1 = mma_element<AKind>(a1, e);
        Acc y0 = mma_element<BKind>(b0, e), y1 = mma_element<BKind>(b1, e);
        d[0] = mma_add(d[0], mul<Acc>(x0, y0));
        d[1] = mma_add(d[1], mul<Acc>(x0, y1));
        d[2] = mma_add(d[2], mul<Acc>(x1, y0));
        d[3] = mma_add(d[3], mul<Acc>(x1, y1));
      }
    }
  }
}

/* ldmatrix .m8n8 .b16: lanes 8i..8i+7 give the row addresses of matrix i; lane l receives the
 * 32 bits of row l / 4 at column pair l % 4 (.trans: column l / 4 of rows 2 (l % 4) and + 1). */
template <int _CassN, bool Trans>
__device__ inline void ldmatrix(unsigned long long address, unsigned* out) {
  unsigned l = lane(), row_address = (unsigned)address;
  for (int i = 0; i < _CassN; ++i) {
    if (!Trans) {
      unsigned row = lane_value(row_address, 8 * i + (l >> 2));
      out[i] = *shared<unsigned>(row + 4 * (l & 3u));
    } else {
      unsigned r0 = lane_value(row_address, 8 * i + 2 * (l & 3u));
      unsigned r1 = lane_value(row_address, 8 * i + 2 * (l & 3u) + 1);
      unsigned lo = *shared<unsigned short>(r0 + 2 * (l >> 2));
      unsigned hi = *shared<unsigned short>(r1 + 2 * (l >> 2));
      out[i] = lo | hi << 16;
    }
  }
}

}  // namespace cass_ptx

#endif  // CASS_PTX_H
