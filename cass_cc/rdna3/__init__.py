"""RDNA3 (AMDGPU) back end: LLVM IR -> assembly (llvmlite), llvm-mc, ld.lld, the translation
unit's globals module; and the one reader of each AMD format: code objects (code_object: ELF,
symbols, segments, relocations; metadata: the NT_AMDGPU_METADATA note; descriptor: `<name>.kd`)
and clang offload bundles (bundle)."""

from .bundle import HOST_ID, device_id, read_bundle, write_bundle
from .code_object import CodeObject
from .descriptor import KernelDescriptor
from .metadata import Kernel, KernelArgument
from .target import TRIPLE, count_instructions, emit_assembly
from .tools import assemble, link

__all__ = ["HOST_ID", "device_id", "read_bundle", "write_bundle", "CodeObject", "KernelDescriptor", "Kernel",
           "KernelArgument", "TRIPLE", "count_instructions", "emit_assembly", "assemble", "link"]
