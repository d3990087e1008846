"""A cubin (CUDA device ELF): its kernels with their `.nv.info` attributes, constant banks,
device globals and relocations."""

from __future__ import annotations

import io
import re
import struct
from dataclasses import dataclass, field

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError
from .nvinfo import NvInfoRecord, KernelParam, indirect_branch_targets, kparam_info, kparam_info_v2, parse_nvinfo

EM_CUDA = 190
STO_CUDA_ENTRY = 0x10
# The value a device function's address takes in translated code (function pointers, vtables): a
# non-canonical address, so a program that reads through it faults instead of reading something.
FUNCTION_HANDLE_BASE = 0xCA55_F000_0000_0000
# The SASS architectures the lifter translates, in order of preference when a file carries
# several: sm_80 first, as it is what cass-nvcc asks nvcc for.
SUPPORTED_ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")

# Relocation types cuobjdump names; the lifter mostly meets R_CUDA_64 in .nv.constant4.
R_CUDA = {0: "R_CUDA_NONE", 1: "R_CUDA_32", 2: "R_CUDA_64", 3: "R_CUDA_G32", 4: "R_CUDA_G64",
          5: "R_CUDA_ABS32_26", 6: "R_CUDA_TEX_HEADER_INDEX", 7: "R_CUDA_SAMP_HEADER_INDEX",
          8: "R_CUDA_SURF_HW_DESC", 9: "R_CUDA_SURF_HW_SW_DESC", 10: "R_CUDA_ABS32_LO_26",
          11: "R_CUDA_ABS32_HI_26", 12: "R_CUDA_ABS32_23", 13: "R_CUDA_ABS32_LO_23",
          14: "R_CUDA_ABS32_HI_23", 15: "R_CUDA_ABS24_26", 16: "R_CUDA_ABS24_23",
          17: "R_CUDA_ABS16_26", 18: "R_CUDA_ABS16_23", 19: "R_CUDA_TEX_SLOT",
          20: "R_CUDA_SAMP_SLOT", 21: "R_CUDA_SURF_SLOT", 22: "R_CUDA_TEX_BINDLESSOFF13_32",
          23: "R_CUDA_TEX_BINDLESSOFF13_47", 24: "R_CUDA_CONST_FIELD19_28",
          25: "R_CUDA_CONST_FIELD19_23", 26: "R_CUDA_TEX_SLOT9_49", 27: "R_CUDA_6_31",
          28: "R_CUDA_2_47", 29: "R_CUDA_TEX_BINDLESSOFF13_41", 30: "R_CUDA_TEX_BINDLESSOFF13_45",
          31: "R_CUDA_FUNC_DESC32", 32: "R_CUDA_FUNC_DESC32_LO_32", 33: "R_CUDA_FUNC_DESC32_HI_32",
          34: "R_CUDA_FUNC_DESC_32", 35: "R_CUDA_FUNC_DESC_64", 36: "R_CUDA_CONST_FIELD21_26",
          37: "R_CUDA_QUERY_DESC21_37", 38: "R_CUDA_CONST_FIELD19_26", 39: "R_CUDA_CONST_FIELD21_23",
          40: "R_CUDA_PCREL_IMM24_26", 41: "R_CUDA_PCREL_IMM24_23", 42: "R_CUDA_ABS32_20",
          43: "R_CUDA_ABS32_LO_20", 44: "R_CUDA_ABS32_HI_20", 45: "R_CUDA_ABS32_32",
          46: "R_CUDA_ABS32_LO_32", 47: "R_CUDA_ABS32_HI_32", 48: "R_CUDA_ABS47_34",
          49: "R_CUDA_ABS16_32", 50: "R_CUDA_ABS24_32", 51: "R_CUDA_FUNC_DESC_32_LO_32"}


@dataclass(frozen=True)
class Relocation:
    offset: int          # byte offset in the section the relocation applies to
    symbol: str
    type: int
    addend: int = 0

    @property
    def type_name(self) -> str:
        return R_CUDA.get(self.type, f"R_CUDA_{self.type}")


