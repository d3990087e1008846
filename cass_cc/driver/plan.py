"""From the command line to a plan: one action per input and step (preprocess, dependencies,
compile), then link or archive — clang Driver's actions. Actions name files; jobs (the commands)
come later from the routes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .mirror import read_source
from .parse import Arguments, UsageError

SOURCE_LANGUAGES = {".cu": "cu", ".c": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++", ".c++": "c++"}
X_LANGUAGES = {"cu": "cu", "c": "c", "c++": "c++"}
NOT_YET = {
    ".ptx": "PTX input is NVIDIA device code",
    ".cubin": "cubin input is NVIDIA device code",
    ".fatbin": "fatbin input is NVIDIA device code",
    ".gpu": "nvcc's intermediate .gpu files are NVIDIA device code",
    ".optixir": "OptiX IR is NVIDIA device code",
    ".ltoir": "LTO IR is NVIDIA device code",
    ".i": "preprocessed C input is not handled yet",
    ".ii": "preprocessed C++ input is not handled yet",
}


def language_of(path: str) -> str | None:
    """The language a source file's suffix says (None: not a source cass-nvcc compiles)."""
    return SOURCE_LANGUAGES.get(os.path.splitext(path)[1])


@dataclass(frozen=True)
class TranslationUnit:
    source: str      # as the user wrote it
    language: str    # "cu", "c" or "c++"

    @property
    def stem(self) -> str:
        return os.path.splitext(os.path.basename(self.source))[0]


@dataclass
class Preprocess:
    tu: TranslationUnit
    output: str | None           # None: standard output


@dataclass
class Dependencies:
    tu: TranslationUnit
    output: str | None           # None: standard output
    targets: list[str]


@dataclass
class Compile:
    tu: TranslationUnit
    output: str                  # final object path, or a temporary one before a link
    deps_file: str | None = None
    deps_targets: list[str] = field(default_factory=list)
    product_dir: str | None = None   # where --cass-save-temps puts the .hip files (None: the
                                     # object's folder)


@dataclass
class Link:
    inputs: list[str]
    output: str
    shared: bool = False
    built: list[str] = field(default_factory=list)   # the inputs this build's compiles make


@dataclass
class Archive:
    inputs: list[str]
    output: str


@dataclass
class DeviceLink:
    """-dlink: the relocatable device code of objects linked into one host object."""
    inputs: list[str]
    output: str


Action = Preprocess | Dependencies | Compile | Link | Archive | DeviceLink
DLINK_DEFAULT = "a_dlink.o"   # nvcc's name, in -odir when given


def classify_inputs(args: Arguments) -> list[TranslationUnit | str]:
    """Each input as a TranslationUnit (to compile) or a path (to link as it is)."""
    forced = X_LANGUAGES.get(args.value("x", "") or "")
    out: list[TranslationUnit | str] = []
    for path in args.inputs:
        if not os.path.exists(path):
            raise UsageError(f"cannot open input file '{path}': no such file")
        suffix = os.path.splitext(path)[1]
        if forced or suffix in SOURCE_LANGUAGES:
            # A folder, an empty or a binary file is refused the same way whichever route (and
            # compiler: hipcc, nvcc, the host's) would meet it.
            read_source(path)
        if forced:
            out.append(TranslationUnit(path, forced))
        elif suffix in SOURCE_LANGUAGES:
            out.append(TranslationUnit(path, SOURCE_LANGUAGES[suffix]))
        elif suffix in NOT_YET:
            raise UsageError(f"input '{path}' is not supported yet: {NOT_YET[suffix]}")
        else:
            out.append(path)  # objects, archives, shared libraries: for the linker, like nvcc
    return out


def compiles_only(args: Arguments) -> bool:
    """-c, or its forms with relocatable (-dc) or whole-program (-dw) device code."""
    return args.flag("compile") or args.flag("device-c") or args.flag("device-w")


def _object_name(tu: TranslationUnit, odir: str | None) -> str:
    return os.path.join(odir or "", tu.stem + ".o")


