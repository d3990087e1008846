"""`cass-cc bench`: run the benchmark programs through cass-nvcc's routes on the emulator."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import click

from ..errors import CassError
from ..targets import DEFAULT as DEFAULT_TARGET
from ..targets import TARGETS
from .programs import PROGRAMS_ROOT, discover
from .runner import bench_program
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
@click.option("--routes", default=None,
              help=f"cass-nvcc routes to build each program with (comma-separated; default {','.join(ROUTES)}).")
@click.option("--offload-arch", "offload_arch", default=DEFAULT_TARGET, show_default=True,
              type=click.Choice(list(TARGETS)),
              help="The AMD target every cass-nvcc build is for (its --cass-offload-arch) and the emulator "
                   "runs; the source route's build is then the native build for that target that the binary "
                   "route's wave instructions are compared with. Goes with the default mode and --translator.")
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
          prebuilt: bool, translators: tuple[str, ...], routes: str | None, offload_arch: str, only: str | None,
          jobs: int, out_dir: str | None) -> None:
    """Run the benchmark: every program under tests/programs/bench/<domain>/<name>/.

    Each program is built with nvcc (the build-time baseline) and with cass-nvcc per route, twice
    (cold: a fresh translation cache; warm: the same cache again); each AMD build runs under
    `cass-run --emu-stats` and passes when it exits 0, prints PASS and, where a reference.txt from
    NVIDIA hardware exists, prints its checksum (integers exactly, floats within 1e-4 relative).
    Writes summary.json, summary.md (passing per domain and route, kernel tiers, build-time and
    wave-instruction ratios, emulator time, failures; last line 'N passed, M failed') and
    accuracy.png. Exits 0 when the benchmark ran, whatever the pass count.

    With --suite MANIFEST.toml: the suite's programs instead (docs/third_party.md), through the
    routes auto, binary, source and nvcc; exits 3 when any result is WRONG.

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
    if translators:
        others = [flag for flag, given in (("--suite", manifest is not None), ("--prebuilt", prebuilt),
                                           ("--routes", routes is not None)) if given]
        if others:
            raise click.UsageError(f"--translator does not go with {', '.join(others)}")
    if offload_arch != DEFAULT_TARGET and (manifest is not None or prebuilt):
        raise click.UsageError("--offload-arch goes with the default mode and --translator")
    if manifest is not None:
        from .suite import parse_routes, run_suite
        status = run_suite(manifest, sources, parse_routes(routes), jobs, only, out_dir, record, warm)
        ctx.exit(status)
    for flag, given in (("--sources", sources is not None), ("--record", record), ("--warm", warm)):
        if given:
            raise click.UsageError(f"{flag} goes with --suite")
    patterns = [p.strip() for p in only.split(",") if p.strip()] if only else None
    programs = discover(only=patterns)
    if not programs:
        raise CassError(f"no benchmark program matches '{only}' under {PROGRAMS_ROOT}" if only
                        else f"no benchmark programs under {PROGRAMS_ROOT}")
    if translators:
        _bench_translators(translators, programs, jobs, out_dir or "bench-results/translators", offload_arch)
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
    click.echo(f"{agg['passed']} passed, {agg['failed']} failed")


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
