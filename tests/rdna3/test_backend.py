"""codegen -> assemble -> link -> verify on a kernel with the lifter's ABI; metadata and bundles."""

from __future__ import annotations

import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.errors import CassError, Refusal
from cass_cc.passes import BACK_END, assemble, codegen, link, verify
from cass_cc.pipeline import run_pipeline
from cass_cc.rdna3 import HOST_ID, CodeObject, device_id, read_bundle, write_bundle
from cass_cc.rdna3.globals import globals_module

from .helpers import BY_VALUE, by_value_ir, by_value_unit


@pytest.fixture(scope="module")
def translated():
    unit = by_value_unit()
    unit.llvm_ir = by_value_ir()
    return run_pipeline(unit, BACK_END)


def test_back_end_produces_a_verified_code_object(translated):
    assert translated.status == "ok", translated.reasons
    assert set(translated.seconds) == {"codegen", "assemble", "link", "verify"}
    assert translated.rdna3_instructions > 5
    assert ".amdhsa_kernel " + BY_VALUE in translated.asm
    info = CodeObject(translated.code_object)
    assert info.target == "amdgcn-amd-amdhsa--gfx1100"
    meta = info.kernels[BY_VALUE]
    assert [(a.offset, a.size) for a in meta.explicit_args] == [(0, 40), (40, 1), (42, 2), (48, 8), (56, 8)]
    assert min(a.offset for a in meta.args if a.hidden) >= 64
    assert meta.wavefront_size == 32 and meta.max_flat_workgroup_size == 1024
    assert meta.descriptor is not None and meta.descriptor.kernarg_size == meta.kernarg_size
    assert "dev_scale" in info.globals and info.globals["dev_scale"][1] == 4


def test_llvm_mc_accepts_the_assembly_text(translated, tmp_path):
    src = tmp_path / "k.s"
    src.write_text(translated.asm)
    proc = subprocess.run([toolchain.path("llvm-mc"), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                           "-mattr=+wavefrontsize32", "-filetype=obj", str(src), "-o", str(tmp_path / "k.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_verify_refuses_a_wrong_parameter_layout():
    unit = by_value_unit()
    unit.llvm_ir = by_value_ir(short_type="i32")    # h at 44 with 4 bytes: not CUDA's layout
    run_pipeline(unit, BACK_END)
    assert unit.status == "failed"
    assert unit.reasons[0].startswith("verify: parameter 2 (offset 42, 2 bytes)")


def test_verify_checks_launch_bounds():
    unit = by_value_unit()
    unit.llvm_ir = by_value_ir(bounds="1,256")      # the cubin declares no bounds: 1024 expected
    run_pipeline(unit, BACK_END)
    assert unit.status == "failed" and "max flat work-group size 256" in unit.reasons[0]


def test_sm90_kernel_layout_is_the_same():
    unit = by_value_unit("sm_90")
    unit.llvm_ir = by_value_ir()
    run_pipeline(unit, BACK_END)
    assert unit.status == "ok", unit.reasons


def test_codegen_refuses_invalid_ir():
    unit = by_value_unit()
    unit.llvm_ir = "define void @f( {"
    with pytest.raises(Refusal, match="invalid LLVM IR"):
        codegen.run(unit)


def test_globals_module_keeps_names_and_bytes():
    from cass_cc.fatbin import Variable
    text = globals_module([Variable("$str", ".nv.global.init", 0, 4, b"hi\n\0"),
                           Variable("zeros", ".nv.global", 0, 8, bytes(8))])
    assert '@"$str" = addrspace(1) global [4 x i8] c"hi\\0A\\00"' in text
    assert "@zeros = addrspace(1) global [8 x i8] zeroinitializer" in text


def test_bundle_round_trip_with_clang_offload_bundler(translated, tmp_path):
    bundle = write_bundle([(HOST_ID, b""), (device_id("gfx1100"), translated.code_object)])
    assert read_bundle(bundle) == [(HOST_ID, b""), (device_id("gfx1100"), translated.code_object)]
    try:
        bundler = toolchain.path("clang-offload-bundler")
    except CassError:
        pytest.skip("clang-offload-bundler not installed")
    (tmp_path / "b.o").write_bytes(bundle)
    subprocess.run([bundler, "-unbundle", "-type=o", f"-input={tmp_path / 'b.o'}",
                    f"-targets={device_id('gfx1100')}", f"-output={tmp_path / 'k.hsaco'}"], check=True)
    assert (tmp_path / "k.hsaco").read_bytes() == translated.code_object
    # and the other way round: a bundle clang wrote, read by us
    (tmp_path / "host.o").write_bytes(b"")
    subprocess.run([bundler, "-type=o", f"-targets={HOST_ID},{device_id('gfx1100')}",
                    f"-input={tmp_path / 'host.o'}", f"-input={tmp_path / 'k.hsaco'}",
                    f"-output={tmp_path / 'clang.o'}"], check=True)
    entries = dict(read_bundle((tmp_path / "clang.o").read_bytes()))
    assert entries[device_id("gfx1100")] == translated.code_object


def test_bad_bundles_and_code_objects():
    with pytest.raises(CassError, match="not a clang offload bundle"):
        read_bundle(b"hello")
    with pytest.raises(CassError, match="runs past the end"):
        read_bundle(write_bundle([(HOST_ID, b"x" * 10)])[:-5])
    with pytest.raises(CassError, match="not an ELF"):
        CodeObject(b"\x7fELF garbage")
