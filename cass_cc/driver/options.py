"""The nvcc option table, as data: every option in NVIDIA's nvcc documentation (CUDA 12/13) and
cass-nvcc's own `--cass-*` options.

Each row says how the option is spelled (long `--name`, short `-n`), what it takes (nothing, one
value, or a comma list), and what cass-nvcc does with it:
  IMPLEMENTED  the option has its nvcc meaning for the AMD build;
  RECORDED     accepted and recorded (NVIDIA targets, NVIDIA-tool options that cannot change the
               AMD program); listed in the report and shown by --cass-verbose;
  UNSUPPORTED  refused with the stated reason (it would change the result and is not done yet,
               or it produces NVIDIA-only artifacts).
"""

from __future__ import annotations

from dataclasses import dataclass

FLAG, VALUE, LIST = "flag", "value", "list"
IMPLEMENTED, RECORDED, UNSUPPORTED = "implemented", "recorded", "unsupported"

# Short options that may also be written with their value attached (-Ipath, -DX=1, -O3, -lm).
ATTACHED_SHORTS = ("I", "D", "U", "L", "l", "O")
# Short options nvcc also takes with a number glued on (-t4), and only a number.
ATTACHED_NUMBER_SHORTS = ("t",)


@dataclass(frozen=True)
class Option:
    long: str                     # without the leading "--"
    short: str | None             # without the leading "-"
    kind: str                     # FLAG, VALUE or LIST
    status: str
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    reason: str = ""              # why, for UNSUPPORTED (and the note for RECORDED)
    env: str = ""                 # CASS_* variable giving a default (cass options only)
    group: str = ""


NV_DEVICE = "it produces NVIDIA device code; cass-nvcc builds AMD (gfx1100) programs"
NO_LINKER_SCRIPT = "host linker scripts for the device link are not supported yet"
NO_LTO = "link-time optimization of device code is not supported yet"
NV_TOOL = "options of an NVIDIA tool that cass-nvcc does not run"
WINDOWS = "Windows only; no effect on Linux"


def _o(long: str, short: str | None, kind: str, status: str, help: str, metavar: str = "",
       choices: tuple[str, ...] = (), reason: str = "") -> Option:
    return Option(long, short, kind, status, help, metavar, choices, reason)


TF = ("true", "false")

PHASE = [
    _o("cuda", "cuda", FLAG, UNSUPPORTED, "Compile .cu files to .cu.cpp.ii host code.",
       reason="its output is nvcc's internal host code"),
    _o("cubin", "cubin", FLAG, UNSUPPORTED, "Compile to device-only .cubin files.", reason=NV_DEVICE),
    _o("fatbin", "fatbin", FLAG, UNSUPPORTED, "Compile to device-only .fatbin files.", reason=NV_DEVICE),
    _o("ptx", "ptx", FLAG, UNSUPPORTED, "Compile .cu files to device-only .ptx files.", reason=NV_DEVICE),
    _o("optix-ir", "optix-ir", FLAG, UNSUPPORTED, "Compile to OptiX IR.", reason=NV_DEVICE),
    _o("ltoir", "ltoir", FLAG, UNSUPPORTED, "Compile to device-only .ltoir files.", reason=NV_DEVICE),
    _o("preprocess", "E", FLAG, IMPLEMENTED, "Preprocess the inputs to standard output (or -o)."),
    _o("generate-dependencies", "M", FLAG, IMPLEMENTED,
       "Write a make rule with the input's dependencies (standard output or -MF/-o)."),
    _o("generate-nonsystem-dependencies", "MM", FLAG, IMPLEMENTED,
       "Like -M, leaving out headers from system directories."),
    _o("generate-dependencies-with-compile", "MD", FLAG, IMPLEMENTED,
       "Compile and also write a dependency file (-MF, else the output or input name with .d)."),
    _o("generate-nonsystem-dependencies-with-compile", "MMD", FLAG, IMPLEMENTED,
       "Like -MD, leaving out headers from system directories."),
    _o("dependency-output", "MF", VALUE, IMPLEMENTED, "Write the dependency file to <file>.", "<file>"),
    _o("generate-dependency-targets", "MP", FLAG, IMPLEMENTED,
       "Add an empty make target for each dependency."),
    _o("compile", "c", FLAG, IMPLEMENTED, "Compile each input into an object file."),
    _o("device-c", "dc", FLAG, IMPLEMENTED,
       "Compile into objects with relocatable device code (the same as -rdc=true -c)."),
    _o("device-w", "dw", FLAG, IMPLEMENTED,
       "Compile into objects with executable device code (the same as -c)."),
    _o("device-link", "dlink", FLAG, IMPLEMENTED,
       "Link the relocatable device code of these objects (made with -dc or -rdc=true) into one "
       "object (default a_dlink.o) that the program's link takes with them; a host linker other "
       "than cass-nvcc then names libcassrt where it named cudart (see --cass-print-runtime-dir)."),
    _o("link", "link", FLAG, IMPLEMENTED, "Compile and link all inputs (the default)."),
    _o("lib", "lib", FLAG, IMPLEMENTED, "Compile all inputs and put the objects in a static library."),
    _o("run", "run", FLAG, UNSUPPORTED, "Build an executable and run it.",
       reason="build, then run the program with cass-run"),
]

