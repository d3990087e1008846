"""cass_cc/targets.py against LLVM's own tools, and what the driver, the lifter and the emulator
decide from it: unknown targets refused with a reason, HIP warps refused on wave64 targets, the emulator refusing
code objects of processors it does not run."""

from __future__ import annotations

import subprocess

import pytest

from cass_cc import targets, toolchain
from cass_cc.driver.parse import UsageError, parse
from cass_cc.driver.settings import settings_from
from cass_cc.emu.code_object import CodeObject as LoadedCodeObject
from cass_cc.emu.fault import EmuFault
from cass_cc.emu.memory import Memory
from cass_cc.errors import CassError
from cass_cc.rdna3.code_object import CodeObject
from cass_cc.rdna3.target import TRIPLE, check_offload_arch, emit_assembly
from cass_cc.rdna3.tools import assemble, link


def kernel_module(name: str) -> str:
    """A one-store kernel, with the code object version of the table as the lifter writes it."""
    return f"""
define amdgpu_kernel void @k(ptr addrspace(1) %p) {{
  store i32 7, ptr addrspace(1) %p
  ret void
}}
!llvm.module.flags = !{{!0}}
!0 = !{{i32 1, !"amdhsa_code_object_version", i32 {100 * targets.target(name).code_object_version}}}
"""


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_machine_number_is_llvm_mcs(name):
    """llvm-mc-22 writes the table's EF_AMDGPU_MACH number for -mcpu=name."""
    assert CodeObject(assemble("", name)).processor == name
    proc = subprocess.run([toolchain.path("llvm-mc"), f"-triple={TRIPLE}", f"-mcpu={name}", "-filetype=obj",
                           "-o", "/dev/null", "/dev/null"], capture_output=True, text=True)
    assert proc.returncode == 0 and "not a recognized processor" not in proc.stderr


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_targets_get_kernels_of_their_wave_size(name):
    """LLVM's code for a target of the table is a kernel of the table's wave size (wave32 on RDNA,
    wave64 on CDNA, where two CUDA warps share a wave) with the table's code object version, in a
    code object the reader sees as that processor's."""
    code = CodeObject(link([assemble(emit_assembly(kernel_module(name), name), name)]))
    assert code.processor == name and code.code_object_version == targets.target(name).code_object_version
    assert code.kernels["k"].wavefront_size == targets.target(name).wave_size


@pytest.mark.parametrize("name", [t.name for t in targets.TARGETS.values() if t.wave_size == 64])
def test_wave64_targets_are_offload_archs(name):
    """CDNA targets run 64-lane waves, two CUDA warps to each: the lifter's warp model and the
    source route's cass_wave64.h build on that."""
    check_offload_arch(name)
    assert targets.target(name).llvm_features == "+wavefrontsize64"


def test_unknown_target_is_a_usage_error():
    with pytest.raises(UsageError, match="'gfx1999' is not a target cass-cc knows"):
        settings_from(parse(["x.cu", "--cass-offload-arch=gfx1100,gfx1999"]))
    with pytest.raises(CassError, match="'gfx9999' is not a target cass-cc knows"):
        targets.target("gfx9999")


def test_emulator_refuses_a_processor_it_does_not_run():
    name = next(t.name for t in targets.TARGETS.values() if not t.emulated)
    data = link([assemble(emit_assembly(kernel_module(name), name), name)])
    with pytest.raises(EmuFault, match=f"the code object is for {name}; the emulator runs .*gfx1100.* code objects"):
        LoadedCodeObject.load(data, Memory())


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_image_instructions_are_clangs(name):
    """clang-22 defines __HIP_NO_IMAGE_SUPPORT (and ROCm reports no image support) exactly for the
    processors without image instructions: the table's fact that sends the source route's
    textures to software (hipify/cass_texture_software.h)."""
    proc = subprocess.run([toolchain.path("clang++-22"), "-x", "hip", f"--offload-arch={name}", "-nogpulib",
                           "-nogpuinc", "--cuda-device-only", "-E", "-dM", "/dev/null"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert ("#define __HIP_NO_IMAGE_SUPPORT 1" in proc.stdout) == (not targets.target(name).image_instructions)


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_targets_without_images_fetch_textures_in_software(name):
    """The source route has nothing else to fetch textures with on a processor without image
    instructions (hipify/cass_texture_software.h)."""
    t = targets.target(name)
    assert t.image_instructions or t.software_textures


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_gws_is_llvm_mcs(name):
    """llvm-mc-22 knows ds_gws_barrier exactly for the table's processors with GWS: the fact that
    gives the source route's grid barrier to hipify/cass_grid_sync.h on the others."""
    try:
        assemble("ds_gws_barrier v0 gds\n", name)
        assembled = True
    except CassError as e:
        assert "instruction not supported on this GPU" in str(e)
        assembled = False
    assert assembled == targets.target(name).gws
