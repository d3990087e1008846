"""Barriers beyond __syncthreads (cass_cc/passes/lift/barrier.py): named barriers with thread counts,
arrive-only warps, barrier reductions with ids in registers, sm_90's cluster barrier, each lifted
from nvcc's SASS and run on the emulator (whose scheduler runs the lowest pc first: the spin sits
after the kernel so producers get to run)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import BUILDS, code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
# A cluster launch makes c[0x0][0x140] 1; the lifter reads 0 (no clusters) and the SASS then takes
# BAR.SYNC: reading 1 instead runs the UCGABAR_ARV/WAIT path on the software barrier.
CLUSTER_LAUNCH = [(r"LDC R(\d+), c\[0x0\]\[0x140\]", r"MOV R\1, 0x1")]


@pytest.fixture(scope="module", params=BUILDS)
def lifted(request, tmp_path_factory):
    sm, offload_arch = request.param
    edits = {"cluster": CLUSTER_LAUNCH} if sm == "sm_90" else None
    return code_objects(HERE / "barrier_kernels.cu", sm, tmp_path_factory.mktemp("bar"), edits, offload_arch)


def test_producer_consumer_on_named_barriers(lifted):
    """BAR.ARV 1/2 by the producers, BAR.SYNC 1/2, 0x80 by the consumers, several rounds, three
    blocks at once."""
    dev = Device(lifted["pipeline"])
    rounds, blocks = 5, 3
    rng = np.random.default_rng(3)
    a = rng.integers(-50, 50, blocks * rounds * 64).astype(np.int32)
    po = dev.put(np.zeros(blocks * 64, np.int32))
    dev.launch("pipeline", blocks, 128, "<QQi", dev.put(a), po, rounds)
    got = dev.get(po, np.zeros(blocks * 64, np.int32))
    want = np.zeros((blocks, 64), np.int64)
    for r in range(rounds):
        tile = a.reshape(blocks, rounds, 64)[:, r, :]
        want = want * 3 + tile[:, ::-1]
    assert got.tolist() == want.astype(np.int32).ravel().tolist()


@pytest.mark.parametrize("ident", [0, 5, 15])
def test_reduction_on_a_counted_barrier_from_registers(lifted, ident):
    """`BAR.RED.POPC R6, R6, P0`: id and count packed in one register; only warps 2-3 take part,
    id 0 included (a count makes it the software barrier, not s_barrier)."""
    dev = Device(lifted["counted"])
    rng = np.random.default_rng(ident)
    a = rng.integers(-3, 3, 256).astype(np.int32)
    po = dev.put(np.zeros(256, np.int32))
    dev.launch("counted", 2, 128, "<QQii", dev.put(a), po, ident, 64)
    got = dev.get(po, np.zeros(256, np.int32)).reshape(2, 128)
    for blk in range(2):
        count = int((a[blk * 128 + 64: blk * 128 + 128] > 0).sum())
        assert got[blk].tolist() == [-1] * 64 + [count] * 64


def test_cluster_barrier_of_one_block(lifted):
    dev = Device(lifted["cluster"])
    a = np.arange(256, dtype=np.int32) * 7 - 100
    po = dev.put(np.zeros(256, np.int32))
    dev.launch("cluster", 2, 128, "<QQ", dev.put(a), po)
    got = dev.get(po, np.zeros(256, np.int32)).reshape(2, 128)
    for blk in range(2):
        v = a[blk * 128: blk * 128 + 128][::-1] * 2
        assert got[blk].tolist() == [int(v[(t + 1) % 128]) for t in range(128)]


def test_named_barrier_code_layout(lifted, tmp_path):
    """The spin loop is a function after the kernel in the code object (the emulator, and any
    scheduler favouring low addresses, then runs the arriving waves first)."""
    import subprocess

    from cass_cc import toolchain
    path = tmp_path / "k.hsaco"
    path.write_bytes(lifted["pipeline"])
    symbols = subprocess.run([toolchain.path("llvm-objdump"), "-t", str(path)], capture_output=True,
                             text=True, check=True).stdout
    address = {line.split()[-1]: int(line.split()[0], 16) for line in symbols.splitlines()
               if line.split() and line.split()[-1] in ("pipeline", "cass.barrier.wait")}
    assert address["cass.barrier.wait"] > address["pipeline"]


def test_arrive_without_a_count_is_refused():
    from cass_cc.errors import Refusal
    from cass_cc.sass.parser import parse_sass
    from cass_cc.unit import KernelUnit
    import cass_cc.passes.lift as lift
    unit = KernelUnit(name="k", sm_arch="sm_80")
    unit.instructions = parse_sass("""        /*0000*/                   BAR.ARV R4 ;
        /*0010*/                   EXIT ;
""").instructions
    with pytest.raises(Refusal, match=r"BAR\.ARV at 0x0: .*arrive without a thread count"):
        lift.run(unit)


def test_barriers_with_one_register_operand(lifted):
    dev = Device(lifted["one_register"])
    a = np.arange(256, dtype=np.int32) * 5 + 1
    po = dev.put(np.zeros(256, np.int32))
    dev.launch("one_register", 2, 128, "<QQii", dev.put(a), po, 2, 64)
    got = dev.get(po, np.zeros(256, np.int32)).tolist()
    assert got == [int(a[b * 128 + (t & 64) + 63 - (t & 63)]) for b in range(2) for t in range(128)]


@pytest.mark.parametrize("block", [128, 96])
def test_whole_block_counts_are_s_barrier(lifted, block):
    """A count equal to the block (96: the last warp partly full, counted as 32 as NVIDIA does)
    runs s_barrier: the emulator executes no software-barrier arrival (ds_add_rtn_u32 on its count)
    and no spin (s_sleep); the reduction is BAR.RED 0's, one LDS add per lane between s_barriers."""
    from cass_cc.emu import launch
    import struct
    dev = Device(lifted["whole_block"])
    blocks = 2
    a = (np.arange(blocks * block, dtype=np.int32) * 5 % 23) - 11
    po = dev.put(np.zeros(blocks * block, np.int32))
    stats = launch(dev.co, "whole_block", grid=(blocks, 1, 1), block=(block, 1, 1),
                   kernarg=struct.pack("<QQ", dev.put(a), po), memory=dev.mem)
    got = dev.get(po, np.zeros(blocks * block, np.int32)).reshape(blocks, block)
    for blk in range(blocks):
        x = a[blk * block:(blk + 1) * block]
        v = np.roll(x, -1)
        assert got[blk].tolist() == (2 * np.roll(v, -2) + 1000 * int((v > 0).sum())).tolist()
    counts = stats.opcode_counts
    assert counts.get("s_barrier", 0) > 0
    assert not counts.get("s_sleep") and not counts.get("ds_add_rtn_u32"), counts
