"""The report of `cass-cc bench --translator`: accuracy (programs passing / programs) per translator
at each level, overall in CASS-Bench's table shape (rows: translators; columns: assembly and
source accuracy) and per domain; a translator without a level shows "-". translators.json holds
every result, translators.md the tables and each failure with its stage and reason."""

from __future__ import annotations

import json
import os

from ..fsutil import atomic_write_text
from .translators import LEVELS, Translator

NO_LEVEL = "-"


def aggregate(results: list[dict], translators: list[Translator], domains: list[str]) -> dict:
    """{level: {translator: {domain: [passed, total]}}}, None for a level a translator lacks,
    with the overall count under the key "overall"."""
    table: dict = {}
    for level in LEVELS:
        table[level] = {}
        for t in translators:
            if level not in t.levels:
                table[level][t.spec] = None
                continue
            cells = {d: [0, 0] for d in [*domains, "overall"]}
            for r in results:
                if r["translator"] == t.spec and r["level"] == level:
                    for key in (r["domain"], "overall"):
                        cells[key][0] += bool(r["passed"])
                        cells[key][1] += 1
            table[level][t.spec] = cells
    passed = sum(bool(r["passed"]) for r in results)
    return {"programs": len({r["program"] for r in results}), "domains": domains,
            "translators": [t.spec for t in translators], "levels": list(LEVELS), "table": table,
            "passed": passed, "failed": len(results) - passed}


def _cell(cell: list[int] | None, percent: bool = False) -> str:
    if cell is None:
        return NO_LEVEL
    passed, total = cell
    if not percent or not total:
        return f"{passed}/{total}"
    return f"{passed}/{total} ({100 * passed / total:.0f}%)"


def _text(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def tables(agg: dict) -> list[str]:
    """The accuracy tables: overall (the paper's shape), then one per level by domain."""
    out = ["| Translator | Assembly accuracy | Source-to-source accuracy |", "|---|---|---|"]
    for spec in agg["translators"]:
        cells = [agg["table"][level][spec] for level in LEVELS]
        out.append(f"| `{_text(spec)}` | " + " | ".join(_cell(c and c["overall"], True) for c in cells) + " |")
    for level in LEVELS:
        out += ["", f"{level.capitalize()} level, programs passing per domain:", "",
                "| Translator | " + " | ".join(agg["domains"]) + " | overall |",
                "|---|" + "---|" * (len(agg["domains"]) + 1)]
        for spec in agg["translators"]:
            cells = agg["table"][level][spec]
            out.append(f"| `{_text(spec)}` | " + " | ".join(
                _cell(cells and cells[d]) for d in [*agg["domains"], "overall"]) + " |")
    return out


def render_markdown(agg: dict, results: list[dict]) -> str:
    out = ["# cass-cc bench --translator", "",
           f"{agg['programs']} programs in {len(agg['domains'])} domains. Source level: each CUDA file "
           "translated to HIP, built by hipcc; assembly level: each kernel's SASS translated to RDNA3 "
           "assembly, assembled by llvm-mc and linked into the program. Every build runs on the RDNA3 "
           "emulator and passes only when it prints the H200's checksum and PASS.", "", *tables(agg)]
    failures = sorted((r for r in results if not r["passed"]),
                      key=lambda r: (r["translator"], r["level"], r["program"]))
    out += ["", "## Failures", ""]
    if failures:
        out += ["| Translator | Level | Program | Stage | Reason |", "|---|---|---|---|---|"]
        out += [f"| `{_text(r['translator'])}` | {r['level']} | {r['program']} | {r.get('stage', '')} | "
                f"{_text(r.get('error', ''))[:400]} |" for r in failures]
    else:
        out.append("None.")
    out += ["", f"{agg['passed']} passed, {agg['failed']} failed"]
    return "\n".join(out) + "\n"


def write_all(results: list[dict], translators: list[Translator], domains: list[str], out_dir: str) -> dict:
    """translators.json and translators.md in out_dir; returns the aggregate."""
    os.makedirs(out_dir, exist_ok=True)
    agg = aggregate(results, translators, domains)
    results = sorted(results, key=lambda r: (r["translator"], r["level"], r["program"]))
    atomic_write_text(os.path.join(out_dir, "translators.json"),
                      json.dumps({"summary": agg, "results": results}, indent=1) + "\n")
    atomic_write_text(os.path.join(out_dir, "translators.md"), render_markdown(agg, results))
    return agg
