"""KernelFacts: everything the translation passes read of one kernel of a cubin, as one value.

The passes (extract's checks, disasm, callees, lift, link, verify) read a kernel's
`CubinKernel` and its `Cubin`; this is the list of what they read, and the translation cache's
key is derived from it (cass_cc.cache.kernel_key serializes every field, nested dataclasses
included), so a fact the passes use is never left out of the key by a hand-kept list.
tests/translate/test_cache_key.py runs the real pipeline over kernels that nvcc compiled, with
the kernel and its cubin behind a recording proxy, and fails when a pass reads an attribute that
`KernelFacts.of` does not.

One read is keyed through what it stands for: nvdisasm disassembles the whole cubin
(`Cubin.data`), and what a translation takes of its text is the kernel's section and those of its
callees, which their code, their relocations (the symbols nvdisasm prints) and the functions
placed in the kernel's section decide (STANDS_IN)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Cubin attributes that passes read but KernelFacts keys through other fields: {attribute: the
# fields that decide what a translation takes of it}.
STANDS_IN = {"Cubin.data": ("code", "relocations", "section_functions", "callees")}


@dataclass(frozen=True)
class CalleeFacts:
    """A device function in the kernel's call closure (its own `.text.<name>` section)."""
    function: Any              # cass_cc.fatbin.cubin.DeviceFunction: name, code, relocations, ...
    handle: int | None         # the value its address takes in translated code (function pointers)
    address_taken: bool        # whether a program can hold its address


@dataclass(frozen=True)
class KernelFacts:
    name: str
    sm_arch: str
    extracted: bool = False                  # a kernel came with the unit
    relocatable: bool = False                # its cubin still waits for the device link (-rdc)
    code: bytes = b""
    relocations: tuple = ()                  # Relocation into the kernel's code
    section_functions: tuple = ()            # (name, offset) of functions inside the kernel's section
    params: tuple = ()                       # KernelParam: index, offset from param_base, size
    param_base: int = 0
    static_shared_size: int = 0
    frame_size: int = 0
    min_stack_size: int = 0
    max_stack_size: int = 0
    max_threads: tuple | None = None         # __launch_bounds__
    reqntid: tuple | None = None
    indirect_branches: tuple = ()            # (BRX offset, (target offsets...))
    constant_banks: tuple = ()               # (bank, ConstantBank): its own, .nv.constantN.<kernel>
    cubin_constant_banks: tuple = ()         # (bank, ConstantBank): the cubin's, .nv.constant3 ...
    globals: tuple = ()                      # Variable: the cubin's device and __constant__ variables
    callees: tuple[CalleeFacts, ...] = ()    # the call closure, in the order Cubin.callees gives

    @classmethod
    def of(cls, unit) -> "KernelFacts":
        """The facts of `unit.kernel` (a CubinKernel, or a stand-in with some of its attributes)."""
        k = unit.kernel
        if k is None:
            return cls(unit.name, unit.sm_arch)
        cubin = getattr(k, "cubin", None)
        callees: list[CalleeFacts] = []
        global_vars: tuple = ()
        shared_banks: dict = {}
        if cubin is not None:
            shared_banks = cubin.constant_banks
            global_vars = tuple(cubin.globals)
            handles = cubin.function_handles
            taken = cubin.address_taken
            for name in getattr(k, "callees", []) or []:
                callees.append(CalleeFacts(cubin.functions[name], handles.get(name), name in taken))
        return cls(
            name=unit.name, sm_arch=unit.sm_arch, extracted=True,
            relocatable=bool(getattr(cubin, "relocatable", False)),
            code=bytes(getattr(k, "code", b"")),
            relocations=tuple(getattr(k, "relocations", ()) or ()),
            section_functions=tuple(tuple(f) for f in getattr(k, "section_functions", ()) or ()),
            params=tuple(getattr(k, "params", ()) or ()),
            param_base=getattr(k, "param_base", 0),
            static_shared_size=getattr(k, "static_shared_size", 0),
            frame_size=getattr(k, "frame_size", 0),
            min_stack_size=getattr(k, "min_stack_size", 0),
            max_stack_size=getattr(k, "max_stack_size", 0),
            max_threads=_tuple_or_none(getattr(k, "max_threads", None)),
            reqntid=_tuple_or_none(getattr(k, "reqntid", None)),
            indirect_branches=tuple(sorted((a, tuple(t)) for a, t in (getattr(k, "indirect_branches", {}) or {}).items())),
            constant_banks=_banks(getattr(k, "constant_banks", {}) or {}),
            cubin_constant_banks=_banks(shared_banks),
            globals=global_vars,
            callees=tuple(callees),
        )

    def banks(self) -> dict:
        """{bank: ConstantBank} as the kernel sees c[bank]: its own bank, else the cubin's."""
        return {**dict(self.cubin_constant_banks), **dict(self.constant_banks)}


def _banks(banks: dict) -> tuple:
    return tuple(sorted(banks.items(), key=lambda item: item[0]))


def _tuple_or_none(value) -> tuple | None:
    return tuple(value) if value else None
