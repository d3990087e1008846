"""A suite run's report: the program x route table, the counts (last line `N passed, M failed`),
every WRONG result spelled out, and summary.json / summary.md."""

from __future__ import annotations

import json
import os
import statistics

from ..fsutil import atomic_write_text
from . import suite_judge as J


def counts(results: list[dict], routes: list[str]) -> dict:
    cells = [r["routes"][route] for r in results for route in routes]
    expected = [c for c in cells if c["status"] == J.REFUSED and c["reason"].startswith("as expected")]
    per_route = {route: {s: sum(r["routes"][route]["status"] == s for r in results)
                         for s in (J.PASS, J.UNVERIFIED, *J.FAILED, J.NOT_RUN)} for route in routes}
    for route in routes:
        per_route[route]["refused as expected"] = sum(
            r["routes"][route]["status"] == J.REFUSED and r["routes"][route]["reason"].startswith("as expected")
            for r in results)
        per_route[route][J.REFUSED] -= per_route[route]["refused as expected"]
    failed = sum(c["status"] in J.FAILED for c in cells) - len(expected)
    return {"programs": len(results), "routes": routes, "per_route": per_route,
            "passed": sum(c["status"] == J.PASS for c in cells), "failed": failed,
            "wrong": sum(c["status"] == J.WRONG for c in cells),
            "unverified": sum(c["status"] == J.UNVERIFIED for c in cells),
            "refused_as_expected": len(expected),
            "not_run": sum(c["status"] == J.NOT_RUN for c in cells)}


def _build_ratio(results: list[dict], route: str) -> float | None:
    ratios = [r["routes"][route]["build_seconds"] / r["routes"]["nvcc"]["build_seconds"] for r in results
              if "nvcc" in r["routes"] and r["routes"]["nvcc"].get("build_seconds")
              and r["routes"][route].get("build_seconds") and r["routes"]["nvcc"]["status"] != J.BUILD_ERROR
              and r["routes"][route]["status"] != J.BUILD_ERROR]
    return statistics.median(ratios) if ratios else None


def _cell(text: str, width: int | None) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if width is None or len(text) <= width else text[:width - 1] + "…"


def table(results: list[dict], routes: list[str], width: int | None = 110) -> list[str]:
    lines = ["| program | " + " | ".join(routes) + " |", "|---|" + "---|" * len(routes)]
    for r in results:
        lines.append(f"| {r['program']} | " + " | ".join(_cell(r["routes"][route]["cell"], width)
                                                       for route in routes) + " |")
    return lines


def wrong_lines(results: list[dict], routes: list[str]) -> list[str]:
    return [f"WRONG: {r['program']} ({route}): {r['routes'][route]['reason']} -- the run ended normally with "
            f"a wrong answer" for r in results for route in routes
            if r["routes"][route]["status"] == J.WRONG]


def tally_lines(agg: dict) -> list[str]:
    return [f"{agg['unverified']} unverified (no H200 reference that applies), {agg['refused_as_expected']} refused as "
            f"expected, {agg['not_run']} not run",
            f"{agg['passed']} passed, {agg['failed']} failed"]


def render_markdown(suite: dict, agg: dict, results: list[dict]) -> str:
    routes = agg["routes"]
    out = [f"# cass-cc bench --suite {suite['name']}", "",
           f"{agg['programs']} programs from {suite['repository'] or 'the repository'}"
           + (f" at {suite['commit'][:12]}" if suite["commit"] else "") + f"; routes: {', '.join(routes)}"
           + (f", built for {suite['offload_arch']}" if suite.get("offload_arch") else "") + "; "
           f"H200 reference: {suite['reference'] or 'none recorded'}.", "", "## Results", ""]
    out += table(results, routes, width=300)
    out += ["", "## Per route", "", "| route | pass | unverified | WRONG | FAIL | refused | build error | "
            "refused as expected | not run | build time / nvcc (median) |", "|---|" + "---|" * 9]
    for route in routes:
        c = agg["per_route"][route]
        ratio = _build_ratio(results, route) if route != "nvcc" else None
        out.append(f"| {route} | {c[J.PASS]} | {c[J.UNVERIFIED]} | {c[J.WRONG]} | {c[J.FAIL]} | {c[J.REFUSED]} | "
                   f"{c[J.BUILD_ERROR]} | {c['refused as expected']} | {c[J.NOT_RUN]} | "
                   + ("—" if ratio is None else f"{ratio:.2f}") + " |")
    kernels = [(r["program"], route, k) for r in results for route in routes
               for k in r["routes"][route].get("kernels", [])]
    if kernels:
        out += ["", "## Kernels: tier and status", "", "| program | route | kernel | tier | status | reasons |",
                "|---|---|---|---|---|---|"]
        out += [f"| {p} | {route} | `{_cell(k['demangled'] or k['name'] or '', 80)}` | {k['tier']} | "
                f"{k['status']} | {_cell('; '.join(k['reasons']), 200)} |" for p, route, k in kernels]
    wrong = wrong_lines(results, routes)
    if wrong:
        out += ["", "## WRONG results (never ship these)", ""] + [f"- {w}" for w in wrong]
    out += [""] + tally_lines(agg)
    return "\n".join(out) + "\n"


def write_all(suite: dict, results: list[dict], routes: list[str], out_dir: str) -> dict:
    os.makedirs(out_dir, exist_ok=True)
    results = sorted(results, key=lambda r: r["program"])
    agg = counts(results, routes)
    atomic_write_text(os.path.join(out_dir, "summary.json"),
                      json.dumps({"suite": suite, "summary": agg, "results": results}, indent=1) + "\n")
    atomic_write_text(os.path.join(out_dir, "summary.md"), render_markdown(suite, agg, results))
    return agg
