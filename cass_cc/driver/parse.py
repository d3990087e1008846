"""Reading an nvcc command line with the option table: spellings, values, response files.

nvcc's rules: long names take `--`, short names take `-`; a value follows after `=` or as the
next argument (and is attached for -I -D -U -L -l -O); list options split their values at commas
and may repeat; `@file` and `--options-file file` insert the file's arguments in place.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

from ..errors import CassError
from . import options as O


class UsageError(CassError):
    """A command line cass-nvcc cannot accept; message is shown as `cass-nvcc: error: ...`."""


@dataclass
class Arguments:
    """The parsed command line: option values by long name, in order, and the inputs."""
    values: dict[str, list[str]] = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # forwarded to the host compiler/linker
    spelled: dict[str, str] = field(default_factory=dict)  # long name -> as the user wrote it
    # Each option as (long name, its tokens as written, response files expanded), in order; the
    # CASS_* variables that gave a value appear as the --cass-* option they stand for.
    written: list[tuple[str, list[str]]] = field(default_factory=list)

    def flag(self, long: str) -> bool:
        return long in self.values

    def value(self, long: str, default: str | None = None) -> str | None:
        got = self.values.get(long)
        return got[-1] if got else default

    def list(self, long: str) -> list[str]:
        return list(self.values.get(long, []))

    def options_except(self, leave_out: set[str]) -> list[str]:
        """The options as written, without those named in `leave_out` and without the inputs:
        a command line that gives another tool the same settings (environment included)."""
        tokens = [t for long, written in self.written if long not in leave_out for t in written]
        return tokens + self.unknown


def expand_response_files(argv: list[str], depth: int = 0) -> list[str]:
    """Replace `@file`, `--options-file f`/`-optf f` (and = forms) with the files' arguments."""
    if depth > 16:
        raise UsageError("response files nested too deeply (a file including itself?)")
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        files: list[str] = []
        if arg.startswith("@") and len(arg) > 1:
            files = [arg[1:]]
        elif arg in ("--options-file", "-optf"):
            if i + 1 >= len(argv):
                raise UsageError(f"option '{arg}' needs a value")
            i += 1
            files = argv[i].split(",")
        elif arg.startswith(("--options-file=", "-optf=")):
            files = arg.split("=", 1)[1].split(",")
        if not files:
            out.append(arg)
        for name in files:
            try:
                with open(name, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise UsageError(f"cannot read options file '{name}': {e.strerror}") from None
            except UnicodeDecodeError:
                raise UsageError(f"options file '{name}' is not text") from None
            try:
                words = shlex.split(text, comments=False)
            except ValueError as e:
                raise UsageError(f"options file '{name}': {e}") from None
            out.extend(expand_response_files(words, depth + 1))
        i += 1
    return out


def _lookup(arg: str) -> tuple[O.Option | None, str | None]:
    """The option an argument names and its attached value (after = or glued on), if any."""
    if arg.startswith("--"):
        name, eq, val = arg[2:].partition("=")
        opt = O.BY_LONG.get(name)
        return opt, (val if eq else None)
    body = arg[1:]
    if body in O.BY_SHORT:
        return O.BY_SHORT[body], None
    name, eq, val = body.partition("=")
    if eq and name in O.BY_SHORT:
        return O.BY_SHORT[name], val
    for short in O.ATTACHED_SHORTS:
        if body.startswith(short) and len(body) > len(short):
            return O.BY_SHORT[short], body[len(short):]
    for short in O.ATTACHED_NUMBER_SHORTS:
        if body.startswith(short) and body[len(short):].isdigit():
            return O.BY_SHORT[short], body[len(short):]
    return None, None


def _split_list(opt: O.Option, value: str) -> list[str]:
    # A -gencode specification holds its own commas (arch=compute_80,code=sm_80).
    if opt.long == "generate-code":
        return [value]
    return [v for v in value.split(",") if v != ""] or [value]


def _check_choice(opt: O.Option, spelled: str, value: str) -> None:
    if opt.choices and value not in opt.choices:
        allowed = ", ".join(opt.choices)
        raise UsageError(f"value '{value}' is not defined for option '{spelled}' (allowed: {allowed})")


def parse(argv: list[str], env: dict[str, str] | None = None) -> Arguments:
    """Parse an nvcc command line (after the program name) into Arguments.

    Unknown options are kept aside: they are forwarded when -forward-unknown-to-host-* is given
    anywhere on the line, and refused otherwise.
    """
    args = Arguments()
    argv = expand_response_files(list(argv))
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            if arg == "-":
                raise UsageError("reading the source from standard input ('-') is not supported yet")
            args.inputs.append(arg)
            continue
        opt, value = _lookup(arg)
        if opt is None:
            args.unknown.append(arg)
            continue
        start = i - 1
        spelled = arg.split("=", 1)[0] if value is not None and "=" in arg else arg
        if opt.kind == O.FLAG:
            if value is not None:
                raise UsageError(f"option '{spelled}' takes no value")
            args.values.setdefault(opt.long, []).append("")
        else:
            if value is None:
                if i >= len(argv):
                    raise UsageError(f"option '{arg}' needs a value ({opt.metavar or 'a value'})")
                value = argv[i]
                i += 1
            items = _split_list(opt, value) if opt.kind == O.LIST else [value]
            for item in items:
                _check_choice(opt, spelled, item)
            args.values.setdefault(opt.long, []).extend(items)
        args.spelled.setdefault(opt.long, spelled)
        args.written.append((opt.long, argv[start:i]))
    _apply_environment(args, os.environ if env is None else env)
    return args


def _apply_environment(args: Arguments, env: dict[str, str]) -> None:
    """CASS_* variables give the --cass-* options a value the command line did not set."""
    for opt in O.CASS:
        if opt.long in args.values or not env.get(opt.env):
            continue
        raw = env[opt.env]
        if opt.kind == O.FLAG:
            if raw.lower() not in ("0", "false", "no", "off"):
                args.values[opt.long] = [""]
                args.written.append((opt.long, [f"--{opt.long}"]))
            continue
        items = _split_list(opt, raw) if opt.kind == O.LIST else [raw]
        for item in items:
            _check_choice(opt, opt.env, item)
        args.values[opt.long] = items
        args.spelled[opt.long] = opt.env
        args.written.append((opt.long, [f"--{opt.long}={raw}"]))
