"""`cass-cc toolchain-file`: where the CMake toolchain file that selects cass-nvcc lives."""

from __future__ import annotations

import os

import click

TOOLCHAIN_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cass.cmake")


@click.command("toolchain-file")
def toolchain_file() -> None:
    """Print the path of cass-cc's CMake toolchain file.

    \b
    Use it as
        cmake -DCMAKE_TOOLCHAIN_FILE=$(cass-cc toolchain-file) -S . -B build
    so the project's CUDA code is compiled by cass-nvcc for AMD GPUs.
    """
    click.echo(TOOLCHAIN_FILE)