FILES = [
    _o("output-file", "o", VALUE, IMPLEMENTED, "Name and place of the output file.", "<file>"),
    _o("pre-include", "include", LIST, IMPLEMENTED, "Headers included before the source.", "<file>,..."),
    _o("objdir-as-tempdir", "objtemp", FLAG, RECORDED, "Create temporary files next to the object.",
       reason="cass-nvcc keeps temporary files in a private directory"),
    _o("library", "l", LIST, IMPLEMENTED, "Libraries to link (without lib prefix and suffix).",
       "<library>,..."),
    _o("define-macro", "D", LIST, IMPLEMENTED, "Define macros.", "<def>,..."),
    _o("undefine-macro", "U", LIST, IMPLEMENTED, "Undefine macros.", "<def>,..."),
    _o("include-path", "I", LIST, IMPLEMENTED, "Include search paths.", "<path>,..."),
    _o("system-include", "isystem", LIST, IMPLEMENTED, "System include search paths.", "<path>,..."),
    _o("library-path", "L", LIST, IMPLEMENTED, "Library search paths.", "<path>,..."),
    _o("output-directory", "odir", VALUE, IMPLEMENTED, "Directory of the output files.", "<directory>"),
    _o("compiler-bindir", "ccbin", VALUE, IMPLEMENTED,
       "Host compiler for .c/.cpp inputs (.cu host code is compiled by hipcc's clang).", "<path>"),
    _o("allow-unsupported-compiler", "allow-unsupported-compiler", FLAG, RECORDED,
       "Allow an unsupported host compiler version.", reason="cass-nvcc checks no host compiler version"),
    _o("archiver-binary", "arbin", VALUE, IMPLEMENTED, "Archiver used for -lib.", "<path>"),
    _o("cudart", "cudart", VALUE, RECORDED, "Which CUDA runtime to link.", "{none|shared|static}",
       ("none", "shared", "static"),
       reason="the source route calls the HIP runtime (libamdhip64), linked in every case"),
    _o("cudadevrt", "cudadevrt", VALUE, RECORDED, "Which device runtime to link.", "{none|static}",
       ("none", "static"), reason="the device runtime serves relocatable device code only"),
    _o("libdevice-directory", "ldir", VALUE, RECORDED, "NVVM libdevice directory.", "<directory>",
       reason="AMD builds use ROCm's device libraries"),
    _o("target-directory", "target-dir", VALUE, UNSUPPORTED, "Cross-compilation target directory.",
       "<string>", reason="only x86-64 Linux hosts are supported"),
    _o("use-local-env", "use-local-env", FLAG, RECORDED, "Use the current MSVC environment.",
       reason=WINDOWS),
    _o("force-cl-env-setup", "force-cl-env-setup", FLAG, RECORDED, "Set up the MSVC environment.",
       reason=WINDOWS),
]

