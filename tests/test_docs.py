"""The documents a newcomer reads (README.md, ARCHITECTURE.md, docs/*.md) name only what exists:
every repository path they name is a file or folder of the repository, every link to another
document (and its #heading) resolves, they stay short enough to read, and none points outside the
project. Read from the text, so a moved module or a renamed heading fails here, not in a reader's
hands."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "ARCHITECTURE.md", *(ROOT / "docs").glob("*.md")])

MOST_LINES = {"README.md": 250, "ARCHITECTURE.md": 350}

# Extensions of the repository's own files: a backticked name ending in one is a path.
EXTENSIONS = (".py", ".md", ".yaml", ".yml", ".toml", ".json", ".lock", ".ts", ".png", ".html", ".cfg")
# The repository's top-level entries, and the packages ARCHITECTURE.md names from models/ on
# (`services/locks.py` is models/services/locks.py, as its opening paragraph says).
UNDER_MODELS = ("services", "rules", "entities", "infra")
# What the documents tell the reader to make, or the service makes at run time: never in the repo.
MADE_BY_THE_READER = frozenset(
    {
        "client-config.yaml",
        "league_client",
        "league.d.ts",
        "player-12.json",
        "tuesday.xlsx",
        ".venv",
        "instance",
    }
)

SKIPPED_DIRECTORIES = frozenset(
    {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}
)

pytestmark = pytest.mark.rules


@cache
def names_in_repo() -> frozenset[str]:
    """Every file and folder name in the repository (for a bare `test_standings.py`)."""
    found: set[str] = set()
    for _folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in SKIPPED_DIRECTORIES]
        found.update(folders)
        found.update(files)
    return frozenset(found)


def code_spans(text: str) -> list[str]:
    """Inline code (`…`) and every whitespace-separated word of fenced blocks."""
    spans: list[str] = []
    fenced = re.compile(r"^```.*?^```", re.S | re.M)
    for block in fenced.findall(text):
        spans += block.split()
    spans += re.findall(r"`([^`\n]+)`", fenced.sub("", text))
    return spans


def words_of(span: str) -> list[str]:
    """The words of a code span that could be paths: a command's arguments, one by one."""
    return [word.strip("\"'(),;:[]") for word in span.split()]


def looks_like_a_path(word: str) -> bool:
    """A repository path, as the documents write one: with a slash, or ending in a known
    extension. Not a URL, an HTTP path (`/api/v1/…`), a template (`{id}`, `<resource>`), a shell
    variable (`$API/…`), a MIME type (`text/csv`) or a number (`2.5`)."""
    if not word or any(mark in word for mark in ("://", "{", "}", "<", ">", "$", "*", "=", "|", "…", "@")):
        return False
    if word.startswith(("/", "~", "-", "#", "http")):
        return False
    first = word.split("/")[0]
    if "/" in word:
        return first in names_at_top() or first in UNDER_MODELS or word.endswith(EXTENSIONS)
    return word.endswith(EXTENSIONS)


@cache
def names_at_top() -> frozenset[str]:
    return frozenset(path.name for path in ROOT.iterdir()) | MADE_BY_THE_READER


def candidates(word: str, document: Path) -> list[Path]:
    """Where a named path may be: from the root, under models/, beside the document; and for a
    `module.name` reference (`api/cache.SCOPED_ANSWERS`), the module's file."""
    relative = word.rstrip("/")
    places = [ROOT / relative, ROOT / "models" / relative, document.parent / relative]
    head, _, last = relative.rpartition("/")
    if "." in last and not last.endswith(EXTENSIONS):
        module = (f"{head}/" if head else "") + last.split(".")[0]
        places += [
            ROOT / f"{module}.py",
            ROOT / "models" / f"{module}.py",
            ROOT / module,
            ROOT / "models" / module,
        ]
    return places


def exists(word: str, document: Path) -> bool:
    if word.split("/")[0] in MADE_BY_THE_READER:
        return True
    if "/" not in word:
        return word in names_in_repo()
    return any(place.exists() for place in candidates(word, document))


def named_paths(document: Path) -> list[str]:
    return sorted(
        {w for span in code_spans(document.read_text()) for w in words_of(span) if looks_like_a_path(w)}
    )


def links(document: Path) -> list[str]:
    """Targets of Markdown links and images that are not on the web."""
    targets = re.findall(r"\]\(([^)\s]+)\)", document.read_text())
    return [t for t in targets if not t.startswith(("http://", "https://", "mailto:"))]


def anchors(document: Path) -> set[str]:
    """GitHub's ids of a document's headings: lower case, punctuation dropped, spaces as hyphens."""
    found = set()
    for heading in re.findall(
        r"^#{1,6} +(.+?) *$", re.sub(r"^```.*?^```", "", document.read_text(), flags=re.S | re.M), re.M
    ):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def name(document: Path) -> str:
    return document.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("document", DOCUMENTS, ids=name)
def test_every_path_a_document_names_exists(document: Path) -> None:
    missing = [word for word in named_paths(document) if not exists(word, document)]
    assert not missing, f"{name(document)} names paths that do not exist: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=name)
def test_every_link_resolves_to_a_document_and_its_heading(document: Path) -> None:
    broken = []
    for target in links(document):
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        if not linked.exists() or anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    assert not broken, f"{name(document)} links to what does not exist: {broken}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=name)
def test_no_document_points_outside_the_project(document: Path) -> None:
    """The team's spec folder (../shared, its RULES.md and API.md) is not part of the project."""
    text = document.read_text()
    assert not re.search(r"\.\./shared|\bshared/|\bRULES\.md\b|\bAPI\.md\b", text), name(document)


@pytest.mark.parametrize("document", [ROOT / "README.md", ROOT / "ARCHITECTURE.md"], ids=name)
def test_the_front_documents_stay_short(document: Path) -> None:
    lines = len(document.read_text().splitlines())
    assert lines <= MOST_LINES[document.name], (
        f"{document.name} has {lines} lines; at most {MOST_LINES[document.name]}"
    )


def test_the_path_finder_finds_paths() -> None:
    """What counts as a path, and what does not, on the shapes the documents use."""
    text = (
        "`models/services/locks.py` `api/cache.SCOPED_ANSWERS` `services/paging.py` `bench/x.py`\n"
        "`test_x.py` `/api/v1/seasons/{id}` `text/csv` `http://h/x.py` `$API/players` `2.5`\n"
        "```sh\n.venv/bin/python bench/national.py --markdown\n```\n"
    )
    words = sorted({w for span in code_spans(text) for w in words_of(span) if looks_like_a_path(w)})
    assert words == [
        ".venv/bin/python",
        "api/cache.SCOPED_ANSWERS",
        "bench/national.py",
        "bench/x.py",
        "models/services/locks.py",
        "services/paging.py",
        "test_x.py",
    ]
    document = ROOT / "ARCHITECTURE.md"
    assert exists("api/cache.SCOPED_ANSWERS", document)
    assert exists("services/paging.py", document)
    assert exists(".venv/bin/python", document)
    assert not exists("bench/x.py", document)
    assert not exists("test_x.py", document)
    assert not exists("models/entities/versioning.py", document)
