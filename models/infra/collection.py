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

# A serving process's young objects collected less often, and so its full passes: a read after a
# write makes tens of thousands of short-lived objects (a season's lists, a page's JSON), and at
# the default (700) each such read set off full passes over everything the process keeps (its
# cached answers and lists): 100-200 ms pauses at a national league's scale.
SERVING_THRESHOLDS = (20_000, 10, 10)

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


def settle_serving_process() -> None:
    """Once a long-running process (a gunicorn worker, the delivery worker) has started:
    everything it imported and built so far lives as long as it does, so it is moved out of the
    collector's sight (its full passes stop walking hundreds of thousands of objects: a third of
    a national season's lists from scratch), and young objects are collected less often
    (SERVING_THRESHOLDS). Never in an app that a test or a one-off command builds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVING_THRESHOLDS)
