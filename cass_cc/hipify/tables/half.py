"""Half and bfloat16. HIP's hip_fp16.h keeps CUDA's __half API names; CUDA's __nv_bfloat16 is
HIP 5.2's hip_bfloat16 (a struct with float conversions); the conversion functions and the
__hadd-style arithmetic CUDA code calls on it come from the compatibility header (which every
TU including cuda_bf16.h gets, see headers.NEEDS_COMPAT)."""

FAMILY = "half"

# HIP 5.2's integer conversions are __device__ only (CUDA's are __host__ __device__), and its
# directed-rounding ones round to nearest or truncate; the compatibility header's cass_ versions
# (cass_half.h) round as their suffix says. Its bit casts are __device__ only too.
_CONVERSIONS = [f"{a}2{b}{mode}" for mode in ("_rn", "_rz", "_rd", "_ru")
                for a, b in [(t, "half") for t in ("int", "uint", "short", "ushort", "ll", "ull")]
                + [("half", t) for t in ("int", "uint", "short", "ushort", "ll", "ull")]]
_CONVERSIONS += ["float2half_rz", "float2half_rd", "float2half_ru",
                 "half_as_ushort", "half_as_short", "ushort_as_half", "short_as_half"]

RENAMES = {
    "__nv_bfloat16": "hip_bfloat16",
    "nv_bfloat16": "hip_bfloat16",
    **{f"__{name}": f"cass_{name}" for name in _CONVERSIONS},
}

# Math functions HIP 5.2 gets wrong or lacks for bfloat16 (see cass_half.h).
_MATH = "exp exp2 exp10 log log2 log10 sqrt rsqrt rcp sin cos ceil floor trunc rint".split()
RENAMES.update({f"h{name}": f"cass_h{name}" for name in _MATH})
RENAMES.update({f"h2{name}": f"cass_h2{name}" for name in _MATH})

# What the renames above need from the compatibility header.
COMPAT_FUNCTIONS = " ".join(new for new in RENAMES.values() if new.startswith("cass_"))

KEEP = """
__half __half2 __half_raw __half2_raw half half2 __float2half __float2half_rn __half2float
__float22half2_rn __half22float2 __floats2half2_rn __float2half2_rn __halves2half2 __low2half
__high2half __low2float __high2float __lows2half2 __highs2half2 __hadd __hsub __hmul __hdiv __hfma __hneg
__habs __hadd2 __hsub2 __hmul2 __h2div __hfma2 __hneg2 __habs2 __heq __hne __hlt __hle __hgt
__hge __hequ __hneu __hltu __hleu __hgtu __hgeu __hisnan __hisinf __hbeq2 __hbne2 __hblt2
__hble2 __hbgt2 __hbge2 make_half2
"""

COMPAT = """
__double2half __hmax __hmin __hmax2 __hmin2 __float2bfloat16 __float2bfloat16_rn __bfloat162float
__bfloat16_as_ushort __ushort_as_bfloat16 __nv_bfloat162 __floats2bfloat162_rn __halves2bfloat162
"""

UNSUPPORTED: dict[str, str] = {}
