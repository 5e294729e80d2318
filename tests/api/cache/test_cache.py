"""The read cache's own behaviour (api/cache.py): version-derived ETags and 304s, the caller's
scope, `cache reset` after a restore, a Redis that fails, and a store bounded in bytes. That no
read is ever stale after a write, on any worker, is proven in test_cache_freshness.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask

from api.cache.stores import DiskStore, LayeredStore, MemoryStore, RedisStore, answers_directory
from app import create_app
from tests.builders import Scene
from tests.support.league import Caller
from tests.support.servers import PATIENCE


def test_a_repeated_read_is_served_from_the_cache_and_a_304_needs_its_etag(
    scene: Scene, public: Caller
) -> None:
    scene.padded([scene.player("Ann")], 6)
    first = public.get(scene.path())
    again = public.get(scene.path())
    assert first.status_code == again.status_code == 200
    assert first.headers["ETag"] == again.headers["ETag"] and first.data == again.data
    assert "no-cache" in first.headers["Cache-Control"]
    assert public.get(scene.path(), headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert public.get(scene.path(), headers={"If-None-Match": '"another"'}).status_code == 200
    # A proxy that compresses may weaken the ETag (W/"…"): revalidation still gets a 304.
    weakened = "W/" + first.headers["ETag"]
    assert public.get(scene.path(), headers={"If-None-Match": weakened}).status_code == 304


def test_keyed_callers_get_private_answers_and_their_own_etags_r19(scene: Scene, public: Caller) -> None:
    scene.padded([scene.player("Ann")], 6)
    as_public = public.get(scene.path())
    as_host = scene.host.get(scene.path())
    assert "private" in as_host.headers["Cache-Control"]
    assert "private" not in as_public.headers["Cache-Control"]
    assert as_public.headers["ETag"] != as_host.headers["ETag"]
    assert "Authorization" in as_public.headers["Vary"]


def test_cache_reset_retires_every_answer(scene: Scene, public: Caller, runner: Any) -> None:
    """After a restore versions repeat: `cache reset` gives every answer a new key and ETag."""
    scene.padded([scene.player("Ann")], 6)
    before = public.get(scene.path()).headers["ETag"]
    outcome = runner.invoke(args=["cache", "reset"])
    assert outcome.exit_code == 0, outcome.output
    after = public.get(scene.path(), headers={"If-None-Match": before})
    assert after.status_code == 200 and after.headers["ETag"] != before


def test_a_failing_redis_is_a_miss_not_a_failed_read(base_app: Flask) -> None:
    """Reads go on from the database when Redis is down (a closed port here)."""
    app = create_app(
        {
            "DATABASE_URL": base_app.config["DATABASE_URL"],
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            "CACHE_URL": "redis://127.0.0.1:9/0",
        }
    )
    store = app.extensions["league_cache"]
    assert isinstance(store, LayeredStore) and isinstance(store.shared, RedisStore)
    client = app.test_client()
    for _ in range(2):
        response = client.get("/api/v1/regions")
        assert response.status_code == 200, response.get_json()
        assert response.headers["ETag"]


def test_the_memory_store_keeps_within_its_bytes() -> None:
    store = MemoryStore(max_bytes=1000)
    for n in range(50):
        store.set(f"k{n}", b"x" * 100)
    kept = [n for n in range(50) if store.get(f"k{n}") is not None]
    assert sum(100 for _ in kept) <= 1000
    assert kept == list(range(40, 50))  # the least recently used went first
    store.set("huge", b"x" * 600)  # more than a quarter of the store: not kept
    assert store.get("huge") is None


def test_the_embedded_store_is_a_folder_beside_the_sqlite_file_or_as_cache_dir_says(tmp_path: Path) -> None:
    """Shared by every process of the machine: CACHE_DIR, else beside the SQLite file, or in
    instance/ by the database's name (not its password); an in-memory database (one process)
    keeps its answers in its memory."""
    db = tmp_path / "league.db"
    assert answers_directory({"DATABASE_URL": f"sqlite:///{db}"}) == tmp_path / "league.db.answers"
    elsewhere = {"DATABASE_URL": f"sqlite:///{db}", "CACHE_DIR": str(tmp_path / "a")}
    assert answers_directory(elsewhere) == tmp_path / "a"
    assert answers_directory({"DATABASE_URL": "sqlite://"}) is None
    assert answers_directory({"DATABASE_URL": "sqlite:///file::memory:?cache=shared&uri=true"}) is None
    on_postgres = answers_directory({"DATABASE_URL": "postgresql+psycopg://u:secret@h/db"})
    assert on_postgres is not None and on_postgres.parent.name == "instance"
    assert on_postgres == answers_directory({"DATABASE_URL": "postgresql+psycopg://u:other@h/db"})
    assert on_postgres != answers_directory({"DATABASE_URL": "postgresql+psycopg://u@h/db2"})
    # Two stores on one folder (two processes) see each other's answers; the oldest go first.
    first = DiskStore(tmp_path / "a", max_bytes=8 << 20, ttl_seconds=60)
    second = DiskStore(tmp_path / "a", max_bytes=8 << 20, ttl_seconds=60)
    first.set("k", b"answer")
    assert second.get("k") == b"answer"
    second.set("huge", b"x" * ((2 << 20) + 1))  # more than a quarter of the store: not kept
    assert first.get("huge") is None
    # What was read lately is noted there too, for the refresher; a clear forgets it.
    assert not second.noted("/api/v1/ratings?")
    first.note(["/api/v1/ratings?"], 60)
    assert second.noted("/api/v1/ratings?")
    second.clear()
    assert first.get("k") is None and not first.noted("/api/v1/ratings?")
    # R21: what is cleared (after an erasure) leaves no copy in the folder's files.
    first.set("erased", b"Ann Example, ann@example.org")
    second.clear()
    kept = b"".join(path.read_bytes() for path in (tmp_path / "a").iterdir() if path.is_file())
    assert b"ann@example.org" not in kept


def test_a_worker_tells_what_was_read_together_every_few_seconds(tmp_path: Path) -> None:
    """Each worker's reads are told to the shared store in one write every CACHE_NOTE_EVERY_SECONDS
    (not one write per read); until then the worker itself knows them."""
    shared = DiskStore(tmp_path / "a", max_bytes=8 << 20, ttl_seconds=60)
    its_own = DiskStore(tmp_path / "a", max_bytes=8 << 20, ttl_seconds=60)
    worker = LayeredStore(MemoryStore(1 << 20), its_own, 0.05)
    worker.note(["/api/v1/players/1?", "/api/v1/players/2?"], 600)
    assert worker.noted("/api/v1/players/1?")
    deadline = time.monotonic() + PATIENCE
    while not (shared.noted("/api/v1/players/1?") and shared.noted("/api/v1/players/2?")):
        assert time.monotonic() < deadline, "never told"
        time.sleep(0.05)  # the poll's interval


def test_a_clear_is_whole_even_while_a_worker_tells_what_it_filed(tmp_path: Path) -> None:
    """A flush that took what was pending before a clear does not tell the shared store about it
    after the clear: the refresher would compute again answers nobody has cached since."""
    shared = DiskStore(tmp_path / "shared", 1 << 20, 60)
    worker = LayeredStore(MemoryStore(1 << 20), shared, 0)
    worker._note_every = 3600  # noqa: SLF001  (told only when flushed, here by hand)
    worker.file([("venue:1:2", "/api/v1/standings")], 60)
    telling, told = threading.Event(), threading.Event()
    file = shared.file

    def slow_file(entries: Any, seconds: int) -> None:
        telling.set()  # the flush has taken what was pending, and tells it now
        assert told.wait(PATIENCE)
        file(entries, seconds)

    shared.file = slow_file  # type: ignore[method-assign]
    flushing = threading.Thread(target=worker.flush)
    flushing.start()
    assert telling.wait(PATIENCE)
    clearing = threading.Thread(target=worker.clear)
    clearing.start()
    # The clear waits for the flush (it cannot end before it: the wait is no deadline to meet);
    # without that wait, it ends at once and the flush tells its stale filing after it.
    clearing.join(2)
    told.set()
    flushing.join(PATIENCE)
    clearing.join(PATIENCE)
    assert not flushing.is_alive() and not clearing.is_alive()
    assert worker.filed("venue:1:2") == frozenset()
