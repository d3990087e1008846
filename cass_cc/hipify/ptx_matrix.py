"""Warp matrix instructions of inline PTX: mma.sync.aligned.m16n8k* (row.col; f16, bf16, tf32,
s8 and u8 inputs; f32, f16 or s32 accumulators) and ldmatrix.sync.aligned.m8n8 (.x1/.x2/.x4,
.trans, .b16), computed by cass_ptx.h's cross-lane helpers in the PTX ISA's fragment layouts."""

from __future__ import annotations

from .ptx_emit import CTYPE, Emitter, operands
from .ptx_parse import Address, Instruction, PtxRefusal, Vector

_KINDS = {"f16": "MMA_F16", "bf16": "MMA_BF16", "tf32": "MMA_TF32", "s8": "MMA_S8", "u8": "MMA_U8"}
# (input type, k) -> registers of A, registers of B
_SHAPES = {("f16", 8): (2, 1), ("f16", 16): (4, 2), ("bf16", 16): (4, 2), ("tf32", 8): (4, 2),
           ("tf32", 4): (2, 1), ("s8", 16): (2, 1), ("s8", 32): (4, 2), ("u8", 16): (2, 1),
           ("u8", 32): (4, 2)}


def _vector(ins: Instruction, op, count: int) -> list:
    if not isinstance(op, Vector) or len(op.items) != count or None in op.items:
        raise PtxRefusal(f"'{ins.opcode}' needs a vector of {count} registers here")
    return list(op.items)


def mma(em: Emitter, ins: Instruction, mods: list) -> None:
    shape = next((m for m in mods if m.startswith("m16n8k")), None)
    types = [m for m in mods if m in CTYPE or m == "tf32"]
    if mods[:2] != ["sync", "aligned"] or shape is None or "row" not in mods or "col" not in mods \
            or len(types) != 4 or len(mods) != 9:
        raise PtxRefusal(f"'{ins.opcode}' is not supported (only mma.sync.aligned.m16n8k*.row.col)")
    k = int(shape[len("m16n8k"):])
    dtype, atype, btype, ctype = types
    if atype[0] in "su":        # integer inputs: s8 and u8 mix
        same_family = btype in ("s8", "u8") and dtype == ctype == "s32"
    else:
        same_family = atype == btype and dtype == ctype and dtype in ("f32", "f16") \
            and (dtype == "f32" or atype == "f16")
    if (atype, k) not in _SHAPES or not same_family:
        raise PtxRefusal(f"'{ins.opcode}': this shape and type combination is not supported")
    na, nb = _SHAPES[(atype, k)]
    d, a, b, c = operands(ins, 4)
    n_acc = 2 if dtype == "f16" else 4
    dregs, aregs, bregs, cregs = (_vector(ins, d, n_acc), _vector(ins, a, na), _vector(ins, b, nb),
                                  _vector(ins, c, n_acc))
    acc = "int" if dtype == "s32" else "float"
    em.emit("{")
    em.depth += 1
    em.emit(f"unsigned int cass_a[{na}] = {{{', '.join(em.read(r, 'b32') for r in aregs)}}};")
    em.emit(f"unsigned int cass_b[{nb}] = {{{', '.join(em.read(r, 'b32') for r in bregs)}}};")
    if dtype == "f16":
        halves = [f"__half2float(__ushort_as_half((unsigned short)({em.read(r, 'b32')} >> {s})))"
                  for r in cregs for s in (0, 16)]
        em.emit(f"float cass_d[4] = {{{', '.join(halves)}}};")
    else:
        em.emit(f"{acc} cass_d[4] = {{{', '.join(em.read(r, dtype) for r in cregs)}}};")
    em.emit(f"cass_ptx::mma_m16n8<{k}, cass_ptx::{_KINDS[atype]}, cass_ptx::{_KINDS[btype]}>"
            f"(cass_a, cass_b, cass_d);")
    if dtype == "f16":
        for i, r in enumerate(dregs):
            em.write(r, "b32", f"((unsigned int)__half_as_ushort(__float2half_rn(cass_d[{2 * i}])) | "
                               f"(unsigned int)__half_as_ushort(__float2half_rn(cass_d[{2 * i + 1}])) << 16)")
    else:
        for i, r in enumerate(dregs):
            em.write(r, dtype, f"cass_d[{i}]")
    em.depth -= 1
    em.emit("}")


def ldmatrix(em: Emitter, ins: Instruction, mods: list) -> None:
    count = next((int(m[1]) for m in mods if m in ("x1", "x2", "x4")), None)
    known = {"sync", "aligned", "m8n8", "x1", "x2", "x4", "trans", "shared", "shared::cta", "b16"}
    if count is None or mods[:3] != ["sync", "aligned", "m8n8"] or "b16" not in mods \
            or any(m not in known for m in mods):
        raise PtxRefusal(f"'{ins.opcode}' is not supported (only ldmatrix.sync.aligned.m8n8 .b16)")
    d, a = operands(ins, 2)
    regs = _vector(ins, d, count)
    if not isinstance(a, Address) or a.base is None:
        raise PtxRefusal(f"'{ins.opcode}' needs a register address")
    base = em.read(a.base, "u64")
    em.emit("{")
    em.depth += 1
    em.emit(f"unsigned int cass_v[{count}];")
    em.emit(f"cass_ptx::ldmatrix<{count}, {'true' if 'trans' in mods else 'false'}>"
            f"({base} + {a.offset}ll, cass_v);")
    for i, r in enumerate(regs):
        em.write(r, "b32", f"cass_v[{i}]")
    em.depth -= 1
    em.emit("}")


HANDLERS = {"mma": mma, "ldmatrix": ldmatrix}
