"""The console's forms as a browser finds them (every `<form method="post">` of a page: where it
posts, its fields and what the page filled in), filled with bad input, and what a person reads
after posting one (the refusal's box, the reasons beside the fields, the flashed messages),
checked for words a program reads rather than a person: API field names and paths, marshmallow's
and WTForms' own sentences, a rule id leading a sentence, ISO dates."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

# What a browser sends for each kind of input (a field typed by hand).
TEXT_KINDS = ("text", "textarea", "search", "email", "url", "")
# Inputs a person does not type into.
UNTYPED = ("hidden", "submit", "button", "file")


@dataclass
class Field:
    name: str
    kind: str  # text, number, decimal, date, checkbox, select, textarea, hidden, file, …
    value: str = ""
    checked: bool = False
    options: list[str] = field(default_factory=list)  # a select's values, in order

    @property
    def typed(self) -> bool:
        """Whether a person fills it (not a hidden field, a button or a file)."""
        return self.kind not in UNTYPED


@dataclass
class PageForm:
    """A form as a page offers it: where it posts, how, and its fields as the page filled them."""

    page: str
    action: str
    fields: list[Field]
    multipart: bool = False

    def filled(self, **changes: str) -> dict[str, list[str]]:
        """What a browser posts: the page's values (ticked boxes, chosen options), `changes` typed
        over them."""
        data: dict[str, list[str]] = {}
        for item in self.fields:
            if item.kind in ("submit", "button", "file"):
                continue
            if item.kind in ("checkbox", "radio"):
                if item.checked:
                    data.setdefault(item.name, []).append(item.value or "on")
                continue
            data.setdefault(item.name, []).append(item.value)
        for name, value in changes.items():
            data[name] = [value]
        return data

    def names(self) -> set[str]:
        return {item.name for item in self.fields}

    def typed(self) -> list[Field]:
        return [item for item in self.fields if item.typed]


class _Forms(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[PageForm] = []
        self._form: PageForm | None = None
        self._select: Field | None = None
        self._textarea: Field | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            action = a.get("action") or self.page
            self._form = PageForm(self.page, html.unescape(action), [], "multipart" in a.get("enctype", ""))
            return
        if self._form is None:
            return
        kind = a.get("type", "text").lower()
        if tag == "input" and a.get("name"):
            if kind in ("text", "") and a.get("inputmode") in ("numeric", "decimal"):
                kind = "number" if a["inputmode"] == "numeric" else "decimal"
            self._form.fields.append(Field(a["name"], kind, a.get("value", ""), "checked" in a))
        elif tag == "select" and a.get("name"):
            self._select = Field(a["name"], "select")
            self._form.fields.append(self._select)
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select.options.append(value)
            if "selected" in a or (len(self._select.options) == 1 and not self._select.value):
                self._select.value = value
        elif tag == "textarea" and a.get("name"):
            self._textarea = Field(a["name"], "textarea")
            self._form.fields.append(self._textarea)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            if self._textarea is not None:
                self._textarea.value = self._textarea.value.removeprefix("\n")
            self._textarea = None
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None


def post_forms(page_html: str, page: str) -> list[PageForm]:
    """Every form of a page that posts, in the page's order."""
    parser = _Forms(page)
    parser.feed(page_html)
    return parser.forms


# Bad input of each kind of field: (name of the variant, what is typed by kind).
BAD: dict[str, dict[str, str]] = {
    "blank": {"text": "", "textarea": "", "number": "", "decimal": "", "date": "", "select": ""},
    "words in numbers": {"number": "lots", "decimal": "a third", "date": "the 3rd"},
    "below zero": {"number": "-1", "decimal": "-0.5", "date": "1900-01-01"},
    "too big": {"number": "99999999999", "decimal": "12345.123456", "date": "2999-12-31"},
}


