"""The benchmark's report from the per-program results: summary.json (everything measured),
summary.md (CASS-Bench's table form, goals, build times, wave-instruction ratios, kernels,
failures; last line `N passed, M failed`) and accuracy.png (accuracy per domain and route)."""

from __future__ import annotations

import json
import os
import statistics

from ..fsutil import atomic_save_png, atomic_write_text

# The goals, reported against (not enforced).
GOALS = {"binary_lift": 0.90, "source": 0.97, "auto": 1.00,
         "binary_cold_ratio": 1.5, "binary_warm_ratio": 1.1, "wave_ratio": 1.25}


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _fmt(value: float | None, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def all_lift(route_result: dict) -> bool:
    kernels = route_result.get("kernels", [])
    return bool(kernels) and all(k["tier"] == "lift" and k["status"] == "ok" for k in kernels)


def aggregate(results: list[dict], routes: list[str], offload_arch: str) -> dict:
    """Counts per domain and route, build-time ratios, wave-instruction ratios, emulator time."""
    results = sorted(results, key=lambda r: r["program"])
    domains = sorted({r["domain"] for r in results})
    table = {d: {route: [0, 0] for route in routes} for d in domains}
    for r in results:
        for route in routes:
            cell = table[r["domain"]][route]
            cell[0] += r["routes"][route]["passed"]
            cell[1] += 1
    build = {}
    for route in routes:
        cold, warm, nvcc = [], [], []
        for r in results:
            rr = r["routes"][route]
            if not r["nvcc"]["ok"] or "build_warm_seconds" not in rr:
                continue
            nvcc.append(r["nvcc"]["seconds"])
            cold.append(rr["build_cold_seconds"] / r["nvcc"]["seconds"])
            warm.append(rr["build_warm_seconds"] / r["nvcc"]["seconds"])
        build[route] = {"programs": len(cold), "nvcc_median_s": _median(nvcc),
                        "ratio_cold_median": _median(cold), "ratio_warm_median": _median(warm)}
    waves = []
    if "binary" in routes and "source" in routes:
        for r in results:
            b, s = r["routes"]["binary"], r["routes"]["source"]
            if not (b["passed"] and s["passed"]):
                continue
            for kernel, count in sorted(b.get("wave_instructions", {}).items()):
                source_count = s.get("wave_instructions", {}).get(kernel)
                if source_count:
                    waves.append({"program": r["program"], "kernel": kernel, "binary": count,
                                  "source": source_count, "ratio": count / source_count})
    emu = {route: sum(r["routes"][route].get("emu_seconds") or 0 for r in results) for route in routes}
    passed = sum(r["routes"][route]["passed"] for r in results for route in routes)
    n = len(results)
    return {"programs": n, "offload_arch": offload_arch, "routes": routes, "domains": domains,
            "with_reference": sum(r["has_reference"] for r in results),
            "table": table, "build": build, "wave_ratios": waves,
            "wave_ratio_median": _median([w["ratio"] for w in waves]),
            "emulator_seconds": emu,
            "binary_all_lift_passing": (sum(1 for r in results if "binary" in r["routes"]
                                            and r["routes"]["binary"]["passed"] and all_lift(r["routes"]["binary"]))
                                        if "binary" in routes else None),
            "passed": passed, "failed": n * len(routes) - passed}


def _pct(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.0f}%)" if n else "0/0"


