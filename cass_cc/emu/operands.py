"""Fetching typed source operands and writing results, for vector (k, lanes) and scalar (k,) ops."""

from __future__ import annotations

import numpy as np

from .alu.op import DTYPES
from .decode import Operand
from .fault import Unimplemented
from .state import (UNSIGNED, WIDTH, across_lanes, apply_float_mods, bits_to_type, constant_bits,
                    covers_all, read_scalar_bits, type_to_bits, write_scalar_bits)


def _width(t: str) -> int:
    if t == "pk_f32":
        return 64
    return 32 if t.startswith("pk_") else max(WIDTH[t], 16) if WIDTH[t] >= 16 else 32


def vector_bits(op: Operand, t: str):
    """A reader st, w -> (k, lanes) unsigned raw bits of the operand for type t (before modifiers).
    16-bit types read the half .h/.l selects; 8-bit types the low dword."""
    width = _width(t)
    if op.kind == "v":
        reg = op.reg
        if width == 64:
            def read(st, w):
                v = st.V[w, reg:reg + 2]
                return v[:, 0].astype(np.uint64) | (v[:, 1].astype(np.uint64) << np.uint64(32))
        elif width == 16:
            shift = np.uint32(16 if op.hi else 0)

            def read(st, w):
                return ((st.V[:, reg][w] >> shift) & np.uint32(0xFFFF)).astype(np.uint16)
        else:
            def read(st, w):
                return st.V[:, reg][w]
        return read
    if op.kind == "imm":
        bits = constant_bits(op, t)
        dtype = UNSIGNED[width]
        value = dtype(bits & ((1 << width) - 1))
        by_shape: dict[tuple[int, int], np.ndarray] = {}

        def read(st, w):        # one read-only array per shape: sources are never written
            shape = (len(w), st.lanes)
            arr = by_shape.get(shape)
            if arr is None:
                arr = by_shape[shape] = np.full(shape, value, dtype)
                arr.flags.writeable = False
            return arr
        return read
    # scalar registers, scc, apertures: uniform across lanes
    scalar_width = 64 if width == 64 else 32
    shift = 16 if (width == 16 and op.hi) else 0
    if op.kind == "s" and scalar_width == 32 and width == 32 and op.reg != 124:
        reg = op.reg
        return lambda st, w: across_lanes(st.S[:, reg][w], st.lanes)

    def read(st, w):
        bits = read_scalar_bits(st, w, op, scalar_width)
        if width == 16:
            bits = ((bits >> bits.dtype.type(shift)) & bits.dtype.type(0xFFFF)).astype(np.uint16)
        return across_lanes(bits, st.lanes)
    return read


def scalar_reader(op: Operand, t: str):
    """A reader st, w -> (k,) array of dtype(t) for a scalar source."""
    width = WIDTH[t]
    if op.kind == "imm":
        bits = constant_bits(op, t)
        dtype = np.dtype(DTYPES[t])
        value = np.array([bits & ((1 << max(width, 8)) - 1)], UNSIGNED[max(width, 8)]).view(dtype)[0]

        def read(st, w):
            return np.full(len(w), value, dtype)
        return read
    regw = 64 if width == 64 else 32
    if op.kind == "s" and regw == 32 and width == 32 and not (op.neg or op.abs) and op.reg != 124:
        reg, dtype = op.reg, np.dtype(DTYPES[t])
        return lambda st, w: st.S[:, reg][w].view(dtype)       # the common case, kept short

    def read(st, w):
        bits = read_scalar_bits(st, w, op, regw)
        bits = apply_float_mods(bits, t, op.neg, op.abs) if op.neg or op.abs else bits
        return bits_to_type(bits, t)
    return read


def scalar_writer(op: Operand, t: str):
    """A writer st, w, values -> None for a scalar destination."""
    width = 64 if WIDTH[t] == 64 else 32
    reg = op.reg
    if op.kind != "s":
        raise Unimplemented(f"scalar destination {op.name or op.kind}, which is no SGPR")

    if width == 32 and WIDTH[t] == 32 and reg != 124:
        dtype = np.dtype(DTYPES[t])

        def write_dword(st, w, values):      # the common case: a result of the type, as is
            v = np.asarray(values)
            st.S[:, reg][w] = v.view(np.uint32) if v.dtype == dtype else type_to_bits(v, t, (len(w),))
        return write_dword

    def write(st, w, values):
        bits = type_to_bits(values, t, (len(w),))
        write_scalar_bits(st, w, reg, bits.astype(UNSIGNED[width]), width)
    return write


def vector_writer(op: Operand, t: str):
    """A writer st, w, values, mask -> None for a VGPR destination, under a (k, lanes) lane mask."""
    if op.kind != "v":
        raise Unimplemented(f"vector destination {op.name or op.kind}, which is no VGPR")
    width = _width(t)
    reg = op.reg
    if width == 64:
        def write(st, w, values, mask):
            bits = type_to_bits(values, t, mask.shape).astype(np.uint64)
            old = st.V[w, reg:reg + 2]
            lo = np.where(mask, (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32), old[:, 0])
            hi = np.where(mask, (bits >> np.uint64(32)).astype(np.uint32), old[:, 1])
            st.V[w, reg] = lo
            st.V[w, reg + 1] = hi
    elif width == 16:
        shift = np.uint32(16 if op.hi else 0)
        keep = np.uint32(0x0000FFFF if op.hi else 0xFFFF0000)

        def write(st, w, values, mask):
            bits = type_to_bits(values, t, mask.shape).astype(np.uint32)
            old = st.V[:, reg][w]
            st.V[:, reg][w] = np.where(mask, (old & keep) | (bits << shift), old)
    else:
        dtype = np.dtype(DTYPES[t])
        word = dtype.itemsize == 4

        def write(st, w, values, mask):
            if type(values) is np.ndarray and values.dtype == dtype and values.shape == mask.shape and word:
                bits = values.view(np.uint32)       # a result of the type, as is
            else:
                bits = type_to_bits(values, t, mask.shape)
                if bits.dtype != np.uint32:
                    bits = bits.astype(np.uint32)
            plane = st.V[:, reg]
            plane[w] = bits if covers_all(mask) else np.where(mask, bits, plane[w])
    return write


def typed(bits: np.ndarray, t: str, neg: bool = False, abs_: bool = False) -> np.ndarray:
    if neg or abs_:
        bits = apply_float_mods(bits, t, neg, abs_)
    return bits_to_type(bits, t)

