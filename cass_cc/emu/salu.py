"""Scalar instructions: SOP1/SOP2/SOPK/SOPC arithmetic from the ALU tables (SCALAR_OPS), and the
ones that touch wave state this module owns: EXEC save/restore, branches, calls, s_barrier,
s_endpgm, s_getreg/s_setreg, s_memtime.

Every executor is `fn(st, w) -> bool`: True when it set the pc of the waves itself.
"""

from __future__ import annotations

import numpy as np

from .alu.op import Op
from .decode import Instr, Operand
from .alu.ieee import flush_denormals
from .fault import Unimplemented
from .valu import MODE_SHIFT
from .operands import scalar_reader, scalar_writer
from .state import (AT_BARRIER, DONE, EXEC, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI, VCC, bits_to_type,
                    read_scalar_bits, write_scalar_bits)

SAVEEXEC = {
    "and": lambda s, e: s & e, "or": lambda s, e: s | e, "xor": lambda s, e: s ^ e,
    "nand": lambda s, e: ~(s & e), "nor": lambda s, e: ~(s | e), "xnor": lambda s, e: ~(s ^ e),
    "andn1": lambda s, e: ~s & e, "and_not0": lambda s, e: ~s & e,
    "andn2": lambda s, e: s & ~e, "and_not1": lambda s, e: s & ~e,
    "orn1": lambda s, e: ~s | e, "or_not0": lambda s, e: ~s | e,
    "orn2": lambda s, e: s | ~e, "or_not1": lambda s, e: s | ~e,
}


RETURN_ADDRESS = Operand("s", 30, 2)     # s[30:31] by the AMDGPU calling convention


def _by_rounding_mode(fn, values: list[np.ndarray], modes: np.ndarray) -> np.ndarray:
    """fn over the waves' values, each wave with its own MODE rounding."""
    first = int(modes[0])
    if (modes == first).all():
        return fn(*values, round=first)
    out = None
    for mode in np.unique(modes):
        sel = modes == mode
        part = fn(*[v[sel] for v in values], round=int(mode))
        out = np.empty(len(modes), part.dtype) if out is None else out
        out[sel] = part
    return out


def _high_half_reader(operand: Operand, t: str):
    """Bits 31:16 of a scalar source as a 16-bit type (s_cvt_hi_f32_f16)."""
    def read(st, w):
        return bits_to_type(read_scalar_bits(st, w, operand, 32) >> np.uint32(16), t)
    return read


def build_salu(instr: Instr, op: Op):
    """Executor for a SOP1/SOP2/SOPK/SOPC instruction from its table entry."""
    flags = op.flags
    ops = list(instr.operands)
    dst = None
    if op.dst is not None and "cmp" not in flags:
        dst, ops = ops[0], ops[1:]
    nsrc = len(op.srcs) - (1 if "dst_in" in flags else 0)
    readers = [scalar_reader(o, t) for o, t in zip(ops[:nsrc], op.srcs)]
    if len(readers) != nsrc:
        raise Unimplemented(f"expected {nsrc} sources")
    if "dst_in" in flags:
        readers.append(scalar_reader(dst, op.srcs[-1]))
    if "src_hi_half" in flags:
        readers[0] = _high_half_reader(ops[0], op.srcs[0])
    writer = scalar_writer(dst, op.dst) if dst is not None else None
    fn = op.bare       # launch() runs with numpy's float warnings off
    scc_in, is_cmp, scc_out = "scc_in" in flags, "cmp" in flags, "scc_out" in flags
    rounds = "rounding" in flags
    round_shift = MODE_SHIFT.get(op.dst, 0)
    # gfx12's SALU float operations follow MODE (rounding, denormals) as their VALU forms do
    flushed_srcs = [(i, MODE_SHIFT[t] + 4) for i, t in enumerate(op.srcs) if t in MODE_SHIFT] \
        if "denormals" in flags else []
    result_denorm_shift = MODE_SHIFT[op.dst] + 4 if "denormals" in flags and op.dst in MODE_SHIFT else None

    def execute(st, w):
        values = [r(st, w) for r in readers]
        for i, shift in flushed_srcs:
            keep = ((st.mode[w] >> shift) & 1).astype(bool)
            values[i] = np.where(keep, values[i], flush_denormals(values[i]))
        if rounds:
            result = _by_rounding_mode(fn, values, (st.mode[w] >> round_shift) & 3)
        else:
            result = fn(*values, scc=st.scc[w]) if scc_in else fn(*values)
        if result_denorm_shift is not None:
            keep = ((st.mode[w] >> result_denorm_shift) & 2).astype(bool)
            result = np.where(keep, result, flush_denormals(np.asarray(result)))
        if is_cmp:
            st.scc[w] = np.asarray(result, bool)
            return False
        if scc_out:
            result, scc = result
            st.scc[w] = np.asarray(scc, bool)
        if writer is not None:
            writer(st, w, result)
        return False
    return execute


