"""A webhook receiver for the R23 tests: a real HTTP server on 127.0.0.1 in a thread, keeping
every request it gets (headers and body), answering with the status it is told, optionally
holding a request until released (a receiver that hangs while a worker is killed); and hostile
receivers on the raw socket: an answer of hundreds of MB, an answer trickled a byte at a time."""

from __future__ import annotations

import itertools
import json
import select
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float = field(default_factory=time.monotonic)

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


# What the hostile receivers below send again and again: one block, never the whole answer.
BLOCK = b"x" * 65536


@dataclass
class Hostile:
    """A receiver that answers badly (`huge_answer`, `trickle`), written on the raw socket so that
    it can: what it was asked, and whether the worker hung up on it and when."""

    port: int = 0
    asked: threading.Event = field(default_factory=threading.Event)  # a request came, read whole
    hung_up: threading.Event = field(default_factory=threading.Event)  # before its answer's end
    answered: threading.Event = field(default_factory=threading.Event)  # whole, or hung up on
    asked_at: float = 0.0  # time.monotonic() of each
    hung_up_at: float = 0.0
    sent: int = 0  # bytes of its answers sent (the last one's)
    requests: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def held(self) -> float:
        """How long the worker stayed on the line: from the request to its hanging up."""
        return self.hung_up_at - self.asked_at


Answer = Callable[[socket.socket, Hostile, threading.Event], None]


def huge_answer(size: int, status: str = "500 Internal Server Error") -> Answer:
    """An answer of `size` bytes, made as it is sent (a 64 KB block again and again), until the
    worker hangs up."""

    def answer(conn: socket.socket, state: Hostile, closing: threading.Event) -> None:
        conn.sendall(f"HTTP/1.1 {status}\r\nContent-Length: {size}\r\n\r\n".encode())
        while state.sent < size and not closing.is_set():
            part = BLOCK[: size - state.sent]
            try:
                conn.sendall(part)
            except OSError:
                _hung_up(state)
                return
            state.sent += len(part)

    return answer


def trickle(every: float, longest: float, head: bytes = b"") -> Answer:
    """An answer one byte every `every` seconds, for `longest` seconds at most: a status line,
    then a header that never ends; or, given a `head`, that sent at once, then a body that never
    ends. The worker hanging up is seen at once (the socket turns readable)."""

    def answer(conn: socket.socket, state: Hostile, closing: threading.Event) -> None:
        if head:
            conn.sendall(head)
        start = b"" if head else b"HTTP/1.1 200 OK\r\nX-Trickle: "
        endless = itertools.chain(start, itertools.repeat(ord("a")))
        ends = time.monotonic() + longest
        for byte in endless:
            if closing.is_set() or time.monotonic() > ends:
                return
            try:
                conn.sendall(bytes([byte]))
                state.sent += 1
                readable, _, _ = select.select([conn], [], [], every)
                if readable and not conn.recv(1):
                    _hung_up(state)
                    return
            except OSError:
                _hung_up(state)
                return

    return answer


def _hung_up(state: Hostile) -> None:
    state.hung_up_at = time.monotonic()
    state.hung_up.set()


def _read_request(conn: socket.socket) -> bool:
    """The request's head and body, read whole (so that nothing of it is left to read)."""
    data = b""
    while b"\r\n\r\n" not in data:
        got = conn.recv(65536)
        if not got:
            return False
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        got = conn.recv(65536)
        if not got:
            return False
        body += got
    return True


@contextmanager
def hostile_receiver(answer: Answer) -> Iterator[Hostile]:
    """A receiver on 127.0.0.1 answering every request with `answer`, until the block ends."""
    state = Hostile()
    closing = threading.Event()

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            conn: socket.socket = self.request
            if not _read_request(conn):
                return
            state.requests += 1
            state.sent, state.asked_at = 0, time.monotonic()
            state.hung_up.clear()
            state.answered.clear()
            state.asked.set()
            answer(conn, state, closing)
            state.answered.set()

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        closing.set()
        server.shutdown()
        server.server_close()
