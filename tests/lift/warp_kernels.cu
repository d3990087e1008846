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

// Every comparison of setp.f16x2 / setp.bf16x2 (sm_90) with both halves' predicates kept
// (HSETP2.op.AND P, Q): two bits per comparison.
#define HCMP(OP, TYPE, BIT)                                                                          \
  asm("{ .reg .pred p, q; .reg .u32 r; setp." #OP "." #TYPE " p|q, %1, %2; selp.u32 r, " #BIT ", 0, p;" \
      " add.u32 %0, %0, r; selp.u32 r, " #BIT " * 2, 0, q; add.u32 %0, %0, r; }" : "+r"(bits) : "r"(x), "r"(y));
#define ALLCMP(TYPE)                                                                                 \
  HCMP(eq, TYPE, 1) HCMP(ne, TYPE, 4) HCMP(lt, TYPE, 16) HCMP(le, TYPE, 64) HCMP(gt, TYPE, 256)      \
  HCMP(ge, TYPE, 1024) HCMP(equ, TYPE, 4096) HCMP(neu, TYPE, 16384) HCMP(ltu, TYPE, 65536)           \
  HCMP(leu, TYPE, 262144) HCMP(gtu, TYPE, 1048576) HCMP(geu, TYPE, 4194304) HCMP(num, TYPE, 16777216) \
  HCMP(nan, TYPE, 67108864)

extern "C" __global__ void halfcompares(const unsigned *a, const unsigned *b, unsigned *out) {
  int t = threadIdx.x;
  unsigned x = a[t], y = b[t], bits = 0;
  ALLCMP(f16x2)
  out[t] = bits;
  bits = 0;
#if __CUDA_ARCH__ >= 900
  ALLCMP(bf16x2)
#endif
  out[t + blockDim.x] = bits;
}
