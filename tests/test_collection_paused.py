"""The garbage collector paused while a season's lists are made (models/infra/collection.py):
paused inside, as it was after; threads pausing at once share one pause, which ends with the
last of them; an error inside still ends it. A serving process settled: what it holds at start
frozen out of the collector's sight, young objects collected less often."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from models.infra.collection import SERVING_THRESHOLDS, collection_paused, settle_serving_process


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    was, thresholds = gc.isenabled(), gc.get_threshold()
    yield
    (gc.enable if was else gc.disable)()
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_paused_inside_and_enabled_again_after() -> None:
    gc.enable()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():  # nested in one thread
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled() -> None:
    gc.disable()
    with collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_an_error_inside_still_ends_the_pause() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), collection_paused():
        raise RuntimeError("the computation failed")
    assert gc.isenabled()


def test_threads_share_one_pause_that_ends_with_the_last() -> None:
    gc.enable()
    inside, leave = threading.Event(), threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with collection_paused():
            inside.set()
            assert leave.wait(timeout=120)
        seen.append(gc.isenabled())

    thread = threading.Thread(target=other)
    with collection_paused():
        thread.start()
        assert inside.wait(timeout=120)
    assert not gc.isenabled()  # the other thread's pause goes on after this one's ended
    leave.set()
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert seen == [True] and gc.isenabled()


def test_a_serving_process_freezes_what_it_holds_and_collects_young_objects_less_often() -> None:
    gc.unfreeze()
    kept = [{"made": n} for n in range(1000)]  # built at start, kept for the process's life
    settle_serving_process()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == SERVING_THRESHOLDS and SERVING_THRESHOLDS[0] > 700
