/* cass_convert.h: CUDA's conversions to float and double in the directed rounding modes
 * (__double2float_rz, __int2float_rd, __ull2float_ru, __ll2double_rz, ...), whose HIP 5.2
 * versions round to nearest whatever their suffix says, and from float and double to integers
 * (__float2int_rd, __double2ull_rz, ...), which saturate in CUDA and are casts in HIP 5.2. hipify renames CUDA's names to these cass_ ones
 * (tables/rounding.py). Included by cass_hip_compat.h in device compiles.
 * Modes as in cass_ptx.h: 1 toward zero, 2 down, 3 up.
 */
#ifndef CASS_CONVERT_H
#define CASS_CONVERT_H

#include <limits>

namespace cass_convert {

template <typename _CassF> struct bits_of;
template <> struct bits_of<float> { typedef unsigned type; };
template <> struct bits_of<double> { typedef unsigned long long type; };

/* The next representable value above (up) or below f; from zero, the smallest subnormal. */
template <typename _CassF>
__device__ inline _CassF step(_CassF f, bool up) {
  typedef typename bits_of<_CassF>::type B;
  const B sign = B(1) << (sizeof(B) * 8 - 1);
  if (f == _CassF(0)) {
    B b = up ? B(1) : (sign | B(1));
    __builtin_memcpy(&f, &b, sizeof f);
    return f;
  }
  B b;
  __builtin_memcpy(&b, &f, sizeof b);
  b = ((f > _CassF(0)) == up) ? b + 1 : b - 1;
  __builtin_memcpy(&f, &b, sizeof f);
  return f;
}

/* r (rounded to nearest) moved to the directed neighbour; `error` is the sign of exact - r. */
template <typename _CassF>
__device__ inline _CassF directed(_CassF r, int error, int mode) {
  if (error == 0 || r != r) return r;
  bool up = error > 0;
  if (mode == 1) return (r == _CassF(0) || (r > _CassF(0)) == up) ? r : step(r, up);  /* toward zero */
  if ((mode == 2 && !up) || (mode == 3 && up)) return step(r, up);
  return r;
}

/* An integer rounded to float or double in `mode`: compared with the nearest value exactly, in
 * the integer type (2^digits and above, where the cast back would overflow, is above x). */
template <typename _CassF, typename _CassI>
__device__ inline _CassF from_integer(_CassI x, int mode) {
  _CassF r = static_cast<_CassF>(x);
  const _CassF limit = static_cast<_CassF>(_CassI(1) << (std::numeric_limits<_CassI>::digits - 1)) * _CassF(2);
  int error;
  if (r >= limit) {
    error = -1;
  } else {
    _CassI back = static_cast<_CassI>(r);
    error = x > back ? 1 : x < back ? -1 : 0;
  }
  return directed(r, error, mode);
}

__device__ inline float from_double(double x, int mode) {
  float r = static_cast<float>(x);
  double back = static_cast<double>(r);
  return directed(r, x > back ? 1 : x < back ? -1 : 0, mode);
}

/* A float or double rounded to an integer type in `mode` (0 nearest even, 1 toward zero, 2 down,
 * 3 up), saturated to the type's range, NaN giving 0, as PTX's cvt.r*i does (HIP 5.2 casts,
 * which is undefined out of range). */
template <typename _CassI>
__device__ inline _CassI to_integer(double v, int mode) {
  if (v != v) return 0;
  double r = mode == 0 ? __builtin_rint(v) : mode == 1 ? __builtin_trunc(v)
             : mode == 2 ? __builtin_floor(v) : __builtin_ceil(v);
  const double past = 2.0 * static_cast<double>(_CassI(1) << (std::numeric_limits<_CassI>::digits - 1));
  if (r <= static_cast<double>(std::numeric_limits<_CassI>::min())) return std::numeric_limits<_CassI>::min();
  if (r >= past) return std::numeric_limits<_CassI>::max();  /* 2^digits: one past the largest */
  return static_cast<_CassI>(r);
}

}  // namespace cass_convert

#define CASS_CONVERT(SUFFIX, MODE)                                                               \
  __device__ inline float cass_double2float##SUFFIX(double x) { return cass_convert::from_double(x, MODE); } \
  __device__ inline float cass_int2float##SUFFIX(int x) {                                       \
    return cass_convert::from_integer<float>(x, MODE);                                           \
  }                                                                                              \
  __device__ inline float cass_uint2float##SUFFIX(unsigned x) {                                 \
    return cass_convert::from_integer<float>(x, MODE);                                           \
  }                                                                                              \
  __device__ inline float cass_ll2float##SUFFIX(long long x) {                                  \
    return cass_convert::from_integer<float>(x, MODE);                                           \
  }                                                                                              \
  __device__ inline float cass_ull2float##SUFFIX(unsigned long long x) {                        \
    return cass_convert::from_integer<float>(x, MODE);                                           \
  }                                                                                              \
  __device__ inline double cass_ll2double##SUFFIX(long long x) {                                \
    return cass_convert::from_integer<double>(x, MODE);                                          \
  }                                                                                              \
  __device__ inline double cass_ull2double##SUFFIX(unsigned long long x) {                      \
    return cass_convert::from_integer<double>(x, MODE);                                          \
  }
#define CASS_TO_INTEGER(SUFFIX, MODE)                                                             \
  __device__ inline int cass_float2int##SUFFIX(float x) { return cass_convert::to_integer<int>(x, MODE); } \
  __device__ inline unsigned cass_float2uint##SUFFIX(float x) {                                 \
    return cass_convert::to_integer<unsigned>(x, MODE);                                          \
  }                                                                                              \
  __device__ inline long long cass_float2ll##SUFFIX(float x) {                                  \
    return cass_convert::to_integer<long long>(x, MODE);                                         \
  }                                                                                              \
  __device__ inline unsigned long long cass_float2ull##SUFFIX(float x) {                        \
    return cass_convert::to_integer<unsigned long long>(x, MODE);                                \
  }                                                                                              \
  __device__ inline int cass_double2int##SUFFIX(double x) { return cass_convert::to_integer<int>(x, MODE); } \
  __device__ inline unsigned cass_double2uint##SUFFIX(double x) {                               \
    return cass_convert::to_integer<unsigned>(x, MODE);                                          \
  }                                                                                              \
  __device__ inline long long cass_double2ll##SUFFIX(double x) {                                \
    return cass_convert::to_integer<long long>(x, MODE);                                         \
  }                                                                                              \
  __device__ inline unsigned long long cass_double2ull##SUFFIX(double x) {                      \
    return cass_convert::to_integer<unsigned long long>(x, MODE);                                \
  }
CASS_TO_INTEGER(_rn, 0)
CASS_TO_INTEGER(_rz, 1)
CASS_TO_INTEGER(_rd, 2)
CASS_TO_INTEGER(_ru, 3)
#undef CASS_TO_INTEGER

CASS_CONVERT(_rz, 1)
CASS_CONVERT(_rd, 2)
CASS_CONVERT(_ru, 3)
#undef CASS_CONVERT

#endif  // CASS_CONVERT_H
