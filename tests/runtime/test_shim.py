"""The emulated libamdhip64 itself: it exports what ROCm's does (with the same symbol versions),
its generated wrappers agree with ROCm's prototypes, every wrapper has a Python implementation,
and the structures Python fills have the C headers' layout."""

from __future__ import annotations

import ctypes
import subprocess
import sysconfig

import pytest

from cass_cc import toolchain
from cass_cc.errors import ToolMissing
from cass_cc.runtime import shim
from cass_cc.runtime.emulated import api, device_props, kernels, memory, pools


def _real_library() -> str:
    try:
        return toolchain.libamdhip64()
    except ToolMissing as e:
        pytest.skip(str(e))


def _dynamic_symbols(path: str) -> set[str]:
    """name@version of every function the library defines."""
    out = subprocess.run(["objdump", "-T", path], capture_output=True, text=True, check=True).stdout
    found = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 7 and ".text" in parts and parts[-2].startswith("hip_"):
            found.add(f"{parts[-1]}@{parts[-2]}")
    return found


@pytest.fixture(scope="module")
def built() -> str:
    return str(shim.build() / shim.SONAMES[0])


def test_exports_every_rocm_function_with_its_version(built):
    real = _dynamic_symbols(_real_library())
    ours = _dynamic_symbols(built)
    assert len(real) > 400
    assert real - ours == set()


def test_sonames_and_libpython(built):
    folder = shim.build()
    for name in shim.SONAMES:
        assert (folder / name).exists()
    dynamic = subprocess.run(["objdump", "-p", built], capture_output=True, text=True).stdout
    assert "SONAME               libamdhip64.so.5" in dynamic
    assert "libpython3" in dynamic
    assert shim.build() == folder  # built once, then found in the cache


def test_wrappers_match_rocm_prototypes(tmp_path):
    """Compiled against ROCm's hip_runtime_api.h, a wrapper whose parameter or result types
    differ from the real declaration is a compile error."""
    try:
        include = toolchain.hip_include_dir()
    except ToolMissing as e:
        pytest.skip(str(e))
    shim.generate(str(tmp_path))
    for source in (tmp_path / "wrappers.c", shim.SOURCE_DIR / "shim.c"):
        proc = subprocess.run([toolchain.path("cc"), "-fsyntax-only", "-Werror", "-DCASS_CHECK_HIP_HEADERS",
                               f"-I{shim.SOURCE_DIR}", f"-I{include}",
                               f"-I{sysconfig.get_paths()['include']}", str(source)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_every_prototype_has_a_python_implementation():
    prototypes = {p.name for p in shim.read_prototypes()}
    assert prototypes == set(api.API) - {"_unsupported"}
    exports = {e.name for e in shim.read_exports()}
    assert shim.C_IMPLEMENTED <= exports


def test_version_script_puts_each_symbol_in_its_node():
    script = shim.version_script(shim.read_exports(), shim.read_prototypes())
    first = script.splitlines()[0]
    assert first.startswith("hip_4.2 {") and "hipMalloc;" in first and "local: *;" in first
    assert "hip_5.1 { global:" in script and "hipMallocAsync;" in script.split("hip_5.1 {")[1].split("}")[0]
    assert "hip_6.0 {  } hip_5.7;" in script


def _c_offsets(tmp_path, c_type: str, fields: list[str]) -> list[int]:
    include = toolchain.hip_include_dir()
    lines = [f'printf("%zu\\n", offsetof({c_type}, {f}));' for f in fields]
    source = tmp_path / "offsets.c"
    source.write_text("#define __HIP_PLATFORM_AMD__ 1\n#include <hip/hip_runtime_api.h>\n"
                      "#include <stddef.h>\n#include <stdio.h>\nint main(void) {\n"
                      f'printf("%zu\\n", sizeof({c_type}));\n' + "\n".join(lines) + "\nreturn 0; }\n")
    exe = tmp_path / "offsets"
    subprocess.run([toolchain.path("cc"), f"-I{include}", "-o", str(exe), str(source)], check=True)
    return [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                           check=True).stdout.split()]


@pytest.mark.parametrize("structure, c_type", [
    (device_props.DeviceProp, "hipDeviceProp_t"),
    (memory.PointerAttributes, "hipPointerAttribute_t"),
    (kernels.FuncAttributes, "hipFuncAttributes"),
    (pools.MemPoolProps, "hipMemPoolProps"),
    (pools.MemAccessDesc, "hipMemAccessDesc"),
])
def test_structure_layout_matches_hip_header(tmp_path, structure, c_type):
    try:
        toolchain.hip_include_dir()
    except ToolMissing as e:
        pytest.skip(str(e))
    fields = [f[0] for f in structure._fields_]
    size, *offsets = _c_offsets(tmp_path, c_type, fields)
    assert ctypes.sizeof(structure) == size
    assert [getattr(structure, f).offset for f in fields] == offsets


def test_half_conversions_round_like_numpy(built):
    """__gnu_f2h_ieee/__gnu_h2f_ieee (done in C) against numpy's float16 on edge cases and a
    sweep over every binary16 value and the midpoints between them."""
    np = pytest.importorskip("numpy")
    lib = ctypes.CDLL(built)
    lib.__gnu_f2h_ieee.restype, lib.__gnu_f2h_ieee.argtypes = ctypes.c_ushort, [ctypes.c_float]
    lib.__gnu_h2f_ieee.restype, lib.__gnu_h2f_ieee.argtypes = ctypes.c_float, [ctypes.c_ushort]
    halves = np.arange(0, 1 << 16, dtype=np.uint32).astype(np.uint16)
    as_float = halves.view(np.float16).astype(np.float32)
    for h, f in zip(halves[::7], as_float[::7]):
        got = lib.__gnu_h2f_ieee(int(h))
        assert got == f or (np.isnan(got) and np.isnan(f)), hex(h)
    finite = as_float[np.isfinite(as_float)]
    middles = ((finite[:-1].astype(np.float64) + finite[1:]) / 2).astype(np.float32)
    edges = np.array([65504, 65520, 65519.99, 1e-8, 2.9802322e-08, 2.98023259e-08, -0.0,
                      np.inf, -np.inf, 5.96e-08, 6.1e-05, 3.4e38], np.float32)
    for f in np.concatenate([finite[::5], middles[::5], edges]):
        with np.errstate(over="ignore"):
            expect = np.float32(f).astype(np.float16).view(np.uint16)
        assert lib.__gnu_f2h_ieee(float(f)) == expect, repr(f)


@pytest.mark.parametrize("arch,gcn,warp,major,minor", [("gfx90a", 910, 64, 9, 0), ("gfx942", 942, 64, 9, 4),
                                                       ("gfx1030", 1030, 32, 10, 3)])
def test_device_properties_of_the_other_emulated_processors(monkeypatch, arch, gcn, warp, major, minor):
    """As ROCm reports them: gcnArch = major * 100 + minor * 10 + stepping, the wave size."""
    monkeypatch.setenv("CASS_EMU_DEVICE_ARCH", arch)
    p = device_props.properties()
    assert p.gcnArchName == arch.encode() and p.gcnArch == gcn
    assert p.warpSize == warp and (p.major, p.minor) == (major, minor)


def test_device_properties_describe_a_gfx1100():
    p = device_props.PROPS
    assert p.gcnArchName == b"gfx1100" and p.gcnArch == 1100
    assert p.warpSize == 32 and p.maxThreadsPerBlock == 1024 and p.sharedMemPerBlock == 65536
    assert p.major == 11 and p.minor == 0
