"""`cass-cc bench`: run the benchmark programs through cass-nvcc's routes on the emulator."""

from __future__ import annotations

import concurrent.futures
import json
import os
from pathlib import Path

import click

from ..errors import CassError
from ..fsutil import atomic_write_text
from ..targets import DEFAULT as DEFAULT_TARGET
from ..targets import TARGETS
from .programs import PROGRAMS_ROOT, discover
from .runner import bench_program, measured, quality_program
from .summary import write_all

ROUTES = ("binary", "source", "auto")


def _routes(value: str | None) -> list[str]:
    if value is None:
        return list(ROUTES)
    routes = [r.strip() for r in value.split(",") if r.strip()]
    unknown = [r for r in routes if r not in ROUTES]
    if unknown or not routes:
        raise click.BadParameter(f"'{value}': choose from {', '.join(ROUTES)} (comma-separated)",
                                 param_hint="'--routes'")
    return list(dict.fromkeys(routes))


@click.command()
@click.option("--suite", "manifest", default=None, type=click.Path(dir_okay=False),
              help="Run a third-party suite from its manifest instead (docs/third_party.md); "
                   "routes then also include nvcc, default auto,nvcc.")
@click.option("--sources", default=None, type=click.Path(file_okay=False),
              help="With --suite: the suite's source root (default .thirdparty/<suite>).")
@click.option("--record", is_flag=True,
              help="With --suite and route nvcc on an NVIDIA GPU: write the suite's H200 reference.")
@click.option("--warm", is_flag=True, help="With --suite: also time a rebuild on the same translation cache.")
@click.option("--prebuilt", is_flag=True,
              help="Instead: build each program with plain nvcc and time it under cass-run, its images "
                   "translated at the first run and found in the image cache at the second, beside a "
                   "cass-nvcc build of the same source (one program at a time; default out "
                   "bench-results/prebuilt).")
@click.option("--translator", "translators", multiple=True, metavar="lift|hipify|model[:URL]|command:CMD",
              help="Instead: score this translator as CASS scores models (repeatable, one table row "
                   "each; default out bench-results/translators).")
@click.option("--quality", is_flag=True,
              help="Instead: the code-quality report. Each program built once per route, binary "
                   "(lifted) and source (hipcc), run under cass-run --emu-stats; per program and kernel "
                   "wave-instructions lifted vs hipcc, memory instructions by address space, atomics by "
                   "kind, estimated cycles; median and worst over the programs passing on both (default "
                   "out bench-results/quality).")
@click.option("--from", "merge", multiple=True, type=click.Path(dir_okay=False, exists=True), metavar="SUMMARY.json",
              help="With --quality: build the report from the summary.json of earlier runs instead of "
                   "measuring (repeatable; a --quality, plain or --suite run with routes binary and "
                   "source; a suite's programs are named <suite>/<program>).")
@click.option("--programs", "programs_root", default=None, type=click.Path(file_okay=False, exists=True),
              help="The folder of <domain>/<name>/ program folders (default tests/programs/bench); e.g. "
                   "tests/programs with --only 'realworld/*'.")
@click.option("--routes", default=None,
              help=f"cass-nvcc routes to build each program with (comma-separated; default {','.join(ROUTES)}).")
@click.option("--offload-arch", "offload_arch", default=DEFAULT_TARGET, show_default=True,
              type=click.Choice(list(TARGETS)),
              help="The AMD target every cass-nvcc build is for (its --cass-offload-arch) and the emulator "
                   "runs; the source route's build is then the native build for that target that the binary "
                   "route's wave instructions are compared with. Goes with the default mode, --suite, --quality "
                   "and --translator.")
@click.option("--only", "only", default=None, metavar="GLOB[,GLOB…]",
              help="Run only programs whose '<domain>/<name>' matches one of these shell globs, "
                   "e.g. 'sorting/*,ml/softmax_rows'.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(min=1),
              help="Programs benchmarked in parallel (worker processes).")
@click.option("--out", "out_dir", default=None,
              type=click.Path(file_okay=False), help="Directory for summary.json, summary.md and accuracy.png "
                                                     "(with --suite: default suite-results/<suite>).")
