"""`cass-cc` subcommands that are steps of cass-nvcc's build: translate-object on the binary
route; hipify, unmirror, save-temps, report and warp-waits on the source route and for host files. cass-nvcc
runs each in-process from the argument list that `-v` and `--dryrun` print, and pasted into a
shell they do the same. Each step reads its own arguments (nvcc options after `--` included), so
these commands take them as they are."""

from __future__ import annotations

import click


class RawArguments(click.Command):
    """A command that takes its arguments as they are, `--` included (click drops it), for a
    parser of its own; --help stays click's."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args[:1] in (["-h"], ["--help"]):
            return super().parse_args(ctx, args)
        ctx.params["arguments"] = list(args)
        return []


@click.command("translate-object", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="INPUT -o OUTPUT [--source FILE.cu "
                "[--language cu|c|c++]] [--product-dir DIR] -- [NVCC_OPTIONS]")
def translate_object(arguments: list[str]) -> None:
    """Translate the NVIDIA device code of INPUT, an object or static library nvcc made, and
    write the copy OUTPUT with AMD code in its place: the step cass-nvcc runs after nvcc, as
    `cass-nvcc --dryrun` prints it.

    --source names the CUDA source INPUT came from (the hipify fallback compiles it for kernels
    the translators refuse; the report names it); --language is its language when the suffix
    does not say it (a .cpp file built with -x cu); --product-dir is where --cass-save-temps puts
    <stem>.cass/ (default: OUTPUT's folder). NVCC_OPTIONS, after `--`, are cass-nvcc options
    that set the translation as in a build: --cass-offload-arch, --cass-translators,
    --cass-route, --cass-report, --cass-save-temps, -I/-D/-std (for the hipify fallback).
    An object with relocatable device code (-rdc) is copied as it is: its kernels are
    translated after the device link.
    """
    from .driver.object_translation import run
    run(list(arguments))


@click.command("hipify", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED,
                metavar="SOURCE --mirror DIR -- [NVCC_OPTIONS]")
def hipify(arguments: list[str]) -> None:
    """Translate the CUDA file SOURCE and the user's headers it includes to HIP, into the mirror
    folder DIR: each file at its absolute path below DIR, so relative includes resolve as in the
    user's tree. The first step of a compile on the source route and of a .c/.cpp compile, as
    `cass-nvcc --dryrun` prints it.

    DIR also gets cass-compat.h (the compatibility headers hipify asked for, possibly none: the
    compiler that follows takes `-include DIR/cass-compat.h`) and cass-manifest.json (the
    mirrored files, hipify's diagnostics and its time), which `cass-cc unmirror`, `cass-cc
    save-temps` and `cass-cc report` read. What hipify could not translate is printed as
    `file:line: warning: ...` about the user's files.

    NVCC_OPTIONS, after `--`, are the build's cass-nvcc options: -I (user folders are hipified),
    -include (a user's file is hipified), -w (no warnings), --cass-dump-after=hipify (print the
    hipified SOURCE).
    """
    from .driver.mirror_steps import hipify as run
    run(list(arguments))


@click.command("unmirror", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="INPUT -o OUTPUT --mirror DIR")
def unmirror(arguments: list[str]) -> None:
    """Copy INPUT, text a compiler wrote from the mirror DIR (a dependency list of -M/-MD, or
    preprocessed source of -E), to OUTPUT with the user's paths in place of the mirrored ones:
    relative below the current folder, else absolute. The wrapper DIR/cass-compat.h is left out
    of dependency lists and is named `<command line>` in preprocessed text. OUTPUT `-` is the
    standard output. A step of cass-nvcc's -M/-E/-MD builds, as `cass-nvcc --dryrun` prints it;
    run it in the folder the build ran in.
    """
    from .driver.mirror_steps import unmirror as run
    run(list(arguments))


@click.command("save-temps", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="--mirror DIR FOLDER...")
def save_temps(arguments: list[str]) -> None:
    """Copy the hipified files of the mirror DIR (written by `cass-cc hipify`) into each FOLDER,
    made if missing: the translation unit as <stem>.hip, each user header it includes as
    <stem>.hip-<header name>. The step of --cass-save-temps (FOLDER: the product's folder) and
    --keep/--keep-dir on the source route, as `cass-nvcc --dryrun` prints it.
    """
    from .driver.mirror_steps import save_temps as run
    run(list(arguments))


@click.command("report", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="OBJECT --mirror DIR -- [NVCC_OPTIONS]")
def report(arguments: list[str]) -> None:
    """Write the translation report of OBJECT, an object hipcc compiled from the mirror DIR
    (`cass-cc hipify` wrote it): the kernels read back from the object's code objects (tier
    hipify), hipify's diagnostics and its time. The report step of a source-route compile, as
    `cass-nvcc --dryrun` prints it.

    NVCC_OPTIONS, after `--`, are the build's cass-nvcc options: --cass-report=FILE names the
    report file, --cass-offload-arch and -arch/-gencode are recorded in it. The report also goes
    into $CASS_REPORT_DIR when that is set; one of the two is needed.
    """
    from .driver.source_route import report as run
    run(list(arguments))


@click.command("warp-waits", cls=RawArguments, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED,
                metavar="SOURCE --mirror DIR --header FILE --symbols FILE [--language cu] -- [NVCC_OPTIONS]")
def warp_waits(arguments: list[str]) -> None:
    """Tell whether the warps of SOURCE's kernels wait for each other on the 64-lane-wave targets
    of the build (--cass-offload-arch after `--`), from the SASS nvcc compiles with the build's
    options, as the lifter tells it. The step before a source-route compile for such a target, as
    `cass-nvcc --dryrun` prints it.

    Writes the header the compile includes (--header: CASS_WAVE_PER_WARP and the kernels and
    reasons, when a kernel's warps wait: the unit then runs one CUDA warp per wave) and the
    llvm-objcopy --redefine-syms map for the compiled object (--symbols: its kernel launches and,
    for such a unit, its kernel registrations, renamed to cass_wave_per_warp.c's). Every kernel of
    such a unit must have the entry statement `cass-cc hipify` wrote into the mirror DIR (--mirror);
    one without it (a kernel defined through a macro) is an error, and so is -rdc.
    """
    from .driver.warp_waits import step as run
    run(list(arguments))
