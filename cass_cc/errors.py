"""Errors a user can act on. Entry points print them as one line and exit non-zero."""

from __future__ import annotations


class CassError(Exception):
    """A failure with a message for the user; never shown as a traceback."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class ToolMissing(CassError):
    """An external tool (nvcc, llvm-mc, hipcc, ...) that a step needs was not found."""


class Refusal(CassError):
    """A translator declines a kernel for a stated reason (an unknown opcode, say)."""


# The exit status of a bug in cass-cc (EX_SOFTWARE), not of the user's input or tools.
INTERNAL_ERROR_EXIT = 70


class InternalError(CassError):
    """A pass failed on a kernel other than by refusing it (a bug in cass-cc, or a tool that
    misbehaved): never a fallback, always an error naming the pass and the kernel. The failure
    itself is the exception's __cause__, whose traceback CASS_DEBUG=1 shows."""

    def __init__(self, pass_name: str, kernel: str, what: str):
        where = f"pass '{pass_name}'" + (f" on kernel '{kernel}'" if kernel else "")
        super().__init__(f"internal error in {where}: {what}; set CASS_DEBUG=1 for the traceback",
                         INTERNAL_ERROR_EXIT)
        self.pass_name, self.kernel = pass_name, kernel

    @classmethod
    def from_failure(cls, pass_name: str, kernel: str, failure: BaseException) -> "InternalError":
        what = failure.message if isinstance(failure, CassError) else f"{type(failure).__name__}: {failure}"
        error = cls(pass_name, kernel, what.strip().splitlines()[0] if what.strip() else type(failure).__name__)
        error.__cause__ = failure
        return error

    def traceback_text(self) -> str:
        """The traceback of the failure behind this error (what CASS_DEBUG=1 prints)."""
        import traceback
        cause = self.__cause__
        return "".join(traceback.format_exception(cause)) if cause is not None else ""
