"""ROCm 5.2's HIP headers and device libraries (what Debian ships) as a newer clang needs them.

clang-22 builds HIP against them (hip_compilers.py) once two gaps are bridged, each generated
once into the cache:
- clang >= 18 no longer links hip.bc, which defines __atomic_work_item_fence (HIP 5.2's
  __threadfence*): the device-library folder clang-22 gets has hip.bc's functions linked into
  oclc_abi_version_500.bc, which clang links into every code object v5 build. Both are made weak
  there first: llvm-link drops linkonce_odr definitions that nothing in the link references.
- clang >= 18 no longer links oclc_daz_opt_{on,off}.bc either (it reads the denormal mode from
  the function attributes), but ROCm 5.2's ocml still reads `__oclc_daz_opt` (its exp, log and
  sqrt under fast math): the carrier holds the library for the build's mode, on where the build
  flushes f32 denormals (-fgpu-flush-denormals-to-zero, as hipcc's clang 15 chooses it), so each
  mode has its own folder.
- HIP 5.2's headers lean on clang 15: atomicInc/atomicDec call LLVM intrinsics by their LLVM 15
  names through asm labels (llvm.amdgcn.atomic.inc.i32.p0i32), which LLVM 22 no longer has, and
  amd_hip_fp16.h calls __llvm_amdgcn_rcp_f16, which clang 15's HIP wrapper declared and
  clang-22's does not: an overlay of those headers, searched before the installed ones, calls
  clang's builtins instead.
The overlay also holds what every HIP compiler needs for CUDA's meaning: HIP 5.2 declares
__half2's x and y unsigned short (CUDA: __half), so `__half2float(h2.x)` converted the bits as a
number; the overlay declares them __half. Its channel descriptors of signed char and uchar1-4
have the other signedness's kind (normalised texture reads scaled by 1/255 for signed char). And
HIP 5.2's texture references (a global template
`texture`, gone from CUDA 12) take a reserved name, so a program may call its own things `texture`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

from . import toolchain
from .errors import CassError


CARRIER = "oclc_abi_version_500.bc"  # linked into every code object v5 build


def clang22_device_lib_path(*offload_archs: str, flush_denormals: bool = False) -> str:
    """A folder with ROCm's device libraries for `offload_archs` whose CARRIER holds hip.bc and
    the oclc_daz_opt library of the build's f32 denormal mode."""
    installed = toolchain.rocm_device_lib_path(*offload_archs)
    daz = "oclc_daz_opt_on.bc" if flush_denormals else "oclc_daz_opt_off.bc"
    target = toolchain.cache_root() / "device-libs" / \
        f"clang22-{zlib.crc32(installed.encode()):08x}-daz-{'on' if flush_denormals else 'off'}"
    if (target / CARRIER).is_file():
        return str(target)
    tmp = _fresh(target)
    for bc in os.listdir(installed):
        if bc != CARRIER:
            os.symlink(os.path.join(installed, bc), tmp / bc)
    carried = (CARRIER, "hip.bc", daz)
    for name in carried:
        ir = _run("llvm-dis", os.path.join(installed, name), "-o", "-")
        (tmp / "weak.ll").write_text(re.sub(r"^(define|@[\w.]+ =) linkonce_odr ", r"\1 weak ", ir, flags=re.M))
        _run("llvm-as", str(tmp / "weak.ll"), "-o", str(tmp / f"weak-{name}"))
    _run("llvm-link", *(str(tmp / f"weak-{name}") for name in carried), "-o", str(tmp / CARRIER))
    for leftover in ("weak.ll", *(f"weak-{name}" for name in carried)):
        (tmp / leftover).unlink()
    return _publish(tmp, target)


