/* cass_int128.h: 128-bit integers whose division the device compiler can build. clang 15's AMDGPU
 * backend cannot lower i128 division and remainder ("unsupported libcall legalization"), so hipify
 * writes `__int128` / `unsigned __int128` as cass_s128 / cass_u128: in the host pass the native
 * types, in the device pass a class that holds the native value, does everything natively
 * except / and %, and divides in software. Included by cass_hip_compat.h. Its functions are
 * __host__ __device__ because host functions are type-checked in the device pass too.
 */
#ifndef CASS_INT128_H
#define CASS_INT128_H

#if !defined(__HIP_DEVICE_COMPILE__)
typedef __int128 cass_s128;
typedef unsigned __int128 cass_u128;
#else

#include <type_traits>

namespace cass_int128 {

typedef unsigned __int128 u128;

/* (high * 2^64 + low) / d with high < d: a bit at a time; the remainder in *rem. */
__host__ __device__ inline unsigned long long divide_128_by_64(unsigned long long high, unsigned long long low,
                                                      unsigned long long d, unsigned long long* rem) {
  unsigned long long q = 0, r = high;
  for (int i = 63; i >= 0; --i) {
    unsigned long long carry = r >> 63;
    r = (r << 1) | ((low >> i) & 1);
    if (carry || r >= d) {
      r -= d;
      q |= 1ull << i;
    }
  }
  *rem = r;
  return q;
}

/* n / d and n % d, unsigned; by 64-bit digits when d fits in 64 bits, else a bit at a time
 * (then the quotient has at most 64 bits). Division by zero gives all ones, as on NVIDIA GPUs. */
__host__ __device__ inline u128 divide(u128 n, u128 d, u128* rem) {
  if (d == 0) {
    *rem = n;
    return ~u128(0);
  }
  unsigned long long dh = static_cast<unsigned long long>(d >> 64);
  unsigned long long nh = static_cast<unsigned long long>(n >> 64), nl = static_cast<unsigned long long>(n);
  if (dh == 0) {
    unsigned long long dl = static_cast<unsigned long long>(d), r;
    unsigned long long qh = nh / dl;
    unsigned long long ql = divide_128_by_64(nh % dl, nl, dl, &r);
    *rem = r;
    return (u128(qh) << 64) | ql;
  }
  u128 q = 0, r = 0;
  for (int i = 127; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) {
      r -= d;
      q |= u128(1) << i;
    }
  }
  *rem = r;
  return q;
}

/* C's truncating division on signed values: the quotient's sign is the operands' product's, the
 * remainder's the dividend's. */
__host__ __device__ inline __int128 divide_signed(__int128 n, __int128 d, __int128* rem) {
  u128 un = n < 0 ? u128(0) - u128(n) : u128(n), ud = d < 0 ? u128(0) - u128(d) : u128(d), ur;
  u128 uq = divide(un, ud, &ur);
  *rem = n < 0 ? -__int128(ur) : __int128(ur);
  return (n < 0) != (d < 0) ? -__int128(uq) : __int128(uq);
}

__host__ __device__ inline u128 quotient(u128 n, u128 d, u128* rem) { return divide(n, d, rem); }
__host__ __device__ inline __int128 quotient(__int128 n, __int128 d, __int128* rem) { return divide_signed(n, d, rem); }

template <typename Native>
struct integer {
  Native v;

  integer() = default;
  __host__ __device__ constexpr integer(Native x) : v(x) {}
  template <typename _CassI, typename = typename std::enable_if<std::is_arithmetic<_CassI>::value>::type>
  __host__ __device__ constexpr integer(_CassI x) : v(static_cast<Native>(x)) {}
  template <typename Other>
  __host__ __device__ explicit constexpr integer(integer<Other> x) : v(static_cast<Native>(x.v)) {}

  template <typename _CassI, typename = typename std::enable_if<std::is_arithmetic<_CassI>::value>::type>
  __host__ __device__ explicit constexpr operator _CassI() const { return static_cast<_CassI>(v); }
  __host__ __device__ explicit constexpr operator Native() const { return v; }

  friend __host__ __device__ integer operator+(integer a, integer b) { return a.v + b.v; }
  friend __host__ __device__ integer operator-(integer a, integer b) { return a.v - b.v; }
  friend __host__ __device__ integer operator*(integer a, integer b) { return a.v * b.v; }
  friend __host__ __device__ integer operator&(integer a, integer b) { return a.v & b.v; }
  friend __host__ __device__ integer operator|(integer a, integer b) { return a.v | b.v; }
  friend __host__ __device__ integer operator^(integer a, integer b) { return a.v ^ b.v; }
  friend __host__ __device__ integer operator<<(integer a, int n) { return a.v << n; }
  friend __host__ __device__ integer operator>>(integer a, int n) { return a.v >> n; }
  friend __host__ __device__ integer operator/(integer a, integer b) {
    Native r;
    return quotient(a.v, b.v, &r);
  }
  friend __host__ __device__ integer operator%(integer a, integer b) {
    Native r;
    quotient(a.v, b.v, &r);
    return r;
  }
  friend __host__ __device__ bool operator==(integer a, integer b) { return a.v == b.v; }
  friend __host__ __device__ bool operator!=(integer a, integer b) { return a.v != b.v; }
  friend __host__ __device__ bool operator<(integer a, integer b) { return a.v < b.v; }
  friend __host__ __device__ bool operator<=(integer a, integer b) { return a.v <= b.v; }
  friend __host__ __device__ bool operator>(integer a, integer b) { return a.v > b.v; }
  friend __host__ __device__ bool operator>=(integer a, integer b) { return a.v >= b.v; }
  __host__ __device__ integer operator-() const { return -v; }
  __host__ __device__ integer operator+() const { return v; }
  __host__ __device__ integer operator~() const { return ~v; }
  __host__ __device__ bool operator!() const { return !v; }

  __host__ __device__ integer& operator+=(integer b) { return *this = *this + b; }
  __host__ __device__ integer& operator-=(integer b) { return *this = *this - b; }
  __host__ __device__ integer& operator*=(integer b) { return *this = *this * b; }
  __host__ __device__ integer& operator/=(integer b) { return *this = *this / b; }
  __host__ __device__ integer& operator%=(integer b) { return *this = *this % b; }
  __host__ __device__ integer& operator&=(integer b) { return *this = *this & b; }
  __host__ __device__ integer& operator|=(integer b) { return *this = *this | b; }
  __host__ __device__ integer& operator^=(integer b) { return *this = *this ^ b; }
  __host__ __device__ integer& operator<<=(int n) { return *this = *this << n; }
  __host__ __device__ integer& operator>>=(int n) { return *this = *this >> n; }
  __host__ __device__ integer& operator++() { return *this = *this + 1; }
  __host__ __device__ integer& operator--() { return *this = *this - 1; }
  __host__ __device__ integer operator++(int) {
    integer old = *this;
    ++*this;
    return old;
  }
  __host__ __device__ integer operator--(int) {
    integer old = *this;
    --*this;
    return old;
  }
};

}  // namespace cass_int128

typedef cass_int128::integer<__int128> cass_s128;
typedef cass_int128::integer<unsigned __int128> cass_u128;

#endif  // __HIP_DEVICE_COMPILE__

#endif  // CASS_INT128_H
