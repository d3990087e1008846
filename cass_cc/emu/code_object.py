"""Loading a gfx1100 code object (ELF, code object v4/v5): kernels, descriptors, metadata, globals.

The whole loadable image goes into Memory (kind "global"), so code addresses (s_getpc), global
variables and read-only data the code reads pc-relatively are all real device addresses.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field

import msgpack
import numpy as np
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

from .fault import EmuFault
from .memory import Memory

NT_AMDGPU_METADATA = 32
EM_AMDGPU = 224
R_AMDGPU_ABS64 = 3
R_AMDGPU_RELATIVE64 = 13


@dataclass
class KernelArg:
    name: str
    offset: int
    size: int
    value_kind: str
    address_space: str | None = None


@dataclass
class KernelDescriptor:
    """The 64-byte <kernel>.kd: what the hardware reads at dispatch."""
    group_segment_size: int
    private_segment_size: int
    kernarg_size: int
    entry: int                       # device address of the first instruction
    rsrc1: int
    rsrc2: int
    rsrc3: int
    properties: int

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
    def private_segment_enabled(self) -> bool:
        return bool(self.rsrc2 & 1)

    @property
    def vgpr_workitem_ids(self) -> int:
        """0: x, 1: x and y, 2: x, y and z."""
        return (self.rsrc2 >> 11) & 3

    def user_sgprs(self) -> list[tuple[str, int]]:
        """(what, count) in SGPR order, per kernel_code_properties."""
        names = [("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2),
                 ("kernarg_segment_ptr", 2), ("dispatch_id", 2), ("flat_scratch_init", 2),
                 ("private_segment_size", 1)]
        return [(n, c) for bit, (n, c) in enumerate(names) if self.properties >> bit & 1]

    @property
    def uses_dynamic_stack(self) -> bool:
        return bool(self.properties >> 11 & 1)


@dataclass
class KernelInfo:
    name: str
    kernarg_size: int
    kernarg_align: int
    group_segment_size: int
    private_segment_size: int
    args: list[KernelArg]
    max_flat_workgroup_size: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int
    descriptor: KernelDescriptor | None = None
    uses_dynamic_stack: bool = False


@dataclass
class CodeObject:
    data: bytes
    memory: Memory
    base: int                                   # device address of ELF vaddr 0
    image_size: int
    kernels: dict[str, KernelInfo] = field(default_factory=dict)
    globals: dict[str, tuple[int, int]] = field(default_factory=dict)
    functions: dict[int, str] = field(default_factory=dict)    # device address -> symbol name
    code_version: int = 4
    text_range: tuple[int, int] = (0, 0)         # ELF vaddrs of .text
    _program: object = None                      # decoded instructions, filled on first launch

    @classmethod
    def load(cls, data: bytes, mem: Memory) -> "CodeObject":
        """Parse a gfx1100 code object, copy its image into mem and apply its relocations."""
        try:
            elf = ELFFile(io.BytesIO(bytes(data)))
        except Exception as e:  # pyelftools raises several types on garbage
            raise EmuFault("decode", f"not an ELF code object: {e}") from None
        if elf["e_machine"] not in ("EM_AMDGPU", EM_AMDGPU):
            raise EmuFault("decode", f"not an AMDGPU code object (e_machine {elf['e_machine']})")
        segments = [s for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
        image_size = max((s["p_vaddr"] + s["p_memsz"] for s in segments), default=0)
        base = mem.allocate(image_size, kind="global")
        image = mem.view(base, image_size)
        for seg in segments:
            blob = seg.data()
            image[seg["p_vaddr"]:seg["p_vaddr"] + len(blob)] = np.frombuffer(blob, np.uint8)
        co = cls(bytes(data), mem, base, image_size)
        symbols = _symbols(elf)
        _relocate(elf, image, base, symbols)
        text = elf.get_section_by_name(".text")
        if text is not None:
            co.text_range = (text["sh_addr"], text["sh_addr"] + text["sh_size"])
        for name, (value, size, kind, _bind) in symbols.items():
            if kind == "STT_FUNC":
                co.functions[base + value] = name
            elif kind == "STT_OBJECT" and not name.endswith(".kd"):
                co.globals[name] = (base + value, size)
        meta = _metadata(elf)
        co.code_version = _code_object_version(meta)
        for km in meta.get("amdhsa.kernels", []):
            info = _kernel_info(km)
            kd_sym = km.get(".symbol", info.name + ".kd")
            if kd_sym in symbols:
                kd_addr = symbols[kd_sym][0]
                info.descriptor = _descriptor(bytes(image[kd_addr:kd_addr + 64]), base + kd_addr)
            co.kernels[info.name] = info
        return co


def _symbols(elf) -> dict[str, tuple[int, int, str, str]]:
    out: dict[str, tuple[int, int, str, str]] = {}
    for secname in (".symtab", ".dynsym"):
        sec = elf.get_section_by_name(secname)
        if sec is None:
            continue
        for sym in sec.iter_symbols():
            if sym.name and sym["st_shndx"] != "SHN_UNDEF":
                out.setdefault(sym.name, (sym["st_value"], sym["st_size"], sym["st_info"]["type"],
                                          sym["st_info"]["bind"]))
    return out


def _relocate(elf, image: np.ndarray, base: int, symbols) -> None:
    for sec in elf.iter_sections():
        if not isinstance(sec, RelocationSection) or not sec["sh_flags"] & 2:  # SHF_ALLOC: dynamic
            continue
        symtab = elf.get_section(sec["sh_link"])
        for rel in sec.iter_relocations():
            kind = rel["r_info_type"]
            off = rel["r_offset"]
            addend = rel["r_addend"] if rel.is_RELA() else 0
            if kind == R_AMDGPU_RELATIVE64:
                value = base + addend
            elif kind == R_AMDGPU_ABS64:
                sym = symtab.get_symbol(rel["r_info_sym"])
                if sym["st_shndx"] != "SHN_UNDEF":
                    value = base + sym["st_value"] + addend
                elif sym["st_info"]["bind"] == "STB_WEAK":
                    value = addend               # an undefined weak symbol is null
                else:
                    raise EmuFault("decode", f"code object needs undefined symbol '{sym.name}'")
            else:
                raise EmuFault("decode", f"unsupported dynamic relocation type {kind} at {off:#x}")
            image[off:off + 8] = np.frombuffer(struct.pack("<Q", value & (2**64 - 1)), np.uint8)


def _metadata(elf) -> dict:
    for sec in elf.iter_sections():
        if sec["sh_type"] != "SHT_NOTE":
            continue
        for note in sec.iter_notes():
            if note["n_name"] == "AMDGPU" and note["n_type"] in (NT_AMDGPU_METADATA, "NT_AMDGPU_METADATA"):
                desc = note["n_desc"]
                if isinstance(desc, str):
                    desc = desc.encode("latin-1")
                return msgpack.unpackb(bytes(desc), raw=False, strict_map_key=False)
    raise EmuFault("decode", "code object has no AMDGPU metadata note (code object v2/v3 is not supported)")


def _code_object_version(meta: dict) -> int:
    version = meta.get("amdhsa.version", [1, 1])
    return {1: 4, 2: 5, 3: 6}.get(version[1] if len(version) > 1 else 1, 4)


def _kernel_info(km: dict) -> KernelInfo:
    args = [KernelArg(a.get(".name", ""), int(a[".offset"]), int(a[".size"]), a[".value_kind"],
                      a.get(".address_space")) for a in km.get(".args", [])]
    return KernelInfo(
        name=km[".name"], kernarg_size=int(km.get(".kernarg_segment_size", 0)),
        kernarg_align=int(km.get(".kernarg_segment_align", 8)),
        group_segment_size=int(km.get(".group_segment_fixed_size", 0)),
        private_segment_size=int(km.get(".private_segment_fixed_size", 0)),
        args=args, max_flat_workgroup_size=int(km.get(".max_flat_workgroup_size", 1024)),
        wavefront_size=int(km.get(".wavefront_size", 32)), sgpr_count=int(km.get(".sgpr_count", 106)),
        vgpr_count=int(km.get(".vgpr_count", 256)), uses_dynamic_stack=bool(km.get(".uses_dynamic_stack", False)))


def _descriptor(raw: bytes, kd_address: int) -> KernelDescriptor:
    group, private, kernarg = struct.unpack_from("<III", raw, 0)
    entry_offset, = struct.unpack_from("<q", raw, 16)
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
    props, = struct.unpack_from("<H", raw, 56)
    return KernelDescriptor(group, private, kernarg, kd_address + entry_offset, rsrc1, rsrc2, rsrc3, props)
