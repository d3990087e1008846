"""RDNA3 (AMDGPU) back end: LLVM IR -> assembly (llvmlite), llvm-mc, ld.lld, code-object
metadata, the translation unit's globals module, and clang offload bundles."""

from .bundle import HOST_ID, device_id, read_bundle, write_bundle
from .metadata import CodeObject, KernelArgument, KernelMetadata, read_code_object
from .target import TRIPLE, count_instructions, emit_assembly
from .tools import assemble, link

__all__ = ["HOST_ID", "device_id", "read_bundle", "write_bundle", "CodeObject", "KernelArgument",
           "KernelMetadata", "read_code_object", "TRIPLE", "count_instructions", "emit_assembly",
           "assemble", "link"]
