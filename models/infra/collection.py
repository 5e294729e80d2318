"""Python's cyclic garbage collector paused while a large value is built.

A season's qualifier lists at a national league's scale make millions of objects, nearly all of
which the memo keeps: every collection while they are made walks them and frees nothing. Paused,
the lists are made in about half the time (bench/national.py --scale 10). Only reference cycles
wait for the collector (plain reference counting frees everything else as it goes), and they
are collected at its next pass once the last pauser is done. Process-wide, as the collector is:
threads pausing at once share one pause."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pausers = 0
_was_enabled = False


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection in this process until the block (and every other thread's
    one begun meanwhile) ends; then collection as it was before the first began."""
    global _pausers, _was_enabled
    with _lock:
        if _pausers == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pausers += 1
    try:
        yield
    finally:
        with _lock:
            _pausers -= 1
            if _pausers == 0 and _was_enabled:
                gc.enable()
