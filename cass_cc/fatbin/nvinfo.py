"""`.nv.info` records (EIATTR_*): the kernel attributes ptxas writes next to the code.

Each record is: format byte (EIFMT_*), attribute byte, then a 16-bit field that is the value
(EIFMT_HVAL, EIFMT_BVAL) or the size of the bytes that follow (EIFMT_SVAL).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import CassError

EIFMT = {1: "EIFMT_NVAL", 2: "EIFMT_BVAL", 3: "EIFMT_HVAL", 4: "EIFMT_SVAL"}

# Attribute numbers as cuobjdump names them (checked against `cuobjdump -elf` in the tests).
EIATTR = {
    0x01: "EIATTR_PAD", 0x02: "EIATTR_IMAGE_SLOT", 0x03: "EIATTR_JUMPTABLE_RELOCS",
    0x04: "EIATTR_CTAIDZ_USED", 0x05: "EIATTR_MAX_THREADS", 0x06: "EIATTR_IMAGE_OFFSET",
    0x07: "EIATTR_IMAGE_SIZE", 0x08: "EIATTR_TEXTURE_NORMALIZED", 0x09: "EIATTR_SAMPLER_INIT",
    0x0a: "EIATTR_PARAM_CBANK", 0x0b: "EIATTR_SMEM_PARAM_OFFSETS", 0x0c: "EIATTR_CBANK_PARAM_OFFSETS",
    0x0d: "EIATTR_SYNC_STACK", 0x0e: "EIATTR_TEXID_SAMPID_MAP", 0x0f: "EIATTR_EXTERNS",
    0x10: "EIATTR_REQNTID", 0x11: "EIATTR_FRAME_SIZE", 0x12: "EIATTR_MIN_STACK_SIZE",
    0x13: "EIATTR_SAMPLER_FORCE_UNNORMALIZED", 0x14: "EIATTR_BINDLESS_IMAGE_OFFSETS",
    0x15: "EIATTR_BINDLESS_TEXTURE_BANK", 0x16: "EIATTR_BINDLESS_SURFACE_BANK",
    0x17: "EIATTR_KPARAM_INFO", 0x18: "EIATTR_SMEM_PARAM_SIZE", 0x19: "EIATTR_CBANK_PARAM_SIZE",
    0x1a: "EIATTR_QUERY_NUMATTRIB", 0x1b: "EIATTR_MAXREG_COUNT", 0x1c: "EIATTR_EXIT_INSTR_OFFSETS",
    0x1d: "EIATTR_S2RCTAID_INSTR_OFFSETS", 0x1e: "EIATTR_CRS_STACK_SIZE",
    0x1f: "EIATTR_NEED_CNP_WRAPPER", 0x20: "EIATTR_NEED_CNP_PATCH", 0x21: "EIATTR_EXPLICIT_CACHING",
    0x22: "EIATTR_ISTYPEP_USED", 0x23: "EIATTR_MAX_STACK_SIZE", 0x24: "EIATTR_SUQ_USED",
    0x25: "EIATTR_LD_CACHEMOD_INSTR_OFFSETS", 0x26: "EIATTR_LOAD_CACHE_REQUEST",
    0x27: "EIATTR_ATOM_SYS_INSTR_OFFSETS", 0x28: "EIATTR_COOP_GROUP_INSTR_OFFSETS",
    0x29: "EIATTR_COOP_GROUP_MASK_REGIDS", 0x2a: "EIATTR_SW1850030_WAR",
    0x2b: "EIATTR_WMMA_USED", 0x2c: "EIATTR_HAS_PRE_V10_OBJECT",
    0x2d: "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS", 0x2e: "EIATTR_ATOM16_EMUL_INSTR_REG_MAP",
    0x2f: "EIATTR_REGCOUNT", 0x30: "EIATTR_SW2393858_WAR", 0x31: "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS",
    0x32: "EIATTR_SHARED_SCRATCH", 0x33: "EIATTR_STATISTICS", 0x34: "EIATTR_INDIRECT_BRANCH_TARGETS",
    0x35: "EIATTR_SW2861232_WAR", 0x36: "EIATTR_SW_WAR", 0x37: "EIATTR_CUDA_API_VERSION",
    0x38: "EIATTR_NUM_MBARRIERS", 0x39: "EIATTR_MBARRIER_INSTR_OFFSETS",
    0x3a: "EIATTR_COROUTINE_RESUME_OFFSETS", 0x3b: "EIATTR_SAM_REGION_STACK_SIZE",
    0x3c: "EIATTR_PER_REG_TARGET_PERF_STATS", 0x3d: "EIATTR_CTA_PER_CLUSTER",
    0x3e: "EIATTR_EXPLICIT_CLUSTER", 0x3f: "EIATTR_MAX_CLUSTER_RANK", 0x40: "EIATTR_INSTR_REG_MAP",
    0x41: "EIATTR_RESERVED_SMEM_USED", 0x42: "EIATTR_RESERVED_SMEM_0_SIZE",
    0x43: "EIATTR_UCODE_SECTION_DATA", 0x44: "EIATTR_UNUSED_LOAD_BYTE_OFFSET",
    0x45: "EIATTR_KPARAM_INFO_V2", 0x46: "EIATTR_SYSCALL_OFFSETS",
    0x47: "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS", 0x48: "EIATTR_GRAPHICS_GLOBAL_CBANK",
    0x49: "EIATTR_SHADER_TYPE", 0x4a: "EIATTR_VRC_CTA_INIT_COUNT", 0x4b: "EIATTR_TOOLS_PATCH_FUNC",
    0x4c: "EIATTR_NUM_BARRIERS", 0x4d: "EIATTR_TEXMODE_INDEPENDENT", 0x4e: "EIATTR_PERF_STATISTICS",
    0x4f: "EIATTR_AT_ENTRY_FRAGMENTS", 0x50: "EIATTR_SPARSE_MMA_MASK", 0x51: "EIATTR_TCGEN05_1CTA_USED",
    0x52: "EIATTR_TCGEN05_2CTA_USED", 0x53: "EIATTR_GEN_ERRBAR_AT_EXIT", 0x54: "EIATTR_REG_RECONFIG",
    0x55: "EIATTR_ANNOTATIONS",
}


def attribute_name(code: int) -> str:
    return EIATTR.get(code, f"EIATTR_0x{code:02x}")


@dataclass(frozen=True)
class NvInfoRecord:
    format: int          # 1..4 (EIFMT)
    attribute: int       # EIATTR number
    value: int | bytes   # the 16-bit value (NVAL/BVAL/HVAL) or the payload (SVAL)

    @property
    def name(self) -> str:
        return attribute_name(self.attribute)

    def words(self) -> list[int]:
        """An SVAL payload as little-endian 32-bit words."""
        data = self.value if isinstance(self.value, bytes) else b""
        return list(struct.unpack_from(f"<{len(data) // 4}I", data))


def parse_nvinfo(data: bytes, section: str = ".nv.info") -> list[NvInfoRecord]:
    records = []
    pos = 0
    while pos + 4 <= len(data):
        fmt, attr, field = struct.unpack_from("<BBH", data, pos)
        pos += 4
        if fmt not in EIFMT:
            raise CassError(f"corrupt cubin: {section} record with unknown format {fmt} at offset {pos - 4}")
        if fmt == 4:
            if pos + field > len(data):
                raise CassError(f"corrupt cubin: {section} record {attribute_name(attr)} is truncated")
            records.append(NvInfoRecord(fmt, attr, bytes(data[pos:pos + field])))
            pos += field
        else:
            records.append(NvInfoRecord(fmt, attr, field))
    return records


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter: `index` (ordinal), `offset` from the parameter base, `size` in bytes."""
    index: int
    offset: int
    size: int
    log_alignment: int = 0

    def __iter__(self):  # unpacks as (index, offset, size)
        return iter((self.index, self.offset, self.size))


def kparam_info(record: NvInfoRecord) -> KernelParam:
    _index, ordinal, offset, flags = struct.unpack_from("<IHHI", record.value, 0)
    return KernelParam(ordinal, offset, flags >> 18, flags & 0xFF)


def kparam_info_v2(record: NvInfoRecord) -> KernelParam:
    """EIATTR_KPARAM_INFO_V2, which nvcc writes instead of EIATTR_KPARAM_INFO when the parameters
    exceed 4 KB (up to 32764 bytes; from c[0x0][0x1a80] before sm_90): u32 index, u16 ordinal, u16 offset, u32
    size (the whole word: the cubin's reader checks it against the parameter block's size)."""
    _index, ordinal, offset, size = struct.unpack_from("<IHHI", record.value, 0)
    return KernelParam(ordinal, offset, size)


def indirect_branch_targets(record: NvInfoRecord) -> dict[int, list[int]]:
    """{offset of the BRX instruction: [target offsets]}."""
    words = record.words()
    out: dict[int, list[int]] = {}
    i = 0
    while i + 3 <= len(words):
        branch, _kind, count = words[i], words[i + 1], words[i + 2]
        out[branch] = words[i + 3:i + 3 + count]
        i += 3 + count
    return out
