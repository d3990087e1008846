"""The `model` translator and its differential check, against a stand-in server (stand_in.py): the
server only hands back texts the tests choose — the lifter's own RDNA3 assembly for a real
nvcc-compiled saxpy, a body-only variant, a miscompiled variant, garbage — so what is under test
is the client, the completion of answers into code objects, and the check that refuses every
answer that does not compute what the reference (the lifter's translation) computes."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.passes import LIFT_PIPELINE, model, units_from_file
from cass_cc.pipeline import run_pipeline

from .stand_in import SERVED_MODEL, StandInServer

SAXPY = """
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""
NAME = "_Z5saxpyifPKfPf"


@pytest.fixture(scope="module")
def saxpy(tmp_path_factory):
    """(cubin path, the lifter's RDNA3 assembly of saxpy)."""
    work = tmp_path_factory.mktemp("model")
    (work / "saxpy.cu").write_text(SAXPY)
    cubin = work / "saxpy.cubin"
    subprocess.run([toolchain.path("nvcc"), "-arch=sm_80", "-cubin", "-o", str(cubin), str(work / "saxpy.cu")],
                   check=True, capture_output=True)
    lifted = run_pipeline(units_from_file(str(cubin))[0], LIFT_PIPELINE)
    assert lifted.status == "ok", lifted.reasons
    return str(cubin), lifted.asm


@pytest.fixture
def server(monkeypatch):
    srv = StandInServer()
    monkeypatch.setenv("CASS_MODEL_URL", srv.url)
    monkeypatch.delenv("CASS_MODEL", raising=False)
    yield srv
    srv.close()


def translate(cubin: str):
    return run_pipeline(units_from_file(cubin)[0], model.PIPELINE)


def body_of(asm: str) -> str:
    """The instructions of the kernel, without the descriptor and the metadata."""
    return asm.split(f"{NAME}:\n", 1)[1].split(".section\t.rodata")[0].rsplit("\n", 1)[0]


def test_lifters_assembly_is_accepted_as_tier_model(saxpy, server):
    cubin, asm = saxpy
    server.answer = asm
    unit = translate(cubin)
    assert (unit.tier, unit.status, unit.reasons) == ("model", "ok", [])
    assert unit.code_object.startswith(b"\x7fELF") and unit.rdna3_instructions > 10
    request = server.requests[-1]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == SERVED_MODEL and request["body"]["temperature"] == 0
    prompt = request["body"]["messages"][0]["content"]
    assert "FFMA R7, R2, c[0x0][0x164], R7 ;" in prompt and "RDNA3" in prompt and "sm_80" in prompt


def test_body_only_answer_in_a_fence_is_completed_and_accepted(saxpy, server):
    cubin, asm = saxpy
    server.answer = f"Here is the RDNA3 code:\n```asm\n{body_of(asm)}\n```\n"
    unit = translate(cubin)
    assert (unit.tier, unit.status, unit.reasons) == ("model", "ok", [])
    assert ".amdhsa_kernel _Z5saxpyifPKfPf" in unit.asm and ".amdgpu_metadata" in unit.asm


def test_one_changed_instruction_is_refused_naming_the_buffer(saxpy, server):
    cubin, asm = saxpy
    assert asm.count("v_fmac_f32_e32 v3, s0, v2") == 1
    server.answer = asm.replace("v_fmac_f32_e32 v3, s0, v2", "v_mul_f32_e32 v3, s0, v2")
    unit = translate(cubin)
    assert unit.status == "failed" and unit.tier == "model"
    [reason] = unit.reasons
    assert reason.startswith("verify: model output differs from the reference: buffer of parameter 3 differs at byte 0 (random floats)")
    assert not unit.code_object or unit.status != "ok"


def test_candidate_that_faults_is_refused_with_the_fault_line(saxpy, server):
    cubin, asm = saxpy
    high = "v_add_co_ci_u32_e64 v1, null, s7, v1, vcc_lo"
    assert asm.count(high) == 1
    server.answer = asm.replace(high, "v_mov_b32 v1, 0x1234")      # y's address points nowhere
    unit = translate(cubin)
    [reason] = unit.reasons
    assert reason.startswith("verify: model output faults on the emulator: kernel '_Z5saxpyifPKfPf' pc ")
    assert "'global_load_b32 v3, v[0:1], off': lane 0 read of 4 bytes at 0x1234" in reason


def test_garbage_is_refused_by_the_assembler(saxpy, server):
    cubin, _asm = saxpy
    server.answer = "I am sorry, I cannot translate this kernel."
    unit = translate(cubin)
    [reason] = unit.reasons
    assert reason.startswith("assemble: llvm-mc failed: ") and "error: invalid instruction" in reason


def test_answer_for_another_kernel_is_refused(saxpy, server):
    cubin, asm = saxpy
    server.answer = asm.replace(NAME, "_Z5otherv")
    [reason] = translate(cubin).reasons
    assert reason == f"model: the model's assembly defines kernel '_Z5otherv', expected '{NAME}'"


def test_no_reference_means_refused(saxpy, server):
    """A kernel the lifter refuses has no reference, so the model's answer cannot be trusted."""
    cubin, asm = saxpy
    server.answer = asm
    unit = units_from_file(cubin)[0]
    from cass_cc.passes import FRONT_END
    run_pipeline(unit, FRONT_END)
    unit.instructions = [dataclasses.replace(i, opcode="NOTANOPCODE") if i.opcode == "FFMA" else i
                         for i in unit.instructions]
    run_pipeline(unit, model.PIPELINE[len(FRONT_END):])
    [reason] = unit.reasons
    assert reason.startswith("verify: model output unchecked: no reference (lift: ")
    assert "NOTANOPCODE" in reason


def test_no_server_is_a_clear_refusal(saxpy, monkeypatch):
    with socket.socket() as s:            # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    monkeypatch.setenv("CASS_MODEL_URL", url)
    monkeypatch.setenv("CASS_MODEL", "cass-7b")
    unit = translate(saxpy[0])
    assert unit.reasons == [f"model: no server at {url} (set CASS_MODEL_URL)"]


def test_server_error_is_reported(saxpy, server):
    server.status = 400
    server.answer = ""
    [reason] = translate(saxpy[0]).reasons
    assert reason.startswith(f"model: HTTP 400 from {server.url}/chat/completions: ")
    assert len(server.requests) == 1      # a client error is not retried


def test_answer_that_reads_files_is_refused(saxpy, server):
    """`.incbin` in a data section would pass any differential run and put a local file's bytes
    into the user's program."""
    cubin, asm = saxpy
    server.answer = asm.replace("\t.section\t.rodata", '\t.section\t.rodata\n\t.incbin "/etc/hostname"', 1)
    [reason] = translate(cubin).reasons
    assert reason == "model: the model's assembly reads files (.incbin), which is never accepted"


def test_candidate_that_never_ends_is_refused_within_a_budget(saxpy, server):
    """The candidate may run 20 times the reference's instructions (at least 20,000), no more."""
    cubin, asm = saxpy
    server.answer = asm.replace("\ts_endpgm\n", "\ts_branch .LBB0_2\n", 1)   # spins at its own label
    unit = translate(cubin)
    [reason] = unit.reasons
    # a spin at one pc repeats its state: the hang detector stops it before the budget does
    assert reason.startswith("verify: model output faults on the emulator: ") and (
        "budget" in reason.lower() or " hangs " in reason), reason
