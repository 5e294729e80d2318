"""How pytest-xdist shares the suite between its workers (scripts/test, docs/testing.md).

A unit of work is one module on one backend (`tests/x/test_y.py` with `[sqlite…]` tests is one
unit, its `[postgresql…]` tests another), so a module's servers start once per backend and the
two halves of a long module run side by side. Units go out in collection order, and the
collection puts the modules that start servers, Chromium or Node.js first: they are the longest,
and the longest work given out first leaves no worker alone with one at the end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from tests.support.databases import BACKENDS

# Markers of the long modules (pyproject.toml's markers): theirs go out first.
LONG = ("server", "browser", "node")
BACKEND_OF = re.compile(r"\[(?:.*-)?(" + "|".join(map(re.escape, BACKENDS or ["sqlite"])) + r")(?:-.*)?\]$")


def longest_first(items: list[pytest.Item]) -> None:
    """Modules that start servers, Chromium or Node.js first; otherwise the order pytest chose
    (a stable sort: each module's tests, grouped by backend, keep theirs)."""
    items.sort(key=lambda item: not any(item.get_closest_marker(name) for name in LONG))


class ByModuleAndBackend(LoadScopeScheduling):
    """xdist's --dist loadscope, its scope one module on one backend, given out in collection order."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        config.option.loadscopereorder = False  # the collection's order (longest_first) stands

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        backend = BACKEND_OF.search(nodeid)
        return f"{module}::{backend.group(1)}" if backend else module
