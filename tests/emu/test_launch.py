"""What launch() sets up: the kernarg segment with code object v5 hidden arguments, the dispatch
packet, workgroup ids and packed work-item ids; and what the loader reads from a code object."""

from __future__ import annotations

import struct

import numpy as np

from cass_cc.emu import launch

from .emu_build import KERNELS, Device, asm_kernel, assemble, compile_hip

HIDDEN_V5 = [("hidden_block_count_x", 8, 4), ("hidden_block_count_y", 12, 4), ("hidden_block_count_z", 16, 4),
             ("hidden_group_size_x", 20, 2), ("hidden_group_size_y", 22, 2), ("hidden_group_size_z", 24, 2),
             ("hidden_remainder_x", 26, 2), ("hidden_grid_dims", 72, 2), ("hidden_dynamic_lds_size", 80, 4),
             ("hidden_private_base", 84, 4), ("hidden_shared_base", 88, 4)]


def _dump_kernel() -> Device:
    """Lane 0 copies the first 96 kernarg bytes and the 64-byte dispatch packet to out."""
    body = ("  s_load_b64 s[6:7], s[2:3], 0x0\n  s_load_b512 s[16:31], s[2:3], 0x0\n"
            "  s_load_b256 s[32:39], s[2:3], 0x40\n  s_load_b512 s[48:63], s[0:1], 0x0\n"
            "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v1, 0\n")
    regs = list(range(16, 40)) + list(range(48, 64))
    for i, r in enumerate(regs):
        body += f"  v_mov_b32 v2, s{r}\n  global_store_b32 v1, v2, s[6:7] offset:{4 * i}\n"
    args = [("out", 0, 8, "global_buffer")] + [(k, o, s, k) for k, o, s in HIDDEN_V5]
    return Device(assemble(asm_kernel("dump", body, args, sgprs=64, dispatch_ptr=True)))


def test_v5_hidden_arguments_and_dispatch_packet():
    dev = _dump_kernel()
    info = dev.co.kernels["dump"]
    assert dev.co.code_version == 5 and info.kernarg_size == 92
    assert [a.value_kind for a in info.args][1:] == [k for k, _, _ in HIDDEN_V5]
    out = dev.zeros(40, np.uint32)
    launch(dev.co, "dump", (3, 2, 1), (64, 2, 1), struct.pack("<Q", out), dynamic_lds=48, memory=dev.mem)
    raw = dev.download(out, 40, np.uint32).tobytes()
    kernarg, packet = raw[:96], raw[96:]
    field = lambda off, size: int.from_bytes(kernarg[off:off + size], "little")
    assert [field(o, s) for _, o, s in HIDDEN_V5] == [3, 2, 1, 64, 2, 1, 0, 2, 48, 0x20000, 0x10000]
    setup, wx, wy, wz = struct.unpack_from("<HHHH", packet, 2)
    gx, gy, gz, private, group = struct.unpack_from("<IIIII", packet, 12)
    assert (setup, wx, wy, wz, gx, gy, gz, group) == (2, 64, 2, 1, 192, 4, 1, 48)
    assert struct.unpack_from("<Q", packet, 40)[0] != 0          # kernarg address


def test_workgroup_ids_and_packed_workitem_ids():
    body = """  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_and_b32 v2, 0x3ff, v0
  v_bfe_u32 v3, v0, 10, 10
  v_bfe_u32 v4, v0, 20, 10
  v_mad_u32_u24 v5, v4, 4, v3               ; flat thread id for a 2x4x4 block: x + 2 * (y + 4 * z)
  v_mad_u32_u24 v5, v5, 2, v2
  s_mul_i32 s10, s3, 3
  s_add_u32 s10, s10, s2                    ; flat block id for grid 3x2
  s_lshl_b32 s11, s10, 5
  v_add_nc_u32 v6, s11, v5
  v_lshlrev_b32 v6, 2, v6
  v_lshlrev_b32 v7, 16, v2
  v_lshl_or_b32 v7, v3, 8, v7
  v_or_b32 v7, v7, v4
  v_lshl_or_b32 v7, s10, 24, v7
  global_store_b32 v6, v7, s[4:5]
"""
    src = asm_kernel("ids", body, [("out", 0, 8, "global_buffer")], workitem_ids=2).replace(
        ".amdhsa_system_vgpr_workitem_id 2", ".amdhsa_system_vgpr_workitem_id 2\n\t\t.amdhsa_system_sgpr_workgroup_id_y 1")
    dev = Device(assemble(src))
    out = dev.zeros(6 * 32, np.uint32)
    launch(dev.co, "ids", (3, 2, 1), (2, 4, 4), struct.pack("<Q", out), memory=dev.mem)
    got = dev.download(out, 6 * 32, np.uint32)
    expect = [(b << 24) | (x << 16) | (y << 8) | z for b in range(6) for z in range(4) for y in range(4) for x in range(2)]
    assert got.tolist() == expect


def test_loader_reads_kernel_metadata_and_descriptor(programs):
    info = programs.co.kernels["matmul"]
    assert info.group_segment_size == 2 * 16 * 16 * 4 and info.wavefront_size == 32
    assert [a.value_kind for a in info.args][:4] == ["global_buffer"] * 3 + ["by_value"]
    assert programs.co.functions[programs.co.base + info.descriptor.entry] == "matmul"
    assert programs.co.code_version == 4


def test_hipcc_code_object_v5_reads_block_sizes_from_hidden_arguments():
    dev = Device(compile_hip(KERNELS / "programs.hip", extra=("-mcode-object-version=5",)))
    assert dev.co.code_version == 5
    assert "hidden_group_size_x" in [a.value_kind for a in dev.co.kernels["grid3d"].args]
    block, grid = (4, 2, 3), (2, 3, 2)
    nx, ny, nz = (b * g for b, g in zip(block, grid))
    out = dev.zeros(nx * ny * nz, np.int32)
    dev.run("grid3d", grid, block, out, nx, ny)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    assert np.array_equal(dev.download(out, nx * ny * nz, np.int32).reshape(nz, ny, nx), x + 1000 * y + 1000000 * z)
