"""ARCHITECTURE.md says only what is true, as tests/test_docs.py holds the documents' commands and
paths: every repository path it names exists; every name it gives (`module.name`,
`Class.attribute`, a function, a class, a constant) is defined where it says, or somewhere in the
code when it says no place; the list of service packages it gives is the whole list; and every
count it states ("five HTML pages", "21 packages", "at most 450 lines") is computed from the code
and compared. The claims are found in the text by regexes, so a claim added later is checked too:
a count this test cannot compute fails until it learns to (`COUNTS`) or is said to be no count of
the code (`NOT_COUNTS`)."""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "ARCHITECTURE.md"
CODE = ("api", "models", "tests", "scripts", "bench")
UNDER_MODELS = ("services", "rules", "entities", "infra")
EXTENSIONS = (".py", ".md", ".yaml", ".yml", ".toml", ".json", ".ts", ".html")

# Names the document gives that are not the project's (Python's, a library's, SQL's).
NOT_OURS = frozenset(
    {"StrEnum", "date.today", "datetime.now", "time.time", "MAX_CONTENT_LENGTH", "None", "PUT"}
)

pytestmark = pytest.mark.rules


def text() -> str:
    return DOCUMENT.read_text()


def spans(document: str) -> list[str]:
    """Inline code (`…`) outside fenced blocks."""
    return re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", document, flags=re.S | re.M))


@cache
def sources() -> tuple[Path, ...]:
    found = [ROOT / "app.py"]
    for top in CODE:
        found += [p for p in (ROOT / top).rglob("*.py") if "node_modules" not in p.parts]
    return tuple(sorted(found))


DEFINED = re.compile(
    r"^[ \t]*(?:async[ \t]+def|def|class)[ \t]+(\w+)"  # a function or class
    r"|^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=(?!=)"  # an assignment, annotated or not
    r"|^[ \t]*(\w+)[ \t]*:[ \t]*\S"  # a field: annotated, or a dict key a schema names
    r"|^[ \t]*@\w+(?:\.\w+)*\([\"'](\w+)[\"']\)",  # a name registered by a decorator
    re.M,
)


@cache
def defined_in(path: Path) -> frozenset[str]:
    """The names a module defines: functions, classes, assignments, fields, at any depth."""
    found = {name for groups in DEFINED.findall(source_text(path)) for name in groups if name}
    return frozenset(found)


@cache
def defined_anywhere() -> frozenset[str]:
    """Every name the code defines, and the names it gives the outside: its packages, tables and
    the environment variables it reads."""
    names = set().union(*(defined_in(path) for path in sources()))
    for path in sources():
        code = path.read_text()
        names |= set(re.findall(r"__tablename__ = \"(\w+)\"", code))
        names |= set(re.findall(r"environ(?:\.get)?[\[(]\"(\w+)\"", code))
        names |= set(re.findall(r"^[A-Z_]+ = \"([A-Z][A-Z_]+)\"", code, re.M))  # an environment variable
    names |= {p.name for top in CODE for p in (ROOT / top).rglob("*") if (p / "__init__.py").exists()}
    return frozenset(names)


