"""Steps shared by every compiler the driver runs on a translation unit (hipcc for .cu, the host
compiler for .c/.cpp): hipify into the mirror, then compile, preprocess or list dependencies
from the mirror, with messages, dependency files and preprocessed text mapped back to the user's
files, and outputs moved into place only when complete."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from ..errors import CassError
from ..fsutil import atomic_copy, atomic_write_text
from .diagnostics import display_path, nvcc_shape
from .jobs import Job
from .mirror import Mirror, is_user_dir
from .plan import TranslationUnit
from .settings import Settings


DEFAULT_INCLUDE_DIRS = ("/usr/include", "/usr/local/include")


@dataclass
class Frontend:
    """One translation unit on its way through a compiler.

    `base` is the compiler's argument list up to (not including) the mode flags and the source;
    the hipify job adds the compatibility headers hipify asks for to it before the compile runs.
    """
    tu: TranslationUnit
    settings: Settings
    work: str                                  # private folder for this unit
    base: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    mirror: Mirror = field(init=False)
    mirrored: str = field(init=False)          # the mirrored source path
    spelled: dict[str, str] = field(init=False)  # absolute path -> as the user wrote it
    hipify_seconds: float = 0.0

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

    def hipify_job(self, then: Job) -> Job:
        """Hipify the unit and its user headers; `then` (the compiler job) gets the compat headers."""
        def action() -> None:
            start = time.perf_counter()
            self.mirror.translate_tree(self.tu.source, self.user_dirs())
            for inc in self.settings.pre_includes:
                if user_file(inc):
                    self.mirror.translate_tree(inc, self.user_dirs())
            at = then.argv.index(self.mirrored)
            for header in self.mirror.compat_headers:
                then.argv[at:at] = ["-include", header]
                at += 2
            self.hipify_seconds = time.perf_counter() - start
            self._print_hipify_diagnostics()
            if self.settings.dump_after == "hipify":
                with open(self.mirrored, encoding="utf-8", errors="replace") as f:
                    sys.stderr.write(f"*** {self.tu.source} after hipify ***\n{f.read()}\n")
        return Job(["cass-hipify", self.tu.source, "-o", self.mirrored], action=action, label="hipify")

    def _print_hipify_diagnostics(self) -> None:
        if self.settings.no_warnings:
            return
        for d in self.mirror.diagnostics:
            where = display_path(self.to_original(str(d.file)), self.spelled)
            sys.stderr.write(f"{where}:{d.line}: {d.severity}: {d.message}\n")

    def compile_jobs(self, output: str, deps_file: str | None, deps_targets: list[str],
                     after: list[Job] | None = None, product_dir: str | None = None) -> list[Job]:
        tmp_obj = os.path.join(self.work, self.tu.stem + ".o")
        argv = self.base + ["-c", self.mirrored, "-o", tmp_obj]
        tmp_deps = os.path.join(self.work, self.tu.stem + ".d")
        if deps_file:
            mode = "-MMD" if self.settings.deps_mode == "MMD" else "-MD"
            argv[1:1] = [mode, "-MF", tmp_deps] + [a for t in deps_targets for a in ("-MT", t)] + \
                (["-MP"] if self.settings.deps_phony else [])
        compile_job = Job(argv, env=self.env, rewrite=self.shape, label=os.path.basename(self.base[0]))
        jobs = [self.hipify_job(compile_job), compile_job]
        jobs += after or []
        if deps_file:
            jobs.append(self.text_place_job(tmp_deps, deps_file))
        jobs.append(place_job(tmp_obj, output))
        jobs += self.save_temps_jobs(product_dir or os.path.dirname(os.path.abspath(output)))
        return jobs

    def preprocess_jobs(self, output: str | None, extra: list[str]) -> list[Job]:
        tmp = os.path.join(self.work, self.tu.stem + ".i")
        pre = Job(self.base + extra + ["-E", self.mirrored, "-o", tmp], env=self.env,
                  rewrite=self.shape, label="preprocess")
        return [self.hipify_job(pre), pre, self.text_place_job(tmp, output)]

    def deps_jobs(self, output: str | None, targets: list[str], extra: list[str]) -> list[Job]:
        tmp = os.path.join(self.work, self.tu.stem + ".d")
        flag = "-MM" if self.settings.deps_mode == "MM" else "-M"
        argv = self.base + extra + [flag, "-MF", tmp] + [a for t in targets for a in ("-MT", t)]
        argv += (["-MP"] if self.settings.deps_phony else []) + [self.mirrored]
        job = Job(argv, env=self.env, rewrite=self.shape, label="dependencies")
        return [self.hipify_job(job), job, self.text_place_job(tmp, output)]

    def text_place_job(self, tmp: str, output: str | None) -> Job:
        """Move generated text (dependencies, preprocessed source) out with the user's paths."""
        def action() -> None:
            with open(tmp, encoding="utf-8", errors="replace") as f:
                text = self.mirror.unmirror_text(f.read())
            if output is None:
                sys.stdout.write(text)
                sys.stdout.flush()
            else:
                try:
                    atomic_write_text(output, text)
                except OSError as e:
                    raise CassError(f"cannot write '{output}': {e.strerror}") from None
        return Job(["cass-unmirror", tmp, "-o", output or "-"], action=action, label="unmirror")

    def save_temps_jobs(self, product_dir: str) -> list[Job]:
        """--cass-save-temps: the .hip files next to the product; --keep: in the keep folder."""
        s = self.settings
        folders = ([product_dir] if s.save_temps else []) + ([s.keep_dir] if s.keep_dir else [])
        if not folders:
            return []

        def action() -> None:
            for folder in folders:
                os.makedirs(folder, exist_ok=True)
                for original, mirrored in self.mirror.files.items():
                    if original == os.path.abspath(self.tu.source):
                        name = self.tu.stem + ".hip"
                    else:
                        name = f"{self.tu.stem}.hip-{os.path.basename(original)}"
                    try:
                        atomic_copy(mirrored, os.path.join(folder, name))
                    except OSError as e:
                        raise CassError(f"cannot keep '{name}' in '{folder}': {e.strerror}") from None
        return [Job(["cass-save-temps", *folders], action=action, label="save-temps")]


def user_file(path: str) -> bool:
    """A -include naming a file of the user's tree (else the compiler finds it on its paths)."""
    return os.path.isfile(path) and is_user_dir(path)


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

