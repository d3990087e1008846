"""`cass-cc`: the project's tool for everything that is not a drop-in compiler or runner."""

from __future__ import annotations

import importlib

import click

from . import __version__, command

# Subcommand -> "module:attribute" of a click command; imported only when used, so
# `cass-cc doctor` works even when a heavy dependency of another subcommand is missing.
SUBCOMMANDS = {
    "doctor": "cass_cc.doctor:doctor",
    "env": "cass_cc.runtime.environment:env_command",
    "toolchain-file": "cass_cc.driver.cmake:toolchain_file",
    "extract": "cass_cc.translate:extract",
    "translate": "cass_cc.translate:translate",
    "translate-image": "cass_cc.translate:translate_image_command",
    "translate-object": "cass_cc.steps:translate_object",
    "hipify": "cass_cc.steps:hipify",
    "unmirror": "cass_cc.steps:unmirror",
    "save-temps": "cass_cc.steps:save_temps",
    "report": "cass_cc.steps:report",
    "warp-waits": "cass_cc.steps:warp_waits",
    "bench": "cass_cc.bench.cli:bench",
    "dataset": "cass_cc.dataset.cli:dataset",
}


def subcommand(name: str) -> click.Command | None:
    """The click command of `cass-cc <name>` (None: there is none), imported now."""
    target = SUBCOMMANDS.get(name)
    if target is None:
        return None
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return subcommand(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cass-cc")
def cli() -> None:
    """cass-cc: CUDA programs for AMD GPUs.

    The compiler itself is cass-nvcc (a drop-in nvcc) and programs run with cass-run; this tool
    checks the installation, translates and inspects binaries, prints the environment for
    running CUDA programs without cass-run, and runs the benchmark.
    """


def main(argv: list[str] | None = None) -> int:
    return command.run(cli, argv, "cass-cc")
