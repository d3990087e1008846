"""DPP (data-parallel primitives) lane routing for the first source of a VALU op: which lane each
lane reads (row_shl/shr/ror, row_mirror, row_half_mirror, row_share, row_xmask, quad_perm, dpp8),
and which lanes are written (row_mask, bank_mask, bound_ctrl, fi)."""

from __future__ import annotations

import numpy as np

from .fault import Unimplemented

LANE = np.arange(32)
ROW_BASE = LANE & ~15
IN_ROW = LANE & 15


def source_lanes(mods: dict) -> tuple[np.ndarray, np.ndarray]:
    """(source lane for each lane, whether that source is valid), shape (32,)."""
    valid = np.ones(32, bool)
    if "dpp8" in mods:
        sel = np.array(mods["dpp8"])
        return (LANE & ~7) | sel[LANE & 7], valid
    if "quad_perm" in mods:
        perm = np.array(mods["quad_perm"])
        return (LANE & ~3) | perm[LANE & 3], valid
    if "row_shl" in mods:
        src = IN_ROW + mods["row_shl"]
        return ROW_BASE + (src & 15), src < 16
    if "row_shr" in mods:
        src = IN_ROW - mods["row_shr"]
        return ROW_BASE + (src & 15), src >= 0
    if "row_ror" in mods:
        return ROW_BASE + ((IN_ROW - mods["row_ror"]) & 15), valid
    if "row_mirror" in mods:
        return ROW_BASE + (15 - IN_ROW), valid
    if "row_half_mirror" in mods:
        return (LANE & ~7) + (7 - (LANE & 7)), valid
    if "row_share" in mods:
        return ROW_BASE + mods["row_share"], valid
    if "row_xmask" in mods:
        return ROW_BASE + (IN_ROW ^ mods["row_xmask"]), valid
    raise Unimplemented(f"DPP control in {sorted(mods)}")


def write_lanes(mods: dict) -> np.ndarray:
    """(32,) bool: lanes row_mask and bank_mask allow to be written."""
    row_mask = mods.get("row_mask", 0xF)
    bank_mask = mods.get("bank_mask", 0xF)
    return ((row_mask >> (LANE >> 4)) & 1).astype(bool) & ((bank_mask >> ((LANE >> 2) & 3)) & 1).astype(bool)


class Route:
    """The DPP routing of one instruction, applied to src0's (k, 32) values and the write mask."""

    def __init__(self, mods: dict):
        self.src, self.valid = source_lanes(mods)
        self.writable = write_lanes(mods)
        self.bound_zero = bool(mods.get("bound_ctrl", 0)) or "dpp8" in mods
        self.fetch_inactive = bool(mods.get("fi", 0))

    def apply(self, values: np.ndarray, exec_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(routed src0 values, lanes to write)."""
        routed = values[:, self.src]
        ok = np.broadcast_to(self.valid, exec_mask.shape)
        if not self.fetch_inactive:
            ok = ok & exec_mask[:, self.src]
        if self.bound_zero:
            routed = np.where(ok, routed, routed.dtype.type(0))
            write = exec_mask & self.writable
        else:
            write = exec_mask & self.writable & ok
        return routed, write