def _run(tool: str, *args: str) -> str:
    """An LLVM tool of the newest LLVM (its bitcode is clang-22's); its output, or CassError."""
    proc = subprocess.run([toolchain.path(tool), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"could not prepare ROCm's device libraries for clang-22 ({tool}): "
                        f"{proc.stderr.strip()}")
    return proc.stdout


def _atomic_builtins(text: str) -> str:
    return re.sub(r"return __builtin_amdgcn_atomic_(inc|dec)\(\s*address,\s*val,\s*__ATOMIC_RELAXED,"
                  r"\s*1 /\* Device scope \*/,\s*false\)",
                  r'return __builtin_amdgcn_atomic_\g<1>32(address, val, __ATOMIC_RELAXED, "agent")', text)


def _half_reciprocals(text: str) -> str:
    return text.replace('#include "hip_fp16_math_fwd.h"\n', '#include "hip_fp16_math_fwd.h"\n'
                        "static __device__ inline _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) "
                        "{ return __builtin_amdgcn_rcph(x); }\n"
                        "static __device__ inline __2f16 __llvm_amdgcn_rcp_2f16(__2f16 x) "
                        "{ return __2f16{__builtin_amdgcn_rcph(x.x), __builtin_amdgcn_rcph(x.y)}; }\n", 1)


def _half2_members(text: str) -> str:
    # __half2's own union (the first `unsigned short x; unsigned short y;` after `struct __half2 {`;
    # __half2_raw's, before it, stay the bits CUDA's __half2_raw has too)
    return re.sub(r"(struct __half2 \{.*?)unsigned short x;(\s*)unsigned short y;", r"\1__half x;\2__half y;",
                  text, count=1, flags=re.S)


def _no_texture_references(text: str) -> str:
    # HIP 5.2 still declares the texture references CUDA 12 removed, as a global template named
    # `texture`, which clashes with a program's own `texture` (a function making texture
    # objects, realworld/texture_layered): the template gets a reserved name.
    return re.sub(r"(?<![\w.])texture(?=\s*<|\s*:\s*public|\()", "__hip_texture_reference", text)


def _channel_kinds(text: str) -> str:
    # HIP 5.2's channel descriptors of signed char (Unsigned) and uchar1-4 (Signed) have the wrong
    # kind, which decides how a texture's normalised reads scale (1/255 or 1/127): each takes the
    # signedness of the type its bits are counted from, as CUDA's cudaCreateChannelDesc does.
    return re.sub(r"(sizeof\((unsigned|signed) \w+\) \* 8;\s*return hipCreateChannelDesc\([^;]*?"
                  r"hipChannelFormatKind)(?:Signed|Unsigned)",
                  lambda m: m.group(1) + m.group(2).capitalize(), text)


# Installed header -> its rewrites, in order. For every HIP compiler: CUDA's __half2 members,
# CUDA's channel kinds, and no global `texture`.
FOR_EVERY_COMPILER = {"hip/amd_detail/amd_hip_fp16.h": (_half2_members,),
                      "hip/amd_detail/amd_channel_descriptor.h": (_channel_kinds,),
                      "hip/texture_types.h": (_no_texture_references,),
                      "hip/hip_runtime_api.h": (_no_texture_references,),
                      "hip/amd_detail/texture_fetch_functions.h": (_no_texture_references,)}
# For clang-22, after those: atomicInc/atomicDec through clang's builtins; the half reciprocals
# clang 15's own HIP declarations had (amd_hip_fp16.h calls them) defined.
FOR_CLANG22 = {"hip/amd_detail/amd_hip_atomic.h": (_atomic_builtins,),
               "hip/amd_detail/amd_hip_fp16.h": (_half_reciprocals,)}


def hip_header_overlay(clang22: bool) -> str:
    """A folder to search before the installed HIP headers, holding the headers rewritten for
    the compiler (FOR_EVERY_COMPILER's rewrites, and FOR_CLANG22's for clang-22)."""
    extra = FOR_CLANG22 if clang22 else {}
    overlaid = {h: FOR_EVERY_COMPILER.get(h, ()) + extra.get(h, ()) for h in {*FOR_EVERY_COMPILER, *extra}}
    include = toolchain.hip_include_dir()
    # The folder's name changes with the installed headers and with the list of rewrites.
    rewrites = ",".join(f"{h}:{'+'.join(r.__name__ for r in rs)}" for h, rs in sorted(overlaid.items()))
    target = toolchain.cache_root() / "hip-overlay" / \
        f"{zlib.crc32(include.encode()):08x}-{zlib.crc32(rewrites.encode()):08x}"
    if all((target / h).is_file() for h in overlaid):
        return str(target)
    tmp = _fresh(target)
    for header, rewrites_of_header in overlaid.items():
        installed = os.path.join(include, header)
        with open(installed, encoding="utf-8") as f:
            text = f.read()
        rewritten = text
        for rewrite in rewrites_of_header:
            before, rewritten = rewritten, rewrite(rewritten)
            if rewritten == before:
                raise CassError(f"{installed} is not HIP 5.2's: it lacks what cass-cc rewrites "
                                f"({rewrite.__name__.strip('_')}); the source route cannot build against it")
        # "x.h" would be looked for next to the overlay's copy: name the installed sibling instead.
        rewritten = re.sub(r'#include "([\w.]+)"', rf"#include <{os.path.dirname(header)}/\1>", rewritten)
        (tmp / header).parent.mkdir(parents=True, exist_ok=True)
        (tmp / header).write_text(rewritten, encoding="utf-8")
    return _publish(tmp, target)


def _fresh(target: Path) -> Path:
    tmp = Path(f"{target}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    return tmp


def _publish(tmp: Path, target: Path) -> str:
    try:
        os.rename(tmp, target)
    except OSError:  # another build made it first
        shutil.rmtree(tmp, ignore_errors=True)
    return str(target)
