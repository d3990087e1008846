"""An AMDGPU ELF file, a code object (ld.lld's shared object) or a relocatable object (llvm-mc's):
its header, symbols, loadable segments, dynamic relocations, metadata notes and kernels.

Like pyelftools' ELFFile, which it reads with, the parts are read when first asked for, so a
caller that wants only the notes of an object, or one section's offset, pays for no more.
Whoever loads the code object (the emulator) does so from these parts; nothing else here."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

from ..errors import CassError
from ..targets import TARGETS
from .descriptor import SIZE as DESCRIPTOR_SIZE, KernelDescriptor
from .metadata import NOTE_OWNER, NT_AMDGPU_METADATA, Kernel, decode

EM_AMDGPU = 224
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
SHT_NOBITS = 8
EF_AMDGPU_MACH = 0xFF
# e_flags machine numbers (LLVM's ELF.h, EF_AMDGPU_MACH_AMDGCN_*), checked against llvm-mc-22
# for each -mcpu: the targets cass-cc builds for (cass_cc/targets.py) and a few neighbours.
MACH = {0x040: "gfx940", 0x043: "gfx1150", 0x044: "gfx1103"} | {t.mach: t.name for t in TARGETS.values()}

Reader = Callable[[int, int], bytes]  # (offset, size) -> the bytes there

# A kernel the lifter runs one CUDA warp per wave64 (passes/lift/warp_model.py) is marked by a
# global named this prefix + the kernel's name: three u32, the index of its blockDim argument
# (after CUDA's parameters) among its explicit arguments, that argument's offset, and flags
# (WAVE_PER_WARP_PACKS). libcassrt (hip_wave_per_warp.c) launches such a kernel with
# wave_per_warp_lanes(threads) lanes in x and CUDA's blockDim in that argument; passes/verify.py
# checks both. With WAVE_PER_WARP_PACKS, a one-dimensional block of more threads than one warp
# per wave holds runs two warps to a wave instead: CUDA's block as the work-group, and
# WAVE_PER_WARP_PACKED set in the argument's blockDim.x.
WAVE_PER_WARP_PREFIX = "__cass_wave_per_warp."
WAVE_PER_WARP_PACKS = 1
WAVE_PER_WARP_PACKED = 0x80000000


def wave_per_warp_lanes(threads: int) -> int:
    """The lanes of a block of `threads` CUDA threads run one warp per 64-lane wave."""
    return (threads + 31) // 32 * 64


@dataclass(frozen=True)
class Symbol:
    name: str
    value: int               # the virtual address (code object), the section offset (relocatable)
    size: int
    type: str                # STT_FUNC, STT_OBJECT, ...
    bind: str                # STB_GLOBAL, STB_WEAK, ...
    defined: bool
    section: int | None      # index of the section it is in; None when undefined or absolute


@dataclass(frozen=True)
class Segment:
    """A PT_LOAD program header: `data` goes at `vaddr`, zeros after it up to `memsz`."""
    vaddr: int
    memsz: int
    data: bytes


@dataclass(frozen=True)
class Relocation:
    """A dynamic relocation, for the loader to apply at `offset` of the loaded image."""
    offset: int
    type: int                # R_AMDGPU_*
    addend: int
    symbol: Symbol | None    # None for relocations without one (R_AMDGPU_RELATIVE64)


class CodeObject:
    """`CodeObject(data)`: an AMDGPU ELF file; CassError naming `origin` when it is not one."""

    def __init__(self, data: bytes, origin: str = "code object") -> None:
        self.data, self.origin = bytes(data), origin
        try:
            self.elf = ELFFile(io.BytesIO(self.data))
        except ELFError as e:
            raise CassError(f"{origin}: not an ELF file ({e})") from None
        if self.elf["e_machine"] not in ("EM_AMDGPU", EM_AMDGPU):
            raise CassError(f"{origin}: not an AMDGPU code object (machine {self.elf['e_machine']})")

    @property
    def processor(self) -> str:
        """The target processor of the ELF header ('gfx1100'), 'mach 0x..' for one not in MACH."""
        mach = self.elf["e_flags"] & EF_AMDGPU_MACH
        return MACH.get(mach, f"mach {mach:#x}")

    @property
    def code_object_version(self) -> int:
        """4, 5, 6: the ELF header's EI_ABIVERSION (1 is code object v3) plus 2."""
        return self.elf["e_ident"]["EI_ABIVERSION"] + 2

    @cached_property
    def note_sections(self) -> list[str]:
        """The names of the note sections (what the link takes out of an object)."""
        return [s.name for s in self.elf.iter_sections() if s["sh_type"] == "SHT_NOTE"]

    @cached_property
    def notes(self) -> list[dict]:
        """Every AMDGPU metadata map, in file order: ld.lld keeps one per input object."""
        found = []
        for name in self.note_sections:
            for note in self.elf.get_section_by_name(name).iter_notes():
                if note["n_name"] == NOTE_OWNER and note["n_type"] in (NT_AMDGPU_METADATA, "NT_AMDGPU_METADATA"):
                    desc = note["n_descdata"]   # pyelftools gives str for some note types
                    found.append(decode(desc if isinstance(desc, bytes) else desc.encode("latin-1"), self.origin))
        return found

    @property
    def metadata(self) -> dict:
        """The first metadata map: the one loaders (ROCm's and the emulated runtime) read."""
        if not self.notes:
            raise CassError(f"{self.origin}: no AMDGPU metadata note (code object v2 is not supported)")
        return self.notes[0]

    @property
    def target(self) -> str:
        """amdhsa.target: 'amdgcn-amd-amdhsa--gfx1100' ('' when the note does not say)."""
        return self.metadata.get("amdhsa.target", "")

    @property
    def version(self) -> tuple[int, ...]:
        """amdhsa.version: (1, 1) for code object v4, (1, 2) for v5."""
        return tuple(self.metadata.get("amdhsa.version", ()))

    @cached_property
    def kernels(self) -> dict[str, Kernel]:
        """The kernels the metadata lists, each with its descriptor (its `.symbol`)."""
        return {k[".name"]: Kernel.from_map(k, self._descriptor(k.get(".symbol", k[".name"] + ".kd")))
                for k in self.metadata.get("amdhsa.kernels", [])}

    def _descriptor(self, symbol: str) -> KernelDescriptor | None:
        sym = self.symbols.get(symbol)
        if sym is None or sym.section is None:
            return None
        sec = self.elf.get_section(sym.section)
        offset = sym.value - sec["sh_addr"] + sec["sh_offset"]
        raw = self.data[offset:offset + DESCRIPTOR_SIZE]
        return KernelDescriptor.from_bytes(raw, sym.value) if len(raw) == DESCRIPTOR_SIZE else None

    @cached_property
    def symbols(self) -> dict[str, Symbol]:
        """Named symbols, those of .symtab before those of .dynsym (a stripped code object has
        only .dynsym); defined ones before undefined ones of the same name."""
        found: dict[str, Symbol] = {}
        for table in (".symtab", ".dynsym"):
            sec = self.elf.get_section_by_name(table)
            for sym in sec.iter_symbols() if sec is not None else ():
                if sym.name and (sym.name not in found or not found[sym.name].defined):
                    found[sym.name] = _symbol(sym)
        return found

    @property
    def globals(self) -> dict[str, tuple[int, int]]:
        """Defined variables (not the kernel descriptors): name -> (address, size)."""
        return {s.name: (s.value, s.size) for s in self.symbols.values()
                if s.type == "STT_OBJECT" and s.defined and not s.name.endswith(".kd")}

    @property
    def functions(self) -> dict[str, int]:
        """Defined functions (the kernels among them): name -> address."""
        return {s.name: s.value for s in self.symbols.values() if s.type == "STT_FUNC" and s.defined}

    @cached_property
    def segments(self) -> list[Segment]:
        return [Segment(s["p_vaddr"], s["p_memsz"], s.data()) for s in self.elf.iter_segments()
                if s["p_type"] == "PT_LOAD"]

    @property
    def image_size(self) -> int:
        """Bytes from address 0 to the end of the last loadable segment."""
        return max((s.vaddr + s.memsz for s in self.segments), default=0)

    @cached_property
    def relocations(self) -> list[Relocation]:
        """The dynamic relocations: those of the allocated (loaded) relocation sections."""
        found = []
        for sec in self.elf.iter_sections():
            if not isinstance(sec, RelocationSection) or not sec["sh_flags"] & SHF_ALLOC:
                continue
            table = self.elf.get_section(sec["sh_link"])
            for rel in sec.iter_relocations():
                index = rel["r_info_sym"]
                found.append(Relocation(rel["r_offset"], rel["r_info_type"], rel["r_addend"] if rel.is_RELA() else 0,
                                        _symbol(table.get_symbol(index)) if index else None))
        return found

    def file_offset(self, address: int) -> int | None:
        """Where the code at `address` is in the file; None outside every executable section."""
        for sec in self.elf.iter_sections():
            start, size = sec["sh_addr"], sec["sh_size"]
            if sec["sh_flags"] & SHF_EXECINSTR and start <= address < start + size:
                return sec["sh_offset"] + address - start
        return None


def _symbol(sym) -> Symbol:
    shndx = sym["st_shndx"]  # an index, or a name: SHN_UNDEF, SHN_ABS, ...
    return Symbol(sym.name, sym["st_value"], sym["st_size"], sym["st_info"]["type"], sym["st_info"]["bind"],
                  shndx != "SHN_UNDEF", shndx if isinstance(shndx, int) else None)


def elf_size(read: Reader) -> int:
    """Size of an ELF64 file from its headers alone, for an image in memory that comes without
    its length: the furthest of the section header table, the program headers and every section
    that takes file space."""
    header = read(0, 64)
    phoff, shoff = struct.unpack_from("<QQ", header, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", header, 0x36)
    end = max(64, shoff + shentsize * shnum, phoff + phentsize * phnum)
    for i in range(shnum):
        sh = read(shoff + i * shentsize, shentsize)
        sh_type, = struct.unpack_from("<I", sh, 4)
        offset, size = struct.unpack_from("<QQ", sh, 0x18)
        if sh_type != SHT_NOBITS:
            end = max(end, offset + size)
    return end
