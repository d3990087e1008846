"""Device code a program hands the driver that cannot become AMD code: every way of loading it
(cuModuleLoad, cuModuleLoadData, cuModuleLoadDataEx, cuLibraryLoadData) answers a CUDA error code,
the reason is on stderr and in the JIT error log the program asked for, and the program goes on.
tests/prebuilt/load_image.cpp is the program (g++ -lcuda, as on an NVIDIA machine)."""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from cass_cc.runtime import cassrt
from cass_cc.runtime.cassrt.build import STUB_DIR

from .test_prebuilt import PREBUILT, cass_run, prebuilt

HERE = Path(__file__).resolve().parent
LOADS = ("cuModuleLoad", "cuModuleLoadData", "cuModuleLoadDataEx", "cuLibraryLoadData")


def _nvcc(*args: str) -> None:
    subprocess.run([prebuilt.default_values()["nvcc"], *args], check=True, capture_output=True)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    """What load_image printed for each image, run once under cass-run: {image: {"stdout": block,
    load: result name, "error log": text, "info log": text, "small": line}}, plus the run itself."""
    work = tmp_path_factory.mktemp("bad_images")
    values = prebuilt.default_values()
    program = work / "load_image"
    subprocess.run([values["cxx"], "-O2", f"-I{values['cuda_include']}", str(HERE / "load_image.cpp"),
                    "-o", str(program), f"-L{cassrt.library_dir() / STUB_DIR}", "-lcuda"], check=True)
    _nvcc("-x", "cu", "-fatbin", "-arch=sm_80", str(HERE / "untranslatable.cuh"), "-o", str(work / "untranslatable.fatbin"))
    _nvcc("-x", "cu", "-cubin", "-arch=sm_80", str(HERE / "untranslatable.cuh"), "-o", str(work / "untranslatable.cubin"))
    _nvcc("-x", "cu", "-fatbin", "-arch=sm_80", str(PREBUILT / "module_queries" / "kernels.cuh"),
          "-o", str(work / "good.fatbin"))
    fatbin = (work / "good.fatbin").read_bytes()
    # The header stays (it is a fatbin), the entries behind it are overwritten.
    (work / "corrupt.fatbin").write_bytes(fatbin[:16] + b"\xab" * (len(fatbin) - 16))
    (work / "truncated.cubin").write_bytes((work / "untranslatable.cubin").read_bytes()[:600])
    (work / "garbage.ptx").write_text(".version 8.0\n.target sm_80\n.address_size 64\nthis is not ptx;\n")
    (work / "random.bin").write_bytes(random.Random(11).randbytes(3000))
    names = ["untranslatable.fatbin", "untranslatable.cubin", "corrupt.fatbin", "truncated.cubin",
             "garbage.ptx", "random.bin", "good.fatbin"]
    proc = cass_run([str(program), *(str(work / n) for n in names)])
    blocks = re.split(r"^== ", proc.stdout, flags=re.M)[1:]
    out: dict[str, dict] = {"run": {"proc": proc}}
    for block in blocks:
        name = os.path.basename(block.splitlines()[0])
        entry = {"stdout": block}
        for load in LOADS:
            m = re.search(rf"^{load}: (\w+)", block, re.M)
            entry[load] = m.group(1) if m else None
        for log, after in (("error log", "info log"), ("info log", "cuLibraryLoadData:")):
            m = re.search(rf"^{log} \((\d+) bytes\):\n(.*?)^{after}", block, re.M | re.S)
            entry[log] = (int(m.group(1)), m.group(2)) if m else None
        entry["small"] = re.search(r"^small error log.*$", block, re.M).group(0)
        out[name] = entry
    return out


def test_the_program_survives_every_image(results):
    proc = results["run"]["proc"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.endswith("done\n")
    assert len(results) == 8


@pytest.mark.parametrize("image", ["untranslatable.fatbin", "untranslatable.cubin"])
def test_untranslatable_kernel_is_no_binary_for_gpu(results, image):
    """A module loads whole or not at all: one kernel the lifter refuses (TXD) fails the load with
    CUDA_ERROR_NO_BINARY_FOR_GPU, naming the kernel and the reason, on stderr and in the log."""
    entry = results[image]
    assert all(entry[load] == "CUDA_ERROR_NO_BINARY_FOR_GPU" for load in LOADS), entry["stdout"]
    size, text = entry["error log"]
    assert "sample_grad" in text and "TXD" in text and "1 of 2 kernels" in text, text
    assert size == len(text)
    assert "sample_grad: lift: unsupported SASS: TXD" in results["run"]["proc"].stderr


@pytest.mark.parametrize("image, code, says", [
    ("corrupt.fatbin", "CUDA_ERROR_INVALID_IMAGE", "corrupt fatbin"),
    ("truncated.cubin", "CUDA_ERROR_INVALID_IMAGE", "cubin"),
    ("garbage.ptx", "CUDA_ERROR_INVALID_PTX", "ptxas -arch=sm_80 rejects the PTX"),
    ("random.bin", "CUDA_ERROR_INVALID_IMAGE", "not a fatbin, a cubin or PTX"),
])
def test_bad_image_is_a_cuda_error_with_a_message(results, image, code, says):
    entry = results[image]
    assert all(entry[load] == code for load in LOADS), entry["stdout"]
    assert says in entry["error log"][1], entry["stdout"]
    assert says in results["run"]["proc"].stderr


def test_truncated_cubin_by_name_says_truncated(results):
    """Loaded by name, the file's size is known: a cubin shorter than its headers say is truncated
    (in memory, the bytes after it are read as the rest of the image, which then is damaged)."""
    assert "truncated" in results["run"]["proc"].stderr


def test_logs_of_a_good_image(results):
    """The information log says what happened; the error log is empty; a small buffer takes the
    start of a message, NUL-terminated, and its size option says how many bytes were written."""
    entry = results["good.fatbin"]
    assert all(entry[load] == "CUDA_SUCCESS" for load in LOADS), entry["stdout"]
    assert entry["error log"][0] == 0
    size, text = entry["info log"]
    assert size > 0 and "fatbin image" in text and "gfx1100" in text
    assert results["random.bin"]["small"] == "small error log (15 bytes): libcassrt: an i"