def build_control(instr: Instr):
    """Executor for the wave-state scalar instructions, or None when `instr` is not one."""
    m = instr.mnemonic
    ops = instr.operands
    nxt = instr.pc + instr.size
    if m == "s_endpgm" or m == "s_endpgm_saved":
        def endpgm(st, w):
            st.status[w] = DONE
            return True
        return endpgm
    if m in ("s_barrier", "s_barrier_signal"):
        # gfx12 names the work-group's own barrier -1 (s_barrier_signal -1; s_barrier_wait's
        # 16-bit -1, printed 0xffff, decoded as s_barrier); named barriers are not emulated
        workgroup = (-1,) if m == "s_barrier_signal" else (-1, 0xFFFF)
        if any(o.kind != "imm" or o.value not in workgroup for o in ops):
            raise Unimplemented(f"barrier {instr.text.split(None, 1)[1]} (a named barrier; only the "
                                "work-group barrier -1 is emulated)")
        if m == "s_barrier_signal":
            return lambda st, w: False     # the arrival is taken at s_barrier_wait -1

        def barrier(st, w):
            st.status[w] = AT_BARRIER
            return True            # the scheduler moves them past it when their workgroup has arrived
        return barrier
    if m == "s_branch":
        target = instr.target

        def branch(st, w):
            st.pc[w] = target
            return True
        return branch
    if m.startswith("s_cbranch_"):
        return _cbranch(m[len("s_cbranch_"):], instr.target, nxt)
    if m == "s_getpc_b64":
        reg = ops[0].reg

        def getpc(st, w):
            write_scalar_bits(st, w, reg, np.full(len(w), nxt, np.uint64), 64)
            return False
        return getpc
    if m == "s_setpc_b64":
        src = ops[0]

        def setpc(st, w):
            target = read_scalar_bits(st, w, src, 64).astype(np.int64)
            service = st.services.get(int(target[0])) if (target == target[0]).all() else None
            if service is not None:         # a tail call of a served function: serve, then return
                service(st, w)
                target = read_scalar_bits(st, w, RETURN_ADDRESS, 64).astype(np.int64)
            st.pc[w] = target
            return True
        return setpc
    if m == "s_swappc_b64":
        return _swappc(instr)
    if m == "s_call_b64":
        reg = ops[0].reg
        simm = ops[1].value & 0xFFFF
        target = nxt + 4 * (simm - 0x10000 if simm & 0x8000 else simm)

        def call(st, w):
            write_scalar_bits(st, w, reg, np.full(len(w), nxt, np.uint64), 64)
            st.pc[w] = target
            return True
        return call
    if "_saveexec_" in m or "_wrexec_" in m:
        return _saveexec(m, ops)
    if m in ("s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32"):
        return _hwreg(m, ops)
    if m in ("s_round_mode", "s_denorm_mode"):       # MODE bits 3:0 and 7:4
        shift = 0 if m == "s_round_mode" else 4
        keep, value = np.uint32(~(0xF << shift) & 0xFFFFFFFF), np.uint32((int(ops[0].value) & 0xF) << shift)

        def set_mode_field(st, w):
            st.set_mode(w, (st.mode[w] & keep) | value)
            return False
        return set_mode_field
    if m in ("s_memtime", "s_memrealtime", "s_sendmsg_rtn_b32", "s_sendmsg_rtn_b64"):
        reg = ops[0].reg

        width = 32 if m.endswith("_b32") else 64

        def memtime(st, w):             # a clock: the wave-instructions executed so far
            write_scalar_bits(st, w, reg, np.full(len(w), st.clock, np.uint64), width)
            # Like host memory, the clock changes while a wave spins on it, so a loop that waits
            # for it can come back to the same registers and still end (cass_cc.emu.progress)
            st.mem.host_read = True
            return False
        return memtime
    if m == "s_trap":
        def trap(st, w):
            raise TrapError(f"s_trap {ops[0].value if ops else 0}: the kernel aborted (assert or __builtin_trap)")
        return trap
    return None


class TrapError(Exception):
    pass


