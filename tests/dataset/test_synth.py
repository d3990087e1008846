"""`cass-cc dataset synth` against the stand-in model server: deterministic prompt expansion,
the answers' code as .cu files, resume, and clean errors for bad templates."""

from __future__ import annotations

import json

import pytest

from cass_cc.cli import main
from cass_cc.dataset.synth import expand

from ..model.stand_in import StandInServer

TEMPLATE = {"prompt": "Write a CUDA kernel that {op}s {n} {type} values { like this }.",
            "values": {"type": ["int", "float"], "op": ["add", "scale"], "n": [64]}}


@pytest.fixture
def server():
    srv = StandInServer()
    srv.answer = lambda prompt: f"Here:\n```cuda\n// {prompt}\n__global__ void k(int *x) {{}}\n```\n"
    yield srv
    srv.close()


def test_expansion_is_every_combination_in_a_fixed_order():
    assert expand(TEMPLATE, "t") == [
        "Write a CUDA kernel that adds 64 int values { like this }.",
        "Write a CUDA kernel that adds 64 float values { like this }.",
        "Write a CUDA kernel that scales 64 int values { like this }.",
        "Write a CUDA kernel that scales 64 float values { like this }.",
    ]


def test_synth_writes_the_answers_code_and_resumes(tmp_path, server):
    template = tmp_path / "ops.json"
    template.write_text(json.dumps(TEMPLATE))
    out = tmp_path / "gen"
    assert main(["dataset", "synth", str(template), "--model-url", server.url, "--out", str(out)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == [f"ops-{n:04d}.cu" for n in range(4)]
    assert (out / "ops-0001.cu").read_text() == \
        "// Write a CUDA kernel that adds 64 float values { like this }.\n__global__ void k(int *x) {}\n"
    asked = len(server.requests)
    (out / "ops-0002.cu").unlink()
    assert main(["dataset", "synth", str(template), "--model-url", server.url, "--out", str(out)]) == 0
    assert len(server.requests) == asked + 1   # only the missing one


def test_placeholder_without_values_is_an_error(tmp_path, server, capsys):
    template = tmp_path / "bad.json"
    template.write_text(json.dumps({"prompt": "no placeholders", "values": {"x": [1]}}))
    assert main(["dataset", "synth", str(template), "--model-url", server.url, "--out", str(tmp_path)]) == 1
    assert "value list 'x' has no placeholder {x}" in capsys.readouterr().err
