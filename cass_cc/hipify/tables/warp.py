"""Warp functions. HIP 5.2 has the legacy forms; the CUDA 9 `_sync` forms, the lane-mask
helpers, match and reduce come from the compatibility header for wave32 targets (gfx10/gfx11),
where a CUDA warp and an AMD wavefront are both 32 lanes."""

FAMILY = "warp"

RENAMES: dict[str, str] = {}

KEEP = """
__shfl __shfl_up __shfl_down __shfl_xor __any __all warpSize
"""

COMPAT = """
__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync
__uni_sync __activemask __syncwarp __match_any_sync __match_all_sync __reduce_add_sync
__reduce_min_sync __reduce_max_sync __reduce_and_sync __reduce_or_sync __reduce_xor_sync
"""

# CUDA's legacy __ballot returned 32 bits; HIP's returns 64, so results compared or stored as
# 32-bit values change meaning. It is kept, with a warning (checks.py).
WIDE_IN_HIP = ("__ballot",)
