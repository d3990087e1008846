"""Steps shared by every compiler the driver runs on a translation unit (hipcc for .cu, the host
compiler for .c/.cpp): hipify into the mirror, then compile, preprocess or list dependencies
from the mirror, with messages, dependency files and preprocessed text mapped back to the user's
files, and outputs moved into place only when complete. The steps besides the compiler are
`cass-cc` commands (mirror_steps), run in-process from the argument lists they print."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import CassError
from ..fsutil import atomic_copy
from . import mirror_steps
from .diagnostics import nvcc_shape
from .jobs import Job
from .mirror import Mirror, is_user_dir, user_file
from .plan import TranslationUnit
from .settings import Settings


DEFAULT_INCLUDE_DIRS = ("/usr/include", "/usr/local/include")


@dataclass
class Frontend:
    """One translation unit on its way through a compiler.

    `base` is the compiler's argument list up to (not including) the mode flags and the source
    (which comes after `-include <mirror>/cass-compat.h`, the compatibility headers hipify asks for).
    Every job is a command whose inputs are on its command line or in the mirror.
    """
    tu: TranslationUnit
    settings: Settings
    work: str                                  # private folder for this unit
    base: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    mirror: Mirror = field(init=False)
    mirrored: str = field(init=False)          # the mirrored source path
    spelled: dict[str, str] = field(init=False)  # absolute path -> as the user wrote it

    def __post_init__(self) -> None:
        self.mirror = Mirror(os.path.join(self.work, "mirror"))
        self.mirrored = self.mirror.path_for(self.tu.source)
        self.spelled = {os.path.abspath(self.tu.source): self.tu.source}

    # --- paths ------------------------------------------------------------------------------

    def user_dirs(self) -> list[str]:
        return [os.path.abspath(d) for d in self.settings.include_dirs if is_user_dir(d)]

    def preprocessor_flags(self) -> list[str]:
        """-include/-I/-isystem/-D/-U for the mirror: user folders first as hipified, then as
        they are (headers hipify did not see, such as ones named through macros)."""
        s = self.settings
        flags: list[str] = []
        for inc in s.pre_includes:
            flags += ["-include", self.mirror.path_for(inc) if user_file(inc) else inc]
        for d in s.include_dirs:
            if is_user_dir(d):
                flags.append("-I" + self.mirror.include_dir(d))
            if not _default_dir(d):
                flags.append("-I" + d)
        flags += [a for d in s.system_dirs if not _default_dir(d) for a in ("-isystem", d)]
        flags += ["-iquote", os.path.dirname(os.path.abspath(self.tu.source))]
        flags += ["-D" + d for d in s.defines] + ["-U" + u for u in s.undefines]
        # __FILE__ and debug info name the user's files: below the current folder relative, as
        # nvcc has them; else absolute. (gcc takes the last matching map, clang the longest.)
        root = self.mirror.root.rstrip(os.sep)
        here = self.mirror.path_for(os.curdir).rstrip(os.sep) + os.sep
        for kind in ("macro", "debug"):
            flags += [f"-f{kind}-prefix-map={root}=", f"-f{kind}-prefix-map={here}="]
        return flags

    def to_original(self, path: str) -> str:
        return self.mirror.original(path)

    def shape(self, text: str, closing: bool = True) -> str:
        """A compiler's messages in nvcc's shape, about the user's files; `closing` adds nvcc's
        'N errors detected in the compilation of ...' line."""
        return nvcc_shape(text, self.to_original, self.spelled, self.tu.source if closing else None)

    # --- jobs -------------------------------------------------------------------------------

    def source_args(self) -> list[str]:
        """The mirrored source, after the compatibility header hipify writes into the mirror."""
        return ["-include", self.mirror.compat_include, self.mirrored]

    def hipify_job(self) -> Job:
        """Hipify the unit and its user headers into the mirror (`cass-cc hipify`)."""
        argv = ["cass-cc", "hipify", self.tu.source, "--mirror", self.mirror.root, "--",
                *self.settings.step_options]
        return Job(argv, lambda: mirror_steps.hipify(argv[2:]), label="hipify")

    def compile_jobs(self, output: str, deps_file: str | None, deps_targets: list[str],
                     after: list[Job] | None = None, product_dir: str | None = None) -> list[Job]:
        tmp_obj = os.path.join(self.work, self.tu.stem + ".o")
        argv = self.base + ["-c", *self.source_args(), "-o", tmp_obj]
        tmp_deps = os.path.join(self.work, self.tu.stem + ".d")
        if deps_file:
            mode = "-MMD" if self.settings.deps_mode == "MMD" else "-MD"
            argv[1:1] = [mode, "-MF", tmp_deps] + [a for t in deps_targets for a in ("-MT", t)] + \
                (["-MP"] if self.settings.deps_phony else [])
        compile_job = Job(argv, env=self.env, rewrite=self.shape, label=os.path.basename(self.base[0]))
        jobs = [self.hipify_job(), compile_job]
        jobs += after or []
        if deps_file:
            jobs.append(self.text_place_job(tmp_deps, deps_file))
        jobs.append(place_job(tmp_obj, output))
        jobs += self.save_temps_jobs(product_dir or os.path.dirname(os.path.abspath(output)))
        return jobs

    def preprocess_jobs(self, output: str | None, extra: list[str]) -> list[Job]:
        tmp = os.path.join(self.work, self.tu.stem + ".i")
        pre = Job(self.base + extra + ["-E", *self.source_args(), "-o", tmp], env=self.env,
                  rewrite=self.shape, label="preprocess")
        return [self.hipify_job(), pre, self.text_place_job(tmp, output)]

    def deps_jobs(self, output: str | None, targets: list[str], extra: list[str]) -> list[Job]:
        tmp = os.path.join(self.work, self.tu.stem + ".d")
        flag = "-MM" if self.settings.deps_mode == "MM" else "-M"
        argv = self.base + extra + [flag, "-MF", tmp] + [a for t in targets for a in ("-MT", t)]
        argv += (["-MP"] if self.settings.deps_phony else []) + self.source_args()
        job = Job(argv, env=self.env, rewrite=self.shape, label="dependencies")
        return [self.hipify_job(), job, self.text_place_job(tmp, output)]

    def text_place_job(self, tmp: str, output: str | None) -> Job:
        """Move generated text (dependencies, preprocessed source) out with the user's paths
        (`cass-cc unmirror`; output None: standard output)."""
        argv = ["cass-cc", "unmirror", tmp, "-o", output or "-", "--mirror", self.mirror.root]
        return Job(argv, lambda: mirror_steps.unmirror(argv[2:]), label="unmirror")

    def save_temps_jobs(self, product_dir: str) -> list[Job]:
        """--cass-save-temps: the .hip files next to the product; --keep: in the keep folder
        (`cass-cc save-temps`)."""
        s = self.settings
        folders = ([product_dir] if s.save_temps else []) + ([s.keep_dir] if s.keep_dir else [])
        if not folders:
            return []
        argv = ["cass-cc", "save-temps", "--mirror", self.mirror.root, *folders]
        return [Job(argv, lambda: mirror_steps.save_temps(argv[2:]), label="save-temps")]


def _default_dir(path: str) -> bool:
    """A compiler's own header folder: naming it again (as gcc ignores) would break the C++
    library's #include_next in clang."""
    return os.path.normpath(os.path.abspath(path)) in DEFAULT_INCLUDE_DIRS


def place_job(tmp: str, final: str) -> Job:
    """Move a finished output into place (a rename, or an atomic copy across file systems)."""
    def action() -> None:
        if os.path.isdir(final):
            raise CassError(f"cannot write '{final}': it is a directory")
        try:
            os.replace(tmp, final)
            return
        except OSError:  # another file system, or a folder we cannot rename into
            pass
        try:
            atomic_copy(tmp, final)
        except OSError as e:
            raise CassError(f"cannot write '{final}': {e.strerror}") from None
    return Job(["mv", tmp, final], action=action, label="place")

