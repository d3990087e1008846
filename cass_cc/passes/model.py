"""model: unit.sass_compact -> unit.asm by a CASS model served by vLLM (OpenAI-compatible API at
CASS_MODEL_URL): the alternative to lift + codegen (`--cass-translators=lift,model`).

A model's answer is never trusted as it comes: PIPELINE runs the same assemble, link and verify
stages as the lifter's, over the kernel alone (a translation unit of its own, so the answer is
checked before the translator is chosen; its translation unit's code object is verified again),
and importing this pass registers the differential check (cass_cc/passes/differential.py) that
verify runs for every unit of tier `model`: the answer must compute the same bytes as a reference
translation of the same kernel on the emulator, or it is refused."""

from __future__ import annotations

import sys

from cass_cc.errors import FailedCheck
from cass_cc.model import ModelClient, assembly_of_answer, complete_source, prompt_for
from cass_cc.rdna3.target import count_instructions
from cass_cc.unit import KernelUnit

from . import FRONT_END, assemble, differential, link, verify

NAME = "model"


def run(unit: KernelUnit) -> KernelUnit:
    if not unit.sass_compact:
        raise FailedCheck("no compact SASS to translate (the normalize pass did not run)")
    if differential.check not in verify.DIFFERENTIAL_CHECKS:
        raise FailedCheck("model output unchecked: the differential check is not registered")
    answer = ModelClient().complete(prompt_for(unit.sass_compact, unit.demangled or unit.name,
                                               unit.sm_arch, unit.offload_arch))
    unit.asm = complete_source(assembly_of_answer(answer), unit)
    unit.tier = "model"
    unit.sass_instructions = unit.sass_instructions or len(unit.instructions)
    unit.rdna3_instructions = count_instructions(unit.asm)
    return unit


PIPELINE = FRONT_END + [sys.modules[__name__], assemble, link, verify]
