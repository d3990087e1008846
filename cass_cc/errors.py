"""Errors a user can act on. Entry points print them as one line and exit non-zero."""

from __future__ import annotations


class CassError(Exception):
    """A failure with a message for the user; never shown as a traceback."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


# The exit status of a device-code image that is not one (cass-cc translate-image).
INVALID_IMAGE_EXIT = 4


class InvalidImage(CassError):
    """Bytes given as an NVIDIA device-code image (a fatbin, a cubin, PTX text) that are none, or
    a damaged one: the input is wrong, not cass-cc or a kernel (exit status 4)."""

    def __init__(self, message: str):
        super().__init__(message, INVALID_IMAGE_EXIT)


class ToolMissing(CassError):
    """An external tool (nvcc, llvm-mc, hipcc, ...) that a step needs was not found."""


class Refusal(CassError):
    """A translator declines a kernel for a stated reason (an unknown opcode, say). What kind of
    refusal it is, is its class (`kind`, kept on the KernelUnit as refusal_kind): code that decides
    what to do with a refused kernel asks the kind, never the wording of the message. A plain
    Refusal is of no known kind, which nothing may take as deterministic."""

    kind = "refusal"
    # whether only the kernel's facts (cass_cc.fatbin.facts) and the translator's own code decide
    # it: then the same kernel is refused again by the same cass-cc (the cache keeps the refusal)
    deterministic = False


class UnknownInstruction(Refusal):
    """SASS the translator does not know: an opcode, a modifier, an operand form, a line the
    grammar does not parse."""

    kind = "unknown-instruction"
    deterministic = True


class UnsupportedFeature(Refusal):
    """A property of the kernel or its cubin the translator does not support (an architecture,
    relocatable device code waiting for its device link)."""

    kind = "unsupported-feature"
    deterministic = True


class ToolVerdict(Refusal):
    """An external tool rejected what it was given (nvdisasm, LLVM, llvm-mc, ld.lld, a model
    server): another version of the tool may take it."""

    kind = "tool-verdict"


class FailedCheck(Refusal):
    """A check of the translation failed (the code object's layout, a differential run)."""

    kind = "failed-check"


REFUSAL_KINDS: dict[str, type[Refusal]] = {c.kind: c for c in (Refusal, UnknownInstruction, UnsupportedFeature,
                                                                ToolVerdict, FailedCheck)}


def deterministic_kind(kind: str) -> bool:
    """Whether a refusal of `kind` (a KernelUnit's refusal_kind) is decided by the kernel and the
    translator's code alone; False for a kind this cass-cc does not know."""
    cls = REFUSAL_KINDS.get(kind)
    return cls is not None and cls.deterministic


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
