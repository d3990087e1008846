"""Embedding AMD code into nvcc's objects: the bundle's layout (checked with clang's own
clang-offload-bundler) and the rewritten object (section, alignment, symbols, relocation)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from cass_cc import toolchain
from cass_cc.driver.binary_embed import ALIGNMENT, BUNDLE_MAGIC, BundledCode, bundle, embed, fatbin_section

HERE = Path(__file__).resolve().parent
KERNEL = HERE / "data" / "shared_lib" / "saxpy.cu"


@pytest.fixture(scope="module")
def code_object(tmp_path_factory) -> bytes:
    """saxpy.cu's kernel compiled by hipcc for gfx1100 (a real code object to carry)."""
    out = tmp_path_factory.mktemp("co")
    hip = out / "saxpy.hip"
    hip.write_text("#include <hip/hip_runtime.h>\n"
                   "__global__ void saxpy(float a, const float *x, float *y, int n)\n"
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n")
    co = out / "saxpy.hsaco"
    subprocess.run([toolchain.path("hipcc"), "--cuda-device-only", "--no-gpu-bundle-output", "-c", "-x", "hip",
                    "--offload-arch=gfx1100", f"--rocm-device-lib-path={toolchain.rocm_device_lib_path('gfx1100')}",
                    str(hip), "-o", str(co)], check=True, env=toolchain.hip_environment(temp_dir=str(out)))
    return co.read_bytes()


def test_bundle_is_read_by_clang_offload_bundler(code_object, tmp_path):
    blob = bundle([BundledCode("hip", "gfx1100", code_object), BundledCode("hipv4", "gfx1100", code_object)])
    path = tmp_path / "b.bin"
    path.write_bytes(blob)
    bundler = toolchain.path("clang-offload-bundler")
    listed = subprocess.run([bundler, "--list", "--type=o", f"--input={path}"], capture_output=True, text=True,
                            check=True).stdout.split()
    assert sorted(listed) == ["hip-amdgcn-amd-amdhsa--gfx1100", "hipv4-amdgcn-amd-amdhsa--gfx1100",
                              "host-x86_64-unknown-linux-gnu"]
    out = tmp_path / "co.bin"
    subprocess.run([bundler, "--unbundle", "--type=o", f"--input={path}", f"--output={out}",
                    "--targets=hipv4-amdgcn-amd-amdhsa--gfx1100"], check=True)
    assert out.read_bytes() == code_object
    assert blob.index(code_object) % ALIGNMENT == 0


def test_embedded_object_keeps_its_symbols_and_relocation(code_object, tmp_path):
    """-O2 makes gcc place .nv_fatbin where llvm-objcopy 22 loses its symbols' section index."""
    obj = tmp_path / "k.o"
    subprocess.run([toolchain.path("nvcc"), "-c", "-O2", "-arch=sm_80", str(KERNEL), "-o", str(obj)], check=True)
    blob = bundle([BundledCode("hip", "gfx1100", code_object)])
    out = tmp_path / "amd.o"
    embed(str(obj), blob, str(out))
    assert fatbin_section(str(out)) == blob and blob.startswith(BUNDLE_MAGIC)
    with open(out, "rb") as f:
        elf = ELFFile(f)
        index = next(i for i, s in enumerate(elf.iter_sections()) if s.name == ".nv_fatbin")
        assert elf.get_section(index)["sh_addralign"] == ALIGNMENT
        symbols = [s for s in elf.get_section_by_name(".symtab").iter_symbols() if s.name == "fatbinData"]
        assert symbols and all(s["st_shndx"] == index for s in symbols)
        relocs = elf.get_section_by_name(".rela.nvFatBinSegment")
        targets = [elf.get_section_by_name(".symtab").get_symbol(r["r_info_sym"]) for r in relocs.iter_relocations()]
        assert any(t["st_shndx"] == index and t.name in ("", ".nv_fatbin") for t in targets)
    subprocess.run(["g++", "-shared", str(out), "-o", str(tmp_path / "k.so")], check=True)
