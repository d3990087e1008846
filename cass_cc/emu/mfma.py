"""CDNA's matrix instructions (MFMA) on 64-lane waves, and the moves of the accumulation
registers (AGPRs: v_accvgpr_read/write/mov_b32).

One block of D = A x B + C, with M = N (16 or 32), A M x K and B K x N spread over the 64 lanes
as AMD's matrix instruction calculator lays them out for gfx90a/gfx942 (one block: cbsz, abid,
blgp 0): lane l holds A[l % M][(l // M) * kpl + e] and B[(l // N) * kpl + e][l % N] in its
element e of kpl = K * M / 64 elements; result register r of lane l is
D[(r // 4) * 4 * (64 // N) + (l // N) * 4 + r % 4][l % N].
The products are summed in double precision and rounded to f32 once: the exact result wherever
the hardware's is (integers, sums short of f32's precision); elsewhere the hardware's own order
of accumulation may round differently. Multi-block forms (16x16x1f32, 32x32x1f32, 4x4x1f32 ...)
and other element types are refused by name."""

from __future__ import annotations

import re

import numpy as np

from .decode import Instr
from .fault import Unimplemented

MFMA = re.compile(r"^v_mfma_f32_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)_?(?P<t>f32|f16)$")
ELEMENT = {"f32": (np.float32, 1), "f16": (np.float16, 2)}     # dtype, elements per dword
AGPR_MOVES = ("v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32")


def build_mfma(instr: Instr):
    """The executor of an MFMA or AGPR move, None for another instruction."""
    m = instr.mnemonic.replace("_e64", "")
    if m in AGPR_MOVES:
        return _move(instr)
    match = MFMA.match(m)
    if match is None:
        if m.startswith(("v_mfma", "v_smfmac")):
            raise Unimplemented(f"matrix instruction {m}")
        return None
    rows, cols, depth, t = int(match["m"]), int(match["n"]), int(match["k"]), match["t"]
    if rows != cols or rows not in (16, 32) or depth * rows % 64:
        raise Unimplemented(f"{m}: a multi-block or other shape")
    if any(instr.mods.get(k) for k in ("cbsz", "abid", "blgp", "neg")):
        raise Unimplemented(f"{m} with {sorted(k for k in instr.mods)}")
    dst, a_op, b_op, c_op = instr.operands
    dtype, per_dword = ELEMENT[t]
    kpl = depth * rows // 64
    nregs = rows * cols // 64
    lane = np.arange(64)
    row_of = [(r // 4) * 4 * (64 // cols) + (lane // cols) * 4 + r % 4 for r in range(nregs)]
    col_of = lane % cols

    def elements(st, w, op) -> np.ndarray:
        """(k, 64, kpl) elements of an A or B operand as float64."""
        dwords = -(-kpl // per_dword)
        raw = np.stack([st.V[w, op.reg + d] for d in range(dwords)], axis=-1)     # (k, 64, dwords)
        return np.ascontiguousarray(raw).view(dtype).reshape(len(w), 64, -1)[..., :kpl].astype(np.float64)

    def mfma(st, w):
        if st.lanes != 64:
            raise Unimplemented(f"{m} in a wave of {st.lanes} lanes")
        a, b = elements(st, w, a_op), elements(st, w, b_op)
        k = len(w)
        A = np.zeros((k, rows, depth))
        B = np.zeros((k, depth, cols))
        kk = (lane // rows)[:, None] * kpl + np.arange(kpl)[None, :]            # (64, kpl)
        A[:, (lane % rows)[:, None], kk] = a
        B[:, (lane // cols)[:, None] * kpl + np.arange(kpl)[None, :], (lane % cols)[:, None]] = b
        product = A @ B                                                         # (k, rows, cols)
        if c_op.kind == "imm":
            c = np.full((k, nregs, 64), float(c_op.value))
        else:
            c = np.stack([st.V[w, c_op.reg + r].view(np.float32) for r in range(nregs)], axis=1).astype(np.float64)
        out = [(product[:, row_of[r], col_of] + c[:, r]).astype(np.float32).view(np.uint32) for r in range(nregs)]
        for r in range(nregs):          # every lane: MFMA ignores EXEC
            st.V[w, dst.reg + r] = out[r]
        return False
    return mfma


def _move(instr: Instr):
    dst, src = instr.operands
    if src.kind == "imm":
        value = np.uint32(int(src.value) & 0xFFFFFFFF) if not src.is_float else np.float32(src.value).view(np.uint32)
    elif src.kind != "v":
        raise Unimplemented(f"{instr.mnemonic} from {src.name or src.kind}")

    def move(st, w):
        ex = st.exec_mask(w)
        new = np.broadcast_to(value, ex.shape) if src.kind == "imm" else st.V[w, src.reg]
        st.V[w, dst.reg] = np.where(ex, new, st.V[w, dst.reg])
        return False
    return move
