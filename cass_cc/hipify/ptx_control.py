"""Warp-wide and control instructions of inline PTX: vote, shfl, match, redux, activemask,
barriers, branches to the statement's labels, nanosleep and trap. A CUDA warp is a wave32
wavefront on gfx10-gfx12 and a half of a wave64 on gfx9 (cass_wave64.h); the warp functions of
cass_hip_compat.h carry CUDA's semantics."""

from __future__ import annotations

from .ptx_emit import Emitter, operands, refuse_modifiers, types_of
from .ptx_parse import Imm, Instruction, Pair, PtxRefusal, Reg

_FULL = "0xffffffffu"


def _mask(em: Emitter, ins: Instruction, found: list, at: int, sync: bool) -> str:
    if sync:
        if len(found) <= at:
            raise PtxRefusal(f"'{ins.opcode}' needs its member mask")
        return em.read(found[at], "b32")
    return _FULL


def vote(em: Emitter, ins: Instruction, mods: list) -> None:
    sync = "sync" in mods
    refuse_modifiers(ins, mods, ("sync", "ballot", "any", "all", "uni"))
    mode = next((m for m in mods if m in ("ballot", "any", "all", "uni")), None)
    if mode is None:
        raise PtxRefusal(f"'{ins.opcode}' needs .ballot, .any, .all or .uni")
    found = operands(ins, 3 if sync else 2)
    d, p = found[:2]
    mask = _mask(em, ins, found, 2, sync)
    if mode == "ballot":
        if types_of(mods) != ["b32"]:
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        em.write(d, "b32", f"__ballot_sync({mask}, {em.pred(p)})")
    else:
        if types_of(mods) != ["pred"]:
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        em.write(d, "pred", f"(bool)__{mode}_sync({mask}, {em.pred(p)})")


_SHFL_MODES = {"up": 0, "down": 1, "bfly": 2, "idx": 3}


def shfl(em: Emitter, ins: Instruction, mods: list) -> None:
    sync = "sync" in mods
    refuse_modifiers(ins, mods, ("sync", *_SHFL_MODES))
    mode = next((m for m in mods if m in _SHFL_MODES), None)
    if mode is None or types_of(mods) != ["b32"]:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    found = operands(ins, 5 if sync else 4)
    d, a, b, c = found[:4]
    _mask(em, ins, found, 4, sync)    # a wavefront runs its lanes together
    value, pred = (d.first, d.second) if isinstance(d, Pair) else (d, None)
    em.emit("{")
    em.depth += 1
    em.emit("bool cass_in_range;")
    em.emit(f"unsigned int cass_v = cass_ptx::shfl({_SHFL_MODES[mode]}, {em.read(a, 'b32')}, "
            f"{em.read(b, 'b32')}, {em.read(c, 'b32')}, &cass_in_range);")
    em.write(value, "b32", "cass_v")
    if pred is not None:
        em.write(pred, "pred", "cass_in_range")
    em.depth -= 1
    em.emit("}")


def match(em: Emitter, ins: Instruction, mods: list) -> None:
    refuse_modifiers(ins, mods, ("sync", "any", "all"))
    t = types_of(mods)
    if "sync" not in mods or t not in (["b32"], ["b64"]) or ("any" in mods) == ("all" in mods):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    d, a, m = operands(ins, 3)
    value, mask = em.read(a, t[0]), em.read(m, "b32")
    if "any" in mods:
        em.write(d, "b32", f"__match_any_sync({mask}, {value})")
        return
    em.emit("{")
    em.depth += 1
    em.emit("int cass_all;")
    em.emit(f"unsigned int cass_v = __match_all_sync({mask}, {value}, &cass_all);")
    if isinstance(d, Pair):
        em.write(d.first, "b32", "cass_v")
        em.write(d.second, "pred", "cass_all != 0")
    else:
        em.write(d, "b32", "cass_v")
    em.depth -= 1
    em.emit("}")


def redux(em: Emitter, ins: Instruction, mods: list) -> None:
    ops = ("add", "min", "max", "and", "or", "xor")
    refuse_modifiers(ins, mods, ("sync", *ops))
    op = next((m for m in mods if m in ops), None)
    t = types_of(mods)
    if "sync" not in mods or op is None or len(t) != 1 or t[0] not in ("u32", "s32", "b32"):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    d, a, m = operands(ins, 3)
    em.write(d, t[0], f"__reduce_{op}_sync({em.read(m, 'b32')}, {em.read(a, t[0])})")


def activemask(em: Emitter, ins: Instruction, mods: list) -> None:
    if mods != ["b32"]:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    (d,) = operands(ins, 1)
    em.write(d, "b32", "__activemask()")


_BAR_RED = {"popc": ("u32", "__syncthreads_count"), "and": ("pred", "__syncthreads_and"),
            "or": ("pred", "__syncthreads_or")}


def _block_barrier(ins: Instruction, barrier) -> None:
    if not (isinstance(barrier, Imm) and barrier.value == 0):
        raise PtxRefusal(f"'{ins.opcode}': only barrier 0 of all threads (__syncthreads) is "
                         f"supported, not named barriers or thread counts")


def barrier(em: Emitter, ins: Instruction, mods: list) -> None:
    if mods[:1] == ["red"]:
        # bar.red.popc.u32 d, 0, p / bar.red.{and,or}.pred d, 0, p: __syncthreads_count/and/or
        op = mods[1] if len(mods) == 3 else None
        if op not in _BAR_RED or mods[2] != _BAR_RED[op][0]:
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        found = operands(ins, (3, 4))
        d, barrier_id, p = found[0], found[1], found[-1]
        _block_barrier(ins, barrier_id if len(found) == 3 else None)
        t, fn = _BAR_RED[op]
        em.write(d, t, f"{fn}({em.pred(p)})" if t == "u32" else f"({fn}({em.pred(p)}) != 0)")
        return
    if mods == ["warp", "sync"]:
        (m,) = operands(ins, 1)
        em.emit(f"__syncwarp({em.read(m, 'b32')});")
        return
    if mods not in (["sync"], ["sync", "aligned"], []) or ins.parts[0] == "barrier" and not mods:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    found = operands(ins, (0, 1, 2))
    if len(found) == 2:
        _block_barrier(ins, None)
    if found:
        _block_barrier(ins, found[0])
    em.emit("__syncthreads();")


def bra(em: Emitter, ins: Instruction, mods: list) -> None:
    refuse_modifiers(ins, mods, ("uni",))
    (target,) = operands(ins, 1)
    if not isinstance(target, Reg) or target.index is not None:
        raise PtxRefusal(f"'{ins.opcode}' needs a label of the same asm statement")
    em.labels_used.add(target.name)
    em.emit(f"goto {em.label(target.name)};")


def nanosleep(em: Emitter, ins: Instruction, mods: list) -> None:
    if mods != ["u32"]:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    (t,) = operands(ins, 1)
    em.emit(f"__nanosleep({em.read(t, 'u32')});")


def trap(em: Emitter, ins: Instruction, mods: list) -> None:
    operands(ins, 0)
    em.emit("__builtin_trap();")


HANDLERS = {"vote": vote, "shfl": shfl, "match": match, "redux": redux, "activemask": activemask,
            "bar": barrier, "barrier": barrier, "bra": bra, "nanosleep": nanosleep, "trap": trap}
