"""Synthetic samples: CUDA programs asked of a model server (OpenAI-compatible, as vLLM serves)
with variable-augmented prompts. A template is a JSON file:

    {"prompt": "Write a CUDA program that {task} on {n} {dtype} values ...",
     "values": {"task": ["sorts", "reduces"], "n": ["1024"], "dtype": ["int", "float"]}}

Every combination of the values (names in sorted order, values in file order) is one prompt, so
the same template always gives the same prompts in the same order. Only the names in "values"
are placeholders: other braces (CUDA code in a prompt) stay as they are. Each answer's code
becomes <template>-<number>.cu in the output folder, for `cass-cc dataset build`."""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path

from ..errors import CassError

_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def expand(template: dict, name: str) -> list[str]:
    """The prompts of one template, in their fixed order."""
    if not isinstance(template, dict) or not isinstance(template.get("prompt"), str) \
            or not isinstance(template.get("values", {}), dict):
        raise CassError(f"'{name}': a template is {{\"prompt\": TEXT, \"values\": {{NAME: [VALUE, ...]}}}}")
    prompt, values = template["prompt"], template.get("values", {})
    for key, options in values.items():
        if "{" + key + "}" not in prompt:
            raise CassError(f"'{name}': value list '{key}' has no placeholder {{{key}}} in the prompt")
        if not isinstance(options, list) or not options:
            raise CassError(f"'{name}': values of '{key}' must be a non-empty list")
    keys = sorted(values)
    prompts = []
    for combination in itertools.product(*(values[k] for k in keys)):
        text = prompt
        for key, value in zip(keys, combination):
            text = text.replace("{" + key + "}", str(value))
        prompts.append(text)
    return prompts


def code_of(answer: str) -> str:
    """The longest fenced code block of an answer, else the whole answer."""
    blocks = _FENCE.findall(answer)
    return (max(blocks, key=len) if blocks else answer).strip("\n") + "\n"


def synthesise(templates: list[str], out: Path, url: str, model: str | None, log) -> list[Path]:
    """Ask the server for every prompt of `templates`; the .cu files written (a file already
    there is kept, so an interrupted run resumes)."""
    from ..model.client import ModelClient
    client = ModelClient(url, model)
    jobs = []
    for file in templates:
        try:
            template = json.loads(Path(file).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CassError(f"cannot read template '{file}': {e}") from None
        jobs += [(out / f"{Path(file).stem}-{n:04d}.cu", p) for n, p in enumerate(expand(template, file))]
    out.mkdir(parents=True, exist_ok=True)
    for n, (path, prompt) in enumerate(jobs, 1):
        if path.exists():
            continue
        code = code_of(client.complete(prompt))
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(code)
        os.replace(tmp, path)
        log(f"[{n}/{len(jobs)}] {path.name}")
    return [path for path, _ in jobs]