@dataclass(frozen=True)
class Variable:
    """A device variable: `__device__` (.nv.global / .nv.global.init) or `__constant__`
    (.nv.constant3), with its initial bytes (zeros when uninitialised)."""
    name: str
    section: str
    offset: int          # within its section
    size: int
    data: bytes
    bank: int | None = None   # constant bank for __constant__ variables

    @property
    def address_space(self) -> str:
        return "constant" if self.bank is not None else "global"


@dataclass
class ConstantBank:
    bank: int            # c[bank]
    section: str         # .nv.constant3, .nv.constant0.<kernel> ...
    data: bytes
    size: int
    symbols: list[Variable] = field(default_factory=list)
    relocations: list[Relocation] = field(default_factory=list)  # e.g. c[0x4] holds &dev_var


@dataclass
class DeviceFunction:
    """A non-entry function in its own `.text.<name>` section: a device function that a kernel
    calls with CALL.ABS (after a device link, or __noinline__ across sections)."""
    name: str
    code: bytes
    frame_size: int = 0
    relocations: list[Relocation] = field(default_factory=list)
    indirect_branches: dict[int, list[int]] = field(default_factory=dict)

    @property
    def references(self) -> list[str]:
        return [r.symbol for r in self.relocations]


@dataclass
class CubinKernel:
    name: str
    code: bytes
    params: list[KernelParam] = field(default_factory=list)   # offsets relative to param_base
    param_base: int = 0          # offset of the first parameter in c[0x0] (0x160 / 0x210)
    param_size: int = 0
    static_shared_size: int = 0   # .nv.shared.<name> size; on sm_90 it includes 1 KiB reserved at 0
    max_threads: tuple[int, ...] | None = None   # __launch_bounds__ (EIATTR_MAX_THREADS)
    reqntid: tuple[int, ...] | None = None       # EIATTR_REQNTID
    frame_size: int = 0
    regcount: int = 0
    min_stack_size: int = 0
    max_stack_size: int = 0
    crs_stack_size: int = 0
    exit_offsets: list[int] = field(default_factory=list)
    indirect_branches: dict[int, list[int]] = field(default_factory=dict)
    relocations: list[Relocation] = field(default_factory=list)     # into this kernel's code
    constant_banks: dict[int, ConstantBank] = field(default_factory=dict)  # its own c[0x0], c[0x2]
    attributes: list[NvInfoRecord] = field(default_factory=list)    # .nv.info.<name>, all records
    callees: list[str] = field(default_factory=list)   # device functions it reaches, transitively
    # functions ptxas placed inside the kernel's own section: (name, offset); a whole-program
    # build's function pointers hold these offsets (CALL.REL Rn `(kernel)` jumps to one)
    section_functions: list[tuple[str, int]] = field(default_factory=list)
    cubin: "Cubin | None" = field(default=None, repr=False, compare=False)  # globals, banks, arch

    def attribute(self, name: str) -> list[NvInfoRecord]:
        return [r for r in self.attributes if r.name == name]


# What pyelftools and struct raise on damaged ELF data.
_CORRUPT = (ELFError, struct.error, ValueError, IndexError, KeyError, AttributeError, TypeError,
            UnicodeDecodeError, AssertionError, OverflowError)


def _archs(flags: int, abi_version: int) -> tuple[str, str]:
    """(sm_XX, compute_XX) from e_flags: CUDA 12.8+ (ELF ABI version 8) keeps the SM in bits 8-15;
    older cubins keep it in bits 0-7 and the virtual architecture in bits 16-23."""
    if abi_version >= 8:
        sm = (flags >> 8) & 0xFF
        return f"sm_{sm}", f"compute_{sm}"
    return f"sm_{flags & 0xFF}", f"compute_{(flags >> 16) & 0xFF}"


