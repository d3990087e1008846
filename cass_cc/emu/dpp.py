"""DPP (data-parallel primitives) lane routing for the first source of a VALU op: which lane each
lane reads (row_shl/shr/ror, row_mirror, row_half_mirror, row_share, row_xmask, quad_perm, dpp8;
GFX9's whole-wave wave_shl/shr/rol/ror and row_bcast:15/31), and which lanes are written
(row_mask, bank_mask, bound_ctrl, fi). A row is 16 lanes: two in wave32, four in wave64."""

from __future__ import annotations

import numpy as np

from .fault import Unimplemented


def source_lanes(mods: dict, lanes: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """(source lane for each lane, whether that source is valid), shape (lanes,)."""
    lane = np.arange(lanes)
    row_base, in_row = lane & ~15, lane & 15
    valid = np.ones(lanes, bool)
    if "dpp8" in mods:
        sel = np.array(mods["dpp8"])
        return (lane & ~7) | sel[lane & 7], valid
    if "quad_perm" in mods:
        perm = np.array(mods["quad_perm"])
        return (lane & ~3) | perm[lane & 3], valid
    if "row_shl" in mods:
        src = in_row + mods["row_shl"]
        return row_base + (src & 15), src < 16
    if "row_shr" in mods:
        src = in_row - mods["row_shr"]
        return row_base + (src & 15), src >= 0
    if "row_ror" in mods:
        return row_base + ((in_row - mods["row_ror"]) & 15), valid
    if "row_mirror" in mods:
        return row_base + (15 - in_row), valid
    if "row_half_mirror" in mods:
        return (lane & ~7) + (7 - (lane & 7)), valid
    if "row_share" in mods:
        return row_base + mods["row_share"], valid
    if "row_xmask" in mods:
        return row_base + (in_row ^ mods["row_xmask"]), valid
    # GFX9 (LLVM's DppCtrl WAVE_SHL1 .. BCAST31): shifts and rotates by one lane across the whole
    # wave; row_bcast:15 gives each row the last lane of the row before it, row_bcast:31 gives
    # rows 2 and 3 lane 31. A lane with no source (lane 0 of wave_shr, row 0 of row_bcast:15)
    # is invalid, as a shift out of a row is.
    if "wave_shl" in mods:
        return (lane + 1) % lanes, lane + 1 < lanes
    if "wave_shr" in mods:
        return (lane - 1) % lanes, lane >= 1
    if "wave_rol" in mods:
        return (lane + 1) % lanes, valid
    if "wave_ror" in mods:
        return (lane - 1) % lanes, valid
    if mods.get("row_bcast") == 15:
        return np.maximum(row_base - 1, 0), row_base >= 16
    if mods.get("row_bcast") == 31:
        return np.full(lanes, 31), lane >= 32
    raise Unimplemented(f"DPP control in {sorted(mods)}")


def write_lanes(mods: dict, lanes: int = 32) -> np.ndarray:
    """(lanes,) bool: lanes row_mask and bank_mask allow to be written."""
    lane = np.arange(lanes)
    row_mask = mods.get("row_mask", 0xF)
    bank_mask = mods.get("bank_mask", 0xF)
    return ((row_mask >> (lane >> 4)) & 1).astype(bool) & ((bank_mask >> ((lane >> 2) & 3)) & 1).astype(bool)


class Route:
    """The DPP routing of one instruction, applied to src0's (k, lanes) values and the write mask."""

    def __init__(self, mods: dict):
        self.mods = mods
        self.by_lanes: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        source_lanes(mods)          # an unknown control is refused when the instruction is built
        self.bound_zero = bool(mods.get("bound_ctrl", 0)) or "dpp8" in mods
        self.fetch_inactive = bool(mods.get("fi", 0))

    def _lanes(self, lanes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        found = self.by_lanes.get(lanes)
        if found is None:
            found = self.by_lanes[lanes] = (*source_lanes(self.mods, lanes), write_lanes(self.mods, lanes))
        return found

    def apply(self, values: np.ndarray, exec_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(routed src0 values, lanes to write)."""
        src, valid, writable = self._lanes(exec_mask.shape[1])
        routed = values[:, src]
        ok = np.broadcast_to(valid, exec_mask.shape)
        if not self.fetch_inactive:
            ok = ok & exec_mask[:, src]
        if self.bound_zero:
            routed = np.where(ok, routed, routed.dtype.type(0))
            write = exec_mask & writable
        else:
            write = exec_mask & writable & ok
        return routed, write
