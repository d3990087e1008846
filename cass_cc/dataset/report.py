"""report.md and its plots, the analyses of the CASS paper over the kept samples: assembly length
CUDA vs HIP, opcode histograms of the device code, and how similar the pairs are (source text,
device opcode sequences)."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from pathlib import Path

_SASS_LINE = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
_AMD_LINE = re.compile(r"^\s+([a-z][a-z0-9_]*)\b", re.M)
TOP_OPCODES = 20


def sass_opcodes(sass: str) -> list[str]:
    """Base opcodes (modifiers dropped) of nvdisasm's text."""
    return [m.group(1).split(".")[0] for m in _SASS_LINE.finditer(sass)]


def amd_opcodes(assembly: str) -> list[str]:
    """Instruction mnemonics of AMD assembly (directives and labels are not instructions)."""
    return _AMD_LINE.findall(assembly)


def _device(record: dict, field: str, opcodes) -> list[str]:
    return [op for k in record["kernels"] for op in opcodes(k[field])]


def _similarity(a, b) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def analyses(records: list[dict]) -> dict:
    """Per-sample numbers and opcode counts (plain data: also what the tests check)."""
    rows = []
    sass_ops, amd_ops, lifted_ops = Counter(), Counter(), Counter()
    for r in records:
        s, a, l = (_device(r, "sass", sass_opcodes), _device(r, "hip_device_asm", amd_opcodes),
                   _device(r, "lifted_rdna3", amd_opcodes))
        sass_ops.update(s), amd_ops.update(a), lifted_ops.update(l)
        rows.append({"path": r["path"], "sass": len(s), "hip_device": len(a), "lifted": len(l),
                     "cuda_host": len(r["cuda_host_asm"].splitlines()),
                     "hip_host": len(r["hip_host_asm"].splitlines()),
                     "source_similarity": _similarity(r["cuda_source"].splitlines(), r["hip_source"].splitlines()),
                     "device_similarity": _similarity(a, l)})
    return {"rows": rows, "sass_opcodes": sass_ops, "hip_opcodes": amd_ops, "lifted_opcodes": lifted_ops}


def write_report(out: Path, records: list[dict], stats: dict) -> None:
    import matplotlib
    matplotlib.use("Agg")   # no display: files only
    import matplotlib.pyplot as plt

    data = analyses(records)
    rows = data["rows"]
    figures = []

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (x, y, what) in zip(axes, [("sass", "hip_device", "device"), ("cuda_host", "hip_host", "host")]):
        ax.scatter([r[x] for r in rows], [r[y] for r in rows], s=8)
        ax.set(xlabel=f"CUDA {what} ({'SASS instructions' if what == 'device' else 'x86 lines'})",
               ylabel=f"HIP {what} ({'AMD instructions' if what == 'device' else 'x86 lines'})",
               title=f"{what} assembly length")
    figures.append(("Assembly length, CUDA vs HIP", "lengths.png", fig))

    fig, axes = plt.subplots(1, 3, figsize=(15, 5))
    for ax, (key, title) in zip(axes, [("sass_opcodes", "SASS (nvcc)"), ("hip_opcodes", "AMD (hipcc)"),
                                       ("lifted_opcodes", "RDNA3 (lifter)")]):
        top = data[key].most_common(TOP_OPCODES)
        ax.barh([k for k, _ in reversed(top)], [v for _, v in reversed(top)])
        ax.set(title=f"{title}: top {TOP_OPCODES} opcodes", xlabel="count")
    fig.tight_layout()
    figures.append(("Device opcode histograms", "opcodes.png", fig))

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist([[r["source_similarity"] for r in rows], [r["device_similarity"] for r in rows]],
            bins=20, range=(0, 1), label=["CUDA vs HIP source (lines)", "hipcc vs lifter RDNA3 (opcodes)"])
    ax.set(xlabel="similarity (difflib ratio)", ylabel="samples", title="Similarity of the pairs")
    ax.legend()
    figures.append(("Source and assembly similarity", "similarity.png", fig))

    lines = ["# CASS data set report", "",
             f"{stats['sources']} sources, {stats['kept']} kept ({stats['ran']} ran on the emulator "
             f"with equal output), offload arch {stats['offload_arch']}.", "",
             "| dropped because | samples |", "|---|---|"]
    lines += [f"| {reason} | {count} |" for reason, count in stats["dropped"].items()]
    for title, name, fig in figures:
        fig.savefig(out / name, dpi=90)
        plt.close(fig)
        lines += ["", f"## {title}", "", f"![{title}]({name})"]
    if rows:
        n = len(rows)
        lines += ["", "## Means", "",
                  f"- SASS instructions per sample: {sum(r['sass'] for r in rows) / n:.1f}; "
                  f"hipcc AMD instructions: {sum(r['hip_device'] for r in rows) / n:.1f}; "
                  f"lifter RDNA3: {sum(r['lifted'] for r in rows) / n:.1f}",
                  f"- source similarity: {sum(r['source_similarity'] for r in rows) / n:.2f}; "
                  f"device similarity: {sum(r['device_similarity'] for r in rows) / n:.2f}"]
    (out / "report.md").write_text("\n".join(lines) + "\n")
