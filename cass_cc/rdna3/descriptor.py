"""The kernel descriptor `<kernel>.kd`: the 64 bytes the hardware reads at dispatch (LLVM
AMDGPUUsage, "Kernel Descriptor"), for code object v4 and later."""

from __future__ import annotations

import struct
from dataclasses import dataclass

SIZE = 64
# kernel_code_properties bits 0-6: the user SGPRs the kernel asks for, in the order the
# hardware loads them, with how many SGPRs each takes.
USER_SGPRS = (("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2),
              ("kernarg_segment_ptr", 2), ("dispatch_id", 2), ("flat_scratch_init", 2),
              ("private_segment_size", 1))


@dataclass(frozen=True)
class KernelDescriptor:
    address: int                 # ELF virtual address of the descriptor itself
    group_segment_size: int
    private_segment_size: int
    kernarg_size: int
    entry_offset: int            # of the kernel's first instruction, from the descriptor
    rsrc1: int
    rsrc2: int
    rsrc3: int
    properties: int              # kernel_code_properties

    @classmethod
    def from_bytes(cls, raw: bytes, address: int) -> "KernelDescriptor":
        group, private, kernarg = struct.unpack_from("<III", raw, 0)
        entry_offset, = struct.unpack_from("<q", raw, 16)
        rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
        properties, = struct.unpack_from("<H", raw, 56)
        return cls(address, group, private, kernarg, entry_offset, rsrc1, rsrc2, rsrc3, properties)

    @property
    def entry(self) -> int:
        """ELF virtual address of the kernel's first instruction."""
        return self.address + self.entry_offset

    @property
    def user_sgpr_count(self) -> int:
        return (self.rsrc2 >> 1) & 0x1F

    @property
    def workgroup_id_enabled(self) -> tuple[bool, bool, bool]:
        return tuple(bool(self.rsrc2 >> b & 1) for b in (7, 8, 9))

    @property
    def workgroup_info_enabled(self) -> bool:
        return bool(self.rsrc2 >> 10 & 1)

    @property
    def wavefront_size32(self) -> bool:
        """ENABLE_WAVEFRONT_SIZE32 (kernel_code_properties bit 10, GFX10+): the kernel runs as
        wave32; GFX9 has no such bit and runs every kernel as wave64."""
        return bool(self.properties >> 10 & 1)

    def user_sgprs(self) -> list[tuple[str, int]]:
        """(what, count) in SGPR order, per kernel_code_properties."""
        return [(n, c) for bit, (n, c) in enumerate(USER_SGPRS) if self.properties >> bit & 1]
