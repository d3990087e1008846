"""`cass-cc translate`, `cass-cc translate-image` and `cass-cc extract`: SASS -> RDNA3 code objects
for the kernels of a file or of one device-code image (filling the image cache that libcassrt,
as libcuda, loads from), and a look at what a file holds."""

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
from .errors import CassError, InternalError, ToolMissing
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
@click.option("--no-cache", is_flag=True, help="Neither read nor fill the translation cache ($CASS_CACHE_DIR), "
              "nor the image cache.")
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

    When FILE is a host object, executable or shared library, the image cache
    ($CASS_CACHE_DIR/images) is filled too: each device-code image of its .nv_fatbin section (one
    fatbin per translation unit) is translated whole, as `cass-cc translate-image` does when the
    program loads it, and one line per image says where its code object is ("image N: cached
    PATH") or why it has none. --no-cache leaves the image cache alone as well.

    Exits 1 when a kernel could not be translated (the report says why), or an image has no code
    object.
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
    images_ok = saved or no_cache or fill_image_cache(file, offload_arch)
    if any(u.status != "ok" for u in units) or not images_ok:
        sys.exit(1)


def fill_image_cache(file: str, offload_arch: str) -> bool:
    """Translate each image of a host ELF's .nv_fatbin section into the image cache, one line per
    image; whether every image has its code object there (True for a file without the section)."""
    from .fatbin.reader import host_section
    from .images import section_images, translate_cached
    section = host_section(file, ".nv_fatbin")
    if section is None:
        return True
    ok = True
    for n, image in enumerate(section_images(section)):
        try:
            path, _code, _hit = translate_cached(image, offload_arch, f"{file}(.nv_fatbin) image {n}")
        except (ToolMissing, InternalError):
            raise   # not the image's fault: the build of every image would fail alike
        except CassError as e:
            click.echo(f"image {n}: not cached: {e.message}")
            ok = False
            continue
        click.echo(f"image {n}: cached {path}")
    return ok


@click.command("translate-image", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("image", type=click.Path(exists=True, dir_okay=False, readable=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the code object here too (atomically: a reader sees all of it or nothing).")
@click.option("--cass-offload-arch", "offload_arch", default=DEFAULT_OFFLOAD_ARCH, show_default=True,
              help="AMD target of the code object.")
@click.option("--name", default=None, metavar="TEXT",
              help="What messages call IMAGE (default: its path); libcassrt names the image a program loaded.")
def translate_image_command(image: str, output: str | None, offload_arch: str, name: str | None) -> None:
    """Translate IMAGE, one NVIDIA device-code image as the CUDA driver receives it, whole into
    one AMD code object, and keep it in the image cache.

    IMAGE is a fatbin (one: its header's size plus its entries' size, as cuModuleLoadData or
    __cudaRegisterFatBinary get it), a cubin, or PTX text (NUL-terminated or not). From a fatbin
    the cubin of the first architecture of sm_80, sm_86, sm_89, sm_90 it has is taken, else its
    PTX compiled with ptxas; PTX is compiled for the oldest of those architectures that runs it.

    The code object is stored as $CASS_CACHE_DIR/images/KEY.hsaco (CASS_CACHE_DIR defaults to
    ~/.cache/cass-cc), KEY being the image's key (cass_cc.images.image_key: the SHA-256 of "cass-image-v1", the translator's version,
    the AMD target and IMAGE's bytes), where libcassrt looks first; with -o it is also written
    to OUTPUT, without -o the cache file's path is printed. An image already in the cache is not
    translated again.

    Exits 0 when the code object is there, 1 when a kernel could not be translated (every such
    kernel is named, with the reasons; no code object is made for part of an image), 4 when
    IMAGE is not a fatbin, cubin or PTX, or is a damaged one, 2 on a usage error.
    """
    from .fsutil import atomic_write_bytes
    from .images import translate_cached
    from .rdna3.target import check_offload_arch
    try:
        check_offload_arch(offload_arch)
    except CassError as e:
        raise click.BadParameter(e.message, param_hint="--cass-offload-arch") from None
    try:
        data = Path(image).read_bytes()
    except OSError as e:
        raise CassError(f"cannot read '{image}': {e.strerror}") from None
    path, code, _hit = translate_cached(data, offload_arch, name or image)
    if output:
        atomic_write_bytes(output, code)
    else:
        click.echo(str(path))


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
