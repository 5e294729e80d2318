"""The league's rules explained, in the console (GET /console/rules): each rule of docs/rules.md
(its paragraphs from "**R2 Seasons.**" to the next rule or heading) under an anchor of its id,
so a refusal's "why?" (api/words.why) opens the rule behind it: /console/rules#R2. The page
renders the little Markdown those paragraphs use (code, bold, quotes of examples, lists,
tables), its text escaped. The rules are no secret: the page needs no sign-in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from api.console.base import bp, page

RULES_FILE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
RULE_START = re.compile(r"^\*\*(R\d+[a-z]?) ([^*]+?)\.?\*\*\s*(.*)$")


@dataclass(frozen=True)
class Explained:
    """One rule as the page shows it: its id (the anchor), its title and its paragraphs."""

    rule: str
    title: str
    html: Markup


def inline(text: str) -> Markup:
    """A line's text escaped, then its `code`, **bold**, *emphasis* and [links](…) (the link's
    words only, unless it is a web address)."""
    said = str(escape(text))
    said = re.sub(r"`([^`]+)`", r"<code>\1</code>", said)
    said = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", said)
    said = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?!\w)", r"<em>\1</em>", said)
    said = re.sub(r"\[([^\]]+)\]\((https://[^)\s]+)\)", r'<a href="\2">\1</a>', said)
    said = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", said)
    return Markup(said)  # noqa: S704 (escaped above; only our own tags added)


def kind_of(line: str, before: str) -> str:
    """What a line of a rule's text belongs to: a paragraph, a quoted example, a list, a table."""
    if line.startswith(">"):
        return "quote"
    if line.startswith("|"):
        return "table"
    if line.startswith("- ") or (before == "list" and line.startswith("  ")):
        return "list"
    return "p"


def grouped(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A rule's lines as blocks of one kind each; a blank line ends a block."""
    groups: list[tuple[str, list[str]]] = []
    for line in lines:
        if not line.strip():
            groups.append(("", []))
            continue
        kind = kind_of(line, groups[-1][0] if groups else "")
        if groups and groups[-1][0] == kind:
            groups[-1][1].append(line)
        else:
            groups.append((kind, [line]))
    return [group for group in groups if group[0]]


def list_html(group: list[str]) -> str:
    items: list[str] = []
    for line in group:
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif items:
            items[-1] += " " + line.strip()
    return "<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>"


def table_html(group: list[str]) -> str:
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in group
        if not re.fullmatch(r"[|\s:-]+", line)
    ]
    head, *body = rows or [[]]
    cells = "".join(f'<th scope="col">{inline(c)}</th>' for c in head)
    table = f'<div class="scroll"><table><thead><tr>{cells}</tr></thead><tbody>'
    for row in body:
        table += "<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>"
    return table + "</tbody></table></div>"


def blocks(lines: list[str]) -> Markup:
    """Paragraphs, quoted examples ("> "), lists ("- ") and tables ("| ") as HTML."""
    out: list[str] = []
    for kind, group in grouped(lines):
        if kind == "quote":
            text = " ".join(line.lstrip(">").strip() for line in group)
            out.append(f'<blockquote class="example"><p>{inline(text)}</p></blockquote>')
        elif kind == "list":
            out.append(list_html(group))
        elif kind == "table":
            out.append(table_html(group))
        else:
            out.append(f"<p>{inline(' '.join(line.strip() for line in group))}</p>")
    return Markup("\n".join(out))  # noqa: S704 (each piece escaped by `inline`)


def explained(text: str) -> list[Explained]:
    """The rules of a rules document: each from its bold id and title to the next rule or
    heading."""
    found: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        start = RULE_START.match(line)
        if start:
            found.append((start.group(1), start.group(2), [start.group(3)]))
        elif line.startswith("#"):
            found.append(("", "", []))  # a heading ends the rule before it
        elif found:
            found[-1][2].append(line)
    return [Explained(rule, title, blocks(lines)) for rule, title, lines in found if rule]


@cache
def league_rules() -> tuple[Explained, ...]:
    """The league's rules as docs/rules.md explains them (none when the file is not shipped)."""
    try:
        return tuple(explained(RULES_FILE.read_text(encoding="utf-8")))
    except OSError:
        return ()


@bp.route("/rules")
def rules_page() -> Any:
    """Every rule of the league, explained, each under its id: a refusal's "why?" opens it."""
    return page("console/rules.html", rules=league_rules())
