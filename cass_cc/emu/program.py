"""A code object's decoded instructions and their executors, built once per code object and
per instruction on first execution."""

from __future__ import annotations

from .decode import NO_OPS, Instr, decode
from .fault import EmuFault, EmuInternalError, Unimplemented
from .gws import build_gws
from .image import build_image_family
from .lanes import FALLBACK_VECTOR_OPS, build_lanes
from .lds import build_ds
from .mfma import build_mfma
from .salu import build_control, build_salu
from .state import EXEC
from .valu import base_name, build_valu
from .vmem import build_smem, build_vmem

HOSTCALL_FUNCTION = "__ockl_hostcall_internal"
IMPLICIT_EXEC_WRITERS = ("cmpx", "saveexec", "wrexec")   # write EXEC without naming it as an operand


class Program:
    def __init__(self, co):
        self.base = co.base
        self.instrs: dict[int, Instr] = decode(co.data, co.base)
        self.executors: dict[int, object] = {}
        self.noop_runs: dict[int, tuple[int, tuple[str, ...]] | None] = {}
        self.hostcall = next((a for a, n in co.functions.items() if n == HOSTCALL_FUNCTION), None)
        self.max_vgpr = max((_max_vgpr(i) for i in self.instrs.values()), default=0)

    def noop_run(self, pc: int) -> tuple[int, tuple[str, ...]] | None:
        """For a run of no-op instructions (s_waitcnt, s_delay_alu, s_nop, ...) starting at pc:
        the pc after it and the mnemonics in it, so the scheduler steps over it at once."""
        run = self.noop_runs.get(pc, False)
        if run is False:
            names, end = [], pc
            while end in self.instrs and NO_OPS.match(self.instrs[end].mnemonic):
                names.append(self.instrs[end].mnemonic)
                end += self.instrs[end].size
            run = self.noop_runs[pc] = (end, tuple(names)) if names else None
        return run

    def executor(self, pc: int, kernel: str):
        exe = self.executors.get(pc)
        if exe is None:
            exe = self.executors[pc] = self._build(pc, kernel)
        return exe

    def _build(self, pc: int, kernel: str):
        instr = self.instrs.get(pc)
        if instr is None:
            raise EmuFault("decode", f"jump to {pc:#x}, which holds no instruction of the code object",
                           kernel=kernel, pc=pc - self.base)
        if instr.error:
            raise EmuFault("decode", instr.error, kernel=kernel, pc=pc - self.base, instruction=instr.text)
        if instr.mnemonic == "<unknown>":
            raise EmuFault("decode", "unknown instruction encoding", kernel=kernel, pc=pc - self.base,
                           instruction=instr.text)
        try:
            exe = build(instr)
        except Unimplemented as e:      # raised where the emulator finds what it lacks
            raise EmuFault("unimplemented", f"instruction '{instr.mnemonic}' is not implemented ({e})",
                           kernel=kernel, pc=pc - self.base, instruction=instr.text) from None
        except EmuFault:
            raise
        except Exception as e:          # noqa: BLE001 - anything else is a bug of the emulator
            raise EmuInternalError(f"building the executor of '{instr.mnemonic}'", e, kernel=kernel,
                                   pc=pc - self.base, instruction=instr.text) from e
        if exe is None:
            raise EmuFault("unimplemented", f"instruction '{instr.mnemonic}' is not implemented",
                           kernel=kernel, pc=pc - self.base, instruction=instr.text)
        return exe


def _tables():
    from .alu import SCALAR_OPS, VECTOR_OPS     # imported on first use: the tables are large
    return VECTOR_OPS, SCALAR_OPS


def build(instr: Instr):
    """The executor fn(st, w) -> bool (True when it set the pc) of one instruction, or None."""
    m = instr.mnemonic
    if NO_OPS.match(m):
        return lambda st, w: False
    if instr.dual is not None:
        return _build_vopd(instr)
    for builder in (build_control, build_lanes, build_smem, build_vmem, build_ds, build_gws, build_image_family,
                    build_mfma):
        exe = builder(instr)
        if exe is not None:
            return exe
    vector_ops, scalar_ops = _tables()
    name = base_name(m)
    if m.startswith("v_s_"):
        # gfx12's transcendentals on one scalar value (v_s_rcp_f32 s2, s2): the VALU operation,
        # SGPR in and out; modifiers (neg, abs, clamp, omod) are left to a later change
        op = vector_ops.get("v_" + name[len("v_s_"):])
        if op is None or instr.mods or any(o.neg or o.abs for o in instr.operands):
            return None
        return build_salu(instr, op)
    if m.startswith("v_"):
        op = vector_ops.get(name) or FALLBACK_VECTOR_OPS.get(name)
        if op is None:
            return None
        return build_valu(instr, op).run
    if m.startswith("s_"):
        op = scalar_ops.get(name)
        return build_salu(instr, op) if op is not None else None
    return None


def _build_vopd(instr: Instr):
    """VOPD: two VALU ops issued together; both read their sources before either writes."""
    vector_ops, _ = _tables()
    computes = []
    for half in instr.dual:
        name = "v_" + half.mnemonic[len("v_dual_"):]
        op = vector_ops.get(name) or FALLBACK_VECTOR_OPS.get(name)
        if op is None:
            raise Unimplemented(f"VOPD half '{half.mnemonic}'")
        computes.append(build_valu(half, op).compute)

    def vopd(st, w):
        commits = [c(st, w) for c in computes]
        for commit in commits:
            commit(st, w)
        return False
    return vopd


def writes_exec(instr: Instr) -> bool:
    """Whether the instruction may change EXEC: it writes it implicitly (v_cmpx, s_*_saveexec,
    s_*_wrexec) or has exec_lo/exec_hi among its operands, as destination or source (so the
    scheduler may keep what it knows of EXEC across every other instruction)."""
    if instr.dual is not None:
        return any(writes_exec(h) for h in instr.dual)
    if any(part in instr.mnemonic for part in IMPLICIT_EXEC_WRITERS):
        return True
    return any(o.kind == "s" and o.reg <= EXEC + 1 and o.reg + o.count > EXEC for o in instr.operands)


def _max_vgpr(instr: Instr) -> int:
    if instr.dual is not None:
        return max(_max_vgpr(h) for h in instr.dual)
    return max((o.reg + o.count for o in instr.operands if o.kind == "v"), default=0)
