"""check_compare: element types from kernel signatures, and comparing one region of memory
(exact for integers and bytes, within rtol/atol for floats, every tolerated element counted)."""

from __future__ import annotations

import numpy as np

from cass_cc.runtime.emulated.check_compare import (ElementType, View, compare, demangle, element_type,
                                                    parameter_spellings)

FLOAT = ElementType("float", "f4", 1)


def _bytes(values, dtype) -> np.ndarray:
    return np.array(values, dtype).view(np.uint8).copy()


def test_parameters_of_demangled_names():
    assert parameter_spellings("saxpy(float, float const*, float*, int)") == ["float", "float const*", "float*", "int"]
    assert parameter_spellings("void k<float, 4>(Pair<int, float>*, float4*)") == ["Pair<int, float>*", "float4*"]
    assert parameter_spellings("noargs()") == []
    assert parameter_spellings("_Z_not_a_signature") is None


def test_demangle_with_cxxfilt():
    assert demangle("_Z7pairMaxPKiS0_Pii") == "pairMax(int const*, int const*, int*, int)"
    assert demangle("plain_c_kernel") == "plain_c_kernel"


def test_element_types():
    assert element_type("float const*") == FLOAT
    assert element_type("unsigned int*") == ElementType("unsigned int", "u4", 1)
    assert element_type("float4*") == ElementType("float4", "f4", 4)
    assert element_type("__half*").floating
    assert element_type("int") is None             # not a pointer
    assert element_type("float**") is None         # a pointer to pointers: bytes
    assert element_type("Pair<int, float>*") is None


def test_integers_compare_exactly_with_index_and_values():
    a, b = _bytes([1, 2, 3, 4], "i4"), _bytes([1, 2, 7, 4], "i4")
    out = compare(a, b, View("argument 1 (int*)", ElementType("int", "i4", 1)), 1e-5, 1e-8)
    assert out.differing == 1
    assert out.difference == "element [2] (int, byte offset 8): translated 3, reference 7"


def test_floats_within_tolerance_are_counted_not_hidden():
    ref = [1.0, 2.0, 3.0, float("nan")]
    near = [1.0, 2.0 * (1 + 1e-6), 3.0, float("nan")]
    out = compare(_bytes(near, "f4"), _bytes(ref, "f4"), View("y", FLOAT), 1e-5, 1e-8)
    assert out.difference is None and out.tolerated == 1 and 0 < out.max_relative < 1e-5
    far = [1.0, 2.0, 3.5, float("nan")]
    out = compare(_bytes(far, "f4"), _bytes(ref, "f4"), View("y", FLOAT), 1e-5, 1e-8)
    assert out.difference == "element [2] (float, byte offset 8): translated 3.5, reference 3.0"
    exact = compare(_bytes(near, "f4"), _bytes(ref, "f4"), View("y", FLOAT), 0.0, 0.0)
    assert exact.difference.startswith("element [1] (float, byte offset 4)")


def test_vector_components_and_untyped_bytes():
    a, b = _bytes([0, 0, 0, 0, 1, 2, 3, 4], "f4"), _bytes([0, 0, 0, 0, 1, 2, 9, 4], "f4")
    out = compare(a, b, View("v", ElementType("float4", "f4", 4)), 1e-5, 1e-8)
    assert out.difference == "element [1].z (float4, byte offset 16): translated 3.0, reference 9.0"
    out = compare(a, b, View("struct"), 1e-5, 1e-8)  # 3.0f is 00 00 40 40, 9.0f 00 00 10 41
    assert out.difference.startswith("byte offset 26 from the buffer's start: translated 0x40, reference 0x10")


def test_typed_view_from_an_offset_compares_the_bytes_before_it_exactly():
    a = _bytes([5, 1, 2], "i4")
    b = _bytes([6, 1, 2], "i4")
    out = compare(a, b, View("argument 0 (float*) at +4", FLOAT, start=4), 1e-5, 1e-8)
    assert out.difference.startswith("byte offset 0 from the buffer's start: translated 0x05, reference 0x06")
