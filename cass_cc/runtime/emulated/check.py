"""`cass-run --check`: every launch of a translated kernel runs twice on the emulator, with the
translated code and with the reference (hipcc's build of the same source, embedded by
`cass-nvcc --cass-embed-reference`), from the same memory, and what they wrote is compared.

Where references come from: libcassrt describes each module it loads from a program's offload
bundle through __cassEmuDescribeModule (modules.py; the bundle entry id, "hip-..." for translated code,
"hipv4-..." for the hipify fallback, and the translation unit's "cassref-..." entry). A kernel
is looked up by name in the reference of its module.

One checked launch, in order: snapshot every region of device memory (HIP allocations of every
kind, host memory the device can reach, and the code objects' variables); run the translated
kernel; keep what it left; restore the snapshot; copy the translated code object's variables
into the reference code object's variables of the same name; run the reference (its printf
output is dropped, it ran already); compare every region, the variables through their names;
then put back what the translated kernel left, so the program continues with the translated
results. Every write counts, whatever made it (stores, atomics, the device heap), because whole
regions are compared.

Each launch becomes one JSON line in $CASS_CHECK_FILE (cass-run reads them for its summary);
a launch that differs is also reported on stderr at once.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cass_cc.demangle import demangle, demangle_all

from .check_compare import MAX_REPORTED, WORD, Outcome, View, base_name, compare, element_type, parameter_spellings
from . import errors
from .registry import flush_c_streams
from .state import DEVICE

CHECK_FILE_ENV = "CASS_CHECK_FILE"
RTOL_ENV = "CASS_CHECK_RTOL"
ATOL_ENV = "CASS_CHECK_ATOL"
ORDER_FREE_ENV = "CASS_CHECK_ORDER_FREE"
TOLERATE_ENV = "CASS_CHECK_TOLERATE"
DEFAULT_RTOL, DEFAULT_ATOL = 1e-5, 1e-8
TRANSLATED_KIND, FALLBACK_KIND = "hip-", "hipv4-"
NO_REFERENCE = ("no reference (build with cass-nvcc --cass-embed-reference, or CASS_EMBED_REFERENCE=1; "
                "the build warns when hipify + hipcc cannot make one)")
NOT_FROM_A_BUNDLE = "no reference (a code object the program loaded itself, not from cass-nvcc's bundle)"

_launches = [0]


def enabled() -> bool:
    return bool(os.environ.get(CHECK_FILE_ENV))


def tolerances() -> tuple[float, float]:
    return (float(os.environ.get(RTOL_ENV, DEFAULT_RTOL)), float(os.environ.get(ATOL_ENV, DEFAULT_ATOL)))


def named_in(variable: str, name: str, demangled: str) -> bool:
    """Whether the user named this kernel in the list in $variable (cass-run's
    --check-order-free, --check-tolerate): by its symbol, or by its C++ name without
    parameters and template arguments ('ns::histogram', or 'histogram')."""
    wanted = {k for k in os.environ.get(variable, "").split(",") if k}
    base = base_name(demangled)
    return name in wanted or bool(base and (base in wanted or base.split("::")[-1] in wanted))


def order_free(name: str, demangled: str) -> bool:
    return named_in(ORDER_FREE_ENV, name, demangled)


# --- one launch ------------------------------------------------------------------------------

Runner = Callable[[object, str, bytes, Callable[[str], None] | None], object]  # (code object, kernel, kernarg, printf) -> stats


@dataclass
class Region:
    base: int
    size: int
    label: str


def _regions(loaded: list, skip: set[int]) -> list[Region]:
    """Every region of device memory a kernel can write: HIP's allocations, and the code objects
    of the `loaded` Images but the references' and those in `skip`."""
    found = [Region(a.address, a.size, f"{a.kind} allocation") for a in DEVICE.allocations.values() if a.size]
    for image in loaded:
        co = image.loaded
        if co is not None and not image.is_reference and co.base not in skip:
            found.append(Region(co.base, co.image_size, f"code object of {image.origin}"))
    return found


def _read(region: Region) -> np.ndarray:
    return np.ctypeslib.as_array((ctypes.c_uint8 * region.size).from_address(region.base)).copy()


def _write(region: Region, data: np.ndarray) -> None:
    ctypes.memmove(region.base, data.ctypes.data, region.size)


def _record(entry: dict) -> None:
    path = os.environ[CHECK_FILE_ENV]
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
    finally:
        os.close(fd)


