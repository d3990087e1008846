/* cass_half.h: CUDA's half conversions where HIP 5.2's differ, and cuda_bf16's math functions;
 * included by cass_hip_compat.h in HIP compiles (host and device passes).
 *   - conversions between half and float/integers in each rounding mode, __host__ __device__ as
 *     in CUDA: HIP 5.2 declares the integer ones __device__ only, and its __float2half_rz/rd/ru,
 *     __half2int_rd/ru, __int2half_rz/... all round to nearest or truncate whatever the suffix
 *     says. hipify renames CUDA's names to the cass_ ones below (tables/half.py);
 *   - bit casts (__half_as_ushort ...), __host__ __device__ as in CUDA;
 *   - __half arithmetic and comparisons in host code;
 *   - hexp, hsqrt, hsin ... on half, half2 and bfloat16, computed in float and rounded once.
 * Rounding modes are numbered as in cass_ptx.h: 0 nearest even, 1 toward zero, 2 down, 3 up.
 */
#ifndef CASS_HALF_H
#define CASS_HALF_H

namespace cass_half {

/* The half nearest x in `mode`, as bits, from x's bits alone (no host/device library calls, no
 * double rounding): x = M * 2^e, and a half of exponent E is an integer multiple of 2^(E-10). */
__host__ __device__ inline unsigned short bits_from_double(double x, int mode) {
  unsigned long long b;
  __builtin_memcpy(&b, &x, sizeof b);
  unsigned short sign = static_cast<unsigned short>((b >> 48) & 0x8000u);
  int exponent = static_cast<int>((b >> 52) & 0x7ff);
  unsigned long long m = b & ((1ull << 52) - 1);
  if (exponent == 0x7ff) return sign | (m ? 0x7fffu : 0x7c00u);
  if (exponent == 0 && m == 0) return sign;
  int e = exponent == 0 ? -1074 : exponent - 1075;
  if (exponent != 0) m |= 1ull << 52;
  int E = exponent - 1023 < -14 ? -14 : exponent - 1023;
  int s = E - 10 - e;  /* bits of m below the half's last place; at least 42 */
  unsigned long long kept = s < 64 ? m >> s : 0;
  unsigned long long rest = s < 64 ? m & ((1ull << s) - 1) : m;
  unsigned long long halfway = 1ull << (s < 64 ? s - 1 : 63);
  bool negative = sign != 0, inexact = rest != 0;
  bool up = mode == 0 ? rest > halfway || (rest == halfway && (kept & 1))
            : mode == 2 ? negative && inexact
            : mode == 3 ? !negative && inexact
            : false;
  /* Subnormals (E = -14, kept < 1024) and normals share this encoding; a carry out of the
     significand steps the exponent. */
  unsigned long long bits = static_cast<unsigned long long>(E + 14) * 1024 + kept + up;
  if (bits >= 0x7c00) {
    bool to_infinity = mode == 0 || (mode == 2 && negative) || (mode == 3 && !negative);
    bits = to_infinity ? 0x7c00 : 0x7bff;
  }
  return static_cast<unsigned short>(sign | bits);
}

__host__ __device__ inline __half from_bits(unsigned short bits) {
  __half_raw raw;
  raw.x = bits;
  return raw;
}
__host__ __device__ inline unsigned short to_bits(__half h) { return static_cast<__half_raw>(h).x; }

__host__ __device__ inline float to_float(__half h) {
  unsigned short bits = to_bits(h);
  unsigned sign = (bits & 0x8000u) << 16, exponent = (bits >> 10) & 0x1f, m = bits & 0x3ffu;
  unsigned f;
  if (exponent == 0x1f) {
    f = sign | 0x7f800000u | (m << 13);
  } else if (exponent != 0) {
    f = sign | ((exponent + 112) << 23) | (m << 13);
  } else if (m == 0) {
    f = sign;
  } else {  /* subnormal: m * 2^-24, exact in float */
    float v = static_cast<float>(m) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  float v;
  __builtin_memcpy(&v, &f, sizeof v);
  return v;
}

/* An integer in `mode`, saturated to [lo, hi]; NaN gives 0, as PTX's cvt does. */
__host__ __device__ inline long long to_integer(__half h, int mode, double lo, double hi) {
  float v = to_float(h);
  if (v != v) return 0;
  float r = mode == 0 ? __builtin_rintf(v) : mode == 1 ? __builtin_truncf(v)
            : mode == 2 ? __builtin_floorf(v) : __builtin_ceilf(v);
  if (r <= lo) return static_cast<long long>(lo);
  if (r >= hi) return static_cast<long long>(hi);
  return static_cast<long long>(r);
}
__host__ __device__ inline unsigned long long to_unsigned64(__half h, int mode) {
  long long v = to_integer(h, mode, 0.0, 1e30);  /* a half is below 2^63 */
  return static_cast<unsigned long long>(v);
}

}  // namespace cass_half

#define CASS_HALF_FROM(SUFFIX, MODE)                                                             \
  __host__ __device__ inline __half cass_float2half##SUFFIX(float x) {                          \
    return cass_half::from_bits(cass_half::bits_from_double(x, MODE));                           \
  }                                                                                              \
  __host__ __device__ inline __half cass_int2half##SUFFIX(int x) {                              \
    return cass_half::from_bits(cass_half::bits_from_double(x, MODE));                           \
  }                                                                                              \
  __host__ __device__ inline __half cass_uint2half##SUFFIX(unsigned x) {                        \
    return cass_half::from_bits(cass_half::bits_from_double(x, MODE));                           \
  }                                                                                              \
  __host__ __device__ inline __half cass_short2half##SUFFIX(short x) {                          \
    return cass_half::from_bits(cass_half::bits_from_double(x, MODE));                           \
  }                                                                                              \
  __host__ __device__ inline __half cass_ushort2half##SUFFIX(unsigned short x) {                \
    return cass_half::from_bits(cass_half::bits_from_double(x, MODE));                           \
  }                                                                                              \
  /* a 64-bit integer past 2^53 rounds in the double, but its half saturates either way */      \
  __host__ __device__ inline __half cass_ll2half##SUFFIX(long long x) {                         \
    return cass_half::from_bits(cass_half::bits_from_double(static_cast<double>(x), MODE));      \
  }                                                                                              \
  __host__ __device__ inline __half cass_ull2half##SUFFIX(unsigned long long x) {               \
    return cass_half::from_bits(cass_half::bits_from_double(static_cast<double>(x), MODE));      \
  }                                                                                              \
  __host__ __device__ inline int cass_half2int##SUFFIX(__half h) {                              \
    return static_cast<int>(cass_half::to_integer(h, MODE, -2147483648.0, 2147483647.0));       \
  }                                                                                              \
  __host__ __device__ inline unsigned cass_half2uint##SUFFIX(__half h) {                        \
    return static_cast<unsigned>(cass_half::to_integer(h, MODE, 0.0, 4294967295.0));            \
  }                                                                                              \
  __host__ __device__ inline short cass_half2short##SUFFIX(__half h) {                          \
    return static_cast<short>(cass_half::to_integer(h, MODE, -32768.0, 32767.0));                \
  }                                                                                              \
  __host__ __device__ inline unsigned short cass_half2ushort##SUFFIX(__half h) {                \
    return static_cast<unsigned short>(cass_half::to_integer(h, MODE, 0.0, 65535.0));            \
  }                                                                                              \
  __host__ __device__ inline long long cass_half2ll##SUFFIX(__half h) {                         \
    return cass_half::to_integer(h, MODE, -9223372036854775808.0, 9.2e18);                        \
  }                                                                                              \
  __host__ __device__ inline unsigned long long cass_half2ull##SUFFIX(__half h) {               \
    return cass_half::to_unsigned64(h, MODE);                                                    \
  }
