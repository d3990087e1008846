// Kernels for tests/lift/test_warp_forms.py: warp operations with masks that differ between
// lanes (WARPSYNC.EXCLUSIVE regions on sm_90), and packed half comparisons joined over both halves.
extern "C" __global__ void masks(const int *in, int *out) {
  int t = threadIdx.x, v = in[blockIdx.x * 32 + t];
  unsigned m = (t & 1) ? 0xaaaaaaaau : 0x55555555u;
  int *o = out + (blockIdx.x * 32 + t) * 6;
  o[0] = __reduce_add_sync(m, v);
  o[1] = __shfl_sync(m, v, 3);
  o[2] = __ballot_sync(m, v > 5);
  o[3] = __any_sync(m, v > 7) + 2 * __all_sync(m, v > 1);
  o[4] = __match_any_sync(m, v);
  o[5] = __reduce_max_sync(m, v);
}

extern "C" __global__ void halfpairs(const unsigned *a, const unsigned *b, int *out) {
  int t = threadIdx.x;
  unsigned x = a[t], y = b[t];
  int r, s;
  asm("{ .reg .pred p, q, z; setp.gt.f16x2 p|q, %1, %2; and.pred z, p, q; selp.s32 %0, 1, 0, z; }" : "=r"(r) : "r"(x), "r"(y));
  asm("{ .reg .pred p, q, z; setp.ltu.f16x2 p|q, %1, %2; or.pred z, p, q; selp.s32 %0, 1, 0, z; }" : "=r"(s) : "r"(x), "r"(y));
  out[t] = r + 2 * s;
}