def _reference_kernel(ref_co, name: str, demangled: str) -> str | None:
    """The reference's kernel for `name`: the same symbol, else the one kernel with the same C++
    name (hipify may change parameter types, so the symbol: cuda::std::atomic<int>* for one)."""
    if name in ref_co.kernels:
        return name
    wanted = base_name(demangled)
    same = [k for k, spelled in demangle_all(ref_co.kernels).items() if base_name(spelled) == wanted]
    return same[0] if wanted and len(same) == 1 else None


def _unloadable(ref_image) -> str | None:
    """Why the reference's code object cannot be loaded, or None: a bad reference leaves the
    launch unchecked, it does not stop the program."""
    try:
        ref_image.co
    except errors.HipFailure as e:
        return f"the reference cannot be loaded: {e}"
    return None


def _explicit(info) -> list[tuple[int, int]]:
    return [(a.offset, a.size) for a in info.explicit_args]


def _reference_kernarg(info, ref_info, kernarg: bytes) -> bytes | str:
    """The kernel arguments laid out for the reference, or why they cannot be."""
    mine, theirs = _explicit(info), _explicit(ref_info)
    if mine == theirs:
        return kernarg
    if [s for _, s in mine] != [s for _, s in theirs]:
        return f"the argument layouts differ (translated {mine}, reference {theirs})"
    out = bytearray(max((o + s for o, s in theirs), default=0))
    for (o, s), (ro, _) in zip(mine, theirs):
        out[ro:ro + s] = kernarg[o:o + s]
    return bytes(out)


def _views(info, demangled: str, kernarg: bytes, regions: list[Region]) -> dict[int, View]:
    """What each region pointed to by a pointer parameter holds, from the kernel's signature."""
    views: dict[int, View] = {}
    params = parameter_spellings(demangled)
    explicit = _explicit(info)
    if params is None or len(params) != len(explicit):
        return views
    for n, (spelling, (offset, size)) in enumerate(zip(params, explicit)):
        if size != 8 or "*" not in spelling:
            continue
        pointer = int.from_bytes(kernarg[offset:offset + 8], "little")
        for r in regions:
            if r.base <= pointer < r.base + r.size:
                at = f" at +{pointer - r.base}" if pointer != r.base else ""
                view = View(f"argument {n} ({spelling}){at}", element_type(spelling), pointer - r.base)
                old = views.get(r.base)
                if old is None:
                    views[r.base] = view
                elif old.etype != view.etype:  # two types for one region: compare its bytes
                    views[r.base] = View(f"{old.label}, {view.label}")
                break
    return views


def _words_when_untyped(view: View, size: int) -> View:
    """A region no parameter types is shown in 32-bit words when they fit (compared exactly,
    as its bytes would be)."""
    if view.etype is None and view.start % 4 == 0 and (size - view.start) % 4 == 0:
        return View(view.label, WORD, view.start)
    return view


def _pairs(co, regions: list[Region], translated: list, reference: list, ref_variables: dict,
           views: dict[int, View]):
    """(region, view, translated bytes, reference bytes) to compare: each region as a whole,
    but the translated kernel's code object by its variables (against the reference's variable
    of the same name; in 32-bit words when the size allows), and the rest of it as bytes.
    Variables only the translated code has (the lifter's own) are not compared."""
    for i, r in enumerate(regions):
        if r.base != co.base:
            yield r, _words_when_untyped(views.get(r.base) or View(r.label), r.size), translated[i], reference[i]
            continue
        rest = reference[i].copy()
        for name, (addr, size) in co.globals.items():
            start = addr - co.base
            rest[start:start + size] = translated[i][start:start + size]
            if name in ref_variables and size:
                etype = WORD if size % 4 == 0 and addr % 4 == 0 else None
                yield (Region(addr, size, f"device variable '{name}'"), View(f"device variable '{name}'", etype),
                       translated[i][start:start + size], ref_variables[name])
        yield r, View(f"{r.label}, outside its variables"), translated[i], rest


def _describe(region: Region, view: View | None, outcome: Outcome) -> str:
    what = view.label if view else region.label
    return (f"buffer {region.base:#x} ({region.size} bytes, {what}): {outcome.differing} "
            f"element(s) differ; first {outcome.difference}")


