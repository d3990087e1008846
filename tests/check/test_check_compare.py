"""check_compare: element types from kernel signatures, and comparing one region of memory
(exact for integers and bytes, within rtol/atol for floats, every tolerated element counted)."""

from __future__ import annotations

import numpy as np

from cass_cc.runtime.emulated.check_compare import ElementType, View, compare, element_type, parameter_spellings

FLOAT = ElementType("float", "f4", 1)


def _bytes(values, dtype) -> np.ndarray:
    return np.array(values, dtype).view(np.uint8).copy()


def test_parameters_of_demangled_names():
    assert parameter_spellings("saxpy(float, float const*, float*, int)") == ["float", "float const*", "float*", "int"]
    assert parameter_spellings("void k<float, 4>(Pair<int, float>*, float4*)") == ["Pair<int, float>*", "float4*"]
    assert parameter_spellings("noargs()") == []
    assert parameter_spellings("_Z_not_a_signature") is None


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


def test_order_free_compares_the_same_values_in_any_order():
    ints = ElementType("int", "i4", 1)
    a, b = _bytes([3, 1, 2, 2], "i4"), _bytes([2, 3, 2, 1], "i4")
    assert compare(a, b, View("out", ints), 0, 0).difference is not None
    assert compare(a, b, View("out", ints), 0, 0, order_free=True).difference is None
    c = _bytes([3, 1, 2, 5], "i4")
    out = compare(c, b, View("out", ints), 0, 0, order_free=True)
    assert out.difference == "(order-free: both sorted) element [2] (int, byte offset 8): translated 3, reference 2"
    assert compare(a, b, View("untyped"), 0, 0, order_free=True).difference is None  # as 32-bit words


def test_summary_names_tolerated_unordered_and_unchecked_kernels():
    from cass_cc.runtime.check_summary import summary_lines
    base = {"grid": [1, 1, 1], "block": [32, 1, 1]}
    records = [
        {**base, "launch": 1, "kernel": "_Z1kPf", "demangled": "k(float*)", "status": "same",
         "tolerated": 3, "max_relative": 2e-7, "order_free": False},
        {**base, "launch": 2, "kernel": "_Z4histPi", "demangled": "hist(int*)", "status": "same",
         "tolerated": 0, "max_relative": 0.0, "order_free": True},
        {**base, "launch": 3, "kernel": "_Z1uPi", "demangled": "u(int*)", "status": "unchecked", "reason": "no reference"},
        {**base, "launch": 4, "kernel": "_Z1hPi", "demangled": "h(int*)", "status": "not-translated"},
        {**base, "launch": 5, "kernel": "_Z7contendP6Shared", "demangled": "contend(Shared*)", "status": "tolerated",
         "differences": ["buffer ..."], "tolerated": 0, "max_relative": 0.0, "order_free": False},
    ]
    text = "\n".join(summary_lines(records, 1e-5, 1e-8))
    assert "3 launch(es) of 3 translated kernel(s) checked against the reference; 0 differed; 1 unchecked" in text
    assert "TOLERATED differences (--check-tolerate, not failures): contend(Shared*) (1 launch)" in text
    assert "within tolerance, not bit-equal: 3 float element(s) in 1 launch(es) (largest relative difference 2e-07): k(float*)" in text
    assert "compared order-free (sorted values, --check-order-free): hist(int*) (1 launch)" in text
    assert "UNCHECKED: no reference: u(int*) (1 launch)" in text
    assert "not translated (hipcc's code, nothing to check): h(int*) (1 launch)" in text


def test_base_names_match_kernels_whose_parameter_types_hipify_changed():
    from cass_cc.runtime.emulated.check_compare import base_name
    assert base_name("std_atomics(cuda::std::__4::atomic<int>*, int*)") == "std_atomics"
    assert base_name("void ns::scan<float, 4>(float*)") == "ns::scan"
    assert base_name("void ns::scan<(anonymous namespace)::Op>(float*)") == "ns::scan"
    assert base_name("plain") == "plain"
