"""Program-level tests: HIP kernels compiled by hipcc for gfx1100, run on the emulator through
the Python API, results checked against values computed on the host."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from cass_cc.emu.printf import format_message

rng = np.random.default_rng(7)


def test_vector_add(programs):
    n = 1000
    a, b = rng.random(n, np.float32), rng.random(n, np.float32)
    pa, pb, pc = programs.upload(a), programs.upload(b), programs.zeros(n, np.float32)
    stats = programs.run("vector_add", (4, 1, 1), (256, 1, 1), pa, pb, pc, n)
    assert np.array_equal(programs.download(pc, n, np.float32), a + b)
    assert stats.wave_instructions > 0 and stats.lane_instructions > stats.wave_instructions
    assert stats.opcode_counts["global_load_b32"] >= 2 * 32


def test_block_sum_tree_reduction(programs):
    n, blocks = 1000, 4
    data = rng.integers(-1000, 1000, n, dtype=np.int32)
    pin, pout = programs.upload(data), programs.zeros(blocks, np.int32)
    programs.run("block_sum", (blocks, 1, 1), (256, 1, 1), pin, pout, n)
    padded = np.concatenate([data, np.zeros(blocks * 256 - n, np.int32)])
    assert np.array_equal(programs.download(pout, blocks, np.int32), padded.reshape(blocks, 256).sum(1))


def test_warp_shuffle_reduction(programs):
    n = 200
    data = rng.integers(0, 100, n).astype(np.float32)
    pin, ptotal = programs.upload(data), programs.zeros(1, np.float32)
    programs.run("warp_sum", (2, 1, 1), (128, 1, 1), pin, ptotal, n)
    assert programs.download(ptotal, 1, np.float32)[0] == data.sum()


def test_ballot_and_rank(programs):
    n = 64
    flags = rng.integers(0, 2, n, dtype=np.int32)
    pf, pr, pm = programs.upload(flags), programs.zeros(n, np.int32), programs.zeros(2, np.uint64)
    programs.run("ballot_rank", (1, 1, 1), (64, 1, 1), pf, pr, pm)
    masks = [sum(int(f) << i for i, f in enumerate(flags[w * 32:(w + 1) * 32])) for w in range(2)]
    assert programs.download(pm, 2, np.uint64).tolist() == masks
    expect = [int(np.sum(flags[(i // 32) * 32:i])) for i in range(n)]
    assert programs.download(pr, n, np.int32).tolist() == expect


def test_tiled_matmul(programs):
    n = 32
    a, b = rng.random((n, n), np.float32), rng.random((n, n), np.float32)
    pa, pb, pc = programs.upload(a), programs.upload(b), programs.zeros(n * n, np.float32)
    programs.run("matmul", (n // 16, n // 16, 1), (16, 16, 1), pa, pb, pc, n)
    c = programs.download(pc, n * n, np.float32).reshape(n, n)
    assert np.allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_double_stencil_2d(programs):
    nx, ny = 40, 20
    grid = rng.random((ny, nx))
    pin, pout = programs.upload(grid), programs.upload(np.zeros((ny, nx)))
    programs.run("stencil", (3, 3, 1), (16, 8, 1), pin, pout, nx, ny)
    out = programs.download(pout, nx * ny, np.float64).reshape(ny, nx)
    expect = np.zeros_like(grid)
    expect[1:-1, 1:-1] = 0.5 * grid[1:-1, 1:-1] + 0.125 * (grid[1:-1, :-2] + grid[1:-1, 2:] + grid[:-2, 1:-1] + grid[2:, 1:-1])
    assert np.array_equal(out, expect)


def test_3d_grid_of_3d_blocks(programs):
    block, grid = (4, 2, 3), (2, 3, 2)
    nx, ny, nz = (b * g for b, g in zip(block, grid))
    pout = programs.zeros(nx * ny * nz, np.int32)
    programs.run("grid3d", grid, block, pout, nx, ny)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    assert np.array_equal(programs.download(pout, nx * ny * nz, np.int32).reshape(nz, ny, nx), x + 1000 * y + 1000000 * z)


def test_global_atomics_histogram(programs):
    n = 500
    data = rng.integers(0, 1000, n, dtype=np.int32)
    pin, pbins = programs.upload(data), programs.zeros(16, np.uint32)
    programs.run("histogram", (2, 1, 1), (256, 1, 1), pin, pbins, n)
    assert np.array_equal(programs.download(pbins, 16, np.uint32), np.bincount(data & 15, minlength=16))


def test_lds_atomics_dynamic_shared(programs):
    n = 300
    data = rng.integers(0, 1000, n, dtype=np.int32)
    pin, pbins = programs.upload(data), programs.zeros(16, np.uint32)
    programs.run("lds_histogram", (3, 1, 1), (128, 1, 1), pin, pbins, n, dynamic_lds=64)
    assert np.array_equal(programs.download(pbins, 16, np.uint32), np.bincount(data & 15, minlength=16))


def _collatz(v):
    steps = 0
    while v != 1 and steps < 1000:
        v = 3 * v + 1 if v & 1 else v // 2
        steps += 1
    return steps


def test_private_array_and_call(programs):
    assert programs.co.kernels["private_array"].private_segment_size >= 256
    n = 64
    idx = rng.integers(0, 1000, n, dtype=np.int32)
    pidx, pout = programs.upload(idx), programs.zeros(n, np.int32)
    stats = programs.run("private_array", (2, 1, 1), (32, 1, 1), pidx, pout)
    assert any(op.startswith(("scratch_", "flat_")) for op in stats.opcode_counts)   # private memory
    assert "s_swappc_b64" in stats.opcode_counts
    expect = [(i & 63) ** 2 + t + _collatz(t + 1) for t, i in enumerate(idx)]
    assert programs.download(pout, n, np.int32).tolist() == expect


def _ulps(got, want):
    got, want = np.asarray(got, np.float32), np.asarray(want, np.float32)
    return np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))


def test_math_functions_within_ulp_budget(programs):
    n = 64
    x = np.linspace(0.1, 20.0, n).astype(np.float32)
    px, pout = programs.upload(x), programs.zeros(5 * n, np.float32)
    programs.run("math_funcs", (1, 1, 1), (64, 1, 1), px, pout, n)
    out = programs.download(pout, 5 * n, np.float32).reshape(n, 5)
    x64 = x.astype(np.float64)
    # HIP's documented accuracies: sqrtf, 1/x correctly rounded-ish; expf/logf 1-2 ulp; sinf 2 ulp
    for col, ref, budget in ((0, np.sqrt(x64), 1), (1, np.exp(x64 * np.float32(0.1)), 2), (2, np.log(x64), 2),
                             (3, np.sin(x64), 2), (4, 1.0 / x64, 1)):
        assert _ulps(out[:, col], ref.astype(np.float32)).max() <= budget, col


def test_printf_in_lane_order(programs):
    lines = []
    programs.run("hello", (1, 1, 1), (40, 1, 1), 35, printf=lines.append)
    assert "".join(lines) == "".join(f"thread {t} of 35: hi {0.25 * t:.2f} {255 + t:x}\n" for t in range(35))


def test_global_variables_and_relocations(programs):
    addr, size = programs.co.globals["counter"]
    ptr_addr, _ = programs.co.globals["counter_ptr"]
    assert size == 4 and programs.download(addr, 1, np.int32)[0] == 5
    assert programs.download(ptr_addr, 1, np.uint64)[0] == addr      # R_AMDGPU_ABS64 applied
    pout = programs.zeros(32, np.int32)
    programs.run("global_vars", (1, 1, 1), (32, 1, 1), pout)
    assert programs.download(addr, 1, np.int32)[0] == 37


@pytest.mark.parametrize("dtype,kernel,factor", [(np.float64, "_Z5scaleIdEvPT_S0_i", 2.5),
                                                 (np.int16, "_Z5scaleIsEvPT_S0_i", -3)])
def test_templates(programs, dtype, kernel, factor):
    n = 50
    data = (np.arange(n) - 20).astype(dtype)
    p = programs.upload(data)
    programs.run(kernel, (1, 1, 1), (64, 1, 1), p, factor, n)
    assert np.array_equal(programs.download(p, n, dtype), (data * dtype(factor)).astype(dtype))


def test_printf_many_arguments_long_strings_several_waves(programs):
    lines = []
    name = programs.upload(np.frombuffer(b"device-string\0", np.uint8))
    programs.run("long_printf", (1, 1, 1), (64, 1, 1), name, printf=lines.append)
    long = "a string that is longer than fifty-six bytes, so it spans two packets"
    expect = [f"{long}|{t:<5d}|{2.5 * t:5.1f}|{t * 1000000000000}|{chr(65 + t)}|{t * 0x1001:08x}|{-5 * t}|4000000000|"
              f"{1e-3 * t:e}|device-string|%|{'' if t > 40 else 'ok'}\n" for t in (1, 33)]
    assert lines == expect


def test_large_grids_run_in_batches_of_workgroups(programs, monkeypatch):
    launch_module = importlib.import_module("cass_cc.emu.launch")   # the module, not the function
    monkeypatch.setattr(launch_module, "BATCH_BYTES", 1)            # one workgroup per batch
    n, blocks = 1000, 4
    data = rng.integers(-1000, 1000, n, dtype=np.int32)
    pin, pout = programs.upload(data), programs.zeros(blocks, np.int32)
    programs.run("block_sum", (blocks, 1, 1), (256, 1, 1), pin, pout, n)
    padded = np.concatenate([data, np.zeros(blocks * 256 - n, np.int32)])
    assert np.array_equal(programs.download(pout, blocks, np.int32), padded.reshape(blocks, 256).sum(1))


def test_contended_compare_and_swap_loop(programs):
    ptotal = programs.upload(np.array([1000], np.int32))
    stats = programs.run("cas_sum", (2, 1, 1), (128, 1, 1), ptotal)
    assert programs.download(ptotal, 1, np.int32)[0] == 1000 + sum(t % 7 for t in range(256))
    assert stats.opcode_counts["global_atomic_cmpswap_b32"] >= 256 // 32     # every lane retried


def test_printf_formats_like_c():
    def message(fmt: str, *args: int) -> list[int]:
        raw = fmt.encode() + b"\0"
        raw += b"\0" * (-len(raw) % 8)
        return [0] + [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8)] + list(args)

    def double(x: float) -> int:
        return int(np.array(x, np.float64).view(np.uint64))

    text = format_message(message("%#o|%#x|%a|%5.2e|%u|%hhd|%-4c|%p|%%", 15, 255, double(1.5), double(12345.678),
                                  2**32 - 1, 0x1FF, ord("z"), 0))
    assert text == "017|0xff|0x1.8p+0|1.23e+04|4294967295|-1|z   |(nil)|%"
