"""Running a click command as a program: one error line and an exit status, never a traceback
(the traceback of an internal error with CASS_DEBUG=1). Used by `cass-cc` and by the suite
runner's `python3 -m cass_cc.bench.suite`, which must not import cass-cc's subcommands."""

from __future__ import annotations

import os
import sys

import click

from .errors import CassError, InternalError
from .signals import Terminated, terminating_signals_raise
from .signals import name as signal_name


def run(command: click.Command, argv: list[str] | None, prog_name: str) -> int:
    try:
        with terminating_signals_raise():
            return command.main(args=argv, prog_name=prog_name, standalone_mode=False) or 0
    except Terminated as t:
        sys.stderr.write(f"{prog_name}: terminated by {signal_name(t.signum)}\n")
        return 128 + t.signum
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.exceptions.Abort:
        sys.stderr.write("cass-cc: interrupted\n")
        return 130
    except CassError as e:
        if isinstance(e, InternalError) and os.environ.get("CASS_DEBUG"):
            sys.stderr.write(e.traceback_text())
        sys.stderr.write(f"cass-cc: error: {e.message}\n")
        return e.exit_code
