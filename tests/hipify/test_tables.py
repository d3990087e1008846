"""Every table entry names real things: targets are identifiers of the installed HIP headers,
sources are identifiers of the installed CUDA headers, compat names are defined by the
compatibility header, and the prefix-rule families agree with HIPIFY's published pairs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.hipify import COMPAT_HEADER, tables
from cass_cc.hipify.tables import (coop_groups, device, device_missing, driver, errors, half,
                                   headers, libraries, macros, rounding, runtime, types,
                                   warp)

# Removed from CUDA 12's headers, still common in older code.
LEGACY_CUDA = {"cudaThreadSynchronize", "cudaThreadExit"}
# Defined by the compiler, not by a header.
COMPILER_MACROS = {"__HIPCC__", "__HIP_DEVICE_COMPILE__"}

COMPAT_FUNCTIONS = set(runtime.COMPAT_FUNCTIONS.split())
# Defined by token pasting in cass_half.h and cass_convert.h; test_conversions.py compiles them.
GENERATED_FUNCTIONS = set(half.COMPAT_FUNCTIONS.split() + rounding.COMPAT_FUNCTIONS.split())
COMPAT_TYPES = set(runtime.COMPAT_TYPES.split())
# warpSize's constant (cass_warp_size.h): 32, where HIP's is the wave's width.
COMPAT_CONSTANTS = set(warp.RENAMES.values())

FAMILIES = [runtime, types, errors, driver, device, warp, half, rounding, coop_groups, macros]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda m: m.FAMILY)
def test_rename_targets_are_hip_identifiers(family, hip_identifiers):
    missing = sorted(f"{old} -> {new}" for old, new in family.RENAMES.items()
                     if new not in hip_identifiers and new not in COMPILER_MACROS
                     and new not in COMPAT_FUNCTIONS and new not in GENERATED_FUNCTIONS
                         and new not in COMPAT_TYPES and new not in COMPAT_CONSTANTS)
    assert not missing, f"{family.FAMILY}: targets not in the HIP headers: {missing}"


def test_arity_targets_are_hip_identifiers(hip_identifiers):
    """HIP's, or the compatibility header's (CUDA 13's forms of calls HIP 5.2 has older forms of)."""
    targets = {new for choices in runtime.BY_ARITY.values() for new in choices.values()}
    assert targets and targets <= hip_identifiers | tables.COMPAT_TARGETS
    assert set(runtime.BY_ARITY) <= set(runtime.RENAMES)


def test_compat_header_defines_the_architecture_number():
    name = macros.ARCH_NUMBER_MACRO[1]
    header = Path(COMPAT_HEADER).read_text()
    assert f"#define {name} {macros.ARCH_NUMBER}" in header


def test_compat_functions_are_defined_by_the_header():
    """Every cass_* name a table renames to is defined (not only declared) by one of the compat
    headers next to cass_hip_compat.h."""
    headers = "\n".join(p.read_text() for p in Path(COMPAT_HEADER).parent.glob("*.h"))
    assert COMPAT_FUNCTIONS
    for name in COMPAT_FUNCTIONS:
        assert re.search(rf"\b{name}\s*\([^;{{]*\)\s*(const\s*)?{{", headers, re.S), name


def test_compat_constants_are_cudas_warp_size():
    headers = "\n".join(p.read_text() for p in Path(COMPAT_HEADER).parent.glob("*.h"))
    for name in COMPAT_CONSTANTS:
        assert f"static constexpr int {name} = 32;" in headers, name


def test_compat_types_are_defined_by_the_header():
    """By the header or one of the cass_*.h headers it includes."""
    compat = Path(COMPAT_HEADER)
    included = re.findall(r'^#include "(cass_\w+\.h)"', compat.read_text(), re.M)
    header = "".join((compat.parent / name).read_text() for name in [compat.name, *included])
    for name in COMPAT_TYPES:
        assert re.search(rf"(struct|enum|union) {name} {{|^  {name} = \d+|^#define {name} |^typedef [^;]* {name};",
                         header, re.M), name


@pytest.mark.parametrize("family", [runtime, driver], ids=lambda m: m.FAMILY)
def test_function_targets_are_exported_by_libamdhip64(family, hip_identifiers):
    """HIP 5.2 declares some functions its library lacks (hipLaunchHostFunc): a rename to one
    of those would compile and then fail to link."""
    exported = _dynamic_symbols(toolchain.libamdhip64())
    api = (Path(toolchain.hip_include_dir()) / "hip" / "hip_runtime_api.h").read_text()
    unresolved = []
    for old, new in family.RENAMES.items():
        declared = re.search(rf"^(?:hipError_t|const char\s*\*|int|void)\s+{new}\s*\(", api, re.M)
        if declared and new not in exported:
            unresolved.append(f"{old} -> {new}")
    assert not unresolved, f"declared but not in libamdhip64: {unresolved}"


def _dynamic_symbols(path: str) -> set[str]:
    from elftools.elf.elffile import ELFFile
    with open(path, "rb") as f:
        table = ELFFile(f).get_section_by_name(".dynsym")
        return {s.name for s in table.iter_symbols() if s["st_shndx"] != "SHN_UNDEF"}


@pytest.mark.parametrize("family", FAMILIES, ids=lambda m: m.FAMILY)
def test_rename_sources_are_cuda_identifiers(family, cuda_identifiers):
    missing = sorted(old for old in family.RENAMES
                     if old not in cuda_identifiers and old not in LEGACY_CUDA)
    assert not missing, f"{family.FAMILY}: sources not in the CUDA headers: {missing}"


@pytest.mark.parametrize("family", [m for m in FAMILIES if hasattr(m, "KEEP")],
                         ids=lambda m: m.FAMILY)
def test_kept_names_exist_in_both(family, hip_identifiers, cuda_identifiers):
    names = family.KEEP.split()
    assert names
    assert not [n for n in names if n not in hip_identifiers], "kept names HIP lacks"
    assert not [n for n in names if n not in cuda_identifiers], "kept names CUDA lacks"


def test_compat_names_are_cuda_names_hip_lacks_and_the_header_defines(hip_identifiers,
                                                                      cuda_identifiers):
    # the compatibility header and the headers it includes from its folder
    header = "".join(p.read_text() for p in sorted(Path(COMPAT_HEADER).parent.glob("*.h")))
    for name, family in tables.COMPAT.items():
        assert name in cuda_identifiers, f"{name} ({family}) is not a CUDA name"
        if family != "coop_groups" and name not in device.PARTLY_IN_HIP.split():
            # (plus, less, ... are common words elsewhere in HIP)
            assert name not in hip_identifiers, f"{name} ({family}) is already in HIP 5.2"
        word = re.escape(name)
        assert re.search(rf"\b{word}\s*\(|struct {word}\b|#define {word}\b|\({word},|constexpr \w+ {word} =",
                         header), \
            f"{name} not defined in the header"


def test_device_functions_hip_lacks(hip_identifiers, cuda_identifiers):
    names = set(device_missing.NAMES.split())
    assert len(names) > 200
    assert not names & hip_identifiers, "HIP has these after all"
    assert names <= cuda_identifiers
    assert not names & (set(tables.RENAMES) | set(tables.KEEP) | set(tables.COMPAT))


def test_no_name_is_both_renamed_and_kept_or_compat():
    assert not set(tables.RENAMES) & set(tables.KEEP)
    assert not set(tables.RENAMES) & set(tables.COMPAT)
    assert not set(tables.KEEP) & set(tables.COMPAT)


def test_family_sizes():
    """The runtime families are broad (hundreds of names), not a handful of examples."""
    assert len(runtime.RENAMES) >= 200
    assert len(types.RENAMES) >= 250
    assert len(errors.RENAMES) >= 60
    assert len(driver.RENAMES) >= 250


def test_hip_headers_exist():
    root = Path(toolchain.hip_include_dir())
    for cuda_header, hip_header in headers.HEADERS.items():
        if hip_header.startswith("hip/"):
            assert (root / hip_header).is_file(), f"{cuda_header} -> {hip_header}"


@pytest.mark.parametrize("cuda_header, hip_header", [
    ("cuda_runtime.h", "hip/hip_runtime.h"),
    ("cuda_fp16.h", "hip/hip_fp16.h"),
    ("cooperative_groups.h", "hip/hip_cooperative_groups.h"),
    ("cublas_v2.h", "hipblas/hipblas.h"),
    ("curand_kernel.h", "hiprand/hiprand_kernel.h"),
    ("cufft.h", "hipfft/hipfft.h"),
    ("cusparse.h", "hipsparse/hipsparse.h"),
    ("cub/cub.cuh", "hipcub/hipcub.hpp"),
    ("cub/block/block_reduce.cuh", "hipcub/hipcub.hpp"),
    ("thrust/system/cuda/execution_policy.h", "thrust/system/hip/execution_policy.h"),
    ("thrust/device_vector.h", None),
    ("stdio.h", None),
])
def test_header_rename(cuda_header, hip_header):
    assert tables.header_rename(cuda_header) == hip_header


@pytest.mark.parametrize("cuda_name, hip_name", sorted(libraries.EXAMPLES.items()))
def test_library_prefix_rules_match_hipify(cuda_name, hip_name):
    assert tables.library_rename(cuda_name) == hip_name


@pytest.mark.parametrize("name", ["cublasLtCreate", "cudnnCreate", "cusolverDnCreate", "ncclAllReduce",
                                  "printf", "cudaMalloc"])
def test_library_rules_leave_other_names(name):
    assert tables.library_rename(name) is None


def test_nvrtc_targets_are_hip_identifiers(hip_identifiers):
    for cuda_name, hip_name in libraries.EXAMPLES.items():
        if cuda_name.startswith("nvrtc"):
            assert hip_name in hip_identifiers
