"""The api layer's modules import each other in no cycle (read by grimp from the source): a
module low in it (api/db.py, api/auth.py) never needs one above it. The erasure's purge and the
reading sessions' memos reach api/db.py as what the cache registers there (api/cache/__init__.py),
not as an import of the cache."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grimp
import pytest

pytestmark = pytest.mark.rules


def cycles(edges: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, or of one importing itself
    (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in edges[node]:
                    found.append(sorted(group))
    return found


def test_cycles_are_found() -> None:
    """The finder finds what it must (so the test below cannot pass for want of looking)."""
    knot = {"auth": ["db"], "db": ["cache"], "cache": ["hooks"], "hooks": ["auth"], "x": ["db"]}
    assert cycles(knot) == [["auth", "cache", "db", "hooks"]]
    assert cycles({"a": ["b"], "b": []}) == []


def test_api_modules_form_no_import_cycle() -> None:
    graph = grimp.build_graph("api", "models", cache_dir=None)
    modules = {m for m in graph.modules if m == "api" or m.startswith("api.")}
    assert {"api.auth", "api.db", "api.cache", "api.cache.hooks"} <= modules
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in modules}
    assert graph.direct_import_exists(importer="api.cache.hooks", imported="api.auth")
    found = cycles(edges)
    chains = [graph.find_shortest_chain(importer=group[0], imported=group[-1]) for group in found]
    assert found == [], f"import cycles in api/: {found} (for instance {chains})"
