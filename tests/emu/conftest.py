"""Fixtures for the emulator tests: code objects built once per session, and a small device
helper (upload/download arrays, pack kernel arguments by the metadata's offsets)."""

from __future__ import annotations

import pytest

from .emu_build import KERNELS, Device, compile_hip


@pytest.fixture(scope="session")
def programs_code() -> bytes:
    return compile_hip(KERNELS / "programs.hip")


@pytest.fixture
def programs(programs_code) -> Device:
    return Device(programs_code)


@pytest.fixture(scope="session")
def programs_o0_code() -> bytes:
    """The same kernels at -O0: no inlining, everything through the stack, tail calls."""
    return compile_hip(KERNELS / "programs.hip", extra=("-O0",))
