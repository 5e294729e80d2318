"""A webhook receiver for the R23 tests: a real HTTP server on 127.0.0.1 in a thread, keeping
every request it gets (headers and body), answering with the status it is told, optionally
holding a request until released (a receiver that hangs while a worker is killed)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    port: int = 0
    status: int = 204
    redirect_to: str | None = None
    got: list[Received] = field(default_factory=list)
    hold_first: threading.Event | None = None  # set: the first request waits until it is set
    first_arrived: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def ids(self) -> set[str]:
        return {r.headers.get("webhook-id", "") for r in self.got}


@contextmanager
def receiver(**settings: Any) -> Iterator[Receiver]:
    state = Receiver(**settings)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            first = not state.first_arrived.is_set()
            state.first_arrived.set()
            if first and state.hold_first is not None:
                state.hold_first.wait(timeout=120)
            with lock:
                state.got.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            if state.redirect_to:
                self.send_response(307)
                self.send_header("Location", state.redirect_to)
            else:
                self.send_response(state.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        if state.hold_first is not None:
            state.hold_first.set()
        server.shutdown()
        server.server_close()
