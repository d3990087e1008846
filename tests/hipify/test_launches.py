"""Launches with their chevrons apart (`k << <g, b >> > (args)`, Visual Studio's formatting) are
joined for clang, which reads `<<<` and `>>>` only when written whole; other `<<`/`>>` stay."""

from __future__ import annotations

import pytest

from cass_cc.hipify import translate


@pytest.mark.parametrize("cuda, hip", [
    ("k << <g, b >> > (x);", "k <<< g, b >>>  (x);"),
    ("k << <n / 2, dim3(32), 0 >> > (a, b);", "k <<< n / 2, dim3(32), 0 >>>  (a, b);"),
    ("k << <static_cast<int>(n), 32 > >> (y);", "k <<< static_cast<int>(n), 32 >>>  (y);"),
    ("k << < 1, 2 > > > (z);", "k <<<  1, 2 >>>   (z);"),
    ("k<<<1, 2>>>(x);", "k<<<1, 2>>>(x);"),
    ("k << <1, 2>>>(x);", "k <<< 1, 2>>>(x);"),
])
def test_spaced_chevrons_are_joined(cuda, hip):
    assert translate(f"void f() {{ {cuda} }}\n", "t.cu").text == f"void f() {{ {hip} }}\n"


@pytest.mark.parametrize("text", [
    "S& operator<< <int>(S& s, int v);",                        # explicit template argument
    "int f(int a) { return a << 2 >> 1; }",
    "std::vector<std::vector<std::vector<int>> > v;",
    "int g(int a, int b) { return (a << b) > (b >> a); }",
])
def test_other_shifts_and_templates_are_left_alone(text):
    assert translate(text + "\n", "t.cu").text == text + "\n"
