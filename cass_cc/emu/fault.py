"""EmuFault: an emulated kernel stopped on an error a user can act on (like compute-sanitizer)."""

from __future__ import annotations


class EmuFault(Exception):
    """A kernel fault. kind: "memory" | "hang" (no progress, cass_cc.emu.progress) | "budget" (the
    optional instruction budget) | "unimplemented" | "decode" | "trap" | "deadlock"
    (a barrier that can never fill, e.g. a grid barrier for more workgroups than are resident).
    pc is the instruction's address in the code object (as llvm-objdump prints it).

    str(fault) is the one-line report, e.g.
    kernel 'k' pc 0x1a4 'global_load_b32 v1, v[2:3], off': lane 5 read of 4 bytes at 0x7f..: outside every allocation
    """

    def __init__(self, kind: str, message: str, kernel: str | None = None, pc: int | None = None,
                 instruction: str | None = None, lane: int | None = None, address: int | None = None):
        self.kind = kind
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
