"""`cass-cc` subcommands that are steps of cass-nvcc's build: cass-nvcc runs each in-process from
the argument list that `-v` and `--dryrun` print, and pasted into a shell they do the same. Each
step reads its own arguments (nvcc options after `--` included), so these commands take them as
they are."""

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
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="INPUT -o OUTPUT [--source FILE.cu] "
                "[--product-dir DIR] -- [NVCC_OPTIONS]")
def translate_object(arguments: list[str]) -> None:
    """Translate the NVIDIA device code of INPUT, an object or static library nvcc made, and
    write the copy OUTPUT with AMD code in its place: the step cass-nvcc runs after nvcc, as
    `cass-nvcc --dryrun` prints it.

    --source names the CUDA source INPUT came from (the hipify fallback compiles it for kernels
    the translators refuse; the report names it); --product-dir is where --cass-save-temps puts
    <stem>.cass/ (default: OUTPUT's folder). NVCC_OPTIONS, after `--`, are cass-nvcc options
    that set the translation as in a build: --cass-offload-arch, --cass-translators,
    --cass-route, --cass-report, --cass-save-temps, -I/-D/-std (for the hipify fallback).
    An object with relocatable device code (-rdc) is copied as it is: its kernels are
    translated after the device link.
    """
    from .driver.object_translation import run
    run(list(arguments))
