"""The code-quality report's files from quality.summarize's data: quality.json (everything),
quality.md (the summary, then per program and per kernel: wave-instructions, the ratio lifted /
hipcc, estimated cycles, memory instructions by address space, atomics by kind) and quality.png
(each program's ratio, sorted, with the median and the limit)."""

from __future__ import annotations

import json
import os

from ..fsutil import atomic_save_png, atomic_write_text
from .quality import CYCLES, MEMORY_SPACES


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _pairs(lifted: dict[str, int], hipcc: dict[str, int]) -> str:
    """'key lifted/hipcc' for every key either build has, e.g. 'global 24/24, lds 15/12'."""
    order = [k for k in MEMORY_SPACES if k in lifted or k in hipcc]
    order += sorted(k for k in set(lifted) | set(hipcc) if k not in order)
    return ", ".join(f"{k} {lifted.get(k, 0)}/{hipcc.get(k, 0)}" for k in order) or "—"


def summary_lines(s: dict) -> list[str]:
    """The few lines a reader wants first (also printed by the commands)."""
    worst = s["worst"]
    lines = [f"code quality, lifted / hipcc wave-instructions over {s['counted']} programs passing on both "
             f"routes ({s['programs']} measured): median {_fmt(s['median'])}, worst "
             + (f"{_fmt(worst['ratio'])} ({worst['program']})" if worst else "—"),
             f"estimated cycles lifted / hipcc: median {_fmt(s['cycle_median'])}; per kernel "
             f"({s['kernels']} kernels) median {_fmt(s['kernel_median'])}"]
    if s["above_limit"]:
        lines.append(f"above {s['limit']}x: {', '.join(s['above_limit'])}")
    return lines


def render_markdown(s: dict, title: str) -> str:
    out = [f"# {title}: code quality, lifted vs hipcc", ""]
    out += [f"- {line}" for line in summary_lines(s)]
    if s["not_counted"]:
        out.append(f"- not counted (a route failed, or nothing ran): {', '.join(s['not_counted'])}")
        out += [f"  - {p['program']}: {p['note']}" for p in s["results"] if p["note"]]
    out += ["", "Cycle weights per instruction class (cass_cc/bench/quality.py says why each): "
            + ", ".join(f"{k} {v}" for k, v in CYCLES.items()) + ".", "",
            "## Programs", "",
            "| program | lifted | hipcc | ratio | cycles ratio | memory lifted/hipcc | atomics lifted/hipcc |",
            "|---|---|---|---|---|---|---|"]
    for p in s["results"]:
        mark = "" if p["passed"] else " (not counted)"
        out.append(f"| {p['program']}{mark} | {p['lifted']['wave_instructions']} | {p['hipcc']['wave_instructions']} | "
                   f"{_fmt(p['ratio'])} | {_fmt(p['cycle_ratio'])} | "
                   f"{_pairs(p['lifted']['memory'], p['hipcc']['memory'])} | "
                   f"{_pairs(p['lifted']['atomics'], p['hipcc']['atomics'])} |")
    out += ["", "## Kernels", "", "| program | kernel | lifted | hipcc | ratio | cycles ratio | atomics lifted/hipcc |",
            "|---|---|---|---|---|---|---|"]
    for p in s["results"]:
        for k in p["kernels"]:
            out.append(f"| {p['program']} | `{k['kernel']}` | {k['lifted']['wave_instructions']} | "
                       f"{k['hipcc']['wave_instructions']} | {_fmt(k['ratio'])} | {_fmt(k['cycle_ratio'])} | "
                       f"{_pairs(k['lifted']['atomics'], k['hipcc']['atomics'])} |")
    return "\n".join(out) + "\n"


def plot(s: dict, path: str, title: str) -> None:
    """Each counted program's ratio as a bar, sorted, with lines at 1.0, the median and the limit."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counted = sorted((p for p in s["results"] if p["passed"] and p["ratio"] is not None), key=lambda p: p["ratio"])
    fig, ax = plt.subplots(figsize=(max(8.0, 0.16 * len(counted) + 2), 6.0))
    ax.bar(range(len(counted)), [p["ratio"] for p in counted], color="tab:blue", label="program")
    ax.axhline(1.0, color="black", linewidth=0.8)
    if s["median"] is not None:
        ax.axhline(s["median"], color="tab:green", linestyle="--", label=f"median {s['median']:.2f}")
    ax.axhline(s["limit"], color="tab:red", linestyle=":", label=f"limit {s['limit']}")
    ax.set_xticks(range(len(counted)))
    ax.set_xticklabels([p["program"] for p in counted], rotation=90, fontsize=6)
    ax.set_ylabel("wave-instructions, lifted / hipcc")
    ax.set_title(f"{title}: {len(counted)} programs passing on both routes")
    ax.legend(loc="upper left")
    fig.tight_layout()
    try:
        atomic_save_png(fig, path)
    finally:
        plt.close(fig)


def write_all(s: dict, out_dir: str, title: str) -> None:
    """quality.json, quality.md and quality.png into out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    atomic_write_text(os.path.join(out_dir, "quality.json"), json.dumps(s, indent=1) + "\n")
    atomic_write_text(os.path.join(out_dir, "quality.md"), render_markdown(s, title))
    plot(s, os.path.join(out_dir, "quality.png"), title)
