"""A local HTTP server that speaks the OpenAI chat/completions API (as `vllm serve` does) and
answers every request with a text the test sets (or with what a function the test sets makes of
the request's message). It STANDS IN FOR THE CASS MODEL: no CASS weights
can be had offline here, and the model's skill is not what these tests measure. What they test is
the client and, above all, the check that every model answer passes before it is trusted."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

SERVED_MODEL = "cass-stand-in"


class StandInServer:
    def __init__(self):
        self.answer: str | Callable[[str], str] = ""
        self.status = 200
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": SERVED_MODEL, "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body})
                if outer.status != 200:
                    self._send(outer.status, {"error": {"message": "the stand-in was told to fail"}})
                    return
                answer = outer.answer(body["messages"][-1]["content"]) if callable(outer.answer) else outer.answer
                self._send(200, {"id": "cmpl-0", "object": "chat.completion", "model": body.get("model"),
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": answer}}]})

            def _send(self, status, obj):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
