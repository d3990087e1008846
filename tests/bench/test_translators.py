"""`cass-cc bench --translator`: translators scored by running what they answer, with real tools
(nvcc, hipcc, llvm-mc, ld.lld, the emulator) and default settings.

The model rows use stand-in servers (tests/model/stand_in.py) that answer with texts the tests
choose: a correct translation (the lifter's assembly for the kernel's SASS, cass-cc's hipify for
the CUDA file), a wrong one (the store of the result dropped; one operand changed) and garbage.
The command row is a real small program: it applies cass-cc's hipify to a CUDA file, and returns
the lifter's assembly (written by `cass-cc translate`) for a kernel's SASS."""

from __future__ import annotations

import json
import re
import socket
import sys
from pathlib import Path

import pytest

from cass_cc.bench.programs import PROGRAMS_ROOT
from cass_cc.hipify import translate as hipify
from tests.conftest import run_tool
from tests.model.stand_in import StandInServer

REPO = Path(__file__).resolve().parent.parent.parent
QUICK = "primitives/reduce_warp,crypto/xtea_ctr,physics/nbody_struct"   # one kernel; -rdc; two files
PROGRAM = "primitives/reduce_warp"
KERNEL = "_Z9block_sumIiLi128EEvPKT_PS0_i"
GARBAGE = "I am sorry, I cannot translate this."

COMMAND = '''
import os, sys
sys.path.insert(0, sys.argv[1])
from cass_cc.hipify import translate
path = sys.argv[-1]
if path.endswith(".sass"):
    assert ".text." + os.environ["CASS_KERNEL"] in open(path).read()     # it got the kernel's SASS
    print(open(os.path.join(sys.argv[2], os.environ["CASS_KERNEL"] + ".s")).read())
else:
    result = translate(open(path).read(), os.path.basename(path))
    print((f'#include "{result.compat_header}"\\n' if result.compat_header else "") + result.text)
'''


def _rows(stdout: str) -> dict[str, list[str]]:
    """The overall table's rows: translator -> [assembly, source]."""
    overall = stdout.split("| Translator | Assembly accuracy | Source-to-source accuracy |", 1)[1].split("\n\n")[0]
    rows = {}
    for line in overall.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def _results(out: Path) -> dict[tuple[str, str, str], dict]:
    data = json.loads((out / "translators.json").read_text())
    return {(r["translator"], r["level"], r["program"]): r for r in data["results"]}


@pytest.mark.slow
def test_lift_and_hipify_rows(tmp_path):
    done = run_tool("cass-cc", "bench", "--translator", "lift", "--translator", "hipify", "--only", QUICK,
                    "--jobs", "2", "--out", str(tmp_path), timeout=900)
    assert done.returncode == 0, done.stderr
    assert _rows(done.stdout) == {"lift": ["3/3 (100%)", "-"], "hipify": ["-", "3/3 (100%)"]}, done.stdout
    assert "| Translator | crypto | physics | primitives | overall |" in done.stdout
    assert done.stdout.splitlines()[-1] == "6 passed, 0 failed"
    results = _results(tmp_path)
    assert len(results) == 6 and all(r["passed"] for r in results.values())
    nbody = results[("lift", "assembly", "physics/nbody_struct")]
    assert sorted(k["name"] for k in nbody["kernels"]) == [
        "_Z6forcesPK6float4P6float39SimParams", "_Z9integrateP6float4P6float3PKS1_9SimParams"]
    md = (tmp_path / "translators.md").read_text()
    assert "## Failures\n\nNone." in md and md.rstrip().endswith("6 passed, 0 failed")


