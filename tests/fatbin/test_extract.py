"""Extraction from host objects, fatbins and cubins, checked against cuobjdump byte for byte."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.errors import CassError
from cass_cc.fatbin import Cubin, read_cubins, read_fatbins
from cass_cc.fatbin.nvinfo import EIATTR

from tests.sass.compiled import KERNELS, compile_cu, gencode

MATH = KERNELS / "math.cu"


def cuobjdump_extract(path: Path, what: str) -> list[bytes]:
    """The files `cuobjdump -x<what> all` writes, in its numbering order."""
    with tempfile.TemporaryDirectory(prefix="cass-cuobjdump-") as d:
        subprocess.run([toolchain.path("cuobjdump"), f"-x{what}", "all", str(path)], cwd=d,
                       capture_output=True, check=True)
        files = sorted(os.listdir(d), key=lambda n: int(re.search(r"\.(\d+)\.sm_", n).group(1)) if re.search(r"\.(\d+)\.sm_", n) else 0)
        return [Path(d, f).read_bytes() for f in files]


@pytest.fixture(scope="module", params=["default", "size", "speed", "all4", "debug"])
def host_object(request):
    """nvcc's fatbin layouts: zstd PTX (default), zstd cubins (size), LZ4 (speed), four archs, and
    a debug build whose 360 KB cubin spans several zstd blocks."""
    flags = {"default": ["-arch=sm_80"], "size": ["-arch=sm_80", "--compress-mode=size"],
             "speed": ["-arch=sm_80", "--compress-mode=speed"], "all4": gencode(),
             "debug": ["-arch=sm_80", "-G"]}[request.param]
    return request.param, compile_cu(MATH, *flags)


def test_cubins_and_ptx_match_cuobjdump(host_object):
    mode, obj = host_object
    fatbins = read_fatbins(str(obj))
    entries = [e for fb in fatbins for e in fb.entries]
    ours_elf = [e.payload() for e in entries if e.kind == 2]
    ours_ptx = [e.payload() for e in entries if e.kind == 1]
    assert ours_elf == cuobjdump_extract(obj, "elf")
    assert ours_ptx == cuobjdump_extract(obj, "ptx")
    compressions = {e.compression for e in entries}
    if mode == "size":
        assert "zstd" in compressions and all(e.compression == "zstd" for e in entries if e.kind == 2)
    if mode == "speed":
        assert "lz4" in compressions
    if mode == "all4":
        assert sorted(c.arch for c in read_cubins(str(obj))) == ["sm_80", "sm_86", "sm_89", "sm_90"]


def test_fatbin_and_cubin_files():
    fatbin = compile_cu(MATH, "-arch=sm_86", output="-fatbin")
    cubin = compile_cu(MATH, "-arch=sm_89", output="-cubin")
    assert [c.arch for c in read_cubins(str(fatbin))] == ["sm_86"]
    assert read_cubins(str(fatbin))[0].data == cuobjdump_extract(fatbin, "elf")[0]
    (only,) = read_cubins(str(cubin))
    assert only.arch == "sm_89" and only.data == cubin.read_bytes()


def _cuobjdump_attributes(cubin_path: Path) -> dict[str, list[str]]:
    """{.nv.info section: [attribute names]} as `cuobjdump -elf` prints them."""
    text = subprocess.run([toolchain.path("cuobjdump"), "-elf", str(cubin_path)], capture_output=True,
                          text=True, check=True).stdout
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if re.fullmatch(r"\.nv\.info(\.\S+)?", line.strip()):
            current = line.strip()
            out[current] = []
        elif re.fullmatch(r"\.[\w.$]+", line.strip()):   # another section (.nv.compat ...)
            current = None
        elif current and line.strip().startswith("Attribute:"):
            out[current].append(line.split(":", 1)[1].strip())
        elif current and line.startswith(".section"):
            current = None
    return out


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_nvinfo_attribute_names_match_cuobjdump(arch):
    path = compile_cu(MATH, f"-arch={arch}", output="-cubin")
    cubin = Cubin(path.read_bytes())
    expected = _cuobjdump_attributes(path)
    assert len(expected) == len(cubin.kernels) + 1
    from cass_cc.fatbin.nvinfo import parse_nvinfo
    import io
    from elftools.elf.elffile import ELFFile
    elf = ELFFile(io.BytesIO(cubin.data))
    for section, names in expected.items():
        ours = [r.name for r in parse_nvinfo(elf.get_section_by_name(section).data())]
        assert len(ours) == len(names), section
        for mine, theirs in zip(ours, names):
            if theirs != "unknown Attribute":
                assert mine == theirs, section


@pytest.mark.parametrize("arch,base", [("sm_80", 0x160), ("sm_86", 0x160), ("sm_89", 0x160), ("sm_90", 0x210)])
def test_kernel_attributes(arch, base):
    cubin = Cubin(compile_cu(MATH, f"-arch={arch}", output="-cubin").read_bytes())
    assert cubin.arch == arch
    k = {k.name: k for k in cubin.kernels}
    assert len(k) == 11
    by_value = k["_Z8by_value3BigcsxPf"]
    assert [tuple(p) for p in by_value.params] == [(0, 0, 40), (1, 40, 1), (2, 42, 2), (3, 48, 8), (4, 56, 8)]
    assert (by_value.param_base, by_value.param_size) == (base, 64)
    dyn = k["_Z14dynamic_sharedPKfPf"]
    assert dyn.max_threads == (256, 1, 1)
    reserved = 1024 if arch == "sm_90" else 0
    assert dyn.static_shared_size == 256 + reserved
    assert k["_Z7atomicsPiPjPfPdPKii"].static_shared_size == 4 + reserved or \
        k["_Z7atomicsPiPjPfPdPKii"].static_shared_size == 16 + reserved
    assert k["_Z11local_arrayPKiPi"].frame_size >= 128
    assert k["_Z7printerid"].frame_size >= 8
    switcher = k["_Z8switcherPKiPii"]
    assert switcher.indirect_branches and all(len(t) >= 2 for t in switcher.indirect_branches.values())
    assert 2 in switcher.constant_banks                       # the jump table
    assert switcher.regcount > 0 and switcher.exit_offsets
    assert all(o % 16 == 0 and o < len(switcher.code) for o in switcher.exit_offsets)
    variables = {v.name: v for v in cubin.globals}
    assert variables["dev_scale"].data == struct.pack("<f", 2.0)
    assert variables["dev_table"].data == struct.pack("<4i", 1, 2, 3, 4)
    assert variables["coeffs"].bank == 3 and variables["coeffs"].data == struct.pack("<8f", *range(1, 9))
    bank4 = cubin.constant_banks[4]
    assert {r.symbol for r in bank4.relocations} >= {"dev_scale", "dev_table", "vprintf"}
    assert all(r.type_name == "R_CUDA_64" for r in bank4.relocations)


def _run_cli(*args):
    from tests.conftest import run_tool
    return run_tool("cass-cc", *args)


def test_bad_inputs(tmp_path):
    obj = compile_cu(MATH, "-arch=sm_80")
    fat = read_fatbins(str(obj))
    assert fat
    raw = compile_cu(MATH, "-arch=sm_80", output="-fatbin").read_bytes()
    cases = {
        "truncated.fatbin": raw[: len(raw) // 2],
        "magic.fatbin": b"\x00\x00\x00\x00" + raw[4:],
        "text.o": b"hello, this is not an object\n",
        "empty.cubin": b"",
        "corrupt.cubin": compile_cu(MATH, "-arch=sm_80", output="-cubin").read_bytes()[:200],
    }
    bad_entry = bytearray(raw)
    struct.pack_into("<H", bad_entry, 16, 7)        # first entry's kind
    cases["kind.fatbin"] = bytes(bad_entry)
    zstd = bytearray(compile_cu(MATH, "-arch=sm_80", "--compress-mode=size", output="-fatbin").read_bytes())
    zstd[16 + 64 + 40:16 + 64 + 80] = bytes(40)     # inside the first compressed payload
    cases["zstd.fatbin"] = bytes(zstd)
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(CassError):
            for c in read_cubins(str(p)):
                c.kernels
        out = tmp_path / f"out-{name}"
        proc = _run_cli("translate", str(p), "-o", str(out))
        assert proc.returncode != 0, name
        assert proc.stderr.startswith("cass-cc: error:") and "Traceback" not in proc.stderr, (name, proc.stderr)
        assert not out.exists() or not any(out.iterdir()), name


@pytest.mark.parametrize("arch", ["sm_75", "sm_100"])
def test_unsupported_arch_is_refused(tmp_path, arch):
    cubin = compile_cu(MATH, f"-arch={arch}", output="-cubin")
    assert Cubin(cubin.read_bytes()).arch == arch
    out = tmp_path / "out"
    proc = _run_cli("translate", str(cubin), "-o", str(out))
    assert proc.returncode != 0
    assert f"SASS for {arch} is not supported" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("mode", ["default", "size", "speed"])
def test_damaged_fatbins_give_clear_errors(mode):
    """Random byte flips and truncations: a CassError or a clean parse, never another exception."""
    import random
    flags = {"default": [], "size": ["--compress-mode=size"], "speed": ["--compress-mode=speed"]}[mode]
    raw = compile_cu(MATH, "-arch=sm_80", *flags, output="-fatbin").read_bytes()
    from cass_cc.fatbin import parse_fatbins
    rng = random.Random(1234)
    for _ in range(60):
        data = bytearray(raw)
        for _ in range(rng.randint(1, 12)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.3:
            data = data[:rng.randrange(len(data))]
        try:
            for fb in parse_fatbins(bytes(data)):
                for entry in fb.entries:
                    payload = entry.payload()
                    if entry.kind == 2:
                        Cubin(payload).kernels
        except CassError:
            pass
