"""Parquet shards: the kept samples in source-path order, SHARD_ROWS per file, so the same corpus
gives the same files whatever the number of workers or the order they finished in. Each finished
sample is first saved on its own (samples/<id>.json): a rerun skips those (resume)."""

from __future__ import annotations

import json
import os
from pathlib import Path

SHARD_ROWS = 256


def schema():
    import pyarrow as pa
    kernel = pa.struct([("name", pa.string()), ("demangled", pa.string()), ("sass", pa.string()),
                        ("hip_device_asm", pa.string()), ("lifted_rdna3", pa.string()),
                        ("lift_status", pa.string()), ("lift_reasons", pa.list_(pa.string()))])
    return pa.schema([("id", pa.string()), ("path", pa.string()), ("cuda_source", pa.string()),
                      ("hip_source", pa.string()), ("cuda_host_asm", pa.string()),
                      ("hip_host_asm", pa.string()), ("kernels", pa.list_(kernel)),
                      ("ran", pa.bool_()), ("exit_status", pa.int32()), ("stdout", pa.string())])


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def sample_file(out: Path, digest: str) -> Path:
    return out / "samples" / f"{digest}.json"


def save_sample(out: Path, digest: str, result: dict) -> None:
    path = sample_file(out, digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(path, json.dumps(result, sort_keys=True).encode())


def load_sample(out: Path, digest: str) -> dict | None:
    path = sample_file(out, digest)
    return json.loads(path.read_text()) if path.exists() else None


def write_shards(out: Path, records: list[dict]) -> list[str]:
    """The shards of `records` (already in path order); earlier shards of the folder are replaced."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("shard-*.parquet"):
        old.unlink()
    names = []
    for n, start in enumerate(range(0, len(records), SHARD_ROWS)):
        table = pa.Table.from_pylist(records[start:start + SHARD_ROWS], schema=schema())
        path = data / f"shard-{n:05d}.parquet"
        tmp = path.with_name(path.name + ".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, path)
        names.append(str(path.relative_to(out)))
    return names
