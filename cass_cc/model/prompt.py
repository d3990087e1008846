"""The model's requests (SASS -> RDNA3 assembly; CUDA -> HIP source, CASS's two tasks) and the
reading of its answers.

CASS (Heakl et al., 2025) trains its models on pairs of Nvidia SASS and AMD RDNA3 device assembly
of the same kernel; the stored copies of the paper, project page and dataset card consulted for
cass-cc do not spell out the instruction template, so the request states the task the way the
paper does (translate this SASS to RDNA3 assembly) and gives the compact SASS that the `normalize`
pass writes, which is the form the dataset keeps (no addresses, encodings or comments)."""

from __future__ import annotations

import re

from ..errors import FailedCheck

TEMPLATE = ("Translate the following Nvidia SASS assembly (CUDA kernel `{name}`, {sm_arch}) to AMD RDNA3 "
            "assembly for {offload_arch} (wave32, code object v5). Answer with the RDNA3 assembly only.\n\n"
            "{sass}")

SOURCE_TEMPLATE = ("Translate the following CUDA source file `{name}` to HIP for AMD GPUs ({offload_arch}). "
                   "Answer with the complete HIP source file only.\n\n{source}")

_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def prompt_for(sass_compact: str, name: str, sm_arch: str, offload_arch: str) -> str:
    return TEMPLATE.format(name=name, sm_arch=sm_arch, offload_arch=offload_arch, sass=sass_compact.strip())


def source_prompt_for(source: str, name: str, offload_arch: str) -> str:
    return SOURCE_TEMPLATE.format(name=name, offload_arch=offload_arch, source=source.strip())


def _code_of_answer(answer: str, what: str) -> str:
    """The longest fenced code block of an answer, else the whole text."""
    blocks = _FENCE.findall(answer)
    text = max(blocks, key=len) if blocks else answer
    if not text.strip():
        raise FailedCheck(f"the model answered with no {what}")
    return text.strip("\n") + "\n"


def assembly_of_answer(answer: str) -> str:
    """The assembly in an answer."""
    return _code_of_answer(answer, "assembly")


def source_of_answer(answer: str) -> str:
    """The HIP source in an answer."""
    return _code_of_answer(answer, "source")
