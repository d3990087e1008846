"""`cass-cc dataset build|synth`: the command line of the data pipeline. Ray, pyarrow, datasketch
and matplotlib are imported only here, when a dataset command runs."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import click

from ..errors import CassError

DEFAULT_TIMEOUT_S = 120.0


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def dataset() -> None:
    """Build the CASS data set: paired CUDA/HIP programs with their host and device assembly.

    Needs the `dataset` extra: pip install -e '.[dataset]'."""


def _need(*modules: str) -> None:
    import importlib.util
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise CassError(f"{', '.join(missing)} not installed: pip install -e '.[dataset]'")


@dataset.command("build")
@click.argument("corpus", nargs=-1, required=True, type=click.Path())
@click.option("--out", "out", required=True, type=click.Path(file_okay=False),
              help="Folder of the data set: data/shard-*.parquet, stats.json, report.md and its "
                   "plots, and samples/ (one file per finished sample; a rerun skips those).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run each sample as a Ray task: 'local' starts Ray here with this machine's "
                   "cores, 'auto' joins the cluster this machine is part of, HOST:PORT a head. "
                   "Without it, a pool of --workers local processes.")
@click.option("--workers", default=os.cpu_count() or 1, show_default="the machine's cores",
              type=click.IntRange(min=1), help="Local worker processes (without --ray).")
@click.option("--offload-arch", default="gfx1100", show_default=True,
              help="AMD target of hipcc and of the lifter.")
@click.option("--timeout", default=DEFAULT_TIMEOUT_S, show_default=True, type=click.FloatRange(min=1),
              help="Seconds each tool run of a sample may take before the sample is dropped.")
def build_command(corpus: tuple[str, ...], out: str, ray_address: str | None, workers: int,
                  offload_arch: str, timeout: float) -> None:
    """Build the data set from CORPUS: .cu files, or folders searched for them.

    Each source is normalised and deduplicated (exact and near-duplicate), compiled by nvcc
    and, hipified, by hipcc; the host x86 assembly, each kernel's SASS, hipcc's AMD device
    assembly and the lifter's RDNA3 are kept. A program with main is also run, built both ways,
    on the emulator: the sample stays only when both print the same. Every dropped sample is
    counted with its reason in stats.json and report.md. The shards depend only on the corpus
    (sorted by source path), not on the workers."""
    _need("pyarrow", "datasketch", "matplotlib", *(["ray"] if ray_address else []))
    from .build import build, local_pool
    if ray_address:
        from .ray_runner import ray_pool
        runner = partial(ray_pool, address=ray_address)
    else:
        runner = partial(local_pool, workers=workers)
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    stats = build(list(corpus), path, offload_arch, timeout, runner, click.echo)
    dropped = ", ".join(f"{k} {v}" for k, v in stats["dropped"].items() if v)
    click.echo(f"{stats['kept']} samples kept of {stats['sources']} ({dropped or 'none dropped'}); "
               f"{len(stats['shards'])} shards in {out}")


@dataset.command("synth")
@click.argument("templates", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--model-url", required=True, metavar="URL",
              help="OpenAI-compatible server, e.g. vLLM's http://127.0.0.1:8000/v1.")
@click.option("--model", default=None, help="Model name to ask for (default: the first the server lists).")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False),
              help="Folder for the generated .cu files (files already there are kept).")
def synth_command(templates: tuple[str, ...], model_url: str, model: str | None, out: str) -> None:
    """Generate CUDA programs from prompt TEMPLATES with a model server.

    A template is a JSON file {"prompt": TEXT, "values": {NAME: [VALUE, ...]}}: each {NAME} in
    the prompt is replaced by each of its values, every combination once, in a fixed order.
    The code of each answer is written as TEMPLATE-NNNN.cu in --out; build the data set from
    that folder with `cass-cc dataset build`."""
    from .synth import synthesise
    files = synthesise(list(templates), Path(out), model_url, model, click.echo)
    click.echo(f"{len(files)} programs in {out}")
