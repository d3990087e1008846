"""What a translation gives back: the HIP text, what could not be translated, and what the
driver needs to compile the result."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    column: int
    severity: str   # "warning": the translation may be wrong or incomplete here
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message}"


@dataclass
class HipifyResult:
    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    compat_header: str | None = None   # pass as `-include` when set
    kernels: list[str] = field(default_factory=list)
    entered_kernels: list[str] = field(default_factory=list)   # those given the kernel_entry statement
