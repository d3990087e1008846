"""cp.async with a run-time src-size (LDGSTS.ZFILL, cass_cc/passes/lift/memory.py): the first src-size
bytes copied, the rest of the 4 or 16 bytes zeroed, src-size 0 reading nothing; lifted from nvcc's
sm_80 SASS and run on the emulator."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return code_objects(HERE / "async_copy_kernels.cu", "sm_80", tmp_path_factory.mktemp("zfill"))


@pytest.mark.parametrize("name, width, n", [("zfill4", 4, 0), ("zfill4", 4, 3), ("zfill4", 4, 4),
                                            ("zfill16", 16, 0), ("zfill16", 16, 7), ("zfill16", 16, 16)])
def test_src_size_copies_and_zero_fills(lifted, name, width, n):
    dev = Device(lifted[name])
    src = (np.arange(64 * width) * 37 + 5).astype(np.uint8)
    po = dev.put(np.zeros(64 * width, np.uint8))
    dev.launch(name, 1, 64, "<QQi", dev.put(src), po, n)
    got = dev.get(po, np.zeros(64 * width, np.uint8)).reshape(64, width)
    want = src.reshape(64, width)[::-1].copy()
    want[:, n:] = 0
    assert got.tolist() == want.tolist()
