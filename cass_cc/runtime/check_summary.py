"""The end of `cass-run --check`: the launch records the emulated runtime wrote
(emulated/check.py, one JSON line per launch) become the summary printed at exit and the exit
status: CHECK_FAILED_STATUS when a launch differed (or, with --check-require-reference, when a
translated kernel ran unchecked), else the program's own."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter

CHECK_FAILED_STATUS = 3
PREFIX = "cass-run --check:"


def read_records(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def _kernels(records: list[dict]) -> str:
    counts = Counter(r["demangled"] for r in records)
    return ", ".join(f"{name} ({n} launch{'es' if n > 1 else ''})" for name, n in counts.items())


def summary_lines(records: list[dict], rtol: float, atol: float) -> list[str]:
    checked = [r for r in records if r["status"] in ("same", "differs", "tolerated")]
    differing = [r for r in checked if r["status"] == "differs"]
    unchecked = [r for r in records if r["status"] == "unchecked"]
    native = [r for r in records if r["status"] == "not-translated"]
    lines = [f"{PREFIX} {len(checked)} launch(es) of {len({r['kernel'] for r in checked})} translated "
             f"kernel(s) checked against the reference; {len(differing)} differed; "
             f"{len(unchecked)} unchecked; floats compared within rtol={rtol:g} atol={atol:g}"]
    if differing:
        first = differing[0]
        lines.append(f"{PREFIX} first difference: launch {first['launch']}, {first['demangled']} "
                     f"grid {tuple(first['grid'])} block {tuple(first['block'])}: {first['differences'][0]}")
        lines.append(f"{PREFIX} differing kernels: {_kernels(differing)}")
    tolerated = [r for r in checked if r.get("tolerated")]
    if tolerated:
        worst = max(r["max_relative"] for r in tolerated)
        lines.append(f"{PREFIX} within tolerance, not bit-equal: {sum(r['tolerated'] for r in tolerated)} float "
                     f"element(s) in {len(tolerated)} launch(es) (largest relative difference {worst:.3g}): "
                     f"{_kernels(tolerated)}")
    accepted = [r for r in checked if r["status"] == "tolerated"]
    if accepted:
        lines.append(f"{PREFIX} TOLERATED differences (--check-tolerate, not failures): {_kernels(accepted)}")
    unordered = [r for r in checked if r.get("order_free")]
    if unordered:
        lines.append(f"{PREFIX} compared order-free (sorted values, --check-order-free): {_kernels(unordered)}")
    by_reason: dict[str, list[dict]] = {}
    for r in unchecked:
        by_reason.setdefault(r["reason"], []).append(r)
    for reason, rs in by_reason.items():
        lines.append(f"{PREFIX} UNCHECKED: {reason}: {_kernels(rs)}")
    if native:
        lines.append(f"{PREFIX} not translated (hipcc's code, nothing to check): {_kernels(native)}")
    return lines


def finish(path: str, status: int, rtol: float, atol: float, require_reference: bool) -> int:
    """Print the summary; the exit status cass-run returns."""
    records = read_records(path)
    sys.stdout.flush()
    lines = summary_lines(records, rtol, atol)
    failed = any(r["status"] == "differs" for r in records)
    if require_reference and any(r["status"] == "unchecked" for r in records):
        failed = True
        lines.append(f"{PREFIX} --check-require-reference: unchecked launches fail the check")
    if failed:
        lines.append(f"{PREFIX} FAILED (the program's own exit status was {status}); exit status {CHECK_FAILED_STATUS}")
    sys.stderr.write("\n".join(lines) + "\n")
    return CHECK_FAILED_STATUS if failed else status