def _single_output(args: Arguments, units: list, what: str) -> str | None:
    out = args.value("output-file")
    if out is not None and len(units) > 1:
        raise UsageError(f"a single input file is required for {what} when an output file (-o) "
                         "is given")
    return out


def make_plan(args: Arguments, temp_dir: str) -> list[Action]:
    inputs = classify_inputs(args)
    if not inputs:
        raise UsageError("no input files (cass-nvcc --help lists the options)")
    units = [i for i in inputs if isinstance(i, TranslationUnit)]
    odir = args.value("output-directory")
    deps_targets = args.list("dependency-target-name")

    if args.flag("preprocess"):
        out = _single_output(args, units, "-E")
        return [Preprocess(tu, out) for tu in units]
    only_deps = (args.flag("generate-dependencies") or args.flag("generate-nonsystem-dependencies")) \
        and not compiles_only(args)
    if only_deps:
        out = args.value("dependency-output") or _single_output(args, units, "-M")
        if out and len(units) > 1:
            raise UsageError("-MF with several input files is not supported (like nvcc)")
        return [Dependencies(tu, out, deps_targets or [_object_name(tu, odir)]) for tu in units]

    if args.flag("device-link"):
        return [_device_link(args, inputs, odir)]

    with_deps = args.flag("generate-dependencies-with-compile") or \
        args.flag("generate-nonsystem-dependencies-with-compile")
    if compiles_only(args):
        out = _single_output(args, units, "-c")
        if not units:
            raise UsageError("nothing to compile: -c needs .cu/.c/.cpp inputs")
        actions: list[Action] = []
        for tu in units:
            obj = out or _object_name(tu, odir)
            deps = None
            if with_deps:
                if args.value("dependency-output") and len(units) > 1:
                    raise UsageError("-MF with several input files is not supported (like nvcc)")
                deps = args.value("dependency-output") or os.path.splitext(obj)[0] + ".d"
            actions.append(Compile(tu, obj, deps, deps_targets or [obj]))
        return actions

    # Link or archive: compile the sources into the private temporary folder first.
    actions = []
    objects: list[str] = []
    default = "a.a" if args.flag("lib") else "a.out"
    output = args.value("output-file") or os.path.join(odir or "", default)
    if with_deps and len(units) > 1 and args.value("dependency-output"):
        raise UsageError("-MF with several input files is not supported (like nvcc)")
    for n, item in enumerate(inputs):
        if isinstance(item, TranslationUnit):
            obj = os.path.join(temp_dir, f"{n}-{item.stem}.o")
            deps = None
            if with_deps:
                deps = args.value("dependency-output") or os.path.join(odir or "", item.stem + ".d")
            actions.append(Compile(item, obj, deps, deps_targets or [_object_name(item, odir)],
                                   product_dir=os.path.dirname(os.path.abspath(output))))
            objects.append(obj)
        else:
            objects.append(item)
    if args.flag("lib"):
        actions.append(Archive(objects, output))
    else:
        built = [a.output for a in actions if isinstance(a, Compile)]
        actions.append(Link(objects, output, shared=args.flag("shared"), built=built))
    return actions


def _device_link(args: Arguments, inputs: list, odir: str | None) -> DeviceLink:
    """nvcc -dlink: objects and static libraries in, one object out (-o, else a_dlink.o; nvcc
    writes it there even with -lib). Under -c nvcc compiles nothing from objects and writes no
    file at all, so that combination is refused rather than silently doing nothing."""
    if compiles_only(args):
        raise UsageError("-dlink with -c/-dc/-dw: nvcc compiles and links nothing then; give the "
                         "device link its own step (cass-nvcc -dlink a.o b.o -o dlink.o)")
    sources = [i.source for i in inputs if isinstance(i, TranslationUnit)]
    if sources:
        raise UsageError(f"-dlink takes objects: compile '{sources[0]}' with -dc first")
    return DeviceLink(list(inputs), args.value("output-file") or os.path.join(odir or "", DLINK_DEFAULT))