BEHAVIOUR = [
    _o("profile", "pg", FLAG, IMPLEMENTED, "Instrument host code for gprof."),
    _o("debug", "g", FLAG, IMPLEMENTED, "Debug information for host code."),
    _o("device-debug", "G", FLAG, IMPLEMENTED, "Debug information for device code, device optimizations off."),
    _o("generate-line-info", "lineinfo", FLAG, IMPLEMENTED, "Line information for device code."),
    _o("optimization-info", "opt-info", LIST, RECORDED, "Report NVVM optimizations.", "<kind>,...",
       ("inline",), reason="NVVM is not used"),
    _o("optimize", "O", VALUE, IMPLEMENTED, "Optimization level for host and device code.", "<level>",
       ("0", "1", "2", "3")),
    _o("Ofast-compile", "Ofc", VALUE, RECORDED, "Trade device optimization for compile speed.",
       "<level>", ("0", "min", "mid", "max"), reason="NVIDIA device compilation speed only"),
    _o("dopt", "dopt", VALUE, RECORDED, "Device code optimization on or off.", "<kind>", ("on", "off"),
       reason="use -O for the AMD device code"),
    _o("dlink-time-opt", "dlto", FLAG, UNSUPPORTED, "Device link-time optimization.", reason=NO_LTO),
    _o("lto", "lto", FLAG, UNSUPPORTED, "Link-time optimization of device code.", reason=NO_LTO),
    _o("gen-opt-lto", "gen-opt-lto", FLAG, UNSUPPORTED, "Optimize LTO IR.", reason=NO_LTO),
    _o("ftemplate-backtrace-limit", "ftemplate-backtrace-limit", VALUE, IMPLEMENTED,
       "Maximum number of template instantiation notes per error (0: no limit).", "<limit>"),
    _o("ftemplate-depth", "ftemplate-depth", VALUE, IMPLEMENTED,
       "Maximum template instantiation depth.", "<limit>"),
    _o("no-exceptions", "noeh", FLAG, IMPLEMENTED, "Disable exception handling for host code."),
    _o("shared", "shared", FLAG, IMPLEMENTED, "Link a shared library."),
    _o("x", "x", VALUE, IMPLEMENTED, "Language of the input files that follow.", "{c|c++|cu}",
       ("c", "c++", "cu")),
    _o("std", "std", VALUE, IMPLEMENTED, "C++ dialect.", "{c++03|c++11|c++14|c++17|c++20}",
       ("c++03", "c++11", "c++14", "c++17", "c++20")),
    _o("no-host-device-initializer-list", "nohdinitlist", FLAG, RECORDED,
       "Do not treat std::initializer_list members as __host__ __device__.",
       reason="clang's HIP mode has no such implicit rule"),
    _o("no-host-device-move-forward", "nohdmoveforward", FLAG, RECORDED,
       "Do not treat std::move/forward as __host__ __device__.",
       reason="clang's HIP mode has no such implicit rule"),
    _o("expt-relaxed-constexpr", "expt-relaxed-constexpr", FLAG, IMPLEMENTED,
       "Allow calls to constexpr host functions from device code (clang's HIP mode allows it)."),
    _o("extended-lambda", "extended-lambda", FLAG, IMPLEMENTED,
       "Allow __host__ __device__ lambdas (clang's HIP mode allows them)."),
    _o("expt-extended-lambda", "expt-extended-lambda", FLAG, IMPLEMENTED,
       "Old name of --extended-lambda."),
    _o("machine", "m", VALUE, IMPLEMENTED, "Host architecture bits.", "{64}", ("64",)),
    _o("m64", "m64", FLAG, IMPLEMENTED, "The same as --machine=64."),
]

