"""`cass-cc translate` and `cass-cc extract`: SASS -> RDNA3 code objects for the kernels of a file,
and a look at what a file holds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from . import toolchain
from .errors import CassError, ToolMissing
from .translation import by_cubin, translate_unit, write_outputs
from .unit import KernelUnit

DEFAULT_OFFLOAD_ARCH = "gfx1100"
CU_SUFFIXES = (".cu",)


def compile_cu(source: str, workdir: str) -> str:
    """nvcc -arch=sm_80 -cubin: the SASS that cass-nvcc's binary route translates."""
    out = os.path.join(workdir, Path(source).stem + ".cubin")
    cmd = [toolchain.path("nvcc"), "-arch=sm_80", "-cubin", "-o", out, source]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr.strip())
        raise CassError(f"nvcc failed on '{source}': {first}")
    return out


def load_units(path: str, offload_arch: str, workdir: str) -> list[KernelUnit]:
    from .passes import units_from_file
    if not os.path.isfile(path):
        raise CassError(f"'{path}': no such file")
    if path.endswith(CU_SUFFIXES):
        path = compile_cu(path, workdir)
    units = units_from_file(path, offload_arch)
    if not units:
        raise CassError(f"'{path}': no kernels (no device code, or device code without __global__ functions)")
    return units










@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output-dir", "outdir", type=click.Path(file_okay=False),
              help="Folder for the outputs (default: FILE's name + '.cass' in the current folder).")
@click.option("--cass-offload-arch", "offload_arch", default=DEFAULT_OFFLOAD_ARCH, show_default=True,
              help="AMD target of the code objects.")
@click.option("--no-cache", is_flag=True, help="Neither read nor fill the translation cache ($CASS_CACHE_DIR).")
def translate(file: str, outdir: str | None, offload_arch: str, no_cache: bool) -> None:
    """Translate every kernel of FILE from SASS to RDNA3.

    FILE is a CUDA source (.cu, compiled first with nvcc -arch=sm_80 -cubin), a host object,
    executable or shared library with device code, a .fatbin or a .cubin (sm_80, sm_86, sm_89 or
    sm_90 SASS). For each kernel the folder gets <kernel>.sass (nvdisasm), <kernel>.ll (LLVM IR),
    <kernel>.s (RDNA3 assembly) and <kernel>.hsaco (code object); <FILE>.hsaco holds all translated
    kernels in one code object (<FILE>.N.hsaco, one per translation unit, when FILE links several),
    and <FILE>.cass-report.json states each kernel's tier and status.
    Exits 1 when a kernel could not be translated (the report says why).
    """
    from .cache import TranslationCache
    from .passes.link import link_translation_unit
    from .rdna3.target import check_offload_arch
    check_offload_arch(offload_arch)
    outdir = outdir or Path(file).stem + ".cass"
    workdir = tempfile.mkdtemp(prefix="cass-translate-")
    try:
        units = load_units(file, offload_arch, workdir)
        cache = None if no_cache else TranslationCache()
        for u in units:
            translate_unit(u, cache)
        diagnostics: list[str] = []
        combined: list[bytes] = []
        for group in by_cubin(units):    # one code object per translation unit
            if any(u.obj for u in group):
                try:
                    combined.append(link_translation_unit(group))
                except ToolMissing:
                    raise
                except CassError as e:
                    diagnostics.append(f"link: {e.message}")
        report = write_outputs(units, outdir, file, offload_arch, combined, diagnostics)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for u in units:
        why = f": {'; '.join(u.reasons)}" if u.status != "ok" and u.reasons else ""
        click.echo(f"{u.demangled or u.name}: {u.tier} {u.status}{why}")
    click.echo(f"report: {report}")
    if any(u.status != "ok" for u in units) or diagnostics:
        sys.exit(1)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--compact", is_flag=True, help="Print the compact SASS (CASS model input) instead of nvdisasm's text.")
@click.option("--no-sass", is_flag=True, help="List kernels and parameters only.")
def extract(file: str, compact: bool, no_sass: bool) -> None:
    """List the kernels of FILE with their parameters, launch attributes and SASS.

    FILE is anything `cass-cc translate` takes. Parameter offsets are relative to the parameter
    base in constant bank 0 (0x160 on sm_80/86/89, 0x210 on sm_90).
    """
    from .passes import FRONT_END
    from .pipeline import run_pipeline
    workdir = tempfile.mkdtemp(prefix="cass-extract-")
    try:
        units = load_units(file, DEFAULT_OFFLOAD_ARCH, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for u in units:
        k = u.kernel
        click.echo(f"kernel {u.name}  ({u.demangled})")
        click.echo(f"  arch {u.sm_arch}  registers {k.regcount}  frame {k.frame_size}  "
                   f"static shared {k.static_shared_size}  param base 0x{k.param_base:x} size {k.param_size}")
        if k.max_threads or k.reqntid:
            click.echo(f"  launch bounds max_threads={k.max_threads} reqntid={k.reqntid}")
        for index, offset, size in k.params:
            click.echo(f"  param {index}: offset {offset} size {size}")
        if no_sass:
            continue
        run_pipeline(u, FRONT_END)
        if u.status != "ok":
            raise CassError(f"{u.name}: {'; '.join(u.reasons)}")
        click.echo(getattr(u, "sass_compact", "") if compact else u.sass_text)
