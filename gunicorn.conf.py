"""gunicorn's settings for this service, read by gunicorn from the folder it starts in
(`./scripts/serve`, or the production line of docs/operations.md): what only a serving process
should do."""

from __future__ import annotations

import gc
from typing import Any


def post_worker_init(worker: Any) -> None:
    """Everything a worker imported and built at start-up lives as long as the process: out of the
    garbage collector's sight, its full collections stop walking hundreds of thousands of objects
    (they took a third of a national season's qualifier computation). Done here, in the serving
    worker, never in an app that a test or a command builds."""
    gc.collect()
    gc.freeze()
    # Fewer collections of young objects, and so fewer full ones: a read after a write allocates
    # tens of thousands of short-lived objects (a season's lists, a page's JSON), and at the
    # default (700) each such read set off full collections of everything the process keeps
    # (its cached answers and lists): 100-200 ms pauses at a national league's scale. Measured
    # on season qualifiers after a write: labelling the answer 21-40 ms instead of 13-211 ms.
    gc.set_threshold(20_000, 10, 10)


# An idle keep-alive connection stays open this long (seconds). gunicorn's default (2 s) is shorter
# than the pause between a website's or a load balancer's requests on one connection, so a client
# often reuses a connection at the moment the worker closes it and gets "connection reset". Keep
# it longer than the idle timeout of the load balancer in front (60 s on most).
keepalive = 75
