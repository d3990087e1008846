"""Stages as data (issue 13, item 2): one table (cass_cc.unit.ARTIFACTS) names what each stage
makes, and --cass-dump-after, the files a translation writes and the cache's entries all follow
it; the translation unit's link is the stage that makes the code object, and verify checks every
kernel in that code object, the one that is embedded; a translation can start from a saved .ll
or .s."""

from __future__ import annotations

import json
import subprocess

import pytest

from cass_cc import toolchain
from cass_cc.unit import ARTIFACTS, KERNEL_ARTIFACTS, stage_making
from tests.conftest import run_tool

SOURCE = """
__global__ void store(int *p) { p[threadIdx.x] = 7; }
__global__ void victim(int *p) { p[threadIdx.x] += 3; }
"""
STORE, VICTIM = "_Z5storePi", "_Z6victimPi"


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stages")
    (folder / "two.cu").write_text(SOURCE)
    subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", str(folder / "two.cu"), "-o", str(folder / "two.o")],
                   check=True)
    return folder


def _units(source):
    from cass_cc.passes import units_from_file
    return units_from_file(str(source / "two.o"))


def test_every_stage_of_the_table_is_a_pass():
    from cass_cc.passes import PASSES
    assert set(ARTIFACTS) - {"model"} <= set(PASSES)
    assert [a.extension for a in KERNEL_ARTIFACTS] == ["sass", "ll", "s", "o"]
    assert ARTIFACTS["link"].per_tu and stage_making("hsaco") == "link" and stage_making("ll") == "lift"


def test_dump_after_prints_the_stages_artifact(source, capsys):
    from cass_cc.passes import LIFT_PIPELINE
    from cass_cc.pipeline import run_units

    units = run_units(_units(source), LIFT_PIPELINE, dump_after="lift")
    err = capsys.readouterr().err
    assert all(u.status == "ok" for u in units), [u.reasons for u in units]
    for u in units:
        assert f"*** {u.name} after lift ***\n{u.llvm_ir}\n" in err
    run_units(_units(source), LIFT_PIPELINE, dump_after="link")
    err = capsys.readouterr().err
    assert f"*** {STORE} after link ***\n<" in err and "bytes of ELF" in err


def test_save_temps_and_cache_follow_the_table(source, tmp_path):
    from cass_cc.cache import TranslationCache, kernel_key
    from cass_cc.translation import link_units, translate_unit, write_outputs

    cache = TranslationCache(tmp_path / "cache")
    units = [translate_unit(u, cache) for u in _units(source)]
    code = link_units(units, cache)
    assert code and all(u.code_object == code for u in units)
    write_outputs(units, str(tmp_path / "out"), str(source / "two.cu"), "gfx1100", [code], [])
    kernel_files = {f"{u.name}.{a.extension}" for u in units for a in KERNEL_ARTIFACTS}
    assert {p.name for p in (tmp_path / "out").iterdir()} == kernel_files | {"two.hsaco", "two.cass-report.json"}
    for u in units:
        entry = json.loads(next((tmp_path / "cache").rglob(f"{kernel_key(u)}.json")).read_text())
        assert entry["artifacts"] == [a.extension for a in KERNEL_ARTIFACTS]
        assert {a.extension for a in KERNEL_ARTIFACTS} <= set(entry) and "hsaco" not in entry
    linked = list((tmp_path / "cache" / "linked").rglob(f"*.{ARTIFACTS['link'].extension}"))
    assert [p.read_bytes() for p in linked] == [code]


def _drop_victims_object(monkeypatch):
    """ld.lld, as the link stage calls it, loses the victim kernel's object: the metadata note
    still lists the kernel, its descriptor is gone (a broken link)."""
    from cass_cc.passes import link as link_pass
    from cass_cc.rdna3.tools import link

    def broken(objects: list[bytes]) -> bytes:
        return link([o for o in objects[:-1] if VICTIM.encode() not in o] + objects[-1:])
    monkeypatch.setattr(link_pass, "link", broken)


