"""Turning the lifted module into decent code: LLVM's O2 pipeline for the AMDGPU target promotes
the register allocas to SSA (mem2reg/SROA), folds the launch-state loads and simplifies the CFG."""

from __future__ import annotations

import functools

import llvmlite.binding as llvm

from cass_cc.errors import CassError
from cass_cc.targets import target

TRIPLE = "amdgcn-amd-amdhsa"


@functools.lru_cache(maxsize=None)
def target_machine(arch: str):
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu=arch, features=target(arch).llvm_features, opt=3)


def optimize(text: str, arch: str = "gfx1100", speed_level: int = 2) -> str:
    """Parse, verify and optimise an LLVM module; return its text."""
    tm = target_machine(arch)
    try:
        mod = llvm.parse_assembly(text)
        mod.verify()
    except RuntimeError as e:
        raise CassError(f"lift produced invalid LLVM IR: {str(e).strip().splitlines()[0]}") from None
    mod.triple = TRIPLE
    mod.data_layout = str(tm.target_data)
    if "__ockl_printf_begin" in text:
        link_device_libraries(mod, arch)
    pto = llvm.create_pipeline_tuning_options(speed_level=speed_level)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    return str(mod)


DEVICE_LIBRARIES = ("ockl.bc", "oclc_abi_version_500.bc", "oclc_isa_version_{isa}.bc",
                    "oclc_wavefrontsize64_{wave64}.bc", "oclc_daz_opt_off.bc",
                    "oclc_finite_only_off.bc", "oclc_unsafe_math_off.bc",
                    "oclc_correctly_rounded_sqrt_on.bc")


def link_device_libraries(mod, arch: str) -> None:
    """ROCm's ockl (device printf through hostcalls) and the oclc controls it reads."""
    import os

    from cass_cc import toolchain
    folder = toolchain.rocm_device_lib_path(arch)
    isa = arch[3:]
    for name in DEVICE_LIBRARIES:
        path = os.path.join(folder, name.format(isa=isa, wave64="on" if target(arch).wave_size == 64 else "off"))
        with open(path, "rb") as f:
            lib = llvm.parse_bitcode(f.read())
        lib.triple = TRIPLE
        lib.data_layout = mod.data_layout
        mod.link_in(lib)