def render_markdown(agg: dict, results: list[dict]) -> str:
    routes, n = agg["routes"], agg["programs"]
    out = ["# cass-cc bench", "",
           f"{n} programs built for {agg['offload_arch']}, routes: {', '.join(routes)}; reference outputs recorded for "
           f"{agg['with_reference']} of {n}"
           + ("" if agg["with_reference"] == n else " (the others are judged by their PASS line only)") + ".",
           "", "## Programs passing per domain and route", "",
           "| Domain | " + " | ".join(routes) + " |", "|---|" + "---|" * len(routes)]
    totals = {route: [0, 0] for route in routes}
    for domain in agg["domains"]:
        cells = agg["table"][domain]
        out.append(f"| {domain} | " + " | ".join(f"{cells[r][0]}/{cells[r][1]}" for r in routes) + " |")
        for r in routes:
            totals[r][0] += cells[r][0]
            totals[r][1] += cells[r][1]
    out.append("| **total** | " + " | ".join(f"**{_pct(*totals[r])}**" for r in routes) + " |")
    out += ["", "## Goals", ""]
    if "binary" in routes:
        out.append(f"- binary route, passing with every kernel at tier `lift`: "
                   f"{_pct(agg['binary_all_lift_passing'], n)} (goal ≥ {GOALS['binary_lift']:.0%})")
    for route in ("source", "auto"):
        if route in routes:
            out.append(f"- {route} route passing: {_pct(*totals[route])} (goal ≥ {GOALS[route]:.0%})")
    if "binary" in routes:
        b = agg["build"]["binary"]
        out.append(f"- build time binary/nvcc (median): cold {_fmt(b['ratio_cold_median'])} "
                   f"(goal ≤ {GOALS['binary_cold_ratio']}), warm {_fmt(b['ratio_warm_median'])} "
                   f"(goal ≤ {GOALS['binary_warm_ratio']})")
    if "binary" in routes and "source" in routes:
        out.append(f"- wave instructions binary/source (median over {len(agg['wave_ratios'])} kernels): "
                   f"{_fmt(agg['wave_ratio_median'])} (goal ≤ {GOALS['wave_ratio']})")
    out += ["", "## Build time (cass-nvcc / nvcc, median over programs)", "",
            "| Route | programs | nvcc median (s) | cold ratio | warm ratio |", "|---|---|---|---|---|"]
    for route in routes:
        b = agg["build"][route]
        out.append(f"| {route} | {b['programs']} | {_fmt(b['nvcc_median_s'])} | "
                   f"{_fmt(b['ratio_cold_median'])} | {_fmt(b['ratio_warm_median'])} |")
    out += ["", "## Emulator time", "", "| Route | total (s) |", "|---|---|"]
    out += [f"| {route} | {agg['emulator_seconds'][route]:.1f} |" for route in routes]
    if agg["wave_ratios"]:
        out += ["", "## Wave instructions per kernel, binary / source (programs passing both)", "",
                "| Program | Kernel | source | binary | ratio |", "|---|---|---|---|---|"]
        out += [f"| {w['program']} | `{w['kernel']}` | {w['source']} | {w['binary']} | {w['ratio']:.2f} |"
                for w in agg["wave_ratios"]]
    out += ["", "## Kernels: tier and status per route", "", "| Program | Route | Kernel | Tier | Status |",
            "|---|---|---|---|---|"]
    for r in results:
        for route in routes:
            for k in r["routes"][route].get("kernels", []):
                out.append(f"| {r['program']} | {route} | `{k['demangled'] or k['name']}` | {k['tier']} | "
                           f"{k['status']} |")
    failures = [(r["program"], route, r["routes"][route]) for r in results for route in routes
                if not r["routes"][route]["passed"]]
    out += ["", "## Failures", ""]
    if failures:
        out += ["| Program | Route | Stage | First error line |", "|---|---|---|---|"]
        out += [f"| {p} | {route} | {rr.get('stage', '')} | {_cell(rr.get('error', ''))} |"
                for p, route, rr in failures]
    else:
        out.append("None.")
    out += ["", f"{agg['passed']} passed, {agg['failed']} failed"]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def plot_accuracy(agg: dict, path: str) -> None:
    """Grouped bars: percentage of programs passing per domain, one bar per route."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    domains, routes = agg["domains"], agg["routes"]
    width = 0.8 / max(len(routes), 1)
    fig, ax = plt.subplots(figsize=(max(8, len(domains) * 0.9), 4.5))
    for i, route in enumerate(routes):
        values = [100 * agg["table"][d][route][0] / agg["table"][d][route][1] for d in domains]
        ax.bar([x + (i - (len(routes) - 1) / 2) * width for x in range(len(domains))], values, width, label=route)
    ax.set_xticks(range(len(domains)))
    ax.set_xticklabels(domains, rotation=35, ha="right")
    ax.set_ylabel("programs passing (%)")
    ax.set_ylim(0, 118)
    ax.set_title(f"cass-cc bench: {agg['programs']} programs on the emulated {agg['offload_arch']}")
    ax.legend(loc="upper right", ncol=len(routes))
    fig.tight_layout()
    try:
        atomic_save_png(fig, path)
    finally:
        plt.close(fig)


def write_all(results: list[dict], routes: list[str], out_dir: str, offload_arch: str) -> dict:
    """Write the three files into out_dir; returns the aggregate."""
    os.makedirs(out_dir, exist_ok=True)
    agg = aggregate(results, routes, offload_arch)
    results = sorted(results, key=lambda r: r["program"])
    atomic_write_text(os.path.join(out_dir, "summary.json"),
                      json.dumps({"summary": agg, "results": results}, indent=1) + "\n")
    atomic_write_text(os.path.join(out_dir, "summary.md"), render_markdown(agg, results))
    plot_accuracy(agg, os.path.join(out_dir, "accuracy.png"))
    return agg
