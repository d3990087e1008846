"""The code-quality report (cass-cc bench --quality): how opcodes are classified and weighed, the
aggregation over programs, and one real program measured end to end on both routes."""

from __future__ import annotations

import json

import pytest

from cass_cc.bench.quality import (CYCLES, Measured, Profile, atomic_kind, compare, instruction_class,
                                   kernel_opcodes, space_of, summarize)
from tests.conftest import ROOT, run_tool


@pytest.mark.parametrize("opcode, space", [
    ("global_load_b32", "global"), ("global_atomic_add_u32", "global"), ("flat_store_b64", "flat"),
    ("buffer_load_dword", "buffer"), ("scratch_load_b128", "scratch"), ("ds_load_b32", "lds"),
    ("ds_add_rtn_u32", "lds"), ("s_load_b64", "scalar memory"), ("s_buffer_load_b32", "scalar memory"),
    # a crossbar permute and a cache invalidate touch no memory
    ("ds_bpermute_b32", None), ("buffer_gl0_inv", None), ("v_add_co_u32", None), ("s_mov_b32", None)])
def test_address_space_of_each_memory_instruction(opcode, space):
    assert space_of(opcode) == space


@pytest.mark.parametrize("opcode, kind", [
    ("global_atomic_add_u32", "add"), ("flat_atomic_add_u64", "add"), ("global_atomic_sub_u32", "sub"),
    ("global_atomic_csub_u32", "sub"), ("ds_rsub_u32", "sub"), ("global_atomic_min_i32", "min"),
    ("global_atomic_smin_x2", "min"), ("flat_atomic_umax_u32", "max"), ("ds_max_rtn_u32", "max"),
    ("global_atomic_and_b32", "and"), ("ds_or_b32", "or"), ("flat_atomic_xor_b32", "xor"),
    ("global_atomic_swap_b32", "xchg"), ("ds_storexchg_rtn_b32", "xchg"), ("ds_wrxchg_rtn_b32", "xchg"),
    ("global_atomic_inc_u32", "inc"), ("flat_atomic_dec_u32", "dec"),
    ("global_atomic_cmpswap_b32", "cas"), ("flat_atomic_cmpswap_b64", "cas"), ("ds_cmpstore_rtn_b32", "cas"),
    ("ds_cmpst_b32", "cas"), ("global_atomic_add_f32", "fadd"), ("ds_add_f32", "fadd"),
    ("global_atomic_pk_add_f16", "fadd packed"),
    ("global_load_b32", None), ("ds_store_b32", None), ("ds_load_b64", None), ("v_add_f32_e32", None)])
def test_atomic_kind_of_each_atomic_instruction(opcode, kind):
    assert atomic_kind(opcode) == kind


def test_an_atomic_the_report_does_not_know_is_an_error_not_a_guess():
    with pytest.raises(ValueError, match="global_atomic_frobnicate_b32"):
        atomic_kind("global_atomic_frobnicate_b32")


@pytest.mark.parametrize("opcode, cls", [
    ("s_delay_alu", "hint"), ("s_waitcnt_vscnt", "hint"), ("s_clause", "hint"), ("s_add_u32", "salu"),
    ("v_add_nc_u32_e32", "valu"), ("v_dual", "valu"), ("v_rcp_f32_e32", "transcendental"),
    ("v_fma_f64", "f64"), ("v_readlane_b32", "lane"), ("ds_bpermute_b32", "lane"), ("s_barrier", "barrier"),
    ("s_cbranch_execz", "branch"), ("global_atomic_add_u32", "atomic"), ("ds_add_u32", "lds atomic"),
    ("ds_load_b32", "lds"), ("global_store_b32", "global"), ("s_load_b32", "scalar memory")])
def test_instruction_classes(opcode, cls):
    assert instruction_class(opcode) == cls


def test_profile_counts_and_weighs_each_class():
    p = Profile()
    p.add({"v_add_nc_u32_e32": 10, "s_waitcnt": 5, "global_load_b32": 2, "global_atomic_cmpswap_b32": 3,
           "ds_add_u32": 1})
    assert p.wave_instructions == 21
    assert p.cycles == 10 * CYCLES["valu"] + 2 * CYCLES["global"] + 3 * CYCLES["atomic"] + CYCLES["lds atomic"]
    assert p.memory == {"global": 5, "lds": 1}
    assert p.atomics == {"cas": 3, "add": 1}


def test_kernel_opcodes_sum_the_launches_of_each_kernel():
    stats = {"launches": [{"kernel": "k", "opcode_counts": {"s_endpgm": 2, "v_mov_b32_e32": 4}},
                          {"kernel": "k", "opcode_counts": {"s_endpgm": 1}},
                          {"kernel": "j", "opcode_counts": {"s_endpgm": 3}}]}
    assert kernel_opcodes(stats) == {"k": {"s_endpgm": 3, "v_mov_b32_e32": 4}, "j": {"s_endpgm": 3}}


