/* cass_convert.h: CUDA's conversions to float and double in the directed rounding modes
 * (__double2float_rz, __int2float_rd, __ull2float_ru, __ll2double_rz, ...); HIP 5.2's round to
 * nearest whatever their suffix says. hipify renames CUDA's names to these cass_ ones
 * (tables/rounding.py). Included by cass_hip_compat.h in device compiles.
 * Modes as in cass_ptx.h: 1 toward zero, 2 down, 3 up.
 */
#ifndef CASS_CONVERT_H
#define CASS_CONVERT_H

#include <limits>

namespace cass_convert {

template <typename F> struct bits_of;
template <> struct bits_of<float> { typedef unsigned type; };
template <> struct bits_of<double> { typedef unsigned long long type; };

/* The next representable value above (up) or below f; from zero, the smallest subnormal. */
template <typename F>
__device__ inline F step(F f, bool up) {
  typedef typename bits_of<F>::type B;
  const B sign = B(1) << (sizeof(B) * 8 - 1);
  if (f == F(0)) {
    B b = up ? B(1) : (sign | B(1));
    __builtin_memcpy(&f, &b, sizeof f);
    return f;
  }
  B b;
  __builtin_memcpy(&b, &f, sizeof b);
  b = ((f > F(0)) == up) ? b + 1 : b - 1;
  __builtin_memcpy(&f, &b, sizeof f);
  return f;
}

/* r (rounded to nearest) moved to the directed neighbour; `error` is the sign of exact - r. */
template <typename F>
__device__ inline F directed(F r, int error, int mode) {
  if (error == 0 || r != r) return r;
  bool up = error > 0;
  if (mode == 1) return (r == F(0) || (r > F(0)) == up) ? r : step(r, up);  /* toward zero */
  if ((mode == 2 && !up) || (mode == 3 && up)) return step(r, up);
  return r;
}

/* An integer rounded to float or double in `mode`: compared with the nearest value exactly, in
 * the integer type (2^digits and above, where the cast back would overflow, is above x). */
template <typename F, typename I>
__device__ inline F from_integer(I x, int mode) {
  F r = static_cast<F>(x);
  const F limit = static_cast<F>(I(1) << (std::numeric_limits<I>::digits - 1)) * F(2);
  int error;
  if (r >= limit) {
    error = -1;
  } else {
    I back = static_cast<I>(r);
    error = x > back ? 1 : x < back ? -1 : 0;
  }
  return directed(r, error, mode);
}

__device__ inline float from_double(double x, int mode) {
  float r = static_cast<float>(x);
  double back = static_cast<double>(r);
  return directed(r, x > back ? 1 : x < back ? -1 : 0, mode);
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
CASS_CONVERT(_rz, 1)
CASS_CONVERT(_rd, 2)
CASS_CONVERT(_ru, 3)
#undef CASS_CONVERT

#endif  // CASS_CONVERT_H
