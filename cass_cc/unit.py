"""KernelUnit: one kernel on its way from SASS to an RDNA3 code object.

Each pass in cass_cc/passes/ takes a unit and returns it with its own artifact filled in (Triton-style
stages); the pipeline is a list of passes (cass_cc.pipeline).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class KernelUnit:
    name: str                      # mangled name, as in the cubin and the host registration
    sm_arch: str                   # the SASS architecture the kernel came from, e.g. "sm_80"
    offload_arch: str = "gfx1100"  # the AMD target
    demangled: str = ""
    kernel: Any = None             # cass_cc.fatbin's extracted kernel (params, shared, nv.info, ...)
    sass_text: str = ""            # nvdisasm output for this kernel
    sass_compact: str = ""         # normalised SASS, the form CASS's models take
    sass_labels: dict[str, int] = field(default_factory=dict)  # label name -> address
    instructions: list = field(default_factory=list)  # cass_cc.sass.model.Instruction
    llvm_ir: str = ""
    asm: str = ""                  # RDNA3 assembly text (llvm-mc input)
    obj: bytes = b""               # relocatable object from llvm-mc
    code_object: bytes = b""       # linked .hsaco
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
