"""Conversions to float and double in a directed rounding mode. HIP 5.2 declares CUDA's names
(__double2float_rz, __int2float_rd, __ull2float_ru ...) but rounds to nearest in all of them; the
compatibility header's cass_ versions (cass_convert.h) round as the suffix says. Its conversions
from float and double to integers are casts, undefined out of range, where CUDA saturates; its
_rn additions and multiplications may be fused."""

FAMILY = "rounding"

_CONVERSIONS = [f"{source}2{target}{mode}" for mode in ("_rz", "_rd", "_ru")
                for source, target in [("double", "float"), ("int", "float"), ("uint", "float"),
                                       ("ll", "float"), ("ull", "float"), ("ll", "double"),
                                       ("ull", "double")]]

_CONVERSIONS += [f"{source}2{target}{mode}" for mode in ("_rn", "_rz", "_rd", "_ru")
                 for source in ("float", "double") for target in ("int", "uint", "ll", "ull")]

# HIP 5.2's _rn arithmetic is the plain operator, which the compiler may fuse into an fma with a
# neighbouring operation; CUDA's intrinsics are never fused.
_CONVERSIONS += [f"{op}_rn" for op in ("fadd", "fsub", "fmul", "dadd", "dsub", "dmul")]

RENAMES = {f"__{name}": f"cass_{name}" for name in _CONVERSIONS}

# What the renames above need from the compatibility header.
COMPAT_FUNCTIONS = " ".join(f"cass_{name}" for name in _CONVERSIONS)
