"""The translators that `cass-cc bench --translator` scores, CASS's way: each at the levels it has.

- source level: one CUDA file (a .cu, or a header or .cpp of the program) -> its HIP text;
- assembly level: one kernel (its SASS, after the passes' front end) -> RDNA3 assembly, a whole
  code-object source or the kernel's body (cass_cc.model.complete_source completes a body).

`lift` (the lifter and LLVM's codegen) has the assembly level only, `hipify` (cass-cc's own) the
source level only; `model[:URL]` (a CASS model behind an OpenAI-compatible server) and
`command:CMD` (any program: it gets the file's path as its last argument and prints the
translation; a SASS file's kernel is also in $CASS_KERNEL) have both. A translator that declines
raises a Refusal (its reason is the result's); nothing it answers is trusted: the harness
(translator_build) compiles or assembles it and runs the program."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import CassError, FailedCheck, ToolVerdict
from ..unit import KernelUnit

SOURCE, ASSEMBLY = "source", "assembly"
LEVELS = (ASSEMBLY, SOURCE)     # the paper's column order
COMMAND_TIMEOUT_S = 600


class Translator:
    """One row of the table. `spec` is the --translator value it came from."""
    levels: tuple[str, ...] = ()

    def __init__(self, spec: str):
        self.spec = spec

    def source(self, path: Path, offload_arch: str) -> str:
        """The HIP translation of the CUDA file `path`."""
        raise NotImplementedError

    def assembly(self, unit: KernelUnit) -> str:
        """RDNA3 assembly for the kernel of `unit` (the front end has run over it)."""
        raise NotImplementedError


class Lift(Translator):
    levels = (ASSEMBLY,)

    def assembly(self, unit: KernelUnit) -> str:
        from ..passes import PASSES
        from ..pipeline import run_pipeline
        run_pipeline(unit, [PASSES["lift"], PASSES["codegen"]])
        if unit.status != "ok":
            raise FailedCheck("; ".join(unit.reasons))
        return unit.asm


class Hipify(Translator):
    levels = (SOURCE,)

    def source(self, path: Path, offload_arch: str) -> str:
        from ..hipify import translate
        result = translate(path.read_text(errors="replace"), path.name)
        # the source route passes it with -include; in front of the text it does the same
        compat = f'#include "{result.compat_header}"\n' if result.compat_header else ""
        return compat + result.text


class Model(Translator):
    levels = (ASSEMBLY, SOURCE)

    def __init__(self, spec: str, url: str | None):
        super().__init__(spec)
        self.url = url

    def source(self, path: Path, offload_arch: str) -> str:
        from ..model import ModelClient, source_of_answer, source_prompt_for
        prompt = source_prompt_for(path.read_text(errors="replace"), path.name, offload_arch)
        return source_of_answer(ModelClient(self.url).complete(prompt))

    def assembly(self, unit: KernelUnit) -> str:
        from ..model import ModelClient, assembly_of_answer, prompt_for
        if not unit.sass_compact:
            raise FailedCheck("no compact SASS to translate (the normalize pass did not run)")
        prompt = prompt_for(unit.sass_compact, unit.demangled or unit.name, unit.sm_arch, unit.offload_arch)
        return assembly_of_answer(ModelClient(self.url).complete(prompt))


class Command(Translator):
    levels = (ASSEMBLY, SOURCE)

    def __init__(self, spec: str, argv: list[str]):
        super().__init__(spec)
        self.argv = argv

    def source(self, path: Path, offload_arch: str) -> str:
        return self._run(str(path), {"CASS_OFFLOAD_ARCH": offload_arch})

    def assembly(self, unit: KernelUnit) -> str:
        from ..translation import file_stem
        folder = tempfile.mkdtemp(prefix="cass-bench-sass-")
        try:
            path = os.path.join(folder, file_stem(unit.name) + ".sass")
            Path(path).write_text(unit.sass_text)
            return self._run(path, {"CASS_KERNEL": unit.name, "CASS_OFFLOAD_ARCH": unit.offload_arch})
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _run(self, path: str, extra: dict[str, str]) -> str:
        argv = [*self.argv, path]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                                  timeout=COMMAND_TIMEOUT_S, env={**os.environ, **extra})
        except OSError as e:    # not found, not executable
            raise ToolVerdict(f"cannot run command '{self.argv[0]}': {e.strerror}") from None
        except subprocess.TimeoutExpired:
            raise ToolVerdict(f"command gave no answer within {COMMAND_TIMEOUT_S} s") from None
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            raise ToolVerdict(f"command exited {done.returncode}" + (f": {lines[-1][:300]}" if lines else ""))
        if not done.stdout.strip():
            raise ToolVerdict("command printed nothing")
        return done.stdout


def parse(spec: str) -> Translator:
    """A --translator value: lift, hipify, model, model:URL or command:CMD."""
    kind, _, rest = spec.partition(":")
    if kind == "lift" and not rest:
        return Lift(spec)
    if kind == "hipify" and not rest:
        return Hipify(spec)
    if kind == "model":
        return Model(spec, rest or None)
    if kind == "command" and rest.strip():
        try:
            argv = shlex.split(rest)
        except ValueError as e:
            raise CassError(f"'{spec}': {e}") from None
        return Command(spec, argv)
    raise CassError(f"'{spec}': choose lift, hipify, model[:URL] or command:CMD")
