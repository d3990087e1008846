"""`cass-cc translate` and `cass-cc extract` on real nvcc output."""

from __future__ import annotations

import json

import pytest

from cass_cc.rdna3 import CodeObject
from tests.conftest import run_tool
from tests.sass.compiled import KERNELS, compile_cu


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    out = tmp_path_factory.mktemp("translate") / "out"
    obj = compile_cu(KERNELS / "math.cu", "-arch=sm_80")
    proc = run_tool("cass-cc", "translate", str(obj), "-o", str(out))
    return proc, out, obj


def test_every_kernel_is_reported(translated):
    proc, out, obj = translated
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads((out / f"{obj.stem}.cass-report.json").read_text())
    assert report["route"] == "binary" and report["offload_arch"] == "gfx1100"
    assert report["nvidia_targets"] == ["sm_80"]
    kernels = {k["name"]: k for k in report["kernels"]}
    assert len(kernels) == 11
    for name, k in kernels.items():
        assert k["tier"] == "lift" and k["status"] in ("ok", "failed")
        assert k["sass_instructions"] > 0
        assert (out / f"{name}.sass").is_file()
        if k["status"] == "ok":   # a kernel's files are its stages' (ARTIFACTS); the code object is the TU's
            assert all((out / f"{name}.{ext}").is_file() for ext in ("ll", "s", "o"))
            assert not (out / f"{name}.hsaco").exists()
        else:
            assert k["reasons"] and k["reasons"][0].split(":")[0] in (
                "lift", "codegen", "assemble", "link", "verify")
            assert f"{k['demangled']}: lift failed" in proc.stdout
    ok = [n for n, k in kernels.items() if k["status"] == "ok"]
    assert proc.returncode == (0 if len(ok) == len(kernels) else 1)
    if ok:
        combined = CodeObject((out / f"{obj.stem}.hsaco").read_bytes())
        assert set(ok) == set(combined.kernels)


def test_second_translation_hits_the_cache(translated, tmp_path):
    _proc, _out, obj = translated
    out = tmp_path / "first"     # translated again here: the fixture's run may be minutes old
    run_tool("cass-cc", "translate", str(obj), "-o", str(out))
    first = json.loads((out / f"{obj.stem}.cass-report.json").read_text())
    again = run_tool("cass-cc", "translate", str(obj), "-o", str(tmp_path / "again"))
    report = json.loads((tmp_path / "again" / f"{obj.stem}.cass-report.json").read_text())
    for before, after in zip(first["kernels"], report["kernels"]):
        assert before["status"] == after["status"]
        assert after["reasons"][-1] == "cache: hit"
        if after["status"] == "ok":
            assert (out / f"{after['name']}.o").read_bytes() == (tmp_path / "again" / f"{after['name']}.o").read_bytes()
    assert (out / f"{obj.stem}.hsaco").read_bytes() == (tmp_path / "again" / f"{obj.stem}.hsaco").read_bytes()


def test_translate_a_cu_file(tmp_path):
    src = tmp_path / "tiny.cu"
    src.write_text("__global__ void scale(float *p, float s, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= s; }\n")
    proc = run_tool("cass-cc", "translate", str(src), "-o", str(tmp_path / "o"))
    assert "Traceback" not in proc.stderr
    report = json.loads((tmp_path / "o" / "tiny.cass-report.json").read_text())
    assert [k["demangled"] for k in report["kernels"]] == ["scale(float*, float, int)"]
    assert (tmp_path / "o" / "_Z5scalePffi.sass").read_text().count("EXIT") >= 1


def test_cu_that_does_not_compile(tmp_path):
    src = tmp_path / "broken.cu"
    src.write_text("__global__ void k( {\n")
    proc = run_tool("cass-cc", "translate", str(src), "-o", str(tmp_path / "o"))
    assert proc.returncode == 1 and proc.stderr.startswith("cass-cc: error: nvcc failed")
    assert not (tmp_path / "o").exists()


def test_extract_lists_kernels_parameters_and_sass():
    obj = compile_cu(KERNELS / "math.cu", "-arch=sm_80")
    proc = run_tool("cass-cc", "extract", str(obj))
    assert proc.returncode == 0, proc.stderr
    assert "kernel _Z8by_value3BigcsxPf  (by_value(Big, char, short, long long, float*))" in proc.stdout
    assert "  param 2: offset 42 size 2" in proc.stdout
    assert "launch bounds max_threads=(256, 1, 1)" in proc.stdout
    assert "/*0000*/" in proc.stdout
    compact = run_tool("cass-cc", "extract", "--compact", str(obj)).stdout
    assert "/*" not in compact and "BRX R4 -0x160 ;" in compact


def test_missing_file():
    proc = run_tool("cass-cc", "translate", "/nonexistent/x.o")
    assert proc.returncode == 1 and proc.stderr == "cass-cc: error: '/nonexistent/x.o': no such file\n"


def test_executable_with_two_translation_units(tmp_path):
    import subprocess
    main = tmp_path / "main.cu"
    main.write_text("int main() { return 0; }\n")
    exe = tmp_path / "prog"
    objects = [compile_cu(s, "-arch=sm_80") for s in (KERNELS / "math.cu", KERNELS / "more.cu", main)]
    subprocess.run(["nvcc", "-arch=sm_80", "-o", str(exe), *map(str, objects)], check=True, capture_output=True)
    proc = run_tool("cass-cc", "translate", str(exe), "-o", str(tmp_path / "o"))
    assert "Traceback" not in proc.stderr
    report = json.loads((tmp_path / "o" / "prog.cass-report.json").read_text())
    assert len(report["kernels"]) == 20
    ok = {k["name"] for k in report["kernels"] if k["status"] == "ok"}
    objects = sorted((tmp_path / "o").glob("prog.*.hsaco"))
    if ok:
        names = set()
        for co in objects:
            names |= set(CodeObject(co.read_bytes()).kernels)
        assert names == ok


def test_ptx_only_object_is_refused(tmp_path):
    obj = compile_cu(KERNELS / "math.cu", "-arch=compute_80", "-code=compute_80")
    proc = run_tool("cass-cc", "translate", str(obj), "-o", str(tmp_path / "o"))
    assert proc.returncode == 1
    assert proc.stderr.endswith("only PTX, no SASS (build with -arch=sm_80)\n")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("arch,message", [
    ("gfx1999", "offload arch 'gfx1999' is not a target cass-cc knows (known: gfx1030, gfx1100"),
])
def test_bad_offload_arch(tmp_path, arch, message):
    obj = compile_cu(KERNELS / "math.cu", "-arch=sm_80")
    proc = run_tool("cass-cc", "translate", str(obj), "--cass-offload-arch", arch, "-o", str(tmp_path / "o"))
    assert proc.returncode == 1 and proc.stderr.startswith(f"cass-cc: error: {message}")
    assert not (tmp_path / "o").exists()


def test_object_without_device_code(tmp_path):
    import subprocess
    from cass_cc.passes import units_from_file
    (tmp_path / "plain.c").write_text("int answer(void) { return 42; }\n")
    obj = tmp_path / "plain.o"
    subprocess.run(["cc", "-c", str(tmp_path / "plain.c"), "-o", str(obj)], check=True)
    assert units_from_file(str(obj)) == []
    proc = run_tool("cass-cc", "translate", str(obj), "-o", str(tmp_path / "o"))
    assert proc.returncode == 1 and "no kernels" in proc.stderr and not (tmp_path / "o").exists()
