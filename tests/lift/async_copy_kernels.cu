// Kernels for tests/lift/test_async_copy.py: cp.async with a src-size in a register
// (LDGSTS.ZFILL: the zero-filled tail's length in the low bits of the global address).
extern "C" __global__ void zfill4(const unsigned char *in, unsigned *out, int n) {
  __shared__ unsigned buf[64];
  unsigned d = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
  buf[threadIdx.x] = 0xdeadbeef;
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(d), "l"(in + 4 * threadIdx.x), "r"(n) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = buf[63 - threadIdx.x];
}

extern "C" __global__ void zfill16(const unsigned char *in, uint4 *out, int n) {
  __shared__ uint4 buf[64];
  unsigned d = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
  buf[threadIdx.x] = make_uint4(1, 2, 3, 4);
  __syncthreads();
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d), "l"(in + 16 * threadIdx.x), "r"(n) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = buf[63 - threadIdx.x];
}