class Cubin:
    """Parse a cubin: `Cubin(data)`; `.arch` ("sm_80"), `.kernels`, `.functions` (device functions
    in their own sections), `.globals`, `.constant_banks`, `.relocatable` (an -rdc object's cubin,
    still waiting for its device link)."""

    def __init__(self, data: bytes, name: str = "cubin"):
        self.data = bytes(data)
        self.name = name
        try:
            self._elf = ELFFile(io.BytesIO(self.data))
            if self._elf["e_machine"] not in ("EM_CUDA", EM_CUDA):
                raise CassError(f"{name}: not a CUDA cubin (ELF machine {self._elf['e_machine']})")
            self._sections = {s.name: s for s in self._elf.iter_sections()}
            self._check_structure()
            self._symbols = self._read_symbols()
            self.arch, self.virtual_arch = _archs(self._elf["e_flags"], self.data[8])
            self.relocatable = self._elf["e_type"] == "ET_REL"
            self.functions = self._read_functions()
            self.function_handles = {n: FUNCTION_HANDLE_BASE + 16 * i for i, n in enumerate(sorted(self.functions))}
            self.data_references: dict[str, list[str]] = {}   # variable -> functions its bytes point to
            self.globals = self._read_globals()
            self.address_taken = self._address_taken()
            self.constant_banks = self._read_shared_banks()
            self.kernels = self._read_kernels()
        except _CORRUPT as e:
            raise CassError(f"{name}: corrupt cubin ({type(e).__name__}: {e})") from None

    def check_supported(self) -> None:
        if self.arch not in SUPPORTED_ARCHS:
            raise CassError(f"{self.name}: SASS for {self.arch} is not supported "
                            f"(supported: {', '.join(SUPPORTED_ARCHS)}); rebuild with -arch=sm_80")

    def kernel(self, name: str) -> CubinKernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)

    # --- reading ---------------------------------------------------------------------------

    def _check_structure(self) -> None:
        """What every cubin ptxas writes has: section names in a string table, and a symbol
        table. A cubin whose section headers were cut off or overwritten (zeros read as headers)
        has neither, and would otherwise read as a cubin without kernels."""
        names = self._elf["e_shstrndx"]
        if not 0 < names < self._elf.num_sections() or self._elf.get_section(names)["sh_type"] != "SHT_STRTAB":
            raise CassError(f"{self.name}: corrupt cubin: its section names are not in a string table "
                            f"(section header {names} of {self._elf.num_sections()})")
        if ".symtab" not in self._sections:
            raise CassError(f"{self.name}: corrupt cubin: it has no symbol table (.symtab)")

    def _read_symbols(self) -> list[tuple[str, int, int, int, int, int]]:
        """(name, value, size, st_info, st_other, shndx) for every symbol, by index; st_other raw,
        since pyelftools keeps only its visibility bits and STO_CUDA_ENTRY lives above them."""
        symtab = self._sections.get(".symtab")
        if symtab is None:
            return []
        strtab = self._elf.get_section(symtab["sh_link"])
        raw = symtab.data()
        out = []
        for i in range(len(raw) // 24):
            name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", raw, i * 24)
            out.append((strtab.get_string(name), value, size, info, other, shndx))
        return out

    def _section_name(self, index: int) -> str:
        return self._elf.get_section(index).name if 0 < index < self._elf.num_sections() else ""

    def _relocations(self, target: str) -> list[Relocation]:
        out = []
        for prefix in (".rel", ".rela"):
            sec = self._sections.get(prefix + target)
            if sec is None:
                continue
            for r in sec.iter_relocations():
                sym = self._symbols[r["r_info_sym"]][0] if r["r_info_sym"] < len(self._symbols) else ""
                out.append(Relocation(r["r_offset"], sym, r["r_info_type"], r.entry.get("r_addend", 0)))
        return sorted(out, key=lambda r: r.offset)

    def _section_bytes(self, sec) -> bytes:
        return bytes(sec["sh_size"]) if sec["sh_type"] == "SHT_NOBITS" else sec.data()

    def _with_function_handles(self, sec) -> bytes:
        """A data section's bytes with the addresses of device functions (function pointers,
        vtables: R_CUDA_64 relocations) filled in as the functions' handles."""
        data = bytearray(self._section_bytes(sec))
        for r in self._relocations(sec.name):
            if r.symbol in self.function_handles and r.type_name == "R_CUDA_64" and r.offset + 8 <= len(data):
                struct.pack_into("<Q", data, r.offset, self.function_handles[r.symbol] + r.addend)
        return bytes(data)

    def _read_globals(self) -> list[Variable]:
        out = []
        contents: dict[int, bytes] = {}
        for name, value, size, info, _other, shndx in self._symbols:
            sec_name = self._section_name(shndx)
            if info & 0xF != 1 or not (sec_name in (".nv.global", ".nv.global.init")
                                       or re.fullmatch(r"\.nv\.constant[1-9]", sec_name)):
                continue  # only STT_OBJECT in the global / user-constant sections
            sec = self._elf.get_section(shndx)
            if shndx not in contents:
                contents[shndx] = self._with_function_handles(sec)
            data = contents[shndx][value:value + size]
            pointed = [r.symbol for r in self._relocations(sec_name)
                       if r.symbol in self.functions and value <= r.offset < value + max(size, 1)]
            if pointed:
                self.data_references[name] = pointed
            bank = int(sec_name[len(".nv.constant"):]) if sec_name.startswith(".nv.constant") else None
            out.append(Variable(name, sec_name, value, size, data, bank))
        return out

    def _read_shared_banks(self) -> dict[int, ConstantBank]:
        """Constant banks shared by all kernels: .nv.constant3 (__constant__), .nv.constant4 ..."""
        banks = {}
        for sec_name, sec in self._sections.items():
            m = re.fullmatch(r"\.nv\.constant(\d+)", sec_name)
            if m:
                bank = int(m.group(1))
                banks[bank] = ConstantBank(bank, sec_name, self._section_bytes(sec), sec["sh_size"],
                                           [v for v in self.globals if v.section == sec_name],
                                           self._relocations(sec_name))
        return banks

    def _global_nvinfo(self) -> dict[int, dict[str, int]]:
        """Per-function attributes of .nv.info: {symbol index: {attribute name: value}}."""
        sec = self._sections.get(".nv.info")
        out: dict[int, dict[str, int]] = {}
        if sec is None:
            return out
        for rec in parse_nvinfo(sec.data()):
            if rec.format == 4 and len(rec.value) == 8:
                sym, value = struct.unpack("<II", rec.value)
                out.setdefault(sym, {})[rec.name] = value
        return out

    def _read_functions(self) -> dict[str, DeviceFunction]:
        """Defined non-entry functions that own their `.text.<name>` section."""
        per_function = self._global_nvinfo()
        out = {}
        for index, (name, _value, _size, info, other, shndx) in enumerate(self._symbols):
            if info & 0xF != 2 or other & STO_CUDA_ENTRY or self._section_name(shndx) != f".text.{name}":
                continue
            text = self._elf.get_section(shndx)
            f = DeviceFunction(name, text.data(), per_function.get(index, {}).get("EIATTR_FRAME_SIZE", 0),
                               self._relocations(text.name))
            info_sec = self._sections.get(f".nv.info.{name}")
            for rec in parse_nvinfo(info_sec.data(), info_sec.name) if info_sec is not None else []:
                if rec.name == "EIATTR_INDIRECT_BRANCH_TARGETS":
                    f.indirect_branches.update(indirect_branch_targets(rec))
            out[name] = f
        return out

    def _address_taken(self) -> set[str]:
        """Device functions whose address a program can hold (function pointers, vtables): those
        that data points to, and those whose address code materialises (`32@lo(f)`, other than
        the return addresses functions compute of themselves)."""
        taken = {f for refs in self.data_references.values() for f in refs}
        for owner, f in self.functions.items():
            taken |= {r.symbol for r in f.relocations if r.symbol in self.functions and r.symbol != owner
                      and r.type_name in ("R_CUDA_ABS32_LO_32", "R_CUDA_ABS32_HI_32")}
        return taken

    def callees(self, kernel: str, relocations: list[Relocation]) -> list[str]:
        """The device functions `kernel` reaches through its code's relocations (calls, addresses
        it takes, variables holding function addresses), transitively, in the order first met."""
        out: list[str] = []
        seen: set[str] = set()
        work = [r.symbol for r in relocations]
        while work:
            name = work.pop(0)
            if name in seen or name == kernel:
                continue
            seen.add(name)
            if name in self.functions:
                out.append(name)
                work += self.functions[name].references
            work += self.data_references.get(name, [])
        return out

    def _read_kernels(self) -> list[CubinKernel]:
        per_function = self._global_nvinfo()
        kernels = []
        for index, (name, _value, _size, info, other, shndx) in enumerate(self._symbols):
            if info & 0xF != 2 or not other & STO_CUDA_ENTRY:
                continue  # STT_FUNC entry points only
            text = self._elf.get_section(shndx)
            k = CubinKernel(name=name, code=text.data(), cubin=self)
            attrs = per_function.get(index, {})
            k.regcount = attrs.get("EIATTR_REGCOUNT", text["sh_info"] >> 24)
            k.frame_size = attrs.get("EIATTR_FRAME_SIZE", 0)
            k.min_stack_size = attrs.get("EIATTR_MIN_STACK_SIZE", 0)
            k.max_stack_size = attrs.get("EIATTR_MAX_STACK_SIZE", 0)
            k.crs_stack_size = attrs.get("EIATTR_CRS_STACK_SIZE", 0)
            info_sec = self._sections.get(f".nv.info.{name}")
            if info_sec is not None:
                k.attributes = parse_nvinfo(info_sec.data(), info_sec.name)
            self._apply_attributes(k)
            shared = self._sections.get(f".nv.shared.{name}")
            k.static_shared_size = shared["sh_size"] if shared is not None else 0
            k.relocations = self._relocations(text.name)
            k.section_functions = sorted((n, v) for n, v, _s, i, o, sh in self._symbols
                                         if sh == shndx and i & 0xF == 2 and not o & STO_CUDA_ENTRY and v)
            k.callees = self.callees(name, k.relocations)
            for sec_name, sec in self._sections.items():
                m = re.fullmatch(r"\.nv\.constant(\d+)\." + re.escape(name), sec_name)
                if m:
                    k.constant_banks[int(m.group(1))] = ConstantBank(
                        int(m.group(1)), sec_name, self._section_bytes(sec), sec["sh_size"],
                        relocations=self._relocations(sec_name))
            kernels.append(k)
        return kernels

    def _apply_attributes(self, k: CubinKernel) -> None:
        for rec in k.attributes:
            if rec.name == "EIATTR_KPARAM_INFO":
                k.params.append(kparam_info(rec))
            elif rec.name == "EIATTR_KPARAM_INFO_V2":
                k.params.append(kparam_info_v2(rec))
            elif rec.name == "EIATTR_PARAM_CBANK":
                _sym, packed = struct.unpack_from("<II", rec.value)
                k.param_base, k.param_size = packed & 0xFFFF, packed >> 16
            elif rec.name == "EIATTR_CBANK_PARAM_SIZE" and not k.param_size:
                k.param_size = rec.value
            elif rec.name == "EIATTR_MAX_THREADS":
                k.max_threads = tuple(rec.words())
            elif rec.name == "EIATTR_REQNTID":
                k.reqntid = tuple(rec.words())
            elif rec.name == "EIATTR_EXIT_INSTR_OFFSETS":
                k.exit_offsets = rec.words()
            elif rec.name == "EIATTR_INDIRECT_BRANCH_TARGETS":
                k.indirect_branches.update(indirect_branch_targets(rec))
        k.params.sort(key=lambda p: p.index)
        outside = [p for p in k.params if k.param_size and p.offset + p.size > k.param_size]
        if outside:     # e.g. flag bits in a size word whose layout is not known
            raise CassError(f"{self.name}: {k.name}: parameter {outside[0].index} (offset {outside[0].offset}, "
                            f"size {outside[0].size}) lies outside the {k.param_size}-byte parameter block")
