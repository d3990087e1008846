"""`cass-cc dataset build`: the corpus, deduplicated, through `sample.process` on a pool of
workers (local processes, or Ray tasks), then shards, stats.json and the report."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from .corpus import Source, find_sources
from .dedup import deduplicate
from .sample import REASONS, process
from .shards import load_sample, save_sample, write_shards

# A job: (path, normalised text, its folder, offload arch, timeout) -> sample.process's answer.
Job = tuple[str, str, str, str, float]


def local_pool(jobs: list[Job], workers: int) -> Iterator[dict]:
    """Each job's answer as it finishes, from `workers` processes on this machine. However the
    build ends (done, an error, SIGTERM, Ctrl-C), leaving the pool ends its workers: each stops
    its sample's tools and removes its private folder on the way out."""
    if workers == 1:
        yield from (process(*job) for job in jobs)
        return
    with multiprocessing.get_context("fork").Pool(workers, initializer=_exit_on_sigterm) as pool:
        # as they finish, not in order: each is saved at once, so an interruption loses little
        yield from pool.imap_unordered(_process, jobs)


def _process(job: Job) -> dict:
    return process(*job)


def _exit_on_sigterm() -> None:
    """A worker's signals: the pool ends it with SIGTERM, which exits through `finally` blocks
    (the sample's tool group ended, its folder removed); Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def build(corpus: list[str], out: Path, offload_arch: str, timeout: float,
          runner: Callable[[list[Job]], Iterator[dict]], log: Callable[[str], None]) -> dict:
    """Build the data set in `out`; return its stats (also in out/stats.json)."""
    start = time.perf_counter()
    sources = find_sources(corpus)
    kept, duplicates = deduplicate(sources)
    by_path: dict[str, Source] = {s.path: s for s in kept}
    todo = [s for s in kept if load_sample(out, s.digest) is None]
    log(f"{len(sources)} sources, {len(duplicates)} duplicates, {len(kept) - len(todo)} done before, "
        f"{len(todo)} to build")
    by_path_todo = {s.path: s for s in todo}
    for n, result in enumerate(runner([(s.path, s.text, os.path.dirname(s.file), offload_arch, timeout) for s in todo]), 1):
        save_sample(out, by_path_todo[result["path"]].digest, result)
        log(f"[{n}/{len(todo)}] {result['path']}: {result.get('dropped', 'kept')}")
    results = [load_sample(out, by_path[p].digest) for p in sorted(by_path)]
    records = [r for r in results if "dropped" not in r]
    dropped = Counter({reason: 0 for reason in REASONS})
    dropped["duplicate"] = len(duplicates)
    dropped.update(r["dropped"] for r in results if "dropped" in r)
    stats = {"sources": len(sources), "kept": len(records), "dropped": dict(dropped),
             "ran": sum(r["ran"] for r in records), "offload_arch": offload_arch,
             "shards": write_shards(out, records),
             "drops": {r["path"]: f"{r['dropped']}: {r['detail']}" for r in results if "dropped" in r}
             | {p: f"duplicate of {q}" for p, q in duplicates.items()},
             "seconds": round(time.perf_counter() - start, 1), "samples_built": len(todo)}
    tmp = out / "stats.json.tmp"
    tmp.write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, out / "stats.json")
    from .report import write_report
    write_report(out, records, stats)
    return stats