def test_verify_checks_the_code_object_of_the_translation_unit(source, monkeypatch):
    from cass_cc.rdna3 import CodeObject
    from cass_cc.translation import link_units, translate_unit

    units = {u.name: translate_unit(u) for u in _units(source)}
    _drop_victims_object(monkeypatch)
    code = link_units(list(units.values()))
    victim, store = units[VICTIM], units[STORE]
    assert (victim.status, victim.refused_by, victim.refusal_kind) == ("failed", "verify", "failed-check")
    assert victim.reasons == [f"verify: kernel descriptor '{VICTIM}.kd' missing"] and not victim.code_object
    # the others are linked again without it: what is left holds only kernels that passed
    assert store.status == "ok" and store.code_object == code and set(CodeObject(code).kernels) == {STORE}


def test_a_broken_link_is_a_loud_error_naming_kernel_and_pass(source, tmp_path, monkeypatch, capsys):
    from cass_cc.driver import main as cass_nvcc

    monkeypatch.chdir(source)
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache"))   # a cached link would not meet the patch
    _drop_victims_object(monkeypatch)
    status = cass_nvcc.main(["--cass-route=binary", "-c", "two.cu", "-o", str(tmp_path / "two.o")])
    err = capsys.readouterr().err
    assert status == 1, err
    assert err.splitlines()[-1] == (f"cass-nvcc: error: two.cu:3: kernel 'victim(int*)' cannot be translated: "
                                    f"verify: kernel descriptor '{VICTIM}.kd' missing (--cass-route=binary allows "
                                    "no hipify fallback; --cass-route=auto does)")
    assert not (tmp_path / "two.o").exists()


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A kernel's files as `cass-cc translate` writes them."""
    folder = tmp_path_factory.mktemp("saved")
    (folder / "one.cu").write_text("__global__ void store(int *p) { p[threadIdx.x] = 7; }\n")
    proc = run_tool("cass-cc", "translate", str(folder / "one.cu"), "-o", str(folder / "out"), "--no-cache")
    assert proc.returncode == 0, proc.stderr
    return folder / "out"


@pytest.mark.parametrize("extension", ["ll", "s"])
def test_translate_from_a_saved_stage(saved, tmp_path, extension):
    """The stages after the file's run: from the .ll codegen on, from the .s assemble on; the
    code object is the one the whole translation made."""
    proc = run_tool("cass-cc", "translate", str(saved / f"{STORE}.{extension}"), "-o", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("store(int*): lift ok\n")
    written = {p.name for p in (tmp_path / "o").iterdir()}
    chain = {"ll": {"ll", "s", "o"}, "s": {"s", "o"}}[extension]
    assert written == {f"{STORE}.{e}" for e in chain} | {f"{STORE}.hsaco", f"{STORE}.cass-report.json"}
    assert (tmp_path / "o" / f"{STORE}.hsaco").read_bytes() == (saved / "one.hsaco").read_bytes()
    report = json.loads((tmp_path / "o" / f"{STORE}.cass-report.json").read_text())
    assert [k["status"] for k in report["kernels"]] == ["ok"] and report["nvidia_targets"] == []


def test_an_edited_ll_is_translated_as_edited(saved, tmp_path):
    from cass_cc.rdna3 import CodeObject

    text = (saved / f"{STORE}.ll").read_text()
    assert "i32 7," in text
    (tmp_path / "k.ll").write_text(text.replace("i32 7,", "i32 1234,"))
    proc = run_tool("cass-cc", "translate", str(tmp_path / "k.ll"), "-o", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0x4d2" in (tmp_path / "o" / f"{STORE}.s").read_text()
    assert STORE in CodeObject((tmp_path / "o" / "k.hsaco").read_bytes()).kernels


def test_saved_files_that_cannot_be_translated(saved, tmp_path):
    s = run_tool("cass-cc", "translate", str(saved / f"{STORE}.s"), "--cass-offload-arch", "gfx1101",
                 "-o", str(tmp_path / "o"))
    assert s.returncode == 1 and "is assembly for gfx1100, not gfx1101" in s.stderr
    text = (saved / f"{STORE}.ll").read_text()
    (tmp_path / "two.ll").write_text(text + text.replace(f"@{STORE}(", "@other(", 1))
    two = run_tool("cass-cc", "translate", str(tmp_path / "two.ll"), "-o", str(tmp_path / "o"))
    assert two.returncode == 1 and f"2 kernels ({STORE}, other)" in two.stderr
    assert not (tmp_path / "o").exists()