PASSTHROUGH = [
    _o("compiler-options", "Xcompiler", LIST, IMPLEMENTED, "Options for the host compiler.",
       "<options>,..."),
    _o("linker-options", "Xlinker", LIST, IMPLEMENTED, "Options for the host linker.", "<options>,..."),
    _o("archive-options", "Xarchive", LIST, IMPLEMENTED, "Options for the archiver (-lib).",
       "<options>,..."),
    _o("ptxas-options", "Xptxas", LIST, RECORDED, "Options for ptxas.", "<options>,...",
       reason=NV_TOOL),
    _o("nvlink-options", "Xnvlink", LIST, RECORDED, "Options for nvlink.", "<options>,...",
       reason=NV_TOOL),
    _o("cudafe-options", "Xcudafe", LIST, RECORDED, "Options for cudafe (undocumented, common).",
       "<options>,...", reason=NV_TOOL),
    _o("fatbin-options", "Xfatbin", LIST, RECORDED,
       "Options for fatbinary (undocumented, common: -Xfatbin -compress-all).", "<options>,...",
       reason=NV_TOOL),
]

MISC = [
    _o("static-global-template-stub", "static-global-template-stub", VALUE, RECORDED,
       "Host stubs of template kernels with internal linkage.", "{true|false}", TF,
       reason="a property of nvcc's host stubs"),
    _o("device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", VALUE, RECORDED,
       "Hidden visibility for device entities.", "{true|false}", TF,
       reason="a property of nvcc's host stubs"),
    _o("forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", FLAG, IMPLEMENTED,
       "Pass unknown options to the host compiler."),
    _o("forward-unknown-to-host-linker", "forward-unknown-to-host-linker", FLAG, IMPLEMENTED,
       "Pass unknown options to the host linker."),
    _o("forward-unknown-opts", "forward-unknown-opts", FLAG, IMPLEMENTED,
       "Pass unknown options to the host compiler and linker."),
    _o("dont-use-profile", "noprof", FLAG, RECORDED, "Do not read nvcc.profile.",
       reason="cass-nvcc has no nvcc.profile"),
    _o("dryrun", "dryrun", FLAG, IMPLEMENTED, "Print the commands without running them."),
    _o("print-commands", "###", FLAG, IMPLEMENTED,
       "Print the commands without running them, as clang's -### does (the same as -dryrun)."),
    _o("verbose", "v", FLAG, IMPLEMENTED, "Print the commands as they run."),
    _o("threads", "t", VALUE, RECORDED, "Threads for compiling several NVIDIA targets.", "<number>",
       reason="one AMD target is compiled per job"),
    _o("split-compile", "split-compile", VALUE, RECORDED, "Parallel NVIDIA device optimization.",
       "<number>", reason="NVIDIA device compilation only"),
    _o("split-compile-extended", "split-compile-extended", VALUE, RECORDED,
       "Extended parallel NVIDIA device optimization.", "<number>",
       reason="NVIDIA device compilation only"),
    _o("fdevice-syntax-only", "fdevice-syntax-only", FLAG, UNSUPPORTED,
       "Stop after the device front end.", reason="not implemented yet"),
    _o("fdevice-time-trace", "fdevice-time-trace", VALUE, UNSUPPORTED,
       "Time trace of device compilation.", "<file name>", reason="not implemented yet"),
    _o("keep", "keep", FLAG, IMPLEMENTED, "Keep the intermediate files (.hip) in the keep directory."),
    _o("keep-dir", "keep-dir", VALUE, IMPLEMENTED, "Directory for kept intermediate files.",
       "<directory>"),
    _o("save-temps", "save-temps", FLAG, IMPLEMENTED, "The same as --keep."),
    _o("clean-targets", "clean", FLAG, UNSUPPORTED, "Delete the files a build would make.",
       reason="not implemented yet; use your build tool's clean target"),
    _o("time", "time", VALUE, UNSUPPORTED, "Write compilation times to a file.", "<file name>",
       reason="not implemented yet; use --cass-time-passes"),
    _o("run-args", "run-args", LIST, UNSUPPORTED, "Arguments for --run.", "<arguments>,...",
       reason="build, then run the program with cass-run"),
    _o("input-drive-prefix", "idp", VALUE, RECORDED, "Windows drive prefix of inputs.", "<prefix>",
       reason=WINDOWS),
    _o("dependency-drive-prefix", "ddp", VALUE, RECORDED, "Windows drive prefix in dependency files.",
       "<prefix>", reason=WINDOWS),
    _o("drive-prefix", "dp", VALUE, RECORDED, "Windows drive prefix.", "<prefix>", reason=WINDOWS),
    _o("dependency-target-name", "MT", VALUE, IMPLEMENTED, "Target name of the dependency rule.",
       "<target>"),
    _o("no-align-double", "no-align-double", FLAG, RECORDED, "Do not pass -malign-double.",
       reason="64-bit hosts only"),
    _o("no-device-link", "nodlink", FLAG, RECORDED, "Skip the device link step.",
       reason="the source route has no device link step"),
]

