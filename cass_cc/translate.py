"""`cass-cc translate` and `cass-cc extract`: SASS -> RDNA3 code objects for the kernels of a file,
and a look at what a file holds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from . import toolchain
from .errors import CassError
from .translation import by_cubin, link_units, translate_unit, write_outputs
from .unit import ARTIFACTS, KernelUnit, stage_making

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


# The kernel a saved file defines, as the lifter's .ll (`define amdgpu_kernel void @k(`) and
# codegen's .s (`.amdhsa_kernel k`, the descriptor llvm-mc makes) spell it.
KERNEL_DEFINITIONS = {
    "ll": re.compile(r'^define\b[^@\n]*\bamdgpu_kernel\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-\w.$]+)\(', re.M),
    "s": re.compile(r"^\s*\.amdhsa_kernel\s+(\S+)", re.M),
}
_TARGET = re.compile(r'^\s*\.amdgcn_target\s+"[^"]*--(gfx\w+)', re.M)


def saved_unit(path: str, offload_arch: str) -> tuple[KernelUnit, str]:
    """A kernel from a file a stage wrote (its .ll or .s, as --cass-save-temps writes it, edited
    or not), with the name of that stage: the translation goes on from the stage after it. All
    the later stages need is in the text: the kernel's name, its argument list and attributes
    (the .ll), or its descriptor and metadata directives (the .s)."""
    extension = Path(path).suffix[1:]
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise CassError(f"cannot read '{path}': {e}") from None
    names = [n[1:-1] if n.startswith('"') else n for n in KERNEL_DEFINITIONS[extension].findall(text)]
    if len(names) != 1:
        found = f"{len(names)} kernels ({', '.join(names)})" if names else "no kernel"
        raise CassError(f"'{path}': {found}; a .{extension} file to translate holds one kernel, "
                        f"as --cass-save-temps writes them")
    target = _TARGET.search(text) if extension == "s" else None
    if target and target.group(1) != offload_arch:
        raise CassError(f"'{path}' is assembly for {target.group(1)}, not {offload_arch}: give "
                        f"--cass-offload-arch={target.group(1)}, or translate its .ll for {offload_arch}")
    from .demangle import demangle_all
    stage = stage_making(extension)
    unit = KernelUnit(name=names[0], sm_arch="", offload_arch=offload_arch,
                      demangled=demangle_all(names)[names[0]])
    setattr(unit, ARTIFACTS[stage].field, text)
    return unit, stage


def _translate_saved(path: str, offload_arch: str) -> KernelUnit:
    """The kernel stages after the one that wrote `path`, without the cache (its key is the
    cubin's kernel, which a saved file does not have)."""
    from .passes import KERNEL_STAGES
    from .pipeline import run_pipeline
    if not os.path.isfile(path):
        raise CassError(f"'{path}': no such file")
    unit, stage = saved_unit(path, offload_arch)
    names = [p.NAME for p in KERNEL_STAGES]
    run_pipeline(unit, KERNEL_STAGES[names.index(stage) + 1:])
    if unit.asm and not unit.rdna3_instructions:    # from a .s: codegen, which counts them, did not run
        from .rdna3.target import count_instructions
        unit.rdna3_instructions = count_instructions(unit.asm)
    return unit


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
    sm_90 SASS). For each kernel the folder gets what each stage made: <kernel>.sass (nvdisasm),
    <kernel>.ll (LLVM IR), <kernel>.s (RDNA3 assembly) and <kernel>.o (its object); <FILE>.hsaco
    is the code object of the kernels' translation unit, linked and verified (<FILE>.N.hsaco, one
    per translation unit, when FILE links several), and <FILE>.cass-report.json states each
    kernel's tier and status.

    FILE may also be one kernel's <kernel>.ll or <kernel>.s as a translation wrote it (edited or
    not): the stages after the one that made it run, for --cass-offload-arch, and the folder gets
    the files of the whole chain from FILE's stage on. Device variables are not in such a file:
    a kernel that uses them does not link.
    Exits 1 when a kernel could not be translated (the report says why).
    """
    from .cache import TranslationCache
    from .rdna3.target import check_offload_arch
    check_offload_arch(offload_arch)
    outdir = outdir or Path(file).stem + ".cass"
    saved = Path(file).suffix[1:] in KERNEL_DEFINITIONS
    cache = None if no_cache or saved else TranslationCache()
    workdir = tempfile.mkdtemp(prefix="cass-translate-")
    try:
        if saved:
            units = [_translate_saved(file, offload_arch)]
        else:
            units = [translate_unit(u, cache) for u in load_units(file, offload_arch, workdir)]
        combined = [code for group in by_cubin(units)   # one code object per translation unit
                    if (code := link_units(group, cache)) is not None]
        report = write_outputs(units, outdir, file, offload_arch, combined, [])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for u in units:
        why = f": {'; '.join(u.reasons)}" if u.status != "ok" and u.reasons else ""
        click.echo(f"{u.demangled or u.name}: {u.tier} {u.status}{why}")
    click.echo(f"report: {report}")
    if any(u.status != "ok" for u in units):
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