@click.pass_context
def bench(ctx: click.Context, manifest: str | None, sources: str | None, record: bool, warm: bool,
          prebuilt: bool, translators: tuple[str, ...], quality: bool, merge: tuple[str, ...],
          programs_root: str | None, routes: str | None, offload_arch: str, only: str | None, jobs: int,
          out_dir: str | None) -> None:
    """Run the benchmark: every program under tests/programs/bench/<domain>/<name>/.

    Each program is built with nvcc (the build-time baseline) and with cass-nvcc per route, twice
    (cold: a fresh translation cache; warm: the same cache again); each AMD build runs under
    `cass-run --emu-stats` and passes when it exits 0, prints PASS and, where a reference.txt from
    NVIDIA hardware exists, prints its checksum (integers exactly, floats within 1e-4 relative).
    Writes summary.json, summary.md (passing per domain and route, kernel tiers, build-time and
    wave-instruction ratios, emulator time, failures; last line 'N passed, M failed') and
    accuracy.png; with routes binary and source also the code-quality report (below). Exits 0
    when the benchmark ran, whatever the pass count.

    With --suite MANIFEST.toml: the suite's programs instead (docs/third_party.md), through the
    routes auto, binary, source and nvcc; exits 3 when any result is WRONG. With routes binary
    and source it writes the code-quality report too.

    With --quality: only the code-quality report, lifted (binary route) against hipcc (source
    route), each program built once per route. quality.md has per program and kernel the
    wave-instructions of both builds (cass-run --emu-stats, summed over all launches) and their
    ratio, memory instructions by address space (global, flat, buffer, scratch, lds, scalar
    memory), atomics by kind (add, sub, min, max, and, or, xor, xchg, inc, dec, cas, fadd) and
    an estimated cycle count (weights per instruction class, documented in
    cass_cc/bench/quality.py); the median and worst ratio over the programs passing on both
    routes. Also quality.json and quality.png (each program's ratio, sorted). Prints the summary
    lines; exits 0 when the report was written.

    With --prebuilt: what a program built by plain nvcc (-arch=sm_80) costs under cass-run. Per
    program: what translating its images adds to its first run (first run less second) against
    what translating adds to a cass-nvcc build of the same source (cold build less warm), and the
    second run's start-up per module with the image cache warm (goal: under 50 ms), as libcassrt
    reports it (CASS_IMAGE_STATS_FILE); each run must pass. Writes summary.json and summary.md;
    last line 'N passed, M failed'.

    With --translator T (repeatable): score translators the way CASS-Bench scores models, by
    running what they answer. Source level: each CUDA file of a program translated to HIP (hipify:
    cass-cc's; model: the model's answer; command:CMD: CMD FILE prints it), built by hipcc.
    Assembly level: each kernel's SASS translated to RDNA3 assembly (lift: the lifter's; model:
    the model's answer; command:CMD: CMD FILE.sass prints it, the kernel's name in $CASS_KERNEL),
    assembled by llvm-mc and linked into the program. A build passes when it runs on the emulator
    and prints the H200's checksum and PASS; an answer that does not compile or assemble fails
    with its reason. lift has no source level and hipify no assembly level ("-"). Prints the
    accuracy per translator, level and domain; writes translators.md and translators.json; last
    line 'N passed, M failed'.
    """
    for mode, on in (("--translator", bool(translators)), ("--quality", quality)):
        if not on:
            continue
        others = [flag for flag, given in (("--suite", manifest is not None), ("--prebuilt", prebuilt),
                                           ("--routes", routes is not None), ("--quality", quality)) if given
                  and flag != mode]
        if others:
            raise click.UsageError(f"{mode} does not go with {', '.join(others)}")
    if offload_arch != DEFAULT_TARGET and prebuilt:
        raise click.UsageError("--offload-arch goes with the default mode, --suite, --quality and --translator")
    if merge:
        if not quality:
            raise click.UsageError("--from goes with --quality")
        if programs_root is not None or only is not None:
            raise click.UsageError("--from takes the programs of its files (no --programs, no --only)")
        _write_quality([m for path in dict.fromkeys(merge) for m in _measured_from(path)],
                       out_dir or "bench-results/quality")
        return
    if manifest is not None and programs_root is not None:
        raise click.UsageError("--programs does not go with --suite (the manifest names the programs)")
    if manifest is not None:
        from .suite import parse_routes, run_suite
        status = run_suite(manifest, sources, parse_routes(routes), jobs, only, out_dir, record, warm, offload_arch)
        ctx.exit(status)
    for flag, given in (("--sources", sources is not None), ("--record", record), ("--warm", warm)):
        if given:
            raise click.UsageError(f"{flag} goes with --suite")
    patterns = [p.strip() for p in only.split(",") if p.strip()] if only else None
    root = Path(programs_root) if programs_root else PROGRAMS_ROOT
    programs = discover(root, only=patterns)
    if not programs:
        raise CassError(f"no benchmark program matches '{only}' under {root}" if only
                        else f"no benchmark programs under {root}")
    if translators:
        _bench_translators(translators, programs, jobs, out_dir or "bench-results/translators", offload_arch)
        return
    if quality:
        _bench_quality(programs, jobs, out_dir or "bench-results/quality", offload_arch)
        return
    if prebuilt:
        if routes is not None or jobs != 1:
            raise click.UsageError("--prebuilt takes no --routes, and runs one program at a time (no --jobs)")
        _bench_prebuilt(programs, out_dir or "bench-results/prebuilt")
        return
    routes = _routes(routes)
    out_dir = out_dir or "bench-results"
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(bench_program, p, routes, offload_arch) for p in programs]
        with click.progressbar(concurrent.futures.as_completed(futures), length=len(futures),
                               label=f"benchmarking {len(programs)} programs for {offload_arch}", file=click.get_text_stream("stderr"),
                               item_show_func=lambda f: f.result()["program"] if f else None) as bar:
            for future in bar:
                results.append(future.result())
    agg = write_all(results, routes, out_dir, offload_arch)
    click.echo(f"wrote {out_dir}/summary.json, summary.md, accuracy.png")
    if "binary" in routes and "source" in routes:
        _write_quality([measured(r) for r in results], out_dir)
    click.echo(f"{agg['passed']} passed, {agg['failed']} failed")


