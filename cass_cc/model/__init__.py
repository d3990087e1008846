"""The CASS model translator's pieces: an OpenAI-compatible client for a vLLM server (client), the
SASS->RDNA3 and CUDA->HIP prompts and the reading of the answers (prompt), and the completion of
a kernel body into an assemblable gfx1100 code-object source (wrap). cass_cc/passes/model.py
strings them together; `cass-cc bench --translator model` scores them (cass_cc/bench)."""

from .client import ModelClient, server_url
from .prompt import assembly_of_answer, prompt_for, source_of_answer, source_prompt_for
from .wrap import complete_source

__all__ = ["ModelClient", "server_url", "prompt_for", "assembly_of_answer", "source_prompt_for",
           "source_of_answer", "complete_source"]