def bad_variants(form: PageForm) -> Iterator[tuple[str, dict[str, list[str]]]]:
    """The form posted with each kind of bad input: every field a person fills emptied, then
    numbers and dates written wrong, below zero and too big (text as the page filled it). A list
    of rows (`name.N.column`) gets its first row filled the same way."""
    for variant, typed in BAD.items():
        changes: dict[str, str] = {}
        for item in form.typed():
            if item.kind in ("checkbox", "radio"):
                continue
            if variant == "blank":
                if item.kind == "select" and "" not in item.options:
                    continue  # a select without an empty choice cannot be emptied by a person
                changes[item.name] = ""
            elif item.kind in typed and item.kind not in ("text", "textarea", "select"):
                changes[item.name] = typed[item.kind]
            elif re.search(r"\.0\.\w+$", item.name):
                changes[item.name] = typed.get("number", "")
        data = form.filled(**changes)
        if variant == "blank":
            for item in form.typed():
                if item.kind in ("checkbox", "radio"):
                    data.pop(item.name, None)
        yield variant, data


class _Said(HTMLParser):
    """The words of a page a person reads as a refusal or a message: the refusal's box
    (`.refused`, `role="alert"`), the reasons beside fields and rows (`.error`, `.problem`) and
    the flashed messages (`.flash`); a box's paragraphs and items are its lines."""

    BOX = ("refused", "flash", "warnings")
    BESIDE = ("error", "problem")
    VOID = ("input", "br", "img", "meta", "link", "hr", "option")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.box: list[str] = []
        self.beside: list[str] = []
        # Each open element: its tag, what it is (box, line, beside or None), its words, and
        # how many lines it holds.
        self._open: list[list[Any]] = []

    def _inside(self) -> str | None:
        return next((entry[1] for entry in reversed(self._open) if entry[1] is not None), None)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        a = {name: value or "" for name, value in attrs}
        classes = a.get("class", "").split()
        where = None
        if any(c in self.BESIDE for c in classes):
            where = "beside"
        elif any(c in self.BOX for c in classes) or a.get("role") == "alert":
            where = "box" if self._inside() is None else "line"
        elif tag in ("p", "li") and self._inside() == "box":
            where = "line"
        self._open.append([tag, where, [], 0])

    def handle_data(self, data: str) -> None:
        for entry in self._open:
            if entry[1] is not None:
                entry[2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not any(entry[0] == tag for entry in self._open):
            return
        while self._open:
            opened, where, words, lines = self._open.pop()
            text = " ".join("".join(words).split())
            if text and where == "beside":
                self.beside.append(text)
                self._count()
            elif text and where == "line":
                self.box.append(text)
                self._count()
            elif text and where == "box" and not lines:
                self.box.append(text)
            if opened == tag:
                break

    def _count(self) -> None:
        for entry in self._open:
            entry[3] += 1


def said(page_html: str) -> tuple[list[str], list[str]]:
    """What a page says as a refusal or a message: (the box's lines and flashed messages, the
    reasons beside fields and rows)."""
    main = page_html[page_html.find("<main>") :] if "<main>" in page_html else page_html
    parser = _Said()
    parser.feed(main)
    return parser.box, parser.beside


# Words a program reads, not a person.
API_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an API field name", re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")),
    ("a dotted path", re.compile(r"\b[a-z][a-z_]*\.(?:\d+|[a-z]+_[a-z_]+)\b")),
    ("marshmallow's words", re.compile(r"Missing data|Not a valid|Field may not be null|Unknown field")),
    ("WTForms' words", re.compile(r"This field is required|Not a valid \w+ value|Invalid Choice")),
    ("a rule id leading a sentence", re.compile(r"(?:^|[.:;]\s+)\(?R\d+[a-z]?(?:, R\d+[a-z]?)*\)?:")),
    ("a rule id in the words", re.compile(r"\(R\d+[a-z]?\)")),
    ("an ISO date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("a double full stop", re.compile(r"(?<!\.)\.\.(?!\.)")),
)


def api_words_in(text: str) -> list[str]:
    """What in a sentence a person should not have to read: each finding, named."""
    return [f"{what}: {found.group(0)!r}" for what, pattern in API_WORDS for found in pattern.finditer(text)]


def repeated(lines: Iterable[str]) -> list[str]:
    """Lines said more than once."""
    seen: set[str] = set()
    twice = []
    for line in lines:
        if line in seen:
            twice.append(line)
        seen.add(line)
    return twice


def text_of_page(response: Any) -> str:
    page = response.get_data(as_text=True)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
