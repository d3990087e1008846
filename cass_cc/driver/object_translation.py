"""`cass-cc translate-object`: the binary route's translate step as a command of its own. It takes
an object or static library that nvcc made and writes a copy whose NVIDIA device code is replaced
by AMD code: every kernel's SASS translated (binary_kernels), the code objects bundled into the
object's `.nv_fatbin` (binary_embed), the report written.

cass-nvcc runs it in-process, from the very argument list it prints for `-v` and `--dryrun`, so a
printed build replays: `cass-cc translate-object IN -o OUT [--source X.cu] [--product-dir D] --
<nvcc options>`. The nvcc options after `--` give it the build's settings (offload archs,
translators, route, report, the include folders and macros the hipify fallback compiles with).
The module imports little at first: the job is made before a compile's nvcc starts.

What the input holds decides what happens (nvidia_objects): an executable fatbin is translated;
relocatable device code (-rdc) is left for the device link, which translates its product, and the
report says so; a static library has each member nvcc made translated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from ..ar import is_archive, read_members
from ..errors import CassError, ToolMissing
from ..fsutil import atomic_copy, atomic_write_bytes
from .jobs import Job
from .plan import X_LANGUAGES, TranslationUnit, language_of
from .settings import Settings
from .step_arguments import read_arguments, settings_of

PROG = ["cass-cc", "translate-object"]
NO_FALLBACK_ROUTE = "--cass-route=binary allows no hipify fallback; --cass-route=auto does"
NO_FALLBACK_OBJECT = "the object was made by nvcc: without its source there is no hipify fallback"
NO_FALLBACK_DEVICE_LINK = ("relocatable device code is translated after nvcc's device link, where no "
                           "source is left for a hipify fallback (--cass-route=source builds it with hipcc)")
DEFERRED = "relocatable device code: the kernels are translated at the device link, when the program is linked"


def fallback_refusal(settings: Settings, source: TranslationUnit | None, device_link_product: bool) -> str | None:
    """Why kernels the translators refuse may not come from the hipify fallback (None: they may):
    the fallback needs the source, and an explicit --cass-route=binary asks for SASS translation
    or an error."""
    if source is None:
        return NO_FALLBACK_DEVICE_LINK if device_link_product else NO_FALLBACK_OBJECT
    return NO_FALLBACK_ROUTE if settings.route == "binary" else None


def translate_job(input_path: str, output: str, settings: Settings, source: TranslationUnit | None = None,
                  product_dir: str | None = None, early: object = None) -> Job:
    """The step as a job, run in-process from the argument list it prints. `early` is
    binary_compile's EarlyTranslation of the same compile, used when it read the cubins that are
    in `input_path` (a speed-up only: the command alone gives the same object)."""
    argv = [*PROG, input_path, "-o", output]
    if source is not None:
        # the language too: `-x cu` makes a .cpp file CUDA, which its suffix does not say
        argv += ["--source", source.source, "--language", source.language]
    if product_dir is not None and settings.save_temps:
        argv += ["--product-dir", product_dir]
    argv += ["--", *settings.step_options]
    return Job(argv, lambda: run(argv[len(PROG):], early), label="translate")


def run(argv: list[str], early: object = None) -> None:
    """Run the step from its command line (cass-cc translate-object and the build's own job)."""
    names = {"-o": "output", "--output": "output", "--source": "source", "--language": "language",
             "--product-dir": "product_dir"}
    values, inputs, options = read_arguments(argv, "translate-object", names, ("INPUT", 1, 1), ("output",))
    settings = settings_of(options)
    source = values.get("source")
    language = values.get("language") or language_of(source or "") or "cu"
    if language not in X_LANGUAGES:
        raise CassError(f"translate-object: --language must be one of {', '.join(X_LANGUAGES)}, not '{language}'")
    tu = TranslationUnit(source, language) if source else None
    work = tempfile.mkdtemp(prefix="translate-object-")
    try:
        translate_object(inputs[0], values["output"], settings, tu, work, values.get("product_dir"), early)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def translate_object(input_path: str, output: str, settings: Settings, source: TranslationUnit | None, work: str,
                     product_dir: str | None = None, early: object = None) -> None:
    """Write `input_path` with AMD code in place of its NVIDIA device code to `output`; `source`
    is the translation unit it came from (None: an object or library nvcc made elsewhere)."""
    from .nvidia_objects import object_code   # pyelftools and the fatbin reader: once it runs

    if os.path.isdir(output):
        raise CassError(f"cannot write '{output}': it is a directory")
    try:
        with open(input_path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CassError(f"cannot read '{input_path}': {e.strerror}") from None
    if is_archive(data):
        _translate_archive(input_path, output, settings, work)
        return
    code = object_code(data, input_path)
    if code.relocatable:
        atomic_copy(input_path, output)
        if source is not None:
            _report(source.source, settings, diagnostics=[DEFERRED]).write(settings.report_path)
        return
    if source is None and not code.nvidia:
        atomic_copy(input_path, output)
        return
    _translate_nvidia_object(input_path, output, settings, source, work, product_dir, early,
                             fallback_refusal(settings, source, code.device_link_product))


def _report(source: str, settings: Settings, diagnostics: list[str], kernels: list[dict] | None = None):
    from ..report import Report

    return Report(source=source, route="binary", offload_arch=",".join(settings.offload_archs),
                  kernels=kernels or [], nvidia_targets=settings.nvidia_targets,
                  diagnostics=diagnostics + [f"recorded: {r}" for r in settings.recorded])


def _translate_nvidia_object(host_obj: str, output: str, settings: Settings, tu: TranslationUnit | None,
                             work: str, product_dir: str | None, early, no_fallback: str | None) -> None:
    from .binary_embed import bundle, embed
    from .binary_kernels import code_for_tu

    code = early.result(host_obj) if early is not None else None
    if code is None:
        from cass_cc.passes import units_from_file  # the passes' front end: binary route only
        code = code_for_tu(tu, units_from_file(host_obj, settings.offload_arch), settings, work, no_fallback)
    report = _report(tu.source if tu else host_obj, settings, code.diagnostics, code.kernels)
    code_objects = code.code_objects
    if settings.embed_reference:
        from .reference import reference_code_objects
        references, notes = reference_code_objects(tu, code.code_objects, settings, work)
        code_objects, report.diagnostics = code_objects + references, report.diagnostics + notes
    embed(host_obj, bundle(code_objects), output)
    report.write(settings.report_path)
    if not settings.no_warnings:
        sys.stderr.write("".join(f"cass-nvcc: warning: {w}\n" for w in code.fallback_warnings()))
    if tu is not None:
        _save_temps(tu, host_obj, code, settings, product_dir or os.path.dirname(os.path.abspath(output)))


def _save_temps(tu: TranslationUnit, host_obj: str, code, settings: Settings, product_dir: str) -> None:
    """--cass-save-temps/--keep: nvcc's object and, per kernel, its SASS, LLVM IR, RDNA3 assembly
    and object, with the TU's code objects and report, in <stem>.cass/."""
    folders = ([product_dir] if settings.save_temps else []) + ([settings.keep_dir] if settings.keep_dir else [])
    if not folders:
        return
    from ..translation import write_outputs

    for folder in folders:
        out = os.path.join(folder, f"{tu.stem}.cass")
        write_outputs(code.units, out, tu.source, settings.offload_arch,
                      [c.data for c in code.code_objects if c.offload_arch == settings.offload_arch],
                      code.diagnostics)
        atomic_copy(host_obj, os.path.join(out, f"{tu.stem}.nvcc.o"))


def _translate_archive(archive: str, output: str, settings: Settings, work: str) -> None:
    """A copy of a static library whose members that nvcc made carry translated code; members
    keep their names and order (the same name twice included)."""
    from .nvidia_objects import object_code

    members = read_members(archive)
    folder = tempfile.mkdtemp(prefix="members-", dir=work)
    paths = []
    for n, member in enumerate(members):
        sub = os.path.join(folder, str(n))
        os.mkdir(sub)
        path = os.path.join(sub, member.name)
        atomic_write_bytes(path, member.data)
        code = object_code(member.data, f"{archive}({member.name})")
        if code.nvidia:
            _translate_nvidia_object(path, path, settings, None, work, None, None,
                                     fallback_refusal(settings, None, code.device_link_product))
        paths.append(path)
    ar = settings.arbin or shutil.which("ar")
    if not ar:
        raise ToolMissing("no archiver (ar) found: apt-get install binutils, or give -arbin")
    tmp = os.path.join(work, os.path.basename(output))
    proc = subprocess.run([ar, "qcs", tmp, *paths], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"cannot write the library '{output}': {proc.stderr.strip()}")
    atomic_copy(tmp, output)
