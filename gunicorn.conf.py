"""gunicorn's settings for this service, read by gunicorn from the folder it starts in
(`./scripts/serve`, or the production line of docs/operations.md): what only a serving process
should do."""

from __future__ import annotations

from typing import Any


def post_worker_init(worker: Any) -> None:
    """The garbage collector as a serving process wants it (models/infra/collection.py): what the
    worker built at start-up out of its sight, young objects collected less often. Measured on
    season qualifiers after a write: labelling the answer 21-40 ms instead of 13-211 ms."""
    from models.infra.collection import settle_serving_process

    settle_serving_process()


# An idle keep-alive connection stays open this long (seconds). gunicorn's default (2 s) is shorter
# than the pause between a website's or a load balancer's requests on one connection, so a client
# often reuses a connection at the moment the worker closes it and gets "connection reset". Keep
# it longer than the idle timeout of the load balancer in front (60 s on most).
keepalive = 75