GPU = [
    _o("gpu-architecture", "arch", VALUE, RECORDED, "NVIDIA virtual/real architecture.", "<arch>",
       reason="NVIDIA target, recorded in the report; the AMD target is --cass-offload-arch"),
    _o("gpu-code", "code", LIST, RECORDED, "NVIDIA architectures to embed.", "<code>,...",
       reason="NVIDIA target, recorded in the report; the AMD target is --cass-offload-arch"),
    _o("generate-code", "gencode", LIST, RECORDED, "NVIDIA arch/code pairs.", "<specification>,...",
       reason="NVIDIA target, recorded in the report; the AMD target is --cass-offload-arch"),
    _o("relocatable-device-code", "rdc", VALUE, IMPLEMENTED,
       "Relocatable device code: device functions and variables may be used across .cu files "
       "(binary route: the kernels are translated at the link, after nvcc's device link).",
       "{true|false}", TF),
    _o("entries", "e", LIST, RECORDED, "Device entry functions to generate.", "entry,...",
       reason="all kernels are generated; the program behaves the same"),
    _o("maxrregcount", "maxrregcount", VALUE, RECORDED, "Register limit per NVIDIA thread.", "<amount>",
       reason="an NVIDIA register-allocation limit"),
    _o("use_fast_math", "use_fast_math", FLAG, IMPLEMENTED,
       "Fast device math: --ftz=true --prec-div=false --prec-sqrt=false --fmad=true."),
    _o("ftz", "ftz", VALUE, IMPLEMENTED, "Flush single-precision denormals to zero in device code.",
       "{true|false}", TF),
    _o("prec-div", "prec-div", VALUE, IMPLEMENTED, "IEEE single-precision division in device code.",
       "{true|false}", TF),
    _o("prec-sqrt", "prec-sqrt", VALUE, IMPLEMENTED, "IEEE single-precision sqrt in device code.",
       "{true|false}", TF),
    _o("fmad", "fmad", VALUE, IMPLEMENTED, "Contract multiply-add into FMA in device code.",
       "{true|false}", TF),
    _o("extra-device-vectorization", "extra-device-vectorization", FLAG, RECORDED,
       "More aggressive NVVM vectorization.", reason="NVVM is not used"),
    _o("default-stream", "default-stream", VALUE, IMPLEMENTED, "The default stream's behaviour.",
       "{legacy|null|per-thread}", ("legacy", "null", "per-thread")),
]

WARNINGS = ("all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
            "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations")

