"""Reading an AMDGPU code object: its kernels (descriptor symbols `<name>.kd`), the metadata
note (NT_AMDGPU_METADATA, msgpack: amdhsa.kernels with their arguments) and its global variables."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field

import msgpack
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError

NT_AMDGPU_METADATA = 32
EM_AMDGPU = 224
KERNEL_DESCRIPTOR_SIZE = 64


@dataclass(frozen=True)
class KernelArgument:
    offset: int
    size: int
    value_kind: str
    name: str = ""
    address_space: str = ""

    @property
    def hidden(self) -> bool:
        return self.value_kind.startswith("hidden_")


@dataclass
class KernelMetadata:
    name: str
    symbol: str
    args: list[KernelArgument]
    kernarg_segment_size: int
    kernarg_segment_align: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    max_flat_workgroup_size: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int
    uses_dynamic_stack: bool = False
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def explicit_args(self) -> list[KernelArgument]:
        return [a for a in self.args if not a.hidden]


@dataclass
class CodeObject:
    target: str                               # amdgcn-amd-amdhsa--gfx1100
    version: tuple[int, ...]                  # amdhsa.version
    kernels: dict[str, KernelMetadata]
    descriptors: dict[str, bytes]             # kernel name -> its 64-byte kernel descriptor
    globals: dict[str, tuple[int, int]]       # variable -> (virtual address, size)


def _notes(data: bytes):
    pos = 0
    while pos + 12 <= len(data):
        namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
        pos += 12
        name = data[pos:pos + namesz].rstrip(b"\0").decode(errors="replace")
        pos += (namesz + 3) & ~3
        desc = data[pos:pos + descsz]
        pos += (descsz + 3) & ~3
        yield name, ntype, desc


def read_code_object(data: bytes, origin: str = "code object") -> CodeObject:
    try:
        elf = ELFFile(io.BytesIO(data))
    except ELFError as e:
        raise CassError(f"{origin}: not an ELF file ({e})") from None
    if elf["e_machine"] not in ("EM_AMDGPU", EM_AMDGPU):
        raise CassError(f"{origin}: not an AMDGPU code object (machine {elf['e_machine']})")
    notes = []   # a linked code object keeps one note per input object
    for sec in elf.iter_sections():
        if sec["sh_type"] == "SHT_NOTE":
            for name, ntype, desc in _notes(sec.data()):
                if name == "AMDGPU" and ntype == NT_AMDGPU_METADATA:
                    try:
                        notes.append(msgpack.unpackb(desc, raw=False))
                    except (ValueError, msgpack.UnpackException):
                        raise CassError(f"{origin}: corrupt AMDGPU metadata note") from None
    if not notes:
        raise CassError(f"{origin}: no AMDGPU metadata note")
    meta = next((n for n in notes if n.get("amdhsa.kernels")), notes[0])
    kernels = {}
    for k in (k for n in notes for k in n.get("amdhsa.kernels", [])):
        args = [KernelArgument(a.get(".offset", 0), a.get(".size", 0), a.get(".value_kind", ""),
                               a.get(".name", ""), a.get(".address_space", "")) for a in k.get(".args", [])]
        kernels[k[".name"]] = KernelMetadata(
            k[".name"], k.get(".symbol", ""), args, k.get(".kernarg_segment_size", 0),
            k.get(".kernarg_segment_align", 0), k.get(".group_segment_fixed_size", 0),
            k.get(".private_segment_fixed_size", 0), k.get(".max_flat_workgroup_size", 0),
            k.get(".wavefront_size", 0), k.get(".sgpr_count", 0), k.get(".vgpr_count", 0),
            bool(k.get(".uses_dynamic_stack", False)), k)
    descriptors: dict[str, bytes] = {}
    variables: dict[str, tuple[int, int]] = {}
    symtab = elf.get_section_by_name(".dynsym") or elf.get_section_by_name(".symtab")
    if symtab is not None:
        for sym in symtab.iter_symbols():
            kind, shndx = sym["st_info"]["type"], sym["st_shndx"]
            if sym.name.endswith(".kd") and shndx != "SHN_UNDEF":
                sec = elf.get_section(shndx)
                off = sym["st_value"] - sec["sh_addr"] + sec["sh_offset"]
                descriptors[sym.name[:-3]] = data[off:off + KERNEL_DESCRIPTOR_SIZE]
            elif kind == "STT_OBJECT" and shndx != "SHN_UNDEF":
                variables[sym.name] = (sym["st_value"], sym["st_size"])
    return CodeObject(meta.get("amdhsa.target", ""), tuple(meta.get("amdhsa.version", ())),
                      kernels, descriptors, variables)
