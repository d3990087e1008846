"""v_cmp/v_cmpx against Python's own IEEE comparisons (NaN compares false), signed versus
unsigned integer compares, and v_cmp_class on every class."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from alu_reference import call, int_columns
from cass_cc.emu.alu import VECTOR_OPS

VALUES = [-math.inf, -2.0, -0.0, 0.0, 1e-40, 1.0, 2.0, math.inf, math.nan]
PAIRS = list(itertools.product(VALUES, VALUES))

FLOAT_PREDICATES = {
    "f": lambda a, b: False, "lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b, "lg": lambda a, b: a < b or a > b, "ge": lambda a, b: a >= b,
    "o": lambda a, b: not (math.isnan(a) or math.isnan(b)), "u": lambda a, b: math.isnan(a) or math.isnan(b),
    "nge": lambda a, b: not a >= b, "nlg": lambda a, b: not (a < b or a > b), "ngt": lambda a, b: not a > b,
    "nle": lambda a, b: not a <= b, "neq": lambda a, b: not a == b, "nlt": lambda a, b: not a < b,
    "t": lambda a, b: True,
}


@pytest.mark.parametrize("typ", ["f16", "f32", "f64"])
@pytest.mark.parametrize("pred", sorted(FLOAT_PREDICATES))
def test_float_compares(pred, typ):
    a, b = zip(*PAIRS)
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[typ]
    a_t, b_t = [float(dtype(x)) for x in a], [float(dtype(x)) for x in b]
    want = [FLOAT_PREDICATES[pred](x, y) for x, y in zip(a_t, b_t)]
    for prefix in ("v_cmp", "v_cmpx"):
        got = call(f"{prefix}_{pred}_{typ}", a, b)
        assert got.dtype == bool and list(got) == want, (prefix, pred, typ)
    assert "cmpx" in VECTOR_OPS[f"v_cmpx_{pred}_{typ}"].flags


INT_PREDICATES = {"lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "le": lambda a, b: a <= b,
                  "gt": lambda a, b: a > b, "ne": lambda a, b: a != b, "ge": lambda a, b: a >= b}


@pytest.mark.parametrize("typ", ["i16", "u16", "i32", "u32", "i64", "u64"])
@pytest.mark.parametrize("pred", sorted(INT_PREDICATES))
def test_integer_compares(pred, typ):
    a, b = int_columns((typ, typ), n=120, seed=4)
    assert list(call(f"v_cmp_{pred}_{typ}", a, b)) == [INT_PREDICATES[pred](x, y) for x, y in zip(a, b)]


def test_signed_and_unsigned_differ_on_the_sign_bit():
    assert list(call("v_cmp_lt_i32", [-1], [0])) == [True]
    assert list(call("v_cmp_lt_u32", [0xFFFFFFFF], [0])) == [False]
    assert list(call("v_cmp_gt_u64", [2**63], [1])) == [True]
    assert list(call("v_cmp_gt_i64", [-2**63], [1])) == [False]


CLASS_SAMPLES = [  # (f32 bits, class bit)
    (0x7FA00000, 0), (0x7FC00000, 1), (0xFF800000, 2), (0xBF800000, 3), (0x80000001, 4),
    (0x80000000, 5), (0x00000000, 6), (0x00000001, 7), (0x3F800000, 8), (0x7F800000, 9),
]


@pytest.mark.parametrize("prefix", ["v_cmp", "v_cmpx"])
def test_class_f32_every_class(prefix):
    xs = np.array([b for b, _ in CLASS_SAMPLES], np.uint32).view(np.float32)
    for _, bit in CLASS_SAMPLES:
        got = call(f"{prefix}_class_f32", xs, [1 << bit] * len(xs))
        assert [i for i, g in enumerate(got) if g] == [bit], bit
    assert all(call(f"{prefix}_class_f32", xs, [0x3FF] * len(xs)))


def test_class_f16_and_f64():
    h = np.array([0x0001, 0x7E00, 0xFC00], np.uint16).view(np.float16)
    assert list(call("v_cmp_class_f16", h, [1 << 7, 1 << 1, 1 << 2])) == [True, True, True]
    d = np.array([0x8000000000000001, 0x7FF0000000000000], np.uint64).view(np.float64)
    assert list(call("v_cmp_class_f64", d, [1 << 4, 1 << 8])) == [True, False]
