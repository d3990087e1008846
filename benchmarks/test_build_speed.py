"""Cold and warm build time of cass-nvcc against plain nvcc over a corpus of programs, two builds
at a time (`pytest benchmarks/test_build_speed.py -s`; opt-in, not part of `make test`).

benchmarks/build_speed.py does the work: the corpus is tests/programs, examples and the
third-party suites present under .thirdparty (CASS_BUILD_ONLY=GLOB,GLOB picks programs,
CASS_BUILD_JOBS the parallelism, default 2). Prints the tables, writes benchmarks/build_speed.json.
Goal (issue 13): cass-nvcc's cold build at most 1.3x nvcc's, its warm build at most 1.05x, in CPU
seconds (the machine is shared: wall seconds are printed beside them).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import build_speed  # noqa: E402

RESULTS = ROOT / "benchmarks" / "build_speed.json"


def test_build_speed():
    only = os.environ.get("CASS_BUILD_ONLY")
    programs = build_speed.corpus(only.split(",") if only else None)
    if not programs:
        pytest.skip("no programs")
    result = build_speed.measure(programs, int(os.environ.get("CASS_BUILD_JOBS", "2")))
    RESULTS.write_text(json.dumps(result, indent=1) + "\n")
    print("\n" + build_speed.tables(result))
    assert result["compared"], result["failed"]
    ratios = result["ratios"]
    over = [f"{k} {ratios[k]['cpu_s']:.2f}x (goal {goal}x)"
            for k, goal in (("cold", build_speed.GOAL_COLD), ("warm", build_speed.GOAL_WARM))
            if ratios[k]["cpu_s"] > goal]
    if over:
        pytest.fail("over the goal in CPU seconds: " + ", ".join(over))
