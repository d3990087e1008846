"""Settings: what every compile and link step needs to know, derived once from the parsed
command line. Routes (source, binary) and the host compiler read this, never the raw argv."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .. import targets
from . import options as O
from .parse import Arguments, UsageError

DEFAULT_OFFLOAD_ARCH = targets.DEFAULT
DEFAULT_NVIDIA_TARGET = "sm_75"  # nvcc 12/13's default when no -arch is given

# nvcc's -Werror kinds -> clang's warning flags (kinds without a clang warning are recorded).
WERROR_FLAGS = {"all-warnings": "-Werror", "reorder": "-Werror=reorder",
                "deprecated-declarations": "-Werror=deprecated-declarations"}


def _bool(value: str | None) -> bool | None:
    return None if value is None else value == "true"


FLUSH_DENORMALS = "-fgpu-flush-denormals-to-zero"


@dataclass
class Settings:
    route: str = "auto"
    offload_archs: list[str] = field(default_factory=lambda: [DEFAULT_OFFLOAD_ARCH])
    translators: list[str] = field(default_factory=lambda: ["lift"])
    report_path: str | None = None
    save_temps: bool = False
    keep_dir: str | None = None          # --keep/--keep-dir: where intermediates are kept
    verbose: bool = False
    dryrun: bool = False
    dump_after: str | None = None
    time_passes: bool = False
    embed_reference: bool = False        # --cass-embed-reference: hipcc's build beside the translation

    include_dirs: list[str] = field(default_factory=list)
    system_dirs: list[str] = field(default_factory=list)
    pre_includes: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    undefines: list[str] = field(default_factory=list)
    std: str | None = None
    opt_level: str | None = None
    debug: bool = False
    device_debug: bool = False
    lineinfo: bool = False
    profile: bool = False
    no_warnings: bool = False
    warning_flags: list[str] = field(default_factory=list)
    device_flags: list[str] = field(default_factory=list)   # hipcc options from nvcc device options
    # -default-stream per-thread: nvcc's host code calls the per-thread forms (cudaMemcpy_ptds ...),
    # which libcassrt implements (binary route)
    per_thread_default_stream: bool = False
    # nvcc front-end options the real nvcc needs to accept the source (binary route); clang's
    # HIP mode needs no flag for them
    nvcc_front_end: list[str] = field(default_factory=list)
    host_options: list[str] = field(default_factory=list)   # -Xcompiler and forwarded unknowns
    linker_options: list[str] = field(default_factory=list)  # -Xlinker and forwarded unknowns
    # -Xcompiler options go to the host compiler when nvcc links too (-fopenmp, -pthread,
    # -fsanitize=...: they choose libraries); forwarded unknowns follow -forward-unknown-to-host-linker
    host_link_options: list[str] = field(default_factory=list)
    link_flags: list[str] = field(default_factory=list)      # forwarded unknowns, as written
    archive_options: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    library_dirs: list[str] = field(default_factory=list)
    ccbin: str | None = None
    arbin: str | None = None
    nvidia_targets: list[str] = field(default_factory=list)
    rdc: bool = False                 # relocatable device code (-rdc=true, -dc)
    recorded: list[str] = field(default_factory=list)      # "--option=value (why)" for the report
    # The command line's options for a step of the build that is a command of its own (cass-cc
    # translate-object): they give it these same settings.
    step_options: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)      # printed before the build (not with -w)

    # dependency files
    deps_mode: str | None = None      # "M", "MM", "MD", "MMD"
    deps_file: str | None = None
    deps_targets: list[str] = field(default_factory=list)
    deps_phony: bool = False

    @property
    def offload_arch(self) -> str:
        return self.offload_archs[0]

    def flushes_denormals(self) -> bool:
        """Whether device code flushes f32 denormals (-ftz=true, or --use_fast_math's)."""
        return FLUSH_DENORMALS in self.device_flags

    def language_flags(self) -> list[str]:
        """Flags every compiler step gets (host compiler and hipcc): dialect, optimization,
        debug info, warnings and the user's host options."""
        # HIP 5.2 declares hipError_t [[nodiscard]] (cudaError_t is not): CUDA code that ignores
        # a call's status compiles quietly with nvcc and should here too.
        flags = ["-Wno-unused-result"]
        if self.std:
            flags.append(f"-std={self.std}")
        if self.opt_level is not None:
            flags.append(f"-O{self.opt_level}")
        if self.debug:
            flags.append("-g")
        if self.profile:
            flags.append("-pg")
        if self.no_warnings:
            flags.append("-w")
        return flags + self.warning_flags + self.host_options


def nvidia_targets(args: Arguments) -> list[str]:
    """NVIDIA targets named by -arch/-code/-gencode, as nvcc would build them (recorded only)."""
    targets: list[str] = []
    for spec in args.list("generate-code"):
        fields = dict(part.split("=", 1) for part in re.split(r",(?=\w+=)", spec) if "=" in part)
        if "arch" not in fields:
            raise UsageError(f"-gencode '{spec}' has no arch= field")
        codes = fields.get("code", fields["arch"]).strip("[]\"'")
        targets += [c for c in re.split(r"[,\s]+", codes) if c]
    arch = args.value("gpu-architecture")
    if arch:
        targets += args.list("gpu-code") or [arch]
    return list(dict.fromkeys(targets)) or [DEFAULT_NVIDIA_TARGET]


def _device_flags(args: Arguments) -> list[str]:
    """nvcc's device-code options as clang HIP options."""
    fast = args.flag("use_fast_math")
    ftz = _bool(args.value("ftz"))
    prec_div = _bool(args.value("prec-div"))
    prec_sqrt = _bool(args.value("prec-sqrt"))
    fmad = _bool(args.value("fmad"))
    flags = []
    if ftz or (fast and ftz is None):
        flags.append(FLUSH_DENORMALS)
    if prec_div is False or prec_sqrt is False or (fast and prec_div is None and prec_sqrt is None):
        flags.append("-fno-hip-fp32-correctly-rounded-divide-sqrt")
    if fmad is False:
        flags.append("-ffp-contract=off")
    elif fmad or fast:
        flags.append("-ffp-contract=fast")
    if args.value("default-stream") in ("legacy", "null"):
        flags.append("-fgpu-default-stream=legacy")
    if args.flag("device-debug"):
        flags += ["-g", "-Xarch_device", "-O0"]
    elif args.flag("generate-line-info"):
        flags.append("-gline-tables-only")
    return flags


def _nvcc_front_end(args: Arguments) -> list[str]:
    flags = ["--expt-relaxed-constexpr"] if args.flag("expt-relaxed-constexpr") else []
    if args.flag("extended-lambda") or args.flag("expt-extended-lambda"):
        flags.append("--extended-lambda")
    return flags


def _warning_flags(args: Arguments) -> list[str]:
    flags = []
    if args.flag("Wreorder"):
        flags.append("-Wreorder")
    if args.flag("Wno-deprecated-declarations"):
        flags.append("-Wno-deprecated-declarations")
    flags += [WERROR_FLAGS[k] for k in args.list("Werror") if k in WERROR_FLAGS]
    for name in ("ftemplate-backtrace-limit", "ftemplate-depth", "frandom-seed"):
        if args.value(name) is not None:
            flags.append(f"-{name}={args.value(name)}")
    if args.flag("no-exceptions"):
        flags.append("-fno-exceptions")
    return flags


# HIP 5.2's headers route per-thread-stream calls to *_spt functions that its runtime does not
# all have (hipEventRecord_spt), so the source route's programs would not link; the binary route's
# host code is nvcc's, calling libcassrt's _ptds/_ptsz functions.
PER_THREAD_STREAM_NOTE = ("-default-stream per-thread: the installed HIP runtime lacks a complete "
                          "per-thread default stream; the source route uses the legacy default "
                          "stream (it synchronizes more; results are the same)")


NO_RDC_REFERENCE_NOTE = ("--cass-embed-reference: relocatable device code (-rdc) gets no reference; "
                         "cass-run --check reports its kernels unchecked")


def _warnings(args: Arguments) -> list[str]:
    per_thread = args.value("default-stream") == "per-thread"
    notes = [PER_THREAD_STREAM_NOTE] if per_thread and args.value("cass-route", "auto") == "source" else []
    rdc = args.value("relocatable-device-code") == "true" or args.flag("device-c")
    if args.flag("cass-embed-reference") and rdc:
        notes.append(NO_RDC_REFERENCE_NOTE)
    return notes


def _recorded(args: Arguments) -> list[str]:
    notes = []
    for long, values in args.values.items():
        opt = O.BY_LONG[long]
        if opt.status == O.RECORDED:
            shown = args.spelled.get(long, "--" + long)
            vals = [v for v in values if v]
            notes.append(f"{shown}{'=' + ','.join(vals) if vals else ''} ({opt.reason})")
    for kind in args.list("Werror"):
        if kind not in WERROR_FLAGS:
            notes.append(f"-Werror={kind} (an nvcc front-end warning clang does not have)")
    return notes


def _offload_archs(names: list[str]) -> list[str]:
    """The AMD targets asked for, each one of cass_cc/targets.py's table."""
    for name in names:
        if name not in targets.TARGETS:
            raise UsageError(f"--cass-offload-arch '{name}' is not a target cass-cc knows "
                             f"(known: {', '.join(targets.TARGETS)})")
    return names


def _reject_unsupported(args: Arguments) -> None:
    for long in args.values:
        opt = O.BY_LONG[long]
        if opt.status == O.UNSUPPORTED:
            raise UsageError(f"option '{args.spelled.get(long, '--' + long)}' is not supported yet: "
                             f"{opt.reason}")


def _forwarded(args: Arguments) -> tuple[list[str], list[str]]:
    """Unknown options go to the host compiler and/or linker only when asked to."""
    to_compiler = args.flag("forward-unknown-to-host-compiler") or args.flag("forward-unknown-opts")
    to_linker = args.flag("forward-unknown-to-host-linker") or args.flag("forward-unknown-opts")
    if args.unknown and not (to_compiler or to_linker):
        raise UsageError(f"option '{args.unknown[0]}' is not supported yet: it is not an nvcc option "
                         "(see cass-nvcc --help; -forward-unknown-to-host-compiler passes such "
                         "options to the host compiler)")
    return (list(args.unknown) if to_compiler else []), (list(args.unknown) if to_linker else [])


def _split_host(values: list[str]) -> list[str]:
    # nvcc hands -Xcompiler text to the host compiler's command line, where spaces separate words.
    return [word for v in values for word in v.split()]


# Options that name the build's outputs, choose its mode or how it prints: a step of the build
# has outputs and a mode of its own.
NOT_FOR_STEPS = {
    "output-file", "output-directory", "dryrun", "print-commands", "verbose", "cass-verbose", "cass-time-passes",
    "compile", "link", "lib", "device-link", "shared", "generate-dependencies",
    "generate-nonsystem-dependencies", "generate-dependencies-with-compile",
    "generate-nonsystem-dependencies-with-compile", "dependency-output", "dependency-target-name",
    "generate-dependency-targets",
}


def settings_from(args: Arguments) -> Settings:
    _reject_unsupported(args)
    host_unknown, link_unknown = _forwarded(args)
    keep = args.flag("keep") or args.flag("save-temps") or args.value("keep-dir") is not None
    deps_mode = next((m for long, m in (("generate-nonsystem-dependencies-with-compile", "MMD"),
                                        ("generate-dependencies-with-compile", "MD"),
                                        ("generate-nonsystem-dependencies", "MM"),
                                        ("generate-dependencies", "M")) if args.flag(long)), None)
    opt_level = args.value("optimize")
    if args.flag("device-debug") and opt_level is None:
        opt_level = "0"
    return Settings(
        route=args.value("cass-route", "auto"),
        offload_archs=_offload_archs(args.list("cass-offload-arch") or [DEFAULT_OFFLOAD_ARCH]),
        translators=args.list("cass-translators") or ["lift"],
        report_path=args.value("cass-report"),
        save_temps=args.flag("cass-save-temps"),
        keep_dir=(args.value("keep-dir") or os.curdir) if keep else None,
        verbose=args.flag("verbose") or args.flag("cass-verbose"),
        dryrun=args.flag("dryrun") or args.flag("print-commands"),
        dump_after=args.value("cass-dump-after"),
        time_passes=args.flag("cass-time-passes"),
        embed_reference=args.flag("cass-embed-reference"),
        include_dirs=args.list("include-path"),
        system_dirs=args.list("system-include"),
        pre_includes=args.list("pre-include"),
        defines=args.list("define-macro"),
        undefines=args.list("undefine-macro"),
        std=args.value("std"),
        opt_level=opt_level,
        debug=args.flag("debug"),
        device_debug=args.flag("device-debug"),
        lineinfo=args.flag("generate-line-info"),
        profile=args.flag("profile"),
        no_warnings=args.flag("disable-warnings"),
        warning_flags=_warning_flags(args),
        device_flags=_device_flags(args),
        per_thread_default_stream=args.value("default-stream") == "per-thread",
        nvcc_front_end=_nvcc_front_end(args),
        host_options=_split_host(args.list("compiler-options")) + host_unknown,
        linker_options=_split_host(args.list("linker-options")),
        host_link_options=_split_host(args.list("compiler-options")),
        archive_options=_split_host(args.list("archive-options")),
        libraries=args.list("library"),
        library_dirs=args.list("library-path"),
        link_flags=link_unknown,
        ccbin=args.value("compiler-bindir"),
        arbin=args.value("archiver-binary"),
        nvidia_targets=nvidia_targets(args),
        rdc=args.value("relocatable-device-code") == "true" or args.flag("device-c"),
        recorded=_recorded(args) + _warnings(args),
        warnings=_warnings(args),
        deps_mode=deps_mode,
        deps_file=args.value("dependency-output"),
        deps_targets=args.list("dependency-target-name"),
        deps_phony=args.flag("generate-dependency-targets"),
        step_options=args.options_except(NOT_FOR_STEPS),
    )
