"""KernelUnit: one kernel on its way from SASS to an RDNA3 code object, and ARTIFACTS, the one
table of what each stage makes.

Each pass in cass_cc/passes/ takes a unit and returns it with its own artifact filled in (Triton-style
stages); the pipeline is a list of passes (cass_cc.pipeline). --cass-dump-after, the files that
--cass-save-temps and `cass-cc translate` write, the translation cache's entries and the file types
`cass-cc translate` starts from all read ARTIFACTS, so a stage's artifact has one name everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .targets import DEFAULT


@dataclass(frozen=True)
class Artifact:
    """What a stage makes: its file extension (its name in the files a translation writes and in
    the cache's entries) and the KernelUnit field that holds it."""
    extension: str
    field: str
    binary: bool = False       # bytes (an ELF), not text
    per_tu: bool = False       # made once for the whole translation unit and shared by its kernels


# Stage (pass name) -> the artifact it makes. The model stage makes what codegen makes.
ARTIFACTS: dict[str, Artifact] = {
    "disasm": Artifact("sass", "sass_text"),
    "lift": Artifact("ll", "llvm_ir"),
    "codegen": Artifact("s", "asm"),
    "model": Artifact("s", "asm"),
    "assemble": Artifact("o", "obj", binary=True),
    "link": Artifact("hsaco", "code_object", binary=True, per_tu=True),
}

# The per-kernel artifacts, each once, in the order the stages make them (the cache keeps these;
# the TU's code object has its own entry, TranslationCache.linked).
KERNEL_ARTIFACTS: tuple[Artifact, ...] = tuple({a.field: a for a in ARTIFACTS.values() if not a.per_tu}.values())


def stage_making(extension: str) -> str | None:
    """The first stage whose artifact has `extension` (None when no stage makes one)."""
    return next((stage for stage, a in ARTIFACTS.items() if a.extension == extension), None)


@dataclass
class KernelUnit:
    name: str                      # mangled name, as in the cubin and the host registration
    sm_arch: str                   # the SASS architecture the kernel came from, e.g. "sm_80"
    offload_arch: str = DEFAULT  # the AMD target (cass_cc/targets.py)
    demangled: str = ""
    kernel: Any = None             # cass_cc.fatbin's extracted kernel (params, shared, nv.info, ...)
    sass_text: str = ""            # nvdisasm output for this kernel
    sass_compact: str = ""         # normalised SASS, the form CASS's models take
    sass_labels: dict[str, int] = field(default_factory=dict)  # label name -> address
    instructions: list = field(default_factory=list)  # cass_cc.sass.model.Instruction
    llvm_ir: str = ""
    asm: str = ""                  # RDNA3 assembly text (llvm-mc input)
    obj: bytes = b""               # relocatable object from llvm-mc
    code_object: bytes = b""       # the translation unit's linked .hsaco, which holds this kernel
    tier: str = "lift"             # lift | model | hipify
    status: str = "ok"             # ok | fallback | failed
    reasons: list[str] = field(default_factory=list)
    refused_by: str = ""           # the pass that refused the kernel (a Refusal), when one did
    refusal_kind: str = ""         # that Refusal's kind (cass_cc.errors.REFUSAL_KINDS)
    seconds: dict[str, float] = field(default_factory=dict)
    sass_instructions: int = 0
    rdna3_instructions: int = 0

    def refuse(self, by: str, refusal) -> None:
        """Mark the unit refused by `by` (a pass, a translator) for `refusal` (a Refusal)."""
        self.status = "failed"
        self.refused_by = by
        self.refusal_kind = refusal.kind
        self.reasons.append(f"{by}: {refusal.message}")

    def artifact(self, stage: str) -> str | bytes:
        """What `stage` made for this unit (empty when it has not run)."""
        return getattr(self, ARTIFACTS[stage].field)

    def report_entry(self) -> dict:
        """This kernel's entry in the translation report (DESIGN.md)."""
        return {
            "name": self.name,
            "demangled": self.demangled or self.name,
            "tier": self.tier,
            "status": self.status,
            "sass_instructions": self.sass_instructions,
            "rdna3_instructions": self.rdna3_instructions,
            "reasons": list(self.reasons),
            "seconds": {k: round(v, 6) for k, v in self.seconds.items()},
        }
