"""The AMD targets cass-cc knows: one table of what each processor is, so that the driver, the
code generator, the code-object reader, the emulator and the runtimes decide from the same facts.

Facts from LLVM's AMDGPUUsage (processor table, e_flags machine numbers) and llvm-mc-22, which
tests/test_targets.py checks them against: the ELF machine number llvm-mc writes for -mcpu, the
processors it knows. LDS per work-group is LLVM's addressable local memory size (64 KiB on every
GFX7+ processor but gfx950/gfx125x). The code object version is the one cass-cc writes (v5,
which every processor here loads)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CassError


@dataclass(frozen=True)
class Target:
    name: str                 # the processor, as --offload-arch spells it
    family: str               # ISA family and product generation
    isa: str                  # the instruction set generation ("gfx11"): encodings and names
    wave_size: int            # lanes of the waves cass-cc builds for it
    lds_per_workgroup: int    # bytes of LDS one work-group can address
    mach: int                 # EF_AMDGPU_MACH_AMDGCN_* in the ELF header's e_flags
    code_object_version: int = 5
    emulated: bool = False    # cass-cc's emulator runs its code objects
    architected_sgprs: bool = False  # workgroup ids in TTMP9 (x) and TTMP7 (y | z << 16), not SGPRs
    packed_workitem_ids: bool = True  # work-item ids x | y << 10 | z << 20 in v0, else in v0, v1, v2
    product: str = ""         # a card with this processor (AMDGPUUsage), for the emulated device
    # MIMG image instructions (LLVM's FeatureImageInsts): gfx940 and later CDNA have none, so ROCm
    # reports no image support there and refuses arrays and texture objects; the source route's
    # CUDA textures and surfaces then run in software (hipify/cass_texture_software.h)
    image_instructions: bool = True
    # CUDA's textures and surfaces in software on the source route: where there are no image
    # instructions, and on gfx90a, whose image instructions lack gather4 (LLVM refuses
    # tex2Dgather there) and whose ROCm refuses linear filtering of float element reads
    # (ROCm/clr#276), both of which CUDA programs use
    software_textures: bool = False
    # the global wave sync unit (LLVM's FeatureGWS; not on gfx12): HIP's grid barrier
    # (__ockl_grid_sync) is ds_gws_barrier, so the source route brings its own without it
    # (hipify/cass_grid_sync.h)
    gws: bool = True

    @property
    def llvm_features(self) -> str:
        """Subtarget features for LLVM's code generator and llvm-mc: the wave size the lifter's
        code is written for (RDNA: a CUDA warp is a wave32; CDNA: two warps share a wave64,
        lift/warp_model.py), stated although it is each processor's default."""
        return f"+wavefrontsize{self.wave_size}"


_KIB = 1024
TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("gfx1030", "GFX10.3 (RDNA2)", "gfx10.3", 32, 64 * _KIB, 0x036, emulated=True,
           packed_workitem_ids=False, product="AMD Radeon RX 6800 XT"),
    Target("gfx1100", "GFX11 (RDNA3)", "gfx11", 32, 64 * _KIB, 0x041, emulated=True,
           product="AMD Radeon RX 7900 XTX"),
    Target("gfx1101", "GFX11 (RDNA3)", "gfx11", 32, 64 * _KIB, 0x046),
    Target("gfx1102", "GFX11 (RDNA3)", "gfx11", 32, 64 * _KIB, 0x047),
    Target("gfx1200", "GFX12 (RDNA4)", "gfx12", 32, 64 * _KIB, 0x048, emulated=True,
           architected_sgprs=True, product="AMD Radeon RX 9060 XT", gws=False),
    Target("gfx1201", "GFX12 (RDNA4)", "gfx12", 32, 64 * _KIB, 0x04E, emulated=True,
           architected_sgprs=True, product="AMD Radeon RX 9070 XT", gws=False),
    Target("gfx90a", "GFX9.0a (CDNA2)", "gfx9", 64, 64 * _KIB, 0x03F, emulated=True,
           product="AMD Instinct MI210", software_textures=True),
    Target("gfx942", "GFX9.4 (CDNA3)", "gfx9", 64, 64 * _KIB, 0x04C, emulated=True,
           product="AMD Instinct MI300X", image_instructions=False,
           software_textures=True),
)}

DEFAULT = "gfx1100"         # what cass-nvcc builds for unless told otherwise
EMULATED_DEVICE = "gfx1100"  # the processor of the emulated runtime's device


def target(name: str) -> Target:
    """The table's entry for `name`; CassError naming the known targets for another."""
    found = TARGETS.get(name)
    if found is None:
        raise CassError(f"offload arch '{name}' is not a target cass-cc knows "
                        f"(known: {', '.join(TARGETS)}; default {DEFAULT})")
    return found


def by_mach(mach: int) -> Target | None:
    """The target of an ELF header's machine number, None for one not in the table."""
    return next((t for t in TARGETS.values() if t.mach == mach), None)
