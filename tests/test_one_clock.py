"""R2a: one clock, in one place. Only models/infra/clock.py reads the time; everything else asks
it (an instant) or models/services/wall_clock.py (today at a venue, today in the league). Read
from the source (ast), so a `date.today()` slipped in anywhere fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLOCK = ROOT / "models" / "infra" / "clock.py"
# Calls that read the time: `date.today()`, `datetime.now()`, `time.time()`, ...
READS = {
    ("date", "today"),
    ("datetime", "today"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "localtime"),
    ("time", "gmtime"),
}

pytestmark = pytest.mark.rules


def sources() -> list[Path]:
    found = [ROOT / "app.py", ROOT / "gunicorn.conf.py"]
    found += [p for package in ("models", "api") for p in (ROOT / package).rglob("*.py")]
    return sorted(p for p in found if p.exists() and p != CLOCK)


def reads_of_the_time(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, call) of each call of a READS function, however `datetime` was imported."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
            if (name, node.func.attr) in READS:
                found.append((node.lineno, f"{name}.{node.func.attr}()"))
    return found


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_only_the_clock_reads_the_time_r2a(path: Path) -> None:
    reads = reads_of_the_time(ast.parse(path.read_text()))
    where = ", ".join(f"line {line}: {call}" for line, call in reads)
    assert not reads, (
        f"{path.relative_to(ROOT)} reads the time ({where}); ask models/infra/clock.py (an instant) "
        "or models/services/wall_clock.py (today at a venue, today in the league)"
    )


def test_the_clock_itself_is_seen_reading_the_time_r2a() -> None:
    """The scan finds a read where there is one (so a pass above is not a scan that sees nothing)."""
    assert [call for _line, call in reads_of_the_time(ast.parse(CLOCK.read_text()))] == ["datetime.now()"]
    sample = "import datetime as d\nfrom datetime import date\nx = date.today()\ny = d.datetime.now()\n"
    assert reads_of_the_time(ast.parse(sample)) == [(3, "date.today()"), (4, "datetime.now()")]
