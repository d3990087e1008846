"""A client for an OpenAI-compatible chat/completions endpoint (vLLM's `vllm serve`), stdlib only.

The server is `CASS_MODEL_URL` (default http://127.0.0.1:8000/v1, vLLM's default) and the model
`CASS_MODEL` (default: the first model the server lists at /models, as vLLM serves one)."""

from __future__ import annotations

import json
import os
import socket
import time
import urllib.error
import urllib.request

from ..errors import ToolVerdict

DEFAULT_URL = "http://127.0.0.1:8000/v1"
REQUEST_TIMEOUT_S = 300.0   # a 7B model writing a few thousand tokens of assembly
ATTEMPTS = 3                # overloaded servers answer 429/503; a busy one times out
MAX_TOKENS = 8192


def server_url() -> str:
    return os.environ.get("CASS_MODEL_URL", DEFAULT_URL).rstrip("/")


class ModelClient:
    def __init__(self, url: str | None = None, model: str | None = None, timeout: float = REQUEST_TIMEOUT_S):
        self.url = (url or server_url()).rstrip("/")
        # where a wrong address is fixed: the caller's own option, or the environment
        self.url_source = "check the URL given" if url else "set CASS_MODEL_URL"
        self.model = model or os.environ.get("CASS_MODEL", "")
        self.timeout = timeout

    def complete(self, prompt: str) -> str:
        """The model's answer to one user message (greedy decoding, so answers are repeatable)."""
        body = {"model": self.model or self.served_model(), "temperature": 0, "max_tokens": MAX_TOKENS,
                "messages": [{"role": "user", "content": prompt}]}
        answer = self._request("/chat/completions", body)
        try:
            return answer["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise ToolVerdict(f"the server at {self.url} answered without a message: {str(answer)[:200]}") from None

    def served_model(self) -> str:
        listing = self._request("/models", None)
        try:
            return listing["data"][0]["id"]
        except (KeyError, IndexError, TypeError):
            raise ToolVerdict(f"the server at {self.url} lists no model (set CASS_MODEL)") from None

    def _request(self, path: str, body: dict | None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if os.environ.get("CASS_MODEL_API_KEY"):
            headers["Authorization"] = f"Bearer {os.environ['CASS_MODEL_API_KEY']}"
        last = ""
        for attempt in range(ATTEMPTS):
            if attempt:
                time.sleep(2 ** attempt)
            request = urllib.request.Request(self.url + path, data=data, headers=headers,
                                             method="POST" if data is not None else "GET")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8", "replace"))
            except urllib.error.HTTPError as e:
                detail = e.read().decode("utf-8", "replace").strip().splitlines()
                last = f"HTTP {e.code} from {self.url}{path}: {detail[0][:200] if detail else e.reason}"
                if e.code not in (408, 429, 500, 502, 503, 504):
                    break
            except urllib.error.URLError as e:
                if isinstance(e.reason, (ConnectionRefusedError, socket.gaierror, FileNotFoundError)):
                    raise ToolVerdict(f"no server at {self.url} ({self.url_source})") from None
                last = f"{self.url}{path}: {e.reason}"
            except (TimeoutError, socket.timeout):
                last = f"{self.url}{path}: no answer within {self.timeout:g} s"
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ToolVerdict(f"the server at {self.url} did not answer JSON") from None
            except ConnectionError as e:
                last = f"{self.url}{path}: {e}"
        raise ToolVerdict(last)
