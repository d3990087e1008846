"""Prebuilt NVIDIA programs: test programs built by NVIDIA's tools alone (g++ or nvcc, no cass-cc),
to be run unchanged under cass-run on AMD, where cass-cc's libcuda.so.1 takes the NVIDIA driver's
place. Each folder tests/programs/prebuilt/<name>/ holds:

  sources        the program (main.cpp, main.py, kernels.cuh: no *.cu, so that the tests of the
                 program convention, which build every folder of *.cu files with cass-nvcc, skip it)
  build.json     the build: a JSON list of commands, each an argv list (strings); [] for none.
                 Run in order, each in any working directory (all paths are placeholders).
  run.json       the run: one argv list (strings)
  reference.txt  its stdout on an NVIDIA H200 (../REFERENCE_MACHINE.txt); the program exits 0, and
                 its last line is PASS

Every string of build.json and run.json may hold placeholders, replaced as text:

  {nvcc}           nvcc (NVIDIA's, not cass-nvcc)
  {cxx}            a C++ compiler driver (g++)
  {python}         a Python interpreter that imports cuda.bindings (package cuda-bindings)
  {src}            the program's folder (tests/programs/prebuilt/<name>)
  {out}            an existing, writable build folder for this program; the run reads from it too
  {cuda_include}   the folder holding cuda.h
  {cuda_lib}       the folder holding libcudart (unused by these programs so far)
  {libcuda_dir}    a folder with a libcuda.so to link against: the driver's, the toolkit's
                   lib64/stubs, or cass-cc's own (the stubs/ folder beside libcassrt).
                   All three carry the soname libcuda.so.1, which the program then loads at run time.
  {nvrtc_include}  the folder holding nvrtc.h
  {nvrtc_lib}      the folder holding libnvrtc.so.13 (linked as -l:libnvrtc.so.13, since the
                   nvidia-cuda-nvrtc wheel has no unversioned libnvrtc.so, and put on the rpath)
  {cubin_arch}     the sm_XY of the cubins that a program builds or compiles at run time: sm_80
                   under cass-cc (the SASS it translates); the GPU's own on NVIDIA (sm_90 on an
                   H200), since a cubin runs only on its own major architecture (the H200 refuses
                   driver_api's sm_80 cubin: CUDA_ERROR_NO_BINARY_FOR_GPU). The fatbin of
                   driver_api is always sm_80 with compute_80 PTX: the H200 runs its PTX.

Command line (what record_on_device.sh uses; a harness may import build/run_argv instead):

  python3 prebuilt.py list
  python3 prebuilt.py values [key=value ...]            placeholder values found on this machine
  python3 prebuilt.py build NAME OUT [key=value ...]    run NAME's build.json into folder OUT
  python3 prebuilt.py run NAME OUT [key=value ...]      run NAME's run.json (exit status passed on)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLACEHOLDERS = ("nvcc", "cxx", "python", "src", "out", "cuda_include", "cuda_lib", "libcuda_dir",
                "nvrtc_include", "nvrtc_lib", "cubin_arch")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def programs() -> list[str]:
    return sorted(p.name for p in HERE.iterdir() if (p / "build.json").is_file() and (p / "run.json").is_file())


def expand(word: str, values: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        key = match.group(1)
        if key not in PLACEHOLDERS:
            raise KeyError(f"unknown placeholder {{{key}}} in {word!r}")
        if not values.get(key):
            raise KeyError(f"placeholder {{{key}}} has no value (give {key}=...)")
        return str(values[key])
    return _PLACEHOLDER.sub(one, word)


def _load(name: str, file: str):
    return json.loads((HERE / name / file).read_text())


def build_commands(name: str, out: str | os.PathLike, values: dict[str, str]) -> list[list[str]]:
    values = {**values, "src": str(HERE / name), "out": str(out)}
    return [[expand(w, values) for w in argv] for argv in _load(name, "build.json")]


def run_argv(name: str, out: str | os.PathLike, values: dict[str, str]) -> list[str]:
    values = {**values, "src": str(HERE / name), "out": str(out)}
    return [expand(w, values) for w in _load(name, "run.json")]


def _wheel_dir(*parts: str) -> str | None:
    """nvidia/cu13/<parts> of an installed NVIDIA wheel (nvidia-cuda-nvrtc, nvidia-cuda-runtime)."""
    for entry in sys.path:
        candidate = Path(entry, "nvidia", "cu13", *parts[:-1])
        if (candidate / parts[-1]).exists():
            return str(candidate)
    return None


def default_values() -> dict[str, str]:
    """Placeholder values from this machine: CUDA_HOME (or CUDA_PATH, or nvcc's folder's parent,
    or /usr/local/cuda), then NVIDIA's wheels on this Python's path. Unfound ones stay empty."""
    nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or ""
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    if nvcc:
        homes.append(str(Path(nvcc).parent.parent))
    homes.append("/usr/local/cuda")
    home = next((Path(h) for h in homes if h and (Path(h) / "include" / "cuda.h").is_file()), None)
    v = {"nvcc": nvcc or (str(home / "bin" / "nvcc") if home else ""), "cxx": os.environ.get("CXX", "g++"),
         "python": sys.executable, "cubin_arch": "sm_80", "cuda_include": "", "cuda_lib": "", "libcuda_dir": "",
         "nvrtc_include": "", "nvrtc_lib": ""}
    if home:
        lib = next((home / d for d in ("lib64", "lib") if (home / d).is_dir()), home / "lib64")
        v["cuda_include"], v["cuda_lib"] = str(home / "include"), str(lib)
        if (lib / "stubs" / "libcuda.so").is_file():
            v["libcuda_dir"] = str(lib / "stubs")
        if (home / "include" / "nvrtc.h").is_file():
            v["nvrtc_include"] = str(home / "include")
        if (lib / "libnvrtc.so.13").exists():
            v["nvrtc_lib"] = str(lib)
    v["cuda_include"] = v["cuda_include"] or _wheel_dir("include", "cuda.h") or ""
    v["cuda_lib"] = v["cuda_lib"] or _wheel_dir("lib", "libcudart.so.13") or ""
    v["nvrtc_include"] = v["nvrtc_include"] or _wheel_dir("include", "nvrtc.h") or ""
    v["nvrtc_lib"] = v["nvrtc_lib"] or _wheel_dir("lib", "libnvrtc.so.13") or ""
    return v


def build(name: str, out: str | os.PathLike, values: dict[str, str], echo: bool = True) -> None:
    Path(out).mkdir(parents=True, exist_ok=True)
    for argv in build_commands(name, out, values):
        if echo:
            print("+ " + " ".join(argv), file=sys.stderr, flush=True)
        subprocess.run(argv, check=True)


def _values(pairs: list[str]) -> dict[str, str]:
    values = default_values()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in PLACEHOLDERS or key in ("src", "out"):
            raise SystemExit(f"prebuilt.py: expected KEY=VALUE with KEY one of "
                             f"{', '.join(k for k in PLACEHOLDERS if k not in ('src', 'out'))}, got {pair!r}")
        values[key] = value
    return values


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "list":
        print("\n".join(programs()))
        return 0
    if command == "values":
        print(json.dumps(_values(rest), indent=1))
        return 0
    if command in ("build", "run") and len(rest) >= 2 and rest[0] in programs():
        name, out, values = rest[0], rest[1], _values(rest[2:])
        try:
            if command == "build":
                build(name, out, values)
                return 0
            return subprocess.run(run_argv(name, out, values)).returncode
        except KeyError as e:
            raise SystemExit(f"prebuilt.py: {e.args[0]}")
        except subprocess.CalledProcessError as e:
            print(f"prebuilt.py: build step failed with exit status {e.returncode}", file=sys.stderr)
            return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