def test_static_kernels_pair_up_across_the_builds():
    # Rodinia huffman's `static __global__ void pack2(...)`: hipcc's build names it with internal
    # linkage, nvcc's (and so the lifted build) without; the two must be one kernel in the report
    lifted = kernel_opcodes({"launches": [{"kernel": "_Z5pack2PjS_S_S_j", "opcode_counts": {"s_endpgm": 1}}]})
    hipcc = kernel_opcodes({"launches": [{"kernel": "_ZL5pack2PjS_S_S_j", "opcode_counts": {"s_endpgm": 2}}]})
    assert lifted.keys() == hipcc.keys() == {"_Z5pack2PjS_S_S_j"}
    (kernel,) = compare(Measured("huffman", lifted, hipcc, True, True))["kernels"]
    assert kernel["ratio"] == 0.5


def _measured(name: str, lifted: int, hipcc: int, passed: bool = True) -> Measured:
    return Measured(name, {"k": {"v_add_nc_u32_e32": lifted}}, {"k": {"v_add_nc_u32_e32": hipcc}}, passed, True,
                    "" if passed else "lifted: run: no PASS line")


def test_program_ratio_is_over_all_launches_and_kernels_match_by_name():
    m = Measured("p", {"a": {"s_endpgm": 30}, "b": {"s_endpgm": 10}}, {"a": {"s_endpgm": 20}, "c": {"s_endpgm": 20}},
                 True, True)
    c = compare(m)
    assert c["ratio"] == 1.0
    ratios = {k["kernel"]: k["ratio"] for k in c["kernels"]}
    assert ratios == {"a": 1.5, "b": None, "c": None}   # b and c ran in one build only


def test_summary_median_and_worst_count_only_programs_passing_both_routes():
    s = summarize([_measured("a", 80, 100), _measured("b", 100, 100), _measured("c", 160, 100),
                   _measured("d", 900, 100, passed=False)])
    assert (s["programs"], s["counted"]) == (4, 3)
    assert s["median"] == 1.0
    assert s["worst"] == {"program": "c", "ratio": 1.6}
    assert s["above_limit"] == ["c"]
    assert s["not_counted"] == ["d"]


def test_summary_of_nothing_measured_has_no_median():
    s = summarize([])
    assert s["median"] is None and s["worst"] is None and s["counted"] == 0


@pytest.mark.slow
def test_one_real_program_measured_on_both_routes(tmp_path):
    done = run_tool("cass-cc", "bench", "--quality", "--programs", str(ROOT / "tests" / "programs"),
                    "--only", "realworld/warp_scan", "--out", str(tmp_path), timeout=900)
    assert done.returncode == 0, done.stderr
    assert "median" in done.stdout and "worst" in done.stdout
    s = json.loads((tmp_path / "quality.json").read_text())
    assert s["counted"] == 1, s["not_counted"]
    (p,) = s["results"]
    for build in ("lifted", "hipcc"):
        # compactPositive's one warp-aggregated atomicAdd per warp, on global memory, in both builds
        assert p[build]["atomics"] == {"add": 12}
        assert p[build]["memory"]["global"] > 0 and p[build]["memory"]["lds"] > 0
        assert p[build]["cycles"] > p[build]["wave_instructions"] / 2
    assert 0.5 < p["ratio"] < 1.5
    assert {k["kernel"] for k in p["kernels"]} == {"_Z9blockScanPKiPiS1_i", "_Z15compactPositivePKiPiS1_i"}
    assert (tmp_path / "quality.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| realworld/warp_scan |" in (tmp_path / "quality.md").read_text()
    # the raw counts written beside the report merge into another report
    merged = tmp_path / "merged"
    done = run_tool("cass-cc", "bench", "--quality", "--from", str(tmp_path / "summary.json"), "--out", str(merged))
    assert done.returncode == 0, done.stderr
    assert json.loads((merged / "quality.json").read_text())["median"] == s["median"]


def test_quality_refuses_routes(tmp_path):
    done = run_tool("cass-cc", "bench", "--quality", "--routes", "binary", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "--quality does not go with --routes" in done.stderr


def test_from_needs_a_summary_of_both_routes(tmp_path):
    bad = tmp_path / "summary.json"
    bad.write_text(json.dumps({"results": [{"program": "x/y", "routes": {"binary": {"passed": True}}}]}))
    done = run_tool("cass-cc", "bench", "--quality", "--from", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "needs a summary.json of a run with routes binary and source" in done.stderr
    done = run_tool("cass-cc", "bench", "--from", str(bad))
    assert done.returncode == 2 and "--from goes with --quality" in done.stderr
