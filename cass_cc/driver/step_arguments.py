"""The command line of a build step run as a command of its own (`cass-cc translate-object`,
`cass-cc hipify`, ...): a few options of the step, its inputs, and after `--` the nvcc options
that give it the build's settings (Settings.step_options)."""

from __future__ import annotations

from .parse import UsageError, parse
from .settings import Settings, settings_from


def read_arguments(argv: list[str], command: str, names: dict[str, str], inputs: tuple[str, int, int | None],
                   needed: tuple[str, ...] = ()) -> tuple[dict[str, str], list[str], list[str]]:
    """A step's command line -> (option values by name, inputs, the nvcc options after `--`).
    `names` maps spellings (`-o`, `--mirror`) to names; `inputs` is what they are called and
    how many there may be (least, most: None for any number)."""
    see = f"(see cass-cc {command} --help)"
    options: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1:]
    values: dict[str, str] = {}
    found: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in names:
            if not eq:
                if i + 1 >= len(argv):
                    raise UsageError(f"{command}: option '{arg}' needs a value {see}")
                i += 1
                value = argv[i]
            values[names[name]] = value
        elif arg.startswith("-") and arg != "-":
            raise UsageError(f"{command}: unknown option '{arg}' (nvcc options go after '--') {see}")
        else:
            found.append(arg)
        i += 1
    what, least, most = inputs
    if len(found) < least or (most is not None and len(found) > most):
        wanted = f"one {what}" if least == most == 1 else f"at least one {what}"
        raise UsageError(f"{command}: {wanted} expected, got {len(found)} {see}")
    missing = [spelling for spelling, name in names.items() if name in needed and name not in values]
    if missing:
        raise UsageError(f"{command}: option '{missing[0]}' is needed {see}")
    return values, found, options


def settings_of(options: list[str]) -> Settings:
    """The build's settings from the nvcc options a step was given."""
    return settings_from(parse(options))