GENERIC = [
    _o("disable-warnings", "w", FLAG, IMPLEMENTED, "Suppress all warnings."),
    _o("keep-device-functions", "keep-device-functions", FLAG, RECORDED,
       "Keep unused extern device functions.", reason="NVIDIA device linking only"),
    _o("source-in-ptx", "src-in-ptx", FLAG, RECORDED, "Interleave source in PTX.", reason=NV_DEVICE),
    _o("restrict", "restrict", FLAG, RECORDED, "Assume kernel pointer parameters are restrict.",
       reason="an optimization hint"),
    _o("Wreorder", "Wreorder", FLAG, IMPLEMENTED, "Warn about member initializer order."),
    _o("Wdefault-stream-launch", "Wdefault-stream-launch", FLAG, RECORDED,
       "Warn about launches on the default stream.", reason="nvcc front-end warning"),
    _o("Wmissing-launch-bounds", "Wmissing-launch-bounds", FLAG, RECORDED,
       "Warn about kernels without __launch_bounds__.", reason="nvcc front-end warning"),
    _o("Wext-lambda-captures-this", "Wext-lambda-captures-this", FLAG, RECORDED,
       "Warn about extended lambdas capturing this.", reason="nvcc front-end warning"),
    _o("Wno-deprecated-declarations", "Wno-deprecated-declarations", FLAG, IMPLEMENTED,
       "No warnings about deprecated entities."),
    _o("Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", FLAG, RECORDED,
       "No warnings about deprecated NVIDIA targets.", reason="NVIDIA targets are only recorded"),
    _o("Werror", "Werror", LIST, IMPLEMENTED, "Turn warnings of the given kinds into errors.",
       "<kind>,...", WARNINGS),
    _o("resource-usage", "res-usage", FLAG, RECORDED, "Show NVIDIA register and memory usage.",
       reason=NV_DEVICE),
    _o("extensible-whole-program", "ewp", FLAG, RECORDED, "Whole-program device linking of libraries.",
       reason="NVIDIA device linking only"),
    _o("no-compress", "no-compress", FLAG, RECORDED, "Do not compress the fatbinary.",
       reason="NVIDIA fatbinary only"),
    _o("qpp-config", "qpp-config", VALUE, RECORDED, "QNX host compiler configuration.", "<config>",
       reason="QNX only"),
    _o("compile-as-tools-patch", "astoolspatch", FLAG, UNSUPPORTED, "Compile patch code for CUDA tools.",
       reason=NV_DEVICE),
    _o("list-gpu-code", "code-ls", FLAG, IMPLEMENTED, "List the NVIDIA codes accepted with --gpu-code."),
    _o("list-gpu-arch", "arch-ls", FLAG, IMPLEMENTED,
       "List the NVIDIA architectures accepted with --gpu-architecture."),
    _o("display-error-number", "err-no", FLAG, RECORDED, "Show front-end diagnostic numbers.",
       reason="clang's diagnostics have no numbers"),
    _o("no-display-error-number", "no-err-no", FLAG, RECORDED, "Hide front-end diagnostic numbers.",
       reason="clang's diagnostics have no numbers"),
    _o("diag-error", "diag-error", LIST, RECORDED, "Make these front-end diagnostics errors.",
       "<error-number>,...", reason="nvcc's front-end numbers have no clang equivalent"),
    _o("diag-suppress", "diag-suppress", LIST, RECORDED, "Suppress these front-end diagnostics.",
       "<error-number>,...", reason="nvcc's front-end numbers have no clang equivalent"),
    _o("diag-warn", "diag-warn", LIST, RECORDED, "Make these front-end diagnostics warnings.",
       "<error-number>,...", reason="nvcc's front-end numbers have no clang equivalent"),
    _o("host-linker-script", "hls", VALUE, UNSUPPORTED, "Host linker script for device linking.",
       "{use-lcs|gen-lcs}", ("use-lcs", "gen-lcs"), reason=NO_LINKER_SCRIPT),
    _o("augment-host-linker-script", "aug-hls", FLAG, UNSUPPORTED, "Augment the host linker script.",
       reason=NO_LINKER_SCRIPT),
    _o("relocatable-link", "r", FLAG, UNSUPPORTED, "Relocatable link of objects.",
       reason="not implemented yet"),
    _o("brief-diagnostics", "brief-diag", VALUE, RECORDED, "Short front-end diagnostics.",
       "{true|false}", TF, reason="nvcc front-end option"),
    _o("jump-table-density", "jtd", VALUE, RECORDED, "Switch jump-table density.", "<number>",
       reason="NVIDIA device code generation only"),
    _o("relocatable-ptx", "reloc-ptx", FLAG, UNSUPPORTED, "Relocatable PTX.", reason=NV_DEVICE),
    _o("device-stack-protector", "device-stack-protector", VALUE, RECORDED,
       "Stack canaries in device code.", "{true|false}", TF, reason="NVIDIA device code only"),
    _o("compress-mode", "compress-mode", VALUE, RECORDED, "Fatbinary compression.",
       "{default|size|speed|balance|none}", ("default", "size", "speed", "balance", "none"),
       reason="NVIDIA fatbinary only"),
    _o("frandom-seed", "frandom-seed", VALUE, IMPLEMENTED, "Seed for generated symbol names.", "<seed>"),
    _o("sanitize", "sanitize", VALUE, UNSUPPORTED, "Instrument for compute-sanitizer.", "<toolname>",
       reason="compute-sanitizer is an NVIDIA tool"),
    _o("jobserver", "jobserver", FLAG, RECORDED, "Take part in make's jobserver.",
       reason="cass-nvcc runs its jobs one after the other"),
    _o("help", "h", FLAG, IMPLEMENTED, "Print this help and exit."),
    _o("version", "V", FLAG, IMPLEMENTED, "Print the version and exit."),
    _o("options-file", "optf", LIST, IMPLEMENTED, "Read more options from these files.", "<file>,..."),
]


