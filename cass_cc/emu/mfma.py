"""CDNA's matrix instructions (MFMA) on 64-lane waves, and the moves of the accumulation
registers (AGPRs: v_accvgpr_read/write/mov_b32).

One block of D = A x B + C (f32 from f32, f16 or bf16; f64 from f64; i32 from i8), with M = N
(16 or 32), A M x K and B K x N spread over the 64 lanes
as AMD's matrix instruction calculator lays them out for gfx90a/gfx942 (one block: cbsz, abid,
blgp 0): lane l holds A[l % M][(l // M) * kpl + e] and B[(l // N) * kpl + e][l % N] in its
element e of kpl = K * M / 64 elements; result register r of lane l is
D[(r // 4) * 4 * (64 // N) + (l // N) * 4 + r % 4][l % N].
An f64 result element takes a register pair. The products are summed in double precision and
rounded to the result type once: the exact result wherever the hardware's is (integers, sums
short of the result's precision; i8 products always); elsewhere the hardware's own order of
accumulation may round differently. Multi-block forms (16x16x1f32, 32x32x1f32, 4x4x4f64 ...)
and other element types (xf32, fp8) are refused by name."""

from __future__ import annotations

import re

import numpy as np

from .decode import Instr
from .fault import Unimplemented

MFMA = re.compile(r"^v_mfma_(?P<out>f32|f64|i32)_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)_?(?P<t>f32|f16|bf16|f64|i8)(_1k)?$")
ELEMENT = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "f64": np.float64, "i8": np.int8}
RESULT = {"f32": np.float32, "f64": np.float64, "i32": np.int32}
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
    rows, cols, depth, t, out_t = int(match["m"]), int(match["n"]), int(match["k"]), match["t"], match["out"]
    if any(instr.mods.get(k) for k in ("cbsz", "abid", "blgp", "neg")):
        raise Unimplemented(f"{m} with {sorted(k for k in instr.mods)}")
    dst, a_op, b_op, c_op = instr.operands
    dtype, result = np.dtype(ELEMENT[t]), np.dtype(RESULT[out_t])
    kpl = depth * rows // 64
    # one block spreads K over the lanes in the elements the A operand's registers hold; the
    # multi-block forms (32x32x4f16, 16x16x4i8 ...) hold more than their K gives each lane
    if rows != cols or rows not in (16, 32) or depth * rows % 64 or kpl != a_op.count * 4 // dtype.itemsize:
        raise Unimplemented(f"{m}: a multi-block or other shape")
    nregs = rows * cols // 64                 # result elements per lane
    words = result.itemsize // 4              # registers per result element
    lane = np.arange(64)
    row_of = [(r // 4) * 4 * (64 // cols) + (lane // cols) * 4 + r % 4 for r in range(nregs)]
    col_of = lane % cols

    def elements(st, w, op) -> np.ndarray:
        """(k, 64, kpl) elements of an A or B operand as float64."""
        dwords = -(-kpl * dtype.itemsize // 4)
        raw = np.stack([st.V[w, op.reg + d] for d in range(dwords)], axis=-1)     # (k, 64, dwords)
        values = np.ascontiguousarray(raw).view(dtype).reshape(len(w), 64, -1)[..., :kpl]
        if t == "bf16":
            values = (values.astype(np.uint32) << np.uint32(16)).view(np.float32)
        return values.astype(np.float64)

    def registers(st, w, base) -> np.ndarray:
        """(k, nregs, 64) result elements held from VGPR `base` on, as float64."""
        raw = np.stack([st.V[w, base + d] for d in range(nregs * words)], axis=-1)  # (k, 64, dwords)
        return np.ascontiguousarray(raw).view(result).reshape(len(w), 64, nregs).transpose(0, 2, 1).astype(np.float64)

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
        c = np.full((k, nregs, 64), float(c_op.value)) if c_op.kind == "imm" else registers(st, w, c_op.reg)
        d = np.stack([product[:, row_of[r], col_of] for r in range(nregs)], axis=1) + c     # (k, nregs, 64)
        if out_t == "i32":
            values = (d.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
        else:
            values = d.astype(result)
        dwords = np.ascontiguousarray(values.transpose(0, 2, 1)).view(np.uint32)         # (k, 64, nregs * words)
        for r in range(nregs * words):   # every lane: MFMA ignores EXEC
            st.V[w, dst.reg + r] = dwords[:, :, r]
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
