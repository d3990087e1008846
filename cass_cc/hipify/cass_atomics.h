/* cass_atomics.h: CUDA's atomic functions on types HIP 5.2 has none for; included by
 * cass_hip_compat.h in HIP compiles.
 *   - atomicMin/atomicMax on long long (sm_35+);
 *   - 16-bit atomicCAS (sm_70+), over a 32-bit compare-and-swap of the word that holds it;
 *   - atomicAdd on __half, __half2 and __nv_bfloat162, each half added and rounded on its own
 *     (CUDA adds the two halves of a pair as two atomic operations too);
 *   - __nv_bfloat162, a pair of bfloat16 (hip_bfloat16) as CUDA lays it out, with
 *     __floats2bfloat162_rn and __halves2bfloat162.
 */
#ifndef CASS_ATOMICS_H
#define CASS_ATOMICS_H

struct __nv_bfloat162 {
  hip_bfloat16 x, y;
};
__host__ __device__ inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return {hip_bfloat16(a), hip_bfloat16(b)};
}
__host__ __device__ inline __nv_bfloat162 __halves2bfloat162(hip_bfloat16 a, hip_bfloat16 b) {
  return {a, b};
}

__device__ inline long long atomicMin(long long* address, long long value) {
  return __hip_atomic_fetch_min(address, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ inline long long atomicMax(long long* address, long long value) {
  return __hip_atomic_fetch_max(address, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

namespace cass_compat {

/* Replaces the 16 bits at `address` with update(old) atomically; returns the old bits. */
template <typename Update>
__device__ inline unsigned short update_16(unsigned short* address, Update update) {
  unsigned long long a = reinterpret_cast<unsigned long long>(address);
  unsigned* word = reinterpret_cast<unsigned*>(a & ~3ull);
  unsigned shift = (a & 2) ? 16 : 0;
  unsigned old = *word, seen;
  do {
    seen = old;
    unsigned short replacement = update(static_cast<unsigned short>(seen >> shift));
    old = atomicCAS(word, seen, (seen & ~(0xffffu << shift)) | (static_cast<unsigned>(replacement) << shift));
  } while (old != seen);
  return static_cast<unsigned short>(old >> shift);
}

/* Replaces the 32 bits at `address` with update(old) atomically; returns the old bits. */
template <typename Update>
__device__ inline unsigned update_32(unsigned* address, Update update) {
  unsigned old = *address, seen;
  do {
    seen = old;
    old = atomicCAS(address, seen, update(seen));
  } while (old != seen);
  return old;
}

__device__ inline unsigned short add_half_bits(unsigned short a, unsigned short b) {
  return __half_as_ushort(__hadd(__ushort_as_half(a), __ushort_as_half(b)));
}
__device__ inline unsigned short add_bfloat16_bits(unsigned short a, unsigned short b) {
  return __bfloat16_as_ushort(hip_bfloat16(__bfloat162float(__ushort_as_bfloat16(a)) +
                                           __bfloat162float(__ushort_as_bfloat16(b))));
}

}  // namespace cass_compat

__device__ inline unsigned short atomicCAS(unsigned short* address, unsigned short compare,
                                           unsigned short value) {
  return cass_compat::update_16(address, [=](unsigned short old) { return old == compare ? value : old; });
}

__device__ inline __half atomicAdd(__half* address, __half value) {
  unsigned short add = __half_as_ushort(value);
  return __ushort_as_half(cass_compat::update_16(reinterpret_cast<unsigned short*>(address), [=](unsigned short old) {
    return cass_compat::add_half_bits(old, add);
  }));
}

__device__ inline __half2 atomicAdd(__half2* address, __half2 value) {
  unsigned add;
  __builtin_memcpy(&add, &value, sizeof add);
  unsigned old = cass_compat::update_32(reinterpret_cast<unsigned*>(address), [=](unsigned bits) {
    return cass_compat::add_half_bits(bits & 0xffffu, add & 0xffffu) |
           static_cast<unsigned>(cass_compat::add_half_bits(bits >> 16, add >> 16)) << 16;
  });
  __half2 result;
  __builtin_memcpy(&result, &old, sizeof result);
  return result;
}

__device__ inline __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 value) {
  unsigned add;
  __builtin_memcpy(&add, &value, sizeof add);
  unsigned old = cass_compat::update_32(reinterpret_cast<unsigned*>(address), [=](unsigned bits) {
    return cass_compat::add_bfloat16_bits(bits & 0xffffu, add & 0xffffu) |
           static_cast<unsigned>(cass_compat::add_bfloat16_bits(bits >> 16, add >> 16)) << 16;
  });
  __nv_bfloat162 result;
  __builtin_memcpy(&result, &old, sizeof result);
  return result;
}

#endif  // CASS_ATOMICS_H