_BRANCH_CONDITIONS = {
    "scc0": lambda st, w: ~st.scc[w],
    "scc1": lambda st, w: st.scc[w],
    "vccz": lambda st, w: st.mask_bits(w, VCC) == 0,
    "vccnz": lambda st, w: st.mask_bits(w, VCC) != 0,
    "execz": lambda st, w: st.mask_bits(w, EXEC) == 0,
    "execnz": lambda st, w: st.mask_bits(w, EXEC) != 0,
}


def _cbranch(cond: str, target: int, nxt: int):
    taken = _BRANCH_CONDITIONS.get(cond)
    if taken is None:
        raise Unimplemented(f"s_cbranch_{cond}")

    def cbranch(st, w):
        st.pc[w] = np.where(taken(st, w), target, nxt)
        return True
    return cbranch


def _swappc(instr: Instr):
    dst, src = instr.operands[0].reg, instr.operands[1]
    nxt = instr.pc + instr.size

    def swappc(st, w):
        target = read_scalar_bits(st, w, src, 64).astype(np.int64)
        # a device-library function the emulator serves itself (st.services: address -> fn)
        service = st.services.get(int(target[0])) if (target == target[0]).all() else None
        write_scalar_bits(st, w, dst, np.full(len(w), nxt, np.uint64), 64)
        if service is not None:
            service(st, w)
            st.pc[w] = nxt
        else:
            st.pc[w] = target
        return True
    return swappc


def _saveexec(m: str, ops):
    name = m[2:].split("_saveexec_")[0] if "_saveexec_" in m else m[2:].split("_wrexec_")[0]
    fn = SAVEEXEC.get(name)
    if fn is None:
        raise Unimplemented(m)
    dst, src = ops[0], ops[1]
    wrexec = "_wrexec_" in m
    width = 64 if m.endswith("_b64") else 32      # EXEC's width: the wave's lanes
    dtype = np.uint64 if width == 64 else np.uint32

    def saveexec(st, w):
        if st.lanes != width:
            raise Unimplemented(f"{m} in a wave of {st.lanes} lanes")
        s = read_scalar_bits(st, w, src, width)
        e = st.mask_bits(w, EXEC)
        new = fn(s, e).astype(dtype)
        st.write_mask(w, EXEC, new)
        write_scalar_bits(st, w, dst.reg, new if wrexec else e, width)
        st.scc[w] = new != 0
        return False
    return saveexec


HW_REG_MODE = "HW_REG_MODE"
# apertures as the hardware reports them: bits 15:0 private, 31:16 shared, each address bits 63:48
SH_MEM_BASES = (SHARED_APERTURE_HI >> 16) << 16 | (PRIVATE_APERTURE_HI >> 16)


def _hwreg(m: str, ops):
    """MODE is kept per wave (round and denormal controls: the ALU honours them), SH_MEM_BASES
    gives the LDS and private apertures; other hardware registers read as zero and writes to
    them (e.g. flat scratch setup) are ignored."""
    if m == "s_getreg_b32":
        dst, (reg, offset, size) = ops[0].reg, _hwreg_fields(ops[1])
        field = np.uint32((1 << size) - 1)

        def getreg(st, w):
            if reg == HW_REG_MODE:
                value = (st.mode[w] >> np.uint32(offset)) & field
            else:
                full = SH_MEM_BASES if reg == "HW_REG_SH_MEM_BASES" else 0
                value = np.full(len(w), (full >> offset) & int(field), np.uint32)
            write_scalar_bits(st, w, dst, value, 32)
            return False
        return getreg
    reg, offset, size = _hwreg_fields(ops[0])
    src = ops[1]
    mask = np.uint32((((1 << size) - 1) << offset) & 0xFFFFFFFF)

    def setreg(st, w):
        if reg == HW_REG_MODE:
            if src.kind == "imm":
                value = np.full(len(w), int(src.value) & 0xFFFFFFFF, np.uint32)
            else:
                value = read_scalar_bits(st, w, src, 32)
            shifted = (value << np.uint32(offset)).astype(np.uint32)
            st.set_mode(w, (st.mode[w] & ~mask) | (shifted & mask))
        return False
    return setreg


def _hwreg_fields(op) -> tuple[str, int, int]:
    """hwreg(NAME[, offset, size]) -> (NAME, offset, size)."""
    args = list(op.value) if op.kind == "call" else [op.value]
    return str(args[0]), int(args[1]) if len(args) > 1 else 0, int(args[2]) if len(args) > 2 else 32
