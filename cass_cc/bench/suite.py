"""`cass-cc bench --suite MANIFEST.toml`: a third-party suite through cass-nvcc's routes and plain
nvcc, judged against the H200's recorded output (docs/third_party.md). Also runnable as
`python3 -m cass_cc.bench.suite --suite ...` where cass-cc is not installed (the H200 machine:
nvcc, Python and click only)."""

from __future__ import annotations

import concurrent.futures
import sys

import click

from .. import command
from ..targets import DEFAULT as DEFAULT_TARGET
from ..targets import TARGETS
from ..errors import CassError
from . import suite_judge as J
from . import suite_manifest, suite_reference
from .quality import Measured, summarize
from .suite_run import ROUTES, run_program
from .suite_summary import table, tally_lines, write_all, wrong_lines

DEFAULT_ROUTES = ("auto", "nvcc")
EXIT_WRONG = 3


def parse_routes(value: str | None) -> list[str]:
    if value is None:
        return list(DEFAULT_ROUTES)
    routes = [r.strip() for r in value.split(",") if r.strip()]
    unknown = [r for r in routes if r not in ROUTES]
    if unknown or not routes:
        raise click.BadParameter(f"'{value}': choose from {', '.join(ROUTES)} (comma-separated)",
                                 param_hint="'--routes'")
    return list(dict.fromkeys(routes))


def run_suite(manifest: str, sources: str | None, routes: list[str], jobs: int, only: str | None,
              out_dir: str | None, record: bool, warm: bool, offload_arch: str = DEFAULT_TARGET) -> int:
    """Run the suite, cass-nvcc's routes building for `offload_arch`, print the table and the counts,
    write the summaries (and, with record, the reference); the exit status: 0, or EXIT_WRONG when
    any result is WRONG."""
    suite = suite_manifest.load(manifest)
    root = suite.source_root(sources)
    patterns = [p.strip() for p in only.split(",") if p.strip()] if only else None
    programs = suite.select(patterns)
    if not programs:
        raise CassError(f"no program of suite '{suite.name}' matches '{only}'")
    gpu = suite_reference.nvidia_gpu() if "nvcc" in routes else None
    if record:
        if "nvcc" not in routes:
            raise CassError("--record writes the H200's reference from the nvcc route: add nvcc to --routes")
        if gpu is None:
            raise CassError("--record needs an NVIDIA GPU (nvidia-smi finds none): the reference is the "
                            "output of the nvcc build on NVIDIA hardware")
    reference = suite_reference.load(suite)
    out_dir = out_dir or f"suite-results/{suite.name}"
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = []
        for p in programs:
            entry, note = suite_reference.entry_for(reference, p)
            futures.append(pool.submit(run_program, str(root), p, routes, entry, note, gpu, warm, record,
                                       offload_arch))
        # one line per finished program on stderr: a long run shows where it stands
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            result = future.result()
            results.append(result)
            cells = ", ".join(f"{route} {result['routes'][route]['cell'][:80]}" for route in routes)
            click.echo(f"[{done}/{len(futures)}] {result['program']}: {cells}", err=True)
    results.sort(key=lambda r: r["program"])
    if record:
        entries = {r["program"]: r["routes"]["nvcc"].pop("record") for r in results
                   if "record" in r["routes"]["nvcc"]}
        from ..toolchain import find
        suite_reference.write(suite, reference, entries, gpu or "", suite_reference.nvcc_version(find("nvcc").path))
        click.echo(f"recorded {len(entries)} of {len(results)} programs into {suite.reference_path}")
    info = {"name": suite.name, "repository": suite.repository, "commit": suite.commit,
            "manifest": str(suite.manifest), "sources": str(root),
            "reference": str(suite.reference_path) if suite.reference_path.exists() else None, "gpu": gpu,
            "offload_arch": offload_arch}
    agg = write_all(info, results, routes, out_dir)
    for line in table(results, routes):
        click.echo(line)
    wrong = wrong_lines(results, routes)
    for line in wrong:
        click.secho(line, fg="red", bold=True, err=True)
    click.echo(f"wrote {out_dir}/summary.json, summary.md")
    if "binary" in routes and "source" in routes:
        _write_quality(suite.name, results, out_dir)
    for line in tally_lines(agg):
        click.echo(line)
    return EXIT_WRONG if wrong else 0


def measured(program: str, binary: dict, source: dict) -> Measured:
    """One suite program's binary and source routes as quality.py's input; a route counts as
    passing only with the verdict PASS (an unverified run may be wrong, so its count proves nothing)."""
    note = "; ".join(f"{name}: {rr['status']}: {rr['reason']}" for name, rr in (("lifted", binary), ("hipcc", source))
                     if rr["status"] != J.PASS)
    return Measured(program, binary.get("opcodes", {}), source.get("opcodes", {}), binary["status"] == J.PASS,
                    source["status"] == J.PASS, note)


def _write_quality(name: str, results: list[dict], out_dir: str) -> None:
    from .quality_report import summary_lines, write_all as write_quality

    summary = summarize([measured(r["program"], r["routes"]["binary"], r["routes"]["source"]) for r in results])
    write_quality(summary, out_dir, f"suite {name}")
    for line in summary_lines(summary):
        click.echo(line)
    click.echo(f"wrote {out_dir}/quality.json, quality.md, quality.png")


@click.command()
@click.option("--suite", "manifest", required=True, type=click.Path(dir_okay=False),
              help="The suite's manifest (tests/suites/<suite>.toml).")
@click.option("--sources", default=None, type=click.Path(file_okay=False),
              help="The suite's source root (default: the manifest's [suite] sources, else .thirdparty/<suite>).")
@click.option("--routes", default=None, metavar="ROUTE[,ROUTE…]",
              help=f"Of {', '.join(ROUTES)} (default {','.join(DEFAULT_ROUTES)}).")
@click.option("--only", default=None, metavar="GLOB[,GLOB…]", help="Only programs whose name matches a glob.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(min=1),
              help="Programs run in parallel (worker processes).")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Directory for summary.json and summary.md (default suite-results/<suite>).")
@click.option("--record", is_flag=True, help="Write the H200 reference from the nvcc route (NVIDIA GPU needed).")
@click.option("--warm", is_flag=True, help="Also time a second cass-nvcc build on the same translation cache.")
@click.option("--offload-arch", "offload_arch", default=DEFAULT_TARGET, show_default=True,
              type=click.Choice(list(TARGETS)),
              help="The AMD target of cass-nvcc's builds, which cass-run then emulates.")
def suite_command(manifest: str, sources: str | None, routes: str | None, only: str | None, jobs: int,
                  out_dir: str | None, record: bool, warm: bool, offload_arch: str) -> None:
    """Run a third-party suite described by a manifest (docs/third_party.md)."""
    status = run_suite(manifest, sources, parse_routes(routes), jobs, only, out_dir, record, warm, offload_arch)
    if status:
        click.get_current_context().exit(status)


def main(argv: list[str] | None = None) -> int:
    return command.run(suite_command, argv, "python3 -m cass_cc.bench.suite")


if __name__ == "__main__":
    sys.exit(main())
