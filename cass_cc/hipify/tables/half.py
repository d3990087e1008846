"""Half and bfloat16. HIP's hip_fp16.h keeps CUDA's __half API names; CUDA's __nv_bfloat16 is
HIP 5.2's hip_bfloat16 (a struct with float conversions); the conversion functions and the
__hadd-style arithmetic CUDA code calls on it come from the compatibility header (which every
TU including cuda_bf16.h gets, see headers.NEEDS_COMPAT)."""

FAMILY = "half"

RENAMES = {
    "__nv_bfloat16": "hip_bfloat16",
    "nv_bfloat16": "hip_bfloat16",
}

KEEP = """
__half __half2 __half_raw __half2_raw half half2 __float2half __float2half_rn __half2float
__float22half2_rn __half22float2 __floats2half2_rn __float2half2_rn __halves2half2 __low2half
__high2half __low2float __high2float __lows2half2 __highs2half2 __half_as_short
__short_as_half __half_as_ushort __ushort_as_half __hadd __hsub __hmul __hdiv __hfma __hneg
__habs __hadd2 __hsub2 __hmul2 __h2div __hfma2 __hneg2 __habs2 __heq __hne __hlt __hle __hgt
__hge __hequ __hneu __hltu __hleu __hgtu __hgeu __hisnan __hisinf __hbeq2 __hbne2 __hblt2
__hble2 __hbgt2 __hbge2 hsqrt hrsqrt hrcp hexp hexp2 hexp10 hlog hlog2 hlog10 hsin hcos hceil
hfloor htrunc hrint h2sqrt h2rsqrt h2exp h2log h2sin h2cos make_half2 __half2int_rn
__int2half_rn __half2uint_rn __uint2half_rn
"""

COMPAT = """
__hmax __hmin __hmax2 __hmin2 __float2bfloat16 __float2bfloat16_rn __bfloat162float
__bfloat16_as_ushort __ushort_as_bfloat16
"""

UNSUPPORTED = {
    "__nv_bfloat162": "HIP 5.2 has no packed bfloat16 pair type",
    "__floats2bfloat162_rn": "HIP 5.2 has no packed bfloat16 pair type",
}