def run_checked(image, name: str, grid: tuple, block: tuple, kernarg: bytes, run: Runner, loaded: list):
    """Launch `name` of `image` (a kernels.Image) through `run`, checked against its reference
    when it has one; `loaded` lists the Images in memory. The translated run's statistics."""
    _launches[0] += 1
    demangled = demangle(name)
    entry = {"launch": _launches[0], "kernel": name, "demangled": demangled, "grid": list(grid),
             "block": list(block)}
    kind = image.entry
    if kind.startswith(FALLBACK_KIND) or image.built_by_hipcc:
        _record({**entry, "status": "not-translated"})
        return run(image.co, name, kernarg, None)
    reason = None
    ref_image = image.reference
    if ref_image is None:
        reason = NO_REFERENCE if kind.startswith(TRANSLATED_KIND) else NOT_FROM_A_BUNDLE
    elif (reason := _unloadable(ref_image)) is not None:
        pass
    elif (ref_name := _reference_kernel(ref_image.co, name, demangled)) is None:
        reason = f"the reference has no kernel '{name}' (nor one named {base_name(demangled)})"
    else:
        ref_kernarg = _reference_kernarg(image.kernel(name), ref_image.kernel(ref_name), kernarg)
        if isinstance(ref_kernarg, str):
            reason = ref_kernarg
    if reason is not None:
        _record({**entry, "status": "unchecked", "reason": reason})
        return run(image.co, name, kernarg, None)

    if ref_name != name:
        entry["reference_kernel"] = ref_name
    from cass_cc.emu import EmuFault  # the emulator: imported at the first launch, as kernels.py does
    co, ref_co = image.co, ref_image.co
    regions = _regions(loaded, {ref_co.base})
    snapshot = [_read(r) for r in regions]
    stats = run(co, name, kernarg, None)
    translated = [_read(r) for r in regions]
    for r, data in zip(regions, snapshot):
        _write(r, data)
    shared = [(n, co.globals[n], ref_co.globals[n]) for n in co.globals
              if n in ref_co.globals and co.globals[n][1] == ref_co.globals[n][1]]
    for _, (addr, size), (raddr, _) in shared:
        ctypes.memmove(raddr, addr, size)
    fault = None
    try:
        run(ref_co, ref_name, ref_kernarg, lambda text: None)
    except EmuFault as e:  # the reference's fault is this launch's finding
        fault = f"the reference faulted where the translated kernel did not: {e}"
    reference = [_read(r) for r in regions]
    ref_variables = {n: _read(Region(raddr, size, n)) for n, (_, size), (raddr, _) in shared}
    for r, data in zip(regions, translated):
        _write(r, data)

    rtol, atol = tolerances()
    views = _views(image.kernel(name), demangled, kernarg, regions)
    unordered = order_free(name, demangled)
    differences, tolerated, max_relative = [], 0, 0.0
    for r, view, mine, theirs in _pairs(co, regions, translated, reference, ref_variables, views):
        outcome = compare(mine, theirs, view, rtol, atol, unordered)
        tolerated += outcome.tolerated
        max_relative = max(max_relative, outcome.max_relative)
        if outcome.difference is not None:
            differences.append(_describe(r, view, outcome))
    if fault:
        differences.insert(0, fault)
    status = "same"
    if differences:
        status = "tolerated" if named_in(TOLERATE_ENV, name, demangled) else "differs"
    _record({**entry, "status": status, "differences": differences, "tolerated": tolerated,
             "max_relative": max_relative, "rtol": rtol, "atol": atol, "order_free": unordered})
    if differences:
        _report(entry, differences, rtol, atol, status == "tolerated")
    return stats


def _report(entry: dict, differences: list[str], rtol: float, atol: float, tolerated: bool) -> None:
    flush_c_streams()
    grid, block = tuple(entry["grid"]), tuple(entry["block"])
    against = f" (the reference's {entry['reference_kernel']})" if "reference_kernel" in entry else ""
    lines = [f"cass-run --check: launch {entry['launch']}: {entry['demangled']} [{entry['kernel']}]{against} "
             f"grid {grid} block {block}: the translated kernel and the reference wrote different memory "
             f"(floats within rtol={rtol:g} atol={atol:g} count as equal)"
             + ("; tolerated, as --check-tolerate asks: not a failure" if tolerated else "")]
    lines += [f"  {d}" for d in differences[:MAX_REPORTED]]
    if len(differences) > MAX_REPORTED:
        lines.append(f"  ... and {len(differences) - MAX_REPORTED} more buffer(s)")
    sys.stderr.write("\n".join(lines) + "\n")
    sys.stderr.flush()