CASS_HALF_FROM(_rn, 0)
CASS_HALF_FROM(_rz, 1)
CASS_HALF_FROM(_rd, 2)
CASS_HALF_FROM(_ru, 3)
#undef CASS_HALF_FROM

/* Rounded once from the double, not through float. */
__host__ __device__ inline __half __double2half(double x) {
  return cass_half::from_bits(cass_half::bits_from_double(x, 0));
}

__host__ __device__ inline unsigned short cass_half_as_ushort(__half h) { return cass_half::to_bits(h); }
__host__ __device__ inline short cass_half_as_short(__half h) {
  return static_cast<short>(cass_half::to_bits(h));
}
__host__ __device__ inline __half cass_ushort_as_half(unsigned short bits) {
  return cass_half::from_bits(bits);
}
__host__ __device__ inline __half cass_short_as_half(short bits) {
  return cass_half::from_bits(static_cast<unsigned short>(bits));
}

/* __half arithmetic and comparisons in host code, as CUDA 12's cuda_fp16.hpp has them (HIP 5.2's
 * operators are __device__ only). Computed in float: a float holds more than twice a half's
 * digits, so rounding the float result again to half gives the correctly rounded half. */
#define CASS_HALF_HOST_OP(OP)                                                   \
  __host__ inline __half operator OP(const __half& a, const __half& b) {       \
    return __float2half(__half2float(a) OP __half2float(b));                    \
  }
