"""The calling convention of op.py holds for every entry: each fn accepts arrays of its
source types shaped (waves, 32) (vector) or (waves,) (scalar), with the extras its flags
name, and returns the destination type (or bools for compares, tuples for carry/SCC outs)
in the same shape."""
from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.alu import DTYPES, FLAGS, SCALAR_OPS, VECTOR_OPS, Op

EXTRAS = {"carry_in": "carry", "mask_in": "mask", "vcc_in": "vcc", "scc_in": "scc"}


def random_operand(t: str, shape, rng) -> np.ndarray:
    dtype = np.dtype(DTYPES[t])
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    return rng.integers(0, 2 ** (8 * dtype.itemsize), shape, dtype=np.uint64).astype(dtype.str.replace("i", "u")).view(dtype)


def check(name: str, o: Op, shape):
    rng = np.random.default_rng(len(name))
    args = [random_operand(t, shape, rng) for t in o.srcs]
    kwargs = {EXTRAS[f]: rng.random(shape) < 0.5 for f in o.flags if f in EXTRAS}
    if "lane_id" in o.flags:
        kwargs["lane"] = np.broadcast_to(np.arange(32, dtype=np.uint32), shape)
    if "clamp_aware" in o.flags:
        kwargs["clamp"] = True
    if "iu_signed" in o.flags:
        kwargs["signed"] = (True, False)
    if "rounding" in o.flags:
        kwargs["round"] = 3
    out = o.fn(*args, **kwargs)
    if {"carry_out", "scc_out"} & o.flags:
        assert isinstance(out, tuple) and len(out) == 2, name
        out, flag = out
        assert np.asarray(flag).dtype == bool and np.shape(flag) == shape, name
    if "cmp" in o.flags:
        assert o.dst is None and np.asarray(out).dtype == bool and np.shape(out) == shape, name
        return
    assert np.asarray(out).dtype == np.dtype(DTYPES[o.dst]), (name, np.asarray(out).dtype, o.dst)
    assert np.shape(out) == shape, (name, np.shape(out))


@pytest.mark.parametrize("name", sorted(VECTOR_OPS))
def test_vector_op_contract(name):
    o = VECTOR_OPS[name]
    assert o.flags <= FLAGS
    for waves in (1, 3):
        check(name, o, (waves, 32))


@pytest.mark.parametrize("name", sorted(SCALAR_OPS))
def test_scalar_op_contract(name):
    o = SCALAR_OPS[name]
    for waves in (1, 4):
        check(name, o, (waves,))
