"""Loading a code object into the emulator's memory: what the file holds comes from
cass_cc.rdna3.code_object (the one reader of AMDGPU code objects); this copies its loadable
image into Memory (kind "global") and applies its dynamic relocations, so code addresses
(s_getpc), global variables and read-only data the code reads pc-relatively are all real device
addresses.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

from ..errors import CassError
from ..targets import TARGETS
from ..rdna3.code_object import CodeObject as CodeObjectFile, Relocation
from ..rdna3.metadata import Kernel
from .fault import EmuFault
from .memory import Memory

R_AMDGPU_ABS64 = 3
R_AMDGPU_RELATIVE64 = 13


@dataclass
class CodeObject:
    """A code object loaded at `base`; `kernels` as its metadata says, with ELF addresses (a
    kernel's device entry is base + descriptor.entry); `globals` and `functions` with device ones."""
    file: CodeObjectFile
    memory: Memory
    base: int                                   # device address of ELF vaddr 0
    kernels: dict[str, Kernel] = field(default_factory=dict)
    globals: dict[str, tuple[int, int]] = field(default_factory=dict)
    functions: dict[int, str] = field(default_factory=dict)    # device address -> symbol name
    _program: object = None                      # decoded instructions, filled on first launch

    @property
    def data(self) -> bytes:
        return self.file.data

    @property
    def image_size(self) -> int:
        return self.file.image_size

    @property
    def code_version(self) -> int:
        return self.file.code_object_version

    @classmethod
    def load(cls, data: bytes, mem: Memory) -> "CodeObject":
        """Read a code object of a processor the emulator runs, copy its image into mem and
        apply its relocations."""
        try:
            file = CodeObjectFile(data)
            _check_emulated(file.processor)
            kernels, segments, relocations = file.kernels, file.segments, file.relocations
        except CassError as e:
            raise EmuFault("decode", e.message) from None
        base = mem.allocate(file.image_size, kind="global")
        image = mem.view(base, file.image_size)
        for seg in segments:
            image[seg.vaddr:seg.vaddr + len(seg.data)] = np.frombuffer(seg.data, np.uint8)
        for rel in relocations:
            _relocate(image, base, rel)
        return cls(file, mem, base, kernels,
                   {name: (base + addr, size) for name, (addr, size) in file.globals.items()},
                   {base + addr: name for name, addr in file.functions.items()})


def _check_emulated(processor: str) -> None:
    """The emulator decodes and runs one ISA: code for another processor would be misread."""
    found = TARGETS.get(processor)
    if found is None or not found.emulated:
        runs = ", ".join(t.name for t in TARGETS.values() if t.emulated)
        raise EmuFault("decode", f"the code object is for {processor}; the emulator runs {runs} code objects")


def _relocate(image: np.ndarray, base: int, rel: Relocation) -> None:
    if rel.type == R_AMDGPU_RELATIVE64:
        value = base + rel.addend
    elif rel.type == R_AMDGPU_ABS64 and rel.symbol is not None:
        if rel.symbol.defined:
            value = base + rel.symbol.value + rel.addend
        elif rel.symbol.bind == "STB_WEAK":
            value = rel.addend               # an undefined weak symbol is null
        else:
            raise EmuFault("decode", f"code object needs undefined symbol '{rel.symbol.name}'")
    else:
        raise EmuFault("decode", f"unsupported dynamic relocation type {rel.type} at {rel.offset:#x}")
    image[rel.offset:rel.offset + 8] = np.frombuffer(struct.pack("<Q", value & (2**64 - 1)), np.uint8)
