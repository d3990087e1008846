"""The steps around the compiler on the source route and for host files, as commands of their own:
`cass-cc hipify` (the translation unit and the user's headers into the mirror), `cass-cc unmirror`
(dependency lists and preprocessed text back to the user's paths), `cass-cc save-temps` (the
hipified files next to the product). cass-nvcc runs each in-process from the argument list that
`-v` and `--dryrun` print; everything a step needs is on its command line or in the mirror
(mirror.py), so the printed commands replay one after another.
"""

from __future__ import annotations

import os
import sys
import time

from ..errors import CassError
from ..targets import target
from .diagnostics import display_path
from .mirror import Mirror, is_user_dir, user_file
from .step_arguments import read_arguments, settings_of


# --- cass-cc hipify ---------------------------------------------------------------------------

KERNEL_ENTRY = "CASS_KERNEL_ENTRY"

def hipify(argv: list[str]) -> None:
    """`cass-cc hipify SOURCE --mirror DIR -- [NVCC_OPTIONS]`."""
    values, inputs, options = read_arguments(argv, "hipify", {"--mirror": "mirror"}, ("SOURCE", 1, 1), ("mirror",))
    settings = settings_of(options)
    source = inputs[0]
    start = time.perf_counter()
    mirror = Mirror(values["mirror"], source=source)
    user_dirs = [os.path.abspath(d) for d in settings.include_dirs if is_user_dir(d)]
    # On wave64 targets a unit whose warps wait for each other runs one warp per wave
    # (cass_wave_per_warp.h), which needs a statement first in every kernel; CUDA's thread
    # coordinates are the header's on every target (printf takes them).
    entry = KERNEL_ENTRY if any(target(a).wave_size == 64 for a in settings.offload_archs) else None
    try:
        mirror.translate_tree(source, user_dirs, entry, thread_coordinates=True)
        for inc in settings.pre_includes:
            if user_file(inc):
                mirror.translate_tree(inc, user_dirs, entry, thread_coordinates=True)
        mirror.seconds = time.perf_counter() - start
        mirror.save()
    except OSError as e:
        raise CassError(f"cannot write the mirror '{mirror.root}': {e.strerror}") from None
    if not settings.no_warnings:
        spelled = {os.path.abspath(source): source}
        sys.stderr.write("".join(f"{display_path(d.file, spelled)}:{d.line}: {d.severity}: {d.message}\n"
                                 for d in mirror.diagnostics))
    if settings.dump_after == "hipify":
        with open(mirror.path_for(source), encoding="utf-8", errors="replace") as f:
            sys.stderr.write(f"*** {source} after hipify ***\n{f.read()}\n")


# --- cass-cc unmirror -------------------------------------------------------------------------

def unmirror(argv: list[str]) -> None:
    """`cass-cc unmirror INPUT -o OUTPUT --mirror DIR` (OUTPUT `-`: standard output)."""
    values, inputs, _ = read_arguments(argv, "unmirror", {"-o": "output", "--output": "output",
                                                          "--mirror": "mirror"}, ("INPUT", 1, 1), ("output", "mirror"))
    try:
        with open(inputs[0], encoding="utf-8", errors="replace") as f:
            text = Mirror(values["mirror"]).unmirror_text(f.read())
    except OSError as e:
        raise CassError(f"cannot read '{inputs[0]}': {e.strerror}") from None
    output = values["output"]
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from ..fsutil import atomic_write_text
    if os.path.isdir(output):
        raise CassError(f"cannot write '{output}': it is a directory")
    try:
        atomic_write_text(output, text)
    except OSError as e:
        raise CassError(f"cannot write '{output}': {e.strerror}") from None


# --- cass-cc save-temps -----------------------------------------------------------------------

def save_temps(argv: list[str]) -> None:
    """`cass-cc save-temps --mirror DIR FOLDER...`: <stem>.hip and <stem>.hip-<header> in each."""
    from ..fsutil import atomic_copy
    from .plan import TranslationUnit

    values, folders, _ = read_arguments(argv, "save-temps", {"--mirror": "mirror"}, ("FOLDER", 1, None), ("mirror",))
    mirror = Mirror.load(values["mirror"])
    stem = TranslationUnit(mirror.source or "", "cu").stem
    top = mirror.path_for(mirror.source or "")
    for folder in folders:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise CassError(f"cannot make the folder '{folder}': {e.strerror}") from None
        for original, mirrored in mirror.files.items():
            name = f"{stem}.hip" if mirrored == top else f"{stem}.hip-{os.path.basename(original)}"
            try:
                atomic_copy(mirrored, os.path.join(folder, name))
            except OSError as e:
                raise CassError(f"cannot keep '{name}' in '{folder}': {e.strerror}") from None