def importable(name: str) -> bool:
    """A module of ours (`models.rules`) or a library the layers may import (`flask_smorest`)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def module_of(path: str) -> Path | None:
    """`services/locks` or `api/cache` (from the root, or under models/): its file or package."""
    for base in (ROOT, ROOT / "models"):
        for candidate in (base / f"{path}.py", base / path / "__init__.py"):
            if candidate.exists():
                return candidate
    return None


@cache
def source_text(path: Path) -> str:
    return path.read_text()


@cache
def homes_of(name: str) -> tuple[Path, ...]:
    """Where a first name of `name.attr` lives: a module of that name, or a class of that name."""
    modules = [p for p in sources() if p.stem == name or p.parent.name == name and p.stem == "__init__"]
    classes = [p for p in sources() if re.search(rf"^[ \t]*class[ \t]+{name}\b", source_text(p), re.M)]
    return (*modules, *classes)


@cache
def file_names() -> frozenset[str]:
    """The name of every file of the repository (its tools' folders aside)."""
    skipped = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
    names = set()
    for _folder, folders, files in os.walk(ROOT):
        folders[:] = [f for f in folders if f not in skipped]
        names.update(files)
    return frozenset(names)


def is_path(word: str) -> bool:
    first = word.split("/")[0]
    tops = {p.name for p in ROOT.iterdir()}
    return "/" in word and (first in tops or first in UNDER_MODELS) or word.endswith(EXTENSIONS)


def check_span(span: str) -> list[str]:
    """What a code span names that does not exist (empty when all of it does)."""
    span = span.strip().removeprefix("@")
    span = re.sub(r"\(.*\)$", "", span)  # `Problem(path, message, rule)`: the name
    if " " in span or not span:
        return []  # a command, SQL, a sentence: tests/test_docs.py reads the commands
    if span in NOT_OURS or re.fullmatch(r"[A-Za-z_][\w.]*", span) and importable(span):
        return []
    path_and_names = re.fullmatch(r"((?:[\w-]+/)+)([\w]+)\.([A-Za-z_][\w.]*)", span)
    if path_and_names and not span.endswith(EXTENSIONS):
        folder, module, names = path_and_names.groups()
        found = module_of(folder + module)
        if found is None:
            return [span]
        return [span for name in names.split(".") if name not in defined_in(found)][:1]
    if is_path(span):
        word = span.rstrip("/")
        places = [ROOT / word, ROOT / "models" / word]
        if "/" not in word and word in file_names():
            return []
        return [] if any(p.exists() for p in places) else [span]
    dotted = re.fullmatch(r"([A-Za-z_]\w*)\.([A-Za-z_]\w*)", span)
    if dotted:
        first, attribute = dotted.groups()
        homes = homes_of(first)
        return [] if any(attribute in defined_in(home) for home in homes) else [span]
    identifier = re.fullmatch(r"[A-Za-z_]\w*", span)
    if identifier and ("_" in span.strip("_") or re.search(r"[A-Z]", span)):
        return [] if span in defined_anywhere() else [span]
    return []


def test_every_name_and_path_in_backticks_exists() -> None:
    found = {span: check_span(span) for span in spans(text())}
    checked = [span for span, missed in found.items() if not missed]
    missing = sorted({name for missed in found.values() for name in missed})
    assert not missing, f"ARCHITECTURE.md names what the code does not define: {missing}"
    assert len(checked) > 300  # the extraction reads the document, not nothing


def test_the_name_checks_can_fail() -> None:
    """Each kind of claim is refused when false, so the test above is no formality."""
    assert check_span("services/locks.share_scoring") == []
    assert check_span("services/locks.no_such_lock") == ["services/locks.no_such_lock"]
    assert check_span("models/services/no_such_module.py") == ["models/services/no_such_module.py"]
    assert check_span("Result.played") == []
    assert check_span("Result.no_such_attribute") == ["Result.no_such_attribute"]
    assert check_span("get_or_raise") == []
    assert check_span("no_such_function") == ["no_such_function"]
    assert check_span("NoSuchClass") == ["NoSuchClass"]


WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
WORDS += ("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
# Numbers the document writes as words ("one" is an article as often as a number).
NUMBERS = {word: value for value, word in enumerate(WORDS, start=2)}


def embed_pages() -> int:
    return len(re.findall(r"^@blp\.route\(", (ROOT / "api/embed/routes.py").read_text(), re.M))


def service_packages() -> int:
    return len([p for p in (ROOT / "models/services").iterdir() if (p / "__init__.py").exists()])


def permissions() -> int:
    return len(re.findall(r"^def may_\w+", (ROOT / "models/services/access.py").read_text(), re.M))


def json_depth() -> int:
    return int(re.search(r"^MAX_JSON_DEPTH = (\d+)", (ROOT / "api/__init__.py").read_text(), re.M)[1])


def module_bound() -> int:
    """The bound tests/test_layers.py holds, when every module is within it (else 0)."""
    bound = int(re.search(r"^MOST_LINES = (\d+)", (ROOT / "tests/test_layers.py").read_text(), re.M)[1])
    modules = [p for top in ("api", "models") for p in (ROOT / top).rglob("*.py")]
    longest = max(len(p.read_text().splitlines()) for p in modules)
    return bound if longest <= bound else 0


def document_bound() -> int:
    bound = int(re.search(r'"ARCHITECTURE.md": (\d+)', (ROOT / "tests/test_docs.py").read_text())[1])
    return bound if len(text().splitlines()) <= bound else 0


# What a stated count counts: the words that follow the number, and how to count it.
COUNTS: dict[str, Callable[[], int]] = {
    r"HTML pages": embed_pages,
    r"packages": service_packages,
    r"permissions": permissions,
    r"levels": json_depth,
    r"lines \(`tests/test_layers\.py`\)": module_bound,
    r"lines \(`tests/test_docs\.py`\)": document_bound,
}
# Numbers that count nothing in the code: a version, a status, a size, a few of something.
NOT_COUNTS = (
    r"typed mappings",  # SQLAlchemy 2
    r"for GETs",  # HTTP 304
    r"KB deep",  # a receiver's answer, read so deep
    r"ways",
    r"players told apart",
    r"ever wait",
    r"queries",
    r"guards merges",  # migration 0014
)


def stated_counts(document: str) -> list[tuple[int, str]]:
    """Every number in the prose (digits, or a word from two to twenty) with the words after it;
    rule ids (R12), migrations (0014) and code spans aside."""
    prose = re.sub(r"^```.*?^```", "", document, flags=re.S | re.M)
    prose = re.sub(r"^\|.*\|$", "", prose, flags=re.M)  # the tables: rule ids and migration numbers
    prose = re.sub(r"\s*\n\s*", " ", prose)
    number = "|".join([r"\d+", *NUMBERS])
    found = []
    for match in re.finditer(
        rf"(?<![\w/.-])(?:at most |≤ ?)?({number})\b(?![.,]\d) +(?=([^\n]{{0,40}}))", prose
    ):
        value, after = match.groups()
        if re.fullmatch(r"0\d+", value) and not after.startswith("guards"):
            continue
        if re.fullmatch(r"[1-5]\d\d", value) and re.search(r"\ban? $", prose[: match.start(1)]):
            continue  # an HTTP status: "a 409"
        found.append((int(value) if value.isdigit() else NUMBERS[value], after))
    return found


def test_every_count_it_states_is_the_count() -> None:
    counts = stated_counts(text())
    wrong, unknown, compared = [], [], 0
    for value, after in counts:
        counter = next(
            (f for words, f in COUNTS.items() if re.match(rf"(?:[\w-]+ ){{0,2}}{words}", after)), None
        )
        if counter is not None:
            compared += 1
            if counter() != value:
                wrong.append(f"{value} {after!r}: the code has {counter()}")
        elif not any(re.match(rf"(?:[\w-]+ ){{0,2}}{words}", after) for words in NOT_COUNTS):
            unknown.append(f"{value} {after!r}")
    assert not wrong, f"ARCHITECTURE.md states counts that are not the code's: {wrong}"
    assert not unknown, f"counts this test does not compute (add them to COUNTS or NOT_COUNTS): {unknown}"
    assert compared >= 4


def test_a_wrong_count_is_found() -> None:
    wrong = "`api/embed/` serves four HTML pages; `models/services/` has 3 packages."
    assert [value for value, _after in stated_counts(wrong)] == [4, 3]
    assert embed_pages() != 4 and service_packages() != 3


def test_the_services_list_is_every_package() -> None:
    """The document's list of service packages is the whole list, in backticks after "by name"."""
    section = text().split("## The services, by resource", 1)[1].split("Each module says", 1)[0]
    listed = set(re.findall(r"`(\w+)`", section.split("by name:", 1)[1]))
    packages = {p.name for p in (ROOT / "models/services").iterdir() if (p / "__init__.py").exists()}
    assert listed == packages, f"listed but missing: {listed - packages}; not listed: {packages - listed}"


# Where `api/` may build statements: HTTP's own table, a probe, the cache's own pass.
STATEMENTS_ALLOWED = ("api/idempotency.py", "api/health/", "api/cache/")
STATEMENT = re.compile(
    r"(?<![.\w])(?<!def )(?:select|insert|update|delete)\(|session\.(?:query|execute|scalars?)\(|\.query\("
)


def test_views_never_build_queries() -> None:
    """ARCHITECTURE.md: views never build queries of the league's data, they call the services;
    the places it names are the only ones in api/ that build statements."""
    allowed = [part for part in STATEMENTS_ALLOWED if f"`{part}`" in text()]
    assert allowed == list(STATEMENTS_ALLOWED), "the document names the places this test allows"
    building = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "api").rglob("*.py")
        if STATEMENT.search(path.read_text())
        and not path.relative_to(ROOT).as_posix().startswith(STATEMENTS_ALLOWED)
    )
    assert not building, f"views that build queries (move them into models/services/): {building}"
    assert STATEMENT.search("    rows = session.scalars(select(Venue).where(Venue.id == 1))")
