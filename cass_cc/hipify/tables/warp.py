"""Warp functions. HIP 5.2 has the legacy forms; the CUDA 9 `_sync` forms, the lane-mask
helpers, match and reduce come from the compatibility header, with CUDA's 32-lane warps on
every target (a wave32 on gfx10-gfx12; a half of a 64-lane wave on gfx9: cass_wave64.h)."""

FAMILY = "warp"

# HIP's warpSize is the wave's width (64 on gfx9); CUDA code means 32.
RENAMES: dict[str, str] = {"warpSize": "cass_warpSize"}

KEEP = """
__shfl __shfl_up __shfl_down __shfl_xor __any __all
"""

COMPAT = """
__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync
__uni_sync __activemask __syncwarp __match_any_sync __match_all_sync __reduce_add_sync
__reduce_min_sync __reduce_max_sync __reduce_and_sync __reduce_or_sync __reduce_xor_sync
"""

# CUDA's legacy __ballot returned 32 bits; HIP's returns 64, so results compared or stored as
# 32-bit values change meaning. It is kept, with a warning (checks.py).
WIDE_IN_HIP = ("__ballot",)
