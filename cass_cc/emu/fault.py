"""How an emulated kernel stops early: EmuFault, an error a user can act on (like
compute-sanitizer), an instruction the emulator does not implement among them; and
EmuInternalError, a bug of the emulator itself, which is no fault of the kernel."""

from __future__ import annotations


class Unimplemented(Exception):
    """An instruction, or a form of one (an operand kind, a modifier, a mode), that the emulator
    does not implement. Raised where that is found, while building or running an executor; the
    caller reports it as EmuFault "unimplemented" with kernel, pc and text. Any other exception
    out of the emulator's code is a bug (EmuInternalError)."""


class _Located(Exception):
    """A report located at an instruction: kernel, pc (the instruction's address in the code
    object, as llvm-objdump prints it), instruction text, lane."""

    def __init__(self, message: str, kernel: str | None = None, pc: int | None = None,
                 instruction: str | None = None, lane: int | None = None, address: int | None = None):
        self.message = message
        self.kernel = kernel
        self.pc = pc
        self.instruction = instruction
        self.lane = lane
        self.address = address
        super().__init__(self._report())

    def _report(self) -> str:
        where = []
        if self.kernel is not None:
            where.append(f"kernel '{self.kernel}'")
        if self.pc is not None:
            where.append(f"pc {self.pc:#x}")
        if self.instruction is not None:
            where.append(f"'{self.instruction}'")
        head = " ".join(where)
        body = self.message
        if self.lane is not None:
            body = f"lane {self.lane} {body}"
        return f"{head}: {body}" if head else body

    def __str__(self) -> str:
        return self._report()


class EmuFault(_Located):
    """A kernel fault. kind: "memory" | "hang" (no progress, cass_cc.emu.progress) | "budget" (the
    optional instruction budget) | "unimplemented" | "decode" | "trap" | "deadlock"
    (a barrier that can never fill, e.g. a grid barrier for more workgroups than are resident).

    str(fault) is the one-line report, e.g.
    kernel 'k' pc 0x1a4 'global_load_b32 v1, v[2:3], off': lane 5 read of 4 bytes at 0x7f..: outside every allocation
    """

    def __init__(self, kind: str, message: str, kernel: str | None = None, pc: int | None = None,
                 instruction: str | None = None, lane: int | None = None, address: int | None = None):
        self.kind = kind
        super().__init__(message, kernel, pc, instruction, lane, address)


class EmuInternalError(_Located):
    """A bug in the emulator: its own code raised (a KeyError, a TypeError ...) while it built or
    ran the executor of an instruction. Not an EmuFault, so nothing takes it for the kernel's
    fault or for an instruction the emulator lacks; cass-run reports it with the traceback of
    __cause__ and exits INTERNAL_ERROR_EXIT (70), not the fault status 134."""

    def __init__(self, doing: str, failure: BaseException, kernel: str | None = None, pc: int | None = None,
                 instruction: str | None = None):
        super().__init__(f"internal error of the emulator {doing}: {type(failure).__name__}: {failure}",
                         kernel, pc, instruction)
        self.__cause__ = failure


class AccessError(Exception):
    """Raised by memory accesses below the instruction level; the executor adds kernel, pc and text
    and turns it into an EmuFault(kind="memory")."""

    def __init__(self, index: int, address: int, nbytes: int, write: bool, space: str = "", padding=None):
        super().__init__(f"{'write' if write else 'read'} of {nbytes} bytes at {address:#x}")
        self.index = index
        self.address = address
        self.nbytes = nbytes
        self.write = write
        self.space = space
        self.padding = padding          # a memory.PaddingAccess made a fault by strict checking

    def describe(self) -> str:
        if self.padding is not None:
            return f"{self.padding.describe()}; a fault only because of --strict (CASS_EMU_STRICT)"
        where = {"": "outside every allocation", "lds": "outside the workgroup's LDS",
                 "scratch": "outside the lane's private segment"}[self.space]
        return f"{'write' if self.write else 'read'} of {self.nbytes} bytes at {self.address:#x}: {where}"
