"""The AMDGPU metadata note (NT_AMDGPU_METADATA, owner "AMDGPU"): a msgpack map with
amdhsa.version, amdhsa.target and amdhsa.kernels, one entry per kernel with its arguments and
resource use (LLVM AMDGPUUsage, "Code Object V3 Metadata" and later)."""

from __future__ import annotations

import struct
from dataclasses import dataclass

import msgpack

from ..errors import CassError
from .descriptor import KernelDescriptor

NT_AMDGPU_METADATA = 32
NOTE_OWNER = "AMDGPU"


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


@dataclass(frozen=True)
class Kernel:
    """One kernel of a code object: its amdhsa.kernels entry and its descriptor (None when the
    code object lacks the `.kd` symbol, as a relocatable object's note may describe a kernel
    defined elsewhere). Defaults are what loaders assume for keys a hand-written note leaves out."""
    name: str
    symbol: str
    args: tuple[KernelArgument, ...]
    kernarg_size: int
    kernarg_align: int
    group_segment_size: int
    private_segment_size: int
    max_flat_workgroup_size: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int
    uses_dynamic_stack: bool
    descriptor: KernelDescriptor | None = None

    @property
    def explicit_args(self) -> list[KernelArgument]:
        return [a for a in self.args if not a.hidden]

    @classmethod
    def from_map(cls, entry: dict, descriptor: KernelDescriptor | None = None) -> "Kernel":
        """A kernel from its amdhsa.kernels map."""
        args = tuple(KernelArgument(int(a.get(".offset", 0)), int(a.get(".size", 0)), a.get(".value_kind", ""),
                                    a.get(".name", ""), a.get(".address_space", "")) for a in entry.get(".args", []))
        return cls(entry[".name"], entry.get(".symbol", entry[".name"] + ".kd"), args,
                   int(entry.get(".kernarg_segment_size", 0)), int(entry.get(".kernarg_segment_align", 8)),
                   int(entry.get(".group_segment_fixed_size", 0)), int(entry.get(".private_segment_fixed_size", 0)),
                   int(entry.get(".max_flat_workgroup_size", 1024)), int(entry.get(".wavefront_size", 32)),
                   int(entry.get(".sgpr_count", 106)), int(entry.get(".vgpr_count", 256)),
                   bool(entry.get(".uses_dynamic_stack", False)), descriptor)


def decode(desc: bytes, origin: str) -> dict:
    """The map a note's descriptor holds."""
    try:
        found = msgpack.unpackb(desc, raw=False, strict_map_key=False)
    except (ValueError, msgpack.UnpackException):
        raise CassError(f"{origin}: corrupt AMDGPU metadata note") from None
    if not isinstance(found, dict):
        raise CassError(f"{origin}: corrupt AMDGPU metadata note (not a map)")
    return found


def merged(maps: list[dict]) -> dict:
    """One map whose amdhsa.kernels lists the kernels of all `maps`; the rest of the first map
    that has kernels (the version and target are the same in all of one link)."""
    out = dict(next((m for m in maps if m.get("amdhsa.kernels")), maps[0]))
    out["amdhsa.kernels"] = [k for m in maps for k in m.get("amdhsa.kernels", [])]
    return out


def encode(metadata: dict) -> bytes:
    """The map as an ELF note (header, owner and descriptor, each padded to 4 bytes)."""
    owner = NOTE_OWNER.encode() + b"\0"
    desc = msgpack.packb(metadata, use_bin_type=True)
    pad = lambda b: b + b"\0" * (-len(b) % 4)  # noqa: E731
    return struct.pack("<III", len(owner), len(desc), NT_AMDGPU_METADATA) + pad(owner) + pad(desc)