@pytest.fixture(scope="module")
def lifted(tmp_path_factory) -> Path:
    """The lifter's files for the program's kernel, as `cass-cc translate` writes them."""
    folder = tmp_path_factory.mktemp("lifted")
    done = run_tool("cass-cc", "translate", str(PROGRAMS_ROOT / PROGRAM / "main.cu"), "-o", str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def _server(answer) -> StandInServer:
    server = StandInServer()
    server.answer = answer
    return server


@pytest.mark.slow
def test_model_rows_pass_only_what_runs_correctly_and_command_row(lifted, tmp_path):
    asm = (lifted / f"{KERNEL}.s").read_text()
    hip = hipify((PROGRAMS_ROOT / PROGRAM / "main.cu").read_text(), "main.cu")
    hip_text = (f'#include "{hip.compat_header}"\n' if hip.compat_header else "") + hip.text
    assert asm.count("\tglobal_store_b32 ") == 1 and hip_text.count("v += in[i];") == 1
    wrong_asm = re.sub(r"^\tglobal_store_b32 .*\n", "", asm, flags=re.M)
    wrong_hip = hip_text.replace("v += in[i];", "v += in[i] + 1;")

    def by_level(assembly: str, source: str):
        return lambda prompt: assembly if "SASS" in prompt else source

    good = _server(by_level(asm, f"```cpp\n{hip_text}```\n"))
    wrong = _server(by_level(f"Here it is:\n```asm\n{wrong_asm}```\n", wrong_hip))
    garbage = _server(GARBAGE)
    script = tmp_path / "translate.py"
    script.write_text(COMMAND)
    command = f"command:{sys.executable} {script} {REPO} {lifted}"
    try:
        done = run_tool("cass-cc", "bench", "--only", PROGRAM, "--out", str(tmp_path / "out"), "--jobs", "2",
                        *[a for s in (good, wrong, garbage) for a in ("--translator", f"model:{s.url}")],
                        "--translator", command, timeout=900)
    finally:
        for s in (good, wrong, garbage):
            s.close()
    assert done.returncode == 0, done.stderr
    rows = _rows(done.stdout)
    assert rows[f"model:{good.url}"] == ["1/1 (100%)", "1/1 (100%)"], done.stdout
    assert rows[f"model:{wrong.url}"] == ["0/1 (0%)", "0/1 (0%)"]
    assert rows[f"model:{garbage.url}"] == ["0/1 (0%)", "0/1 (0%)"]
    assert rows[command] == ["1/1 (100%)", "1/1 (100%)"]
    assert done.stdout.splitlines()[-1] == "4 passed, 4 failed"

    # what the model was asked: the kernel's compact SASS, and the CUDA file
    prompts = [r["body"]["messages"][0]["content"] for r in good.requests]
    assert len(prompts) == 2
    assert any("SASS" in p and "RDNA3" in p and "SHFL.DOWN" in p for p in prompts), prompts
    assert any("HIP" in p and "__shfl_down_sync" in p for p in prompts)

    results = _results(tmp_path / "out")
    key = lambda server, level: (f"model:{server.url}", level, PROGRAM)   # noqa: E731
    # wrong: both build and run, and the judge says why they fail (the program's own check too)
    for level in ("assembly", "source"):
        r = results[key(wrong, level)]
        assert (r["passed"], r["stage"]) == (False, "run"), r
        assert r["error"].startswith("no PASS line (exit 1)") and r["checksum"] != "-2005", r
    assert results[key(wrong, "assembly")]["kernels"][0]["status"] == "ok"
    # garbage: llvm-mc and hipcc refuse it, with their message
    r = results[key(garbage, "assembly")]
    assert r["stage"] == "assemble" and "invalid instruction" in r["error"] and "block_sum<int, 128>" in r["error"], r
    r = results[key(garbage, "source")]
    assert r["stage"] == "compile" and "error" in r["error"], r
    md = (tmp_path / "out" / "translators.md").read_text()
    assert f"| `model:{garbage.url}` | assembly | {PROGRAM} | assemble | " in md


def test_translators_that_give_no_answer_fail_with_the_reason(tmp_path):
    with socket.socket() as s:            # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    done = run_tool("cass-cc", "bench", "--only", PROGRAM, "--out", str(tmp_path), "--translator", f"model:{url}",
                    "--translator", "command:false", "--translator", f"command:{tmp_path}", timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 passed, 6 failed"
    results = _results(tmp_path)
    for level in ("assembly", "source"):
        errors = {t: results[(t, level, PROGRAM)]["error"]
                  for t in (f"model:{url}", "command:false", f"command:{tmp_path}")}
        assert all(results[(t, level, PROGRAM)]["stage"] == "translate" for t in errors)
        assert errors[f"model:{url}"].endswith(f"no server at {url} (check the URL given)"), errors
        assert errors["command:false"].endswith("command exited 1"), errors
        assert errors[f"command:{tmp_path}"].endswith(f"cannot run command '{tmp_path}': Permission denied"), errors


def test_unknown_translator_is_a_usage_error(tmp_path):
    done = run_tool("cass-cc", "bench", "--translator", "gpt", "--out", str(tmp_path / "o"))
    assert done.returncode == 2
    assert "'gpt': choose lift, hipify, model[:URL] or command:CMD" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "o").exists()


def test_translator_does_not_go_with_routes(tmp_path):
    done = run_tool("cass-cc", "bench", "--translator", "lift", "--routes", "binary", "--out", str(tmp_path / "o"))
    assert done.returncode == 2 and "--translator does not go with --routes" in done.stderr
