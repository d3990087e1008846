"""The option table: every documented nvcc option is recognised in each of its spellings, values
are checked, unsupported options are refused with their reason, and nvcc's own --help lists
nothing the table lacks."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cass_cc.driver import help as help_texts
from cass_cc.driver.nvcc_command import nvcc_command
from cass_cc.driver import options as O
from cass_cc.driver.parse import UsageError, parse
from cass_cc.driver.settings import settings_from

SAMPLE = {"generate-code": "arch=compute_80,code=sm_80", "optimize": "2"}


def sample(opt: O.Option) -> str:
    return opt.choices[0] if opt.choices else SAMPLE.get(opt.long, "v1")


def spellings(opt: O.Option) -> list[list[str]]:
    names = ["--" + opt.long] + (["-" + opt.short] if opt.short else [])
    forms = []
    for name in names:
        if opt.kind == O.FLAG:
            forms.append([name])
        else:
            forms += [[f"{name}={sample(opt)}"], [name, sample(opt)]]
    if opt.short in O.ATTACHED_SHORTS:
        forms.append([f"-{opt.short}{sample(opt)}"])
    return forms


@pytest.mark.parametrize("opt", [o for o in O.ALL if o.long != "options-file"], ids=lambda o: o.long)
def test_every_spelling_is_recognised(opt):
    for argv in spellings(opt):
        args = parse(argv + ["x.cu"], env={})
        assert args.unknown == [], argv
        assert args.inputs == ["x.cu"], argv
        expected = [""] if opt.kind == O.FLAG else [sample(opt)]
        assert args.values[opt.long] == expected, argv


@pytest.mark.parametrize("opt", [o for o in O.ALL if o.status == O.UNSUPPORTED], ids=lambda o: o.long)
def test_unsupported_options_are_refused_with_their_reason(opt):
    argv = ["--" + opt.long] if opt.kind == O.FLAG else [f"--{opt.long}={sample(opt)}"]
    with pytest.raises(UsageError) as e:
        settings_from(parse(argv + ["x.cu"], env={}))
    assert e.value.message.startswith(f"option '--{opt.long}' is not supported yet: ")
    assert opt.reason in e.value.message


@pytest.mark.parametrize("opt", [o for o in O.ALL if o.status == O.RECORDED], ids=lambda o: o.long)
def test_recorded_options_are_listed(opt):
    argv = ["--" + opt.long] if opt.kind == O.FLAG else [f"--{opt.long}={sample(opt)}"]
    settings = settings_from(parse(argv + ["x.cu"], env={}))
    assert any(r.startswith("--" + opt.long) and opt.reason in r for r in settings.recorded)


def test_table_has_no_duplicate_spellings():
    longs = [o.long for o in O.ALL]
    shorts = [o.short for o in O.ALL if o.short]
    assert len(longs) == len(set(longs))
    assert len(shorts) == len(set(shorts))


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc to read its --help")
def test_nvcc_help_lists_nothing_the_table_lacks():
    text = subprocess.run(["nvcc", "--help"], capture_output=True, text=True).stdout
    listed = re.findall(r"^--([\w-]+)[^\n(]*\(-([\w-]+)\)", text, re.M)
    assert len(listed) > 120
    for long, short in listed:
        assert long in O.BY_LONG, f"--{long} missing from the table"
        assert O.BY_LONG[long].short == short, f"--{long}: short -{short}"


def test_lists_split_at_commas_and_repeat():
    args = parse(["-Ia,b", "-I", "c", "--include-path=d", "-Xcompiler", "-fPIC,-Wall", "x.cu"], env={})
    assert args.list("include-path") == ["a", "b", "c", "d"]
    assert args.list("compiler-options") == ["-fPIC", "-Wall"]


def test_gencode_keeps_its_commas_and_records_the_targets():
    args = parse(["-gencode", "arch=compute_80,code=[sm_80,compute_80]",
                  "-gencode=arch=compute_90,code=sm_90", "x.cu"], env={})
    assert settings_from(args).nvidia_targets == ["sm_80", "compute_80", "sm_90"]
    assert settings_from(parse(["-arch=sm_86", "x.cu"], env={})).nvidia_targets == ["sm_86"]
    assert settings_from(parse(["x.cu"], env={})).nvidia_targets == ["sm_75"]


@pytest.mark.parametrize("argv,message", [
    (["-std=c++99"], "value 'c++99' is not defined for option '-std'"),
    (["--cudart", "dynamic"], "value 'dynamic' is not defined for option '--cudart'"),
    (["-Werror", "-c"], "value '-c' is not defined for option '-Werror'"),  # as nvcc: it takes a kind
    (["-o"], "option '-o' needs a value"),
    (["-c=yes"], "option '-c' takes no value"),
])
def test_bad_values(argv, message):
    with pytest.raises(UsageError) as e:
        parse(["x.cu"] + argv, env={})
    assert message in e.value.message


def test_unknown_options_are_refused_unless_forwarded():
    with pytest.raises(UsageError) as e:
        settings_from(parse(["-fopenmp", "x.cu"], env={}))
    assert e.value.message.startswith("option '-fopenmp' is not supported yet: it is not an nvcc option")
    s = settings_from(parse(["-forward-unknown-to-host-compiler", "-fopenmp", "x.cu"], env={}))
    assert "-fopenmp" in s.host_options
    s = settings_from(parse(["-forward-unknown-to-host-linker", "-Wl,-rpath,/x", "x.cu"], env={}))
    assert s.link_flags == ["-Wl,-rpath,/x"]


def test_single_dash_long_names_are_not_nvcc_spellings():
    args = parse(["-output-file=x.o", "x.cu"], env={})  # nvcc: "Unknown option"
    assert args.unknown == ["-output-file=x.o"]


def test_response_files(tmp_path):
    (tmp_path / "more.txt").write_text('-O3 "-DNAME=two words"\n-Iinc\n')
    (tmp_path / "first.rsp").write_text(f"-c --options-file {tmp_path / 'more.txt'}\n")
    args = parse([f"@{tmp_path / 'first.rsp'}", "x.cu"], env={})
    assert args.flag("compile") and args.value("optimize") == "3"
    assert args.list("define-macro") == ["NAME=two words"] and args.list("include-path") == ["inc"]
    with pytest.raises(UsageError, match="cannot read options file"):
        parse(["-optf", str(tmp_path / "missing.txt")], env={})


def test_cass_options_come_from_the_environment():
    s = settings_from(parse(["x.cu"], env={"CASS_ROUTE": "source", "CASS_OFFLOAD_ARCH": "gfx1100,gfx1101",
                                             "CASS_SAVE_TEMPS": "1", "CASS_VERBOSE": "0"}))
    assert s.route == "source" and s.offload_archs == ["gfx1100", "gfx1101"]
    assert s.save_temps and not s.verbose
    s = settings_from(parse(["--cass-route=auto", "x.cu"], env={"CASS_ROUTE": "source"}))
    assert s.route == "auto"  # the command line wins
    with pytest.raises(UsageError, match="CASS_ROUTE"):
        parse(["x.cu"], env={"CASS_ROUTE": "fast"})


def test_werror_kinds():
    s = settings_from(parse(["-Werror", "all-warnings,cross-execution-space-call", "x.cu"], env={}))
    assert "-Werror" in s.warning_flags
    assert any(r.startswith("-Werror=cross-execution-space-call") for r in s.recorded)


def test_device_options_map_to_hip_options():
    s = settings_from(parse(["--use_fast_math", "-G", "x.cu"], env={}))
    assert "-fgpu-flush-denormals-to-zero" in s.device_flags
    assert "-fno-hip-fp32-correctly-rounded-divide-sqrt" in s.device_flags
    assert s.opt_level == "0" and s.device_debug
    s = settings_from(parse(["--fmad=false", "-default-stream", "legacy", "x.cu"], env={}))
    assert s.device_flags == ["-ffp-contract=off", "-fgpu-default-stream=legacy"]
    # The binary route's host code is nvcc's: it calls libcassrt's per-thread forms (_ptds/_ptsz).
    s = settings_from(parse(["-default-stream", "per-thread", "x.cu"], env={}))
    assert s.device_flags == [] and s.per_thread_default_stream and not s.warnings
    assert "-default-stream=per-thread" in nvcc_command("x.cu", "cu", "x.o", s)
    # The source route's HIP 5.2 lacks most *_spt functions: the legacy stream, with a warning.
    s = settings_from(parse(["-default-stream", "per-thread", "--cass-route=source", "x.cu"], env={}))
    assert s.device_flags == [] and s.warnings[0].startswith("-default-stream per-thread: ")


def test_help_lists_every_option_and_version_reads_like_nvcc():
    text = help_texts.help_text()
    for opt in O.ALL:
        assert f"--{opt.long}" in text
    version = help_texts.version_text()
    assert "nvcc: NVIDIA (R) Cuda compiler driver" in version  # what CMake looks for
    assert re.search(r"V\d+\.\d+\.\d+", version)


def test_link_line_names_the_hip_libraries(tmp_path):
    """-lcublas links hipBLAS (hipify renames the calls alike); the CUDA runtime libraries give
    way to the HIP runtime; -L, -Xlinker and other libraries pass through."""
    from cass_cc.driver import source_route
    from cass_cc.driver.plan import Link

    s = settings_from(parse(["-L/opt/lib", "-lcublas", "-lcudart", "-lm", "-Xlinker", "--as-needed",
                             "x.o"], env={}))
    [link, _] = source_route.link_jobs(Link(["x.o"], "prog"), s, str(tmp_path))
    tail = link.argv[link.argv.index("-L/opt/lib"):]
    assert tail == ["-L/opt/lib", "-lhipblas", "-lm", "-Xlinker", "--as-needed"]
    assert "-lcudart" not in link.argv and "-lcublas" not in link.argv


@pytest.mark.parametrize("argv, expected", [
    (["--expt-relaxed-constexpr"], ["--expt-relaxed-constexpr"]),
    (["-expt-relaxed-constexpr", "--expt-extended-lambda"], ["--expt-relaxed-constexpr", "--extended-lambda"]),
    (["--extended-lambda"], ["--extended-lambda"]),
    ([], []),
])
def test_nvcc_front_end_options_are_kept_for_the_real_nvcc(argv, expected):
    # Device code calling std::numeric_limits<T>::max() or min() compiles with nvcc only with
    # --expt-relaxed-constexpr: the binary route's nvcc step must get it too.
    assert settings_from(parse(argv + ["x.cu"], env={})).nvcc_front_end == expected


@pytest.mark.parametrize("argv, long, value", [
    (["-t4"], "threads", "4"),
    (["-Xfatbin", "-compress-all"], "fatbin-options", "-compress-all"),
    (["--fatbin-options=-compress-all"], "fatbin-options", "-compress-all"),
])
def test_spellings_real_builds_use(argv, long, value):
    # Both are accepted by nvcc 13 (-Xfatbin is missing from its --help) and appear in real
    # Makefiles; they only concern NVIDIA tools, so they are recorded.
    args = parse(argv + ["x.cu"], env={})
    assert args.values[long] == [value]
    assert any(note.startswith(argv[0]) for note in settings_from(args).recorded)


def test_glued_threads_take_only_numbers():
    with pytest.raises(UsageError, match="-tx"):
        settings_from(parse(["-tx", "x.cu"], env={}))


@pytest.mark.parametrize("argv, output", [
    (["-dlink", "a.o", "b.o"], "a_dlink.o"),
    (["--device-link", "a.o", "-odir", "out"], "out/a_dlink.o"),
    (["-dlink", "a.o", "b.o", "-o", "d.o"], "d.o"),
    (["-dlink", "a.o", "-lib", "-o", "libd.a"], "libd.a"),   # nvcc writes the object there, no archive
])
def test_device_link_plans_one_step_with_nvccs_output_name(tmp_path, monkeypatch, argv, output):
    from cass_cc.driver.plan import DeviceLink, make_plan

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.o").write_bytes(b"")
    (tmp_path / "b.o").write_bytes(b"")
    plan = make_plan(parse(argv, env={}), str(tmp_path))
    assert plan == [DeviceLink([i for i in argv if i.endswith(".o") and i != output], output)]


@pytest.mark.parametrize("argv, message", [
    (["-dlink", "-c", "a.o"], "-dlink with -c/-dc/-dw: nvcc compiles and links nothing"),
    (["-dlink", "-dc", "a.o"], "-dlink with -c/-dc/-dw"),
    (["-dlink", "a.o", "x.cu"], "-dlink takes objects: compile 'x.cu' with -dc first"),
])
def test_device_link_refuses_what_would_do_nothing_or_compile(tmp_path, monkeypatch, argv, message):
    from cass_cc.driver.plan import make_plan

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.o").write_bytes(b"")
    (tmp_path / "x.cu").write_text("__global__ void k() {}\n")
    with pytest.raises(UsageError) as e:
        make_plan(parse(argv, env={}), str(tmp_path))
    assert e.value.message.startswith(message)
