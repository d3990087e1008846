"""The neighbourhood queries the rewrite rules and checks rely on."""

from __future__ import annotations

import pytest

from cass_cc.hipify.source import Source


def first(src: Source, text: str) -> int:
    return next(i for i in src.code if src.tokens[i].text == text)


@pytest.mark.parametrize("code, count", [
    ("f();", 0), ("f(a);", 1), ("f(a, g(b, c), {1, 2});", 3), ("f((a, b));", 1),
    ("f(a[1, 2], b);", 2), ("f;", None), ("f(a, (b", None),
])
def test_call_arguments(code, count):
    src = Source(code, "t.cu")
    arguments = src.call_arguments(first(src, "f"))
    assert (None if arguments is None else len(arguments)) == count


def test_qualifier_and_member():
    src = Source("a.x; p->y; ns::z; ::w; v;", "t.cu")
    assert src.is_member(first(src, "x")) and src.is_member(first(src, "y"))
    assert src.qualifier(first(src, "z")) == "ns"
    assert src.qualifier(first(src, "w")) == ""
    assert src.qualifier(first(src, "v")) is None and not src.is_member(first(src, "v"))


def test_device_bodies_cover_global_and_device_functions_only():
    text = """__device__ int table[4];
__device__ float helper(float x) { return x * 2; }
__global__ void k(float *p) { if (p) { p[0] = helper(1); } }
void host() { k<<<1, 1>>>(nullptr); }
auto f = [] __device__ (int i) { return i + 1; };
"""
    src = Source(text, "t.cu")
    lines = [(src.tokens[src.code[a]].line, src.tokens[src.code[b]].line) for a, b in src.device_bodies()]
    assert lines == [(2, 2), (3, 3), (5, 5)]


def test_own_names():
    text = """#define cudaCheck(x) x
static int cudaHelper(int);
struct cudaGraphicsResource *cuda_resource;
std::vector<int> cudaList;
int r = a * cudaProduct;
return cudaReturned;
"""
    own = Source(text, "t.cu").own_names()
    assert {"cudaCheck", "cudaHelper", "cuda_resource", "cudaList"} <= own
    assert not {"cudaReturned", "cudaProduct"} & own
