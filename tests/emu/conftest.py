"""Fixtures for the emulator tests: code objects built once per session, and a small device
helper (upload/download arrays, pack kernel arguments by the metadata's offsets)."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from cass_cc.emu import CodeObject, Memory, launch

from .emu_build import compile_hip

KERNELS = Path(__file__).resolve().parent / "kernels"


class Device:
    """An emulated device: Memory plus helpers tests use to move arrays and launch kernels."""

    def __init__(self, code: bytes):
        self.mem = Memory()
        self.co = CodeObject.load(code, self.mem)

    def upload(self, array: np.ndarray) -> int:
        raw = np.ascontiguousarray(array).view(np.uint8).reshape(-1)
        addr = self.mem.allocate(raw.size)
        self.mem.view(addr, raw.size)[:] = raw
        return addr

    def zeros(self, count: int, dtype) -> int:
        return self.mem.allocate(count * np.dtype(dtype).itemsize)

    def download(self, addr: int, count: int, dtype) -> np.ndarray:
        return self.mem.view(addr, count * np.dtype(dtype).itemsize).view(dtype).copy()

    def args(self, kernel: str, *values) -> bytes:
        """Explicit arguments packed at the offsets the kernel's metadata gives."""
        info = self.co.kernels[kernel]
        explicit = [a for a in info.args if not a.value_kind.startswith("hidden_")]
        assert len(explicit) == len(values), [a.value_kind for a in explicit]
        out = bytearray(max((a.offset + a.size for a in explicit), default=0))
        for arg, value in zip(explicit, values):
            if isinstance(value, float):
                raw = struct.pack("<d" if arg.size == 8 else "<f", value)
            else:
                raw = int(value).to_bytes(arg.size, "little", signed=int(value) < 0)
            out[arg.offset:arg.offset + arg.size] = raw
        return bytes(out)

    def run(self, kernel: str, grid, block, *values, **kw):
        return launch(self.co, kernel, grid, block, self.args(kernel, *values), memory=self.mem, **kw)


@pytest.fixture(scope="session")
def programs_code() -> bytes:
    return compile_hip(KERNELS / "programs.hip")


@pytest.fixture
def programs(programs_code) -> Device:
    return Device(programs_code)
