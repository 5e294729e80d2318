"""The layers of ARCHITECTURE.md hold: each package imports only what its layer may, and imports
sit at module level. Read from the source (ast), so a breach fails here, not in review."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(__import__("sys").stdlib_module_names) | {"__future__"}

# What each layer may import besides the standard library (a prefix matches its submodules).
ALLOWED: dict[str, tuple[str, ...]] = {
    "models/rules": (
        "models.rules",
        "models.errors",
        "rapidfuzz",
        "openskill",
        "confusable_homoglyphs",
        "babel",
    ),
    "models/errors.py": (),
    "models/actor.py": (),
    "models/__init__.py": (),
    "models/infra": (
        "sqlalchemy",
        "alembic",
        "cryptography",
        "httpx",
        "httpcore",
        "standardwebhooks",
        "models.infra",
    ),
    "models/entities": ("sqlalchemy", "models.entities", "models.infra.clock", "models.rules"),
    "models/freshness": ("sqlalchemy", "cachetools", "models.entities", "models.freshness"),
    "models/services": ("sqlalchemy", "cachetools", "models"),
    "api": (
        "flask",
        "flask_smorest",
        "apispec",
        "webargs",
        "marshmallow",
        "werkzeug",
        "sqlalchemy",
        "click",
        "alembic",
        "cachetools",
        "redis",
        "diskcache",
        "flask_limiter",
        "limits",
        "markupsafe",
        "flask_wtf",
        "wtforms",
        "python_calamine",
        "charset_normalizer",
        "icalendar",
        "PIL",
        "api",
        "models",
    ),
}

pytestmark = pytest.mark.rules


def layer_of(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    return next(layer for layer in sorted(ALLOWED, key=len, reverse=True) if relative.startswith(layer))


def sources() -> list[Path]:
    return sorted(p for package in ("models", "api") for p in (ROOT / package).rglob("*.py"))


def imported(tree: ast.Module) -> list[tuple[str, int, bool]]:
    """(module, line, at module level) of every import."""
    found = []
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno, id(node) in top))
    return found


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_imports_stay_within_the_layer(path: Path) -> None:
    allowed = ALLOWED[layer_of(path)]
    for module, line, _top in imported(ast.parse(path.read_text())):
        root = module.split(".")[0]
        if root in STDLIB:
            continue
        assert any(module == a or module.startswith(a + ".") for a in allowed), (
            f"{path.relative_to(ROOT)}:{line} imports {module}; its layer may import {allowed}"
        )


@pytest.mark.parametrize("path", [*sources(), ROOT / "app.py"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_imports_are_at_module_level(path: Path) -> None:
    late = [line for _module, line, top in imported(ast.parse(path.read_text())) if not top]
    assert not late, f"{path.relative_to(ROOT)} imports inside a function at lines {late}"


MOST_LINES = 450


def test_no_module_is_longer_than_its_bound() -> None:
    """Each module of api/ and models/ stays within MOST_LINES lines: one grown past it is split
    along a seam (a decision made in one place), not left to grow."""
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in sources()
        if (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def test_the_rules_touch_no_framework() -> None:
    """The pure rules import neither Flask nor SQLAlchemy, directly or through what they import."""
    for path in (ROOT / "models" / "rules").rglob("*.py"):
        for module, line, _top in imported(ast.parse(path.read_text())):
            assert module.split(".")[0] not in ("flask", "sqlalchemy"), f"{path}:{line} {module}"


def of_tests_themselves(module: str) -> bool:
    """Whether the module is a test file or a conftest.py of tests/."""
    last = module.split(".")[-1]
    return module.startswith("tests.") and (last == "conftest" or last.startswith("test_"))


def test_tests_share_helpers_through_the_support_package() -> None:
    """Tests import what they share from tests/support (or tests/builders.py), never from a test
    file or a conftest.py: pytest loads those itself, and conftest.py holds only fixtures."""
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            found = [module for module in modules if of_tests_themselves(module)]
            assert not found, f"{path.relative_to(ROOT)}:{node.lineno} imports {found}: use tests/support"


def test_architecture_names_the_layers_as_they_are_checked() -> None:
    """ARCHITECTURE.md's import table says exactly what this test allows, layer by layer."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    table = text[text.index("| layer | may import |") :].split("\n\n", 1)[0].splitlines()[2:]
    documented: dict[str, tuple[str, ...]] = {}
    for row in table:
        layer, allowed = (cell.strip() for cell in row.strip("|").split("|"))
        names = [part.split("(")[0].strip().strip("`") for part in allowed.split(",")]
        documented[layer.strip("`")] = () if allowed == "nothing of ours" else tuple(names)
    assert documented == ALLOWED


# The services' kernel: what every resource's services share. Every other service lives in a
# package named as the API's resource it serves (api/<resource>/), or `demo` (the CLI's demo).
KERNEL = frozenset({"access", "locks", "lookup", "paging", "wall_clock"})
# Words the code once used beside the API's own for the same concept (the glossary in
# ARCHITECTURE.md): a module named with one of them names the concept a second way.
OTHER_WORDS = frozenset(
    {"discipline", "tournament", "tournaments", "qualification", "versioning", "season_lists", "keys"}
)


def test_services_are_grouped_as_the_api_is() -> None:
    """models/services/ holds the kernel's few modules, and one package per API resource."""
    resources = {p.name for p in (ROOT / "api").iterdir() if (p / "__init__.py").exists()}
    for path in sorted((ROOT / "models" / "services").iterdir()):
        if path.name in ("__init__.py", "__pycache__"):
            continue
        if path.is_dir():
            assert path.name in resources | {"demo"}, f"{path.name}/ is named as no API resource"
        else:
            assert path.stem in KERNEL, f"{path.name} belongs in its resource's package, or to the kernel"


def test_modules_are_named_in_the_apis_words() -> None:
    """One word per concept: a tournament's stored result is a report, a sanction no "discipline", …"""
    for path in sources():
        words = set(path.relative_to(ROOT).with_suffix("").as_posix().replace("/", "_").split("_"))
        names = {path.stem, *path.relative_to(ROOT).parent.parts}
        assert not (names & OTHER_WORDS) and not ({"tournament", "tournaments"} & words), path.relative_to(
            ROOT
        )
