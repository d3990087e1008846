"""Device intrinsics, atomics and math. HIP keeps CUDA's names for almost all of them (KEEP,
checked against the installed headers by the tests); the rest are renamed or come from the
compatibility header (COMPAT)."""

FAMILY = "device"

# Block scope is contained in HIP's device scope, so the plain atomics are correct (and stronger).
RENAMES = {f"atomic{op}_block": f"atomic{op}" for op in
           "Add Sub Exch Min Max Inc Dec CAS And Or Xor".split()}

KEEP = """
atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc atomicDec atomicCAS atomicAnd atomicOr
atomicXor atomicAdd_system atomicSub_system atomicExch_system atomicMin_system atomicMax_system
atomicCAS_system atomicAnd_system atomicOr_system atomicXor_system
__syncthreads __syncthreads_count __syncthreads_and __syncthreads_or __threadfence
__threadfence_block __threadfence_system clock clock64 __ldg
__popc __popcll __clz __clzll __ffs __ffsll __brev __brevll __byte_perm __mul24 __umul24 __mulhi
__umulhi __mul64hi __umul64hi __rhadd __urhadd __hadd __uhadd __sad __usad __funnelshift_l
__funnelshift_r __funnelshift_lc __funnelshift_rc
__float_as_int __int_as_float __float_as_uint __uint_as_float __double_as_longlong
__longlong_as_double __hiloint2double __double2hiint __double2loint
__fdividef __saturatef __expf __exp10f __logf __log2f __log10f __powf __sinf __cosf __tanf
__sincosf __frsqrt_rn __fsqrt_rn __fdiv_rn    __fmaf_rn 
__frcp_rn   __fma_rn __drcp_rn __dsqrt_rn __ddiv_rn
   __int2float_rn __uint2float_rn __double2float_rn
__ll2float_rn   __int2double_rn __uint2double_rn __ll2double_rn
__ull2double_rn
rsqrtf rcbrtf cbrtf normcdff erfcinvf erfinvf sincospif cospif sinpif exp10f norm3df rnorm3df
sincosf fmaf fminf fmaxf fabsf sqrtf expf logf powf sinf cosf tanhf copysignf nextafterf fdimf
frexpf ldexpf scalbnf truncf roundf rintf lrintf llrintf floorf ceilf
"""

COMPAT = """
__nanosleep __trap __stcs __stcg __stwt __stwb __ldcg __ldca __ldcs __ldlu __ldcv __dp4a
__cvta_generic_to_shared __cvta_shared_to_generic __cvta_generic_to_global __cvta_global_to_generic
__fadd_rz __fadd_rd __fadd_ru __fsub_rz __fsub_rd __fsub_ru __fmul_rz __fmul_rd __fmul_ru __fmaf_rz
__fmaf_rd __fmaf_ru __fdiv_rz __fdiv_rd __fdiv_ru __frcp_rz __frcp_rd __frcp_ru __fsqrt_rz __fsqrt_rd
__fsqrt_ru __vadd2 __vsub2 __vadd4 __vsub4 __vabsdiffu2 __vabsdiffu4 __vabsss2 __vavgu4 __vcmpeq2
__vcmpgtu4 __vmaxu4 __vmins2 __vsetgeu2 __vsadu4 __dp2a_lo __dp2a_hi __viaddmax_s32 __viaddmax_s16x2 __vimax_s32_relu
__vimax3_s32_relu __vimax_s16x2_relu __vimax3_s16x2_relu __vibmax_s32 __vibmin_u32 __vibmax_s16x2 __hmax_nan __hmin_nan __hmax2_nan __hmin2_nan
__dadd_rz __dadd_rd __dadd_ru __dsub_rz __dsub_rd __dsub_ru __dmul_rz __dmul_rd __dmul_ru __ddiv_rz __ddiv_rd
__ddiv_ru __drcp_rz __drcp_rd __drcp_ru __dsqrt_rz __dsqrt_rd __dsqrt_ru __fma_rz __fma_rd __fma_ru
umin umax llmin llmax ullmin ullmax __pipeline_memcpy_async __pipeline_commit __pipeline_wait_prior __fns
"""

# HIP 5.2 declares these only in part (for __half and __half2; or the rounded float operations
# behind OCML_BASIC_ROUNDED_OPERATIONS, which HIP does not define); the compatibility headers add
# the rest.
PARTLY_IN_HIP = """
__ldcg __ldca __ldcs
__fadd_rz __fadd_rd __fadd_ru __fsub_rz __fsub_rd __fsub_ru __fmul_rz __fmul_rd __fmul_ru __fdiv_rz __fdiv_rd
__fdiv_ru __fsqrt_rz __fsqrt_rd __fsqrt_ru __frcp_rz __frcp_rd __frcp_ru __fmaf_rz __fmaf_rd __fmaf_ru
__dadd_rz __dadd_rd __dadd_ru __dsub_rz __dsub_rd __dsub_ru __dmul_rz __dmul_rd __dmul_ru __ddiv_rz __ddiv_rd
__ddiv_ru __drcp_rz __drcp_rd __drcp_ru __dsqrt_rz __dsqrt_rd __dsqrt_ru __fma_rz __fma_rd __fma_ru
"""

UNSUPPORTED = {
    "atomicInc_system": "HIP 5.2 has no system-scope atomicInc; use atomicInc on device memory",
    "atomicDec_system": "HIP 5.2 has no system-scope atomicDec; use atomicDec on device memory",
    "__prof_trigger": "profiler triggers have no HIP equivalent",
    "__isGlobal": "HIP 5.2 has no address-space query",
    "__isShared": "HIP 5.2 has no address-space query",
}