def _cass(long: str, kind: str, help: str, env: str, metavar: str = "",
          choices: tuple[str, ...] = ()) -> Option:
    return Option(long, None, kind, IMPLEMENTED, help, metavar, choices, env=env, group="cass")


CASS = [
    _cass("cass-route", VALUE, "How .cu files become AMD code: binary (SASS translation), source "
          "(hipify + hipcc) or auto (the default: binary, kernels the translators refuse taken from "
          "hipify + hipcc; -rdc kernels, translated after the device link, have no such fallback).", "CASS_ROUTE", "{auto|binary|source}", ("auto", "binary", "source")),
    _cass("cass-offload-arch", LIST, "AMD targets (default gfx1100).", "CASS_OFFLOAD_ARCH", "<gfx>,..."),
    _cass("cass-translators", LIST, "Kernel translators of the binary route, in order.",
          "CASS_TRANSLATORS", "{lift|model},...", ("lift", "model")),
    _cass("cass-report", VALUE, "Write the translation report (JSON) to <file>.", "CASS_REPORT", "<file>"),
    _cass("cass-save-temps", FLAG, "Keep the .hip files (and other temporaries) next to the output.",
          "CASS_SAVE_TEMPS"),
    _cass("cass-verbose", FLAG, "Print every command as it runs (like -v).", "CASS_VERBOSE"),
    _cass("cass-dump-after", VALUE, "Print each kernel's artifact after the named pass of the binary "
          "route (disasm, lift, codegen, ...), or the translation unit after 'hipify'.",
          "CASS_DUMP_AFTER", "<pass>"),
    _cass("cass-time-passes", FLAG, "Print the time each step took.", "CASS_TIME_PASSES"),
    _cass("cass-embed-reference", FLAG, "Binary route: also build each translation unit with hipify + "
          "hipcc and embed that code object as the reference of the translated kernels, for "
          "`cass-run --check` (which runs every launch of a translated kernel with both and compares "
          "what they wrote). The program runs as without it; its build takes one hipcc compile per "
          "translation unit more. -rdc kernels and objects made by nvcc get no reference.",
          "CASS_EMBED_REFERENCE"),
    _cass("cass-print-runtime-dir", FLAG, "Print the folder of libcassrt, the CUDA runtime that "
          "programs link instead of cudart, and exit. A program linked without cass-nvcc (g++ a.o "
          "dlink.o ...) names -L<dir> -lcassrt -Wl,-rpath,<dir> where it named -lcudart.", ""),
]

GROUPS = [
    ("Options for specifying the compilation phase", PHASE),
    ("File and path specifications", FILES),
    ("Options for specifying behavior of compiler/linker", BEHAVIOUR),
    ("Options for passing specific phase options", PASSTHROUGH),
    ("Miscellaneous options for guiding the compiler driver", MISC),
    ("Options for steering GPU code generation", GPU),
    ("Generic tool options", GENERIC),
    ("cass-nvcc options (environment: the CASS_* variable named)", CASS),
]

ALL: list[Option] = [opt for _, table in GROUPS for opt in table]
BY_LONG: dict[str, Option] = {opt.long: opt for opt in ALL}
BY_SHORT: dict[str, Option] = {opt.short: opt for opt in ALL if opt.short}