CASS_HALF_HOST_OP(+)
CASS_HALF_HOST_OP(-)
CASS_HALF_HOST_OP(*)
CASS_HALF_HOST_OP(/)
#undef CASS_HALF_HOST_OP
#define CASS_HALF_HOST_COMPARE(OP)                                              \
  __host__ inline bool operator OP(const __half& a, const __half& b) {         \
    return __half2float(a) OP __half2float(b);                                  \
  }
CASS_HALF_HOST_COMPARE(==)
CASS_HALF_HOST_COMPARE(!=)
CASS_HALF_HOST_COMPARE(<)
CASS_HALF_HOST_COMPARE(<=)
CASS_HALF_HOST_COMPARE(>)
CASS_HALF_HOST_COMPARE(>=)
#undef CASS_HALF_HOST_COMPARE
__host__ inline __half operator-(const __half& a) {
  return cass_half::from_bits(cass_half::to_bits(a) ^ 0x8000u);
}
__host__ inline __half operator+(const __half& a) { return a; }

/* cuda_fp16.h's and cuda_bf16.h's math functions, computed in float and rounded once, as CUDA
 * computes them. HIP 5.2's differ: hsin gives NaN on gfx11, h2rcp returns the high half's
 * reciprocal in both halves, hrcp calls a function its device libraries lack, and it has no
 * bfloat16 versions. hipify renames CUDA's names to these (tables/half.py). */
#define CASS_HALF_MATH(NAME, EXPR)                                                         \
  __device__ inline __half cass_h##NAME(__half a) {                                      \
    float x = __half2float(a);                                                            \
    return __float2half(EXPR);                                                            \
  }                                                                                       \
  __device__ inline __half2 cass_h2##NAME(__half2 a) {                                   \
    return __halves2half2(cass_h##NAME(__low2half(a)), cass_h##NAME(__high2half(a)));    \
  }                                                                                       \
  __device__ inline hip_bfloat16 cass_h##NAME(hip_bfloat16 a) {                          \
    float x = static_cast<float>(a);                                                      \
    return hip_bfloat16(EXPR);                                                            \
  }
CASS_HALF_MATH(exp, expf(x))
CASS_HALF_MATH(exp2, exp2f(x))
CASS_HALF_MATH(exp10, exp10f(x))
CASS_HALF_MATH(log, logf(x))
CASS_HALF_MATH(log2, log2f(x))
CASS_HALF_MATH(log10, log10f(x))
CASS_HALF_MATH(sqrt, sqrtf(x))
CASS_HALF_MATH(rsqrt, rsqrtf(x))
CASS_HALF_MATH(rcp, 1.0f / x)
CASS_HALF_MATH(sin, sinf(x))
CASS_HALF_MATH(cos, cosf(x))
CASS_HALF_MATH(ceil, ceilf(x))
CASS_HALF_MATH(floor, floorf(x))
CASS_HALF_MATH(trunc, truncf(x))
CASS_HALF_MATH(rint, rintf(x))
#undef CASS_HALF_MATH

#endif  // CASS_HALF_H
