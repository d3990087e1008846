"""Translation time of the SASS -> RDNA3 translator (`pytest benchmarks/test_translate_time.py -s`).

Per kernel: the lift pipeline (disasm .. verify) in process, with a cold translation cache and a
warm one; per compile: `cass-cc translate FILE` as a user runs it (Python start-up included), cold
and warm. Medians and 95th percentiles are printed and written to benchmarks/translate_time.json.
The CUDA sources are the grammar corpus (tests/sass/kernels, examples, tests/programs/binary),
compiled once by nvcc -c -arch=sm_80 outside the timings.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.sass.compiled import compile_all, corpus_sources  # noqa: E402

RESULTS = ROOT / "benchmarks" / "translate_time.json"


def _p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def _summary(values: list[float]) -> dict:
    return {"n": len(values), "median_s": round(statistics.median(values), 4), "p95_s": round(_p95(values), 4),
            "total_s": round(sum(values), 3)}


@pytest.fixture(scope="module")
def objects():
    sources = [s for s in corpus_sources() if "hipify" not in s.parts and "hip" not in s.parts]
    built = compile_all(sources, "-arch=sm_80", output="-c")
    return [obj for obj in built.values() if not isinstance(obj, Exception)]


def test_translation_time(objects, tmp_path):
    from cass_cc.cache import TranslationCache
    from cass_cc.passes import units_from_file
    from cass_cc.translation import translate_unit

    results: dict = {"per_kernel": {}, "per_compile": {}, "status": {}}
    cache = TranslationCache(tmp_path / "cache")
    for phase in ("cold", "warm"):
        times, statuses = [], {}
        for obj in objects:
            for unit in units_from_file(str(obj)):
                start = time.perf_counter()
                translate_unit(unit, cache)
                times.append(time.perf_counter() - start)
                statuses[unit.status] = statuses.get(unit.status, 0) + 1
        results["per_kernel"][phase] = _summary(times)
        results["status"][phase] = statuses

    env_cache = tmp_path / "cli-cache"
    for phase in ("cold", "warm"):
        times = []
        for n, obj in enumerate(objects):
            start = time.perf_counter()
            subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), "translate", str(obj), "-o",
                            str(tmp_path / f"{phase}{n}")], capture_output=True,
                           env={**__import__("os").environ, "CASS_CACHE_DIR": str(env_cache)})
            times.append(time.perf_counter() - start)
        results["per_compile"][phase] = _summary(times)

    results["load_average"] = [round(x, 2) for x in __import__("os").getloadavg()]
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print("\ntranslation time", json.dumps(results, indent=2))
    assert results["per_kernel"]["cold"]["n"] > 0
