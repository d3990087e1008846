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