def _write_quality(results: list, out_dir: str) -> None:
    from .quality import summarize
    from .quality_report import summary_lines, write_all as write_quality

    summary = summarize(results)
    write_quality(summary, out_dir, "cass-cc bench")
    for line in summary_lines(summary):
        click.echo(line)
    click.echo(f"wrote {out_dir}/quality.json, quality.md, quality.png")


def _measured_from(path: str) -> list:
    """The measurements in one summary.json of an earlier bench or suite run."""
    from .suite import measured as suite_measured

    try:
        data = json.loads(Path(path).read_text())
        results = data["results"]
        if "suite" in data:
            return [suite_measured(f"{data['suite']['name']}/{r['program']}", r["routes"]["binary"],
                                   r["routes"]["source"]) for r in results]
        return [measured(r) for r in results]
    except (OSError, ValueError) as e:
        raise CassError(f"{path}: cannot read it as a summary.json: {e}") from None
    except KeyError as e:
        raise CassError(f"{path}: no {e} in it: the report needs a summary.json of a run with routes "
                        "binary and source") from None


def _bench_quality(programs: list, jobs: int, out_dir: str, offload_arch: str) -> None:
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(quality_program, p, offload_arch) for p in programs]
        with click.progressbar(concurrent.futures.as_completed(futures), length=len(futures),
                               label=f"measuring {len(programs)} programs", file=click.get_text_stream("stderr"),
                               item_show_func=lambda f: f.result()["program"] if f else None) as bar:
            for future in bar:
                results.append(future.result())
    os.makedirs(out_dir, exist_ok=True)
    # the raw counts, so that --from can merge this run with others
    atomic_write_text(os.path.join(out_dir, "summary.json"),
                      json.dumps({"results": sorted(results, key=lambda r: r["program"])}, indent=1) + "\n")
    _write_quality([measured(r) for r in results], out_dir)


def _bench_translators(specs: tuple[str, ...], programs: list, jobs: int, out_dir: str, offload_arch: str) -> None:
    from .translator_build import score
    from .translator_summary import tables, write_all
    from .translators import parse

    try:
        translators = [parse(spec) for spec in dict.fromkeys(specs)]
    except CassError as e:
        raise click.BadParameter(e.message, param_hint="'--translator'") from None
    tasks = [(p, t, level) for t in translators for level in t.levels for p in programs]
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(score, p, t, level, offload_arch) for p, t, level in tasks]
        with click.progressbar(concurrent.futures.as_completed(futures), length=len(futures),
                               label=f"scoring {len(translators)} translators on {len(programs)} programs",
                               file=click.get_text_stream("stderr"),
                               item_show_func=lambda f: f.result()["program"] if f else None) as bar:
            for future in bar:
                results.append(future.result())
    domains = sorted({p.domain for p in programs})
    agg = write_all(results, translators, domains, out_dir)
    click.echo("\n".join(tables(agg)))
    click.echo(f"wrote {out_dir}/translators.json, translators.md")
    click.echo(f"{agg['passed']} passed, {agg['failed']} failed")


def _bench_prebuilt(programs: list, out_dir: str) -> None:
    from .prebuilt import run_prebuilt

    def progress(items):
        with click.progressbar(items, label=f"benchmarking {len(items)} prebuilt programs",
                               file=click.get_text_stream("stderr"),
                               item_show_func=lambda p: p.name if p else None) as bar:
            yield from bar

    summary = run_prebuilt(programs, out_dir, progress)
    click.echo((Path(out_dir) / "summary.md").read_text(), nl=False)
    click.echo(f"wrote {out_dir}/summary.json, summary.md")
    click.echo(f"{summary['passed']} passed, {summary['failed']} failed")
