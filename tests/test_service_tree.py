"""The services form a tree (ARCHITECTURE.md, "The services, by resource"): the kernel imports no
resource, each resource package imports the kernel and only the packages before it in the order
ARCHITECTURE.md gives, and so the package-level import graph of models/services is acyclic.

Read from grimp's import graph of `models` (every import, those inside a function or under
TYPE_CHECKING too) and from ARCHITECTURE.md itself: a new arrow back up fails here naming its
import lines, and the documented order and kernel stay the code's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = "models.services"

pytestmark = pytest.mark.rules

Edges = dict[tuple[str, str], list[str]]


def package_of(module: str) -> str | None:
    """The package (or kernel module) of models/services a module belongs to."""
    if not module.startswith(SERVICES + "."):
        return None
    return module[len(SERVICES) + 1 :].split(".")[0]


@cache
def import_graph() -> grimp.ImportGraph:
    return grimp.build_graph("models", cache_dir=None)


@cache
def package_graph() -> Edges:
    """Every arrow between two packages of models/services, with the import lines behind it."""
    graph = import_graph()
    edges: Edges = {}
    for module in sorted(graph.modules):
        importer = package_of(module)
        if importer is None:
            continue
        for imported_module in sorted(graph.find_modules_directly_imported_by(module)):
            imported = package_of(imported_module)
            if imported is None or imported == importer:
                continue
            details = graph.get_import_details(importer=module, imported=imported_module)
            edges.setdefault((importer, imported), []).extend(
                f"{module}:{d['line_number']} {d['line_contents']}" for d in details
            )
    return edges


def services_section() -> str:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    start = text.index("## The services, by resource")
    return text[start : text.index("\n## ", start + 1)]


def documented_order() -> list[str]:
    """The resource packages, lowest first: the chain `a` < `b` < … of ARCHITECTURE.md."""
    chain = re.search(r"`\w+`(?:\s*<\s*`\w+`)+", services_section())
    assert chain, "ARCHITECTURE.md's services section gives no order (`a` < `b` < …)"
    return re.findall(r"`(\w+)`", chain.group(0))


def documented_kernel() -> set[str]:
    """The kernel table's modules and packages of models/services."""
    return set(re.findall(r"^\| `models/services/(\w+)(?:\.py|/)` \|", services_section(), re.M))


def resource_packages() -> set[str]:
    folder = ROOT / "models" / "services"
    return {path.name for path in folder.iterdir() if (path / "__init__.py").exists()}


def a_cycle(edges: Edges) -> list[str] | None:
    """One cycle of the graph (its packages, the first again at the end), or None."""
    following: dict[str, list[str]] = {}
    for importer, imported in sorted(edges):
        following.setdefault(importer, []).append(imported)
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in following.get(node, []):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(following):
        if node not in state and (found := visit(node)):
            return found
    return None


def said(edges: Edges, arrows: list[tuple[str, str]]) -> Iterator[str]:
    for importer, imported in arrows:
        yield f"{importer} -> {imported}"
        yield from (f"    {line}" for line in edges[importer, imported])


def test_the_graph_was_seen() -> None:
    """Not vacuous: grimp found the packages and the arrows the services are known to have."""
    seen = {package_of(module) for module in import_graph().modules}
    assert resource_packages() <= seen, resource_packages() - seen
    edges = package_graph()
    assert ("demo", "reports") in edges and ("reports", "standings") in edges
    assert len(edges) > 50


def test_the_package_graph_is_acyclic() -> None:
    edges = package_graph()
    cycle = a_cycle(edges)
    assert cycle is None, "a cycle of models/services packages:\n" + "\n".join(
        said(edges, list(zip(cycle, cycle[1:], strict=False)))
    )


def test_the_kernel_imports_no_resource() -> None:
    """Kernel modules (the clock, the audit log, access, freshness, paging, …) import only the
    kernel: a resource they needed would sit under every other resource."""
    kernel = documented_kernel()
    assert {"access", "audit_log", "lookup", "paging", "wall_clock"} <= kernel, kernel
    edges = package_graph()
    wrong = [arrow for arrow in sorted(edges) if arrow[0] in kernel and arrow[1] not in kernel]
    assert not wrong, "the kernel imports a resource:\n" + "\n".join(said(edges, wrong))


def test_the_documented_order_is_the_code_order() -> None:
    """Every resource package is in ARCHITECTURE.md's order once, the kernel in its table, and each
    imports only packages before it: an arrow back up is cut (a narrow function moved to the lower
    package, or a slot the higher one fills), or the order is changed there, knowingly."""
    order, kernel = documented_order(), documented_kernel()
    assert len(order) == len(set(order)), order
    assert set(order) == resource_packages() - kernel, set(order) ^ (resource_packages() - kernel)
    rank = {name: place for place, name in enumerate(order)}
    edges = package_graph()
    back = [
        (importer, imported)
        for importer, imported in sorted(edges)
        if importer in rank and imported in rank and rank[imported] > rank[importer]
    ]
    assert not back, "arrows back up the documented order:\n" + "\n".join(said(edges, back))
