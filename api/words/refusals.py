"""A refusal in words for people (a part of api/words): each field named by its label, each
player by name, each date in the league's format, each thing said once, no rule id leading it;
each sentence carries the rule behind it (`Said.rule`) for a page to link."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from flask import has_request_context

from api import people_dates
from api.words.codes import ANY_CODE, sentence
from api.words.labels import IN_A_SENTENCE, label_text
from models.errors import LeagueError, Problem
from models.rules.people_dates import DateWords


class Said(str):
    """A sentence for a person, with the league rule behind it (None: plain bad input)."""

    rule: str | None

    def __new__(cls, text: str, rule: str | None = None) -> Said:
        made = super().__new__(cls, text)
        made.rule = rule
        return made


# marshmallow's and WTForms' own sentences, and the API's words for developers, as people say them.
SENTENCES = {
    "Missing data for required field.": "Fill this in.",
    "Field may not be null.": "Fill this in.",
    "This field is required.": "Fill this in.",
    "May not be blank.": "Fill this in.",
    "Shorter than minimum length 1.": "Fill this in.",
    "Not a valid integer.": "Write a whole number, e.g. 3.",
    "Not a valid integer value.": "Write a whole number, e.g. 3.",
    "Not a valid number.": "Write a number, e.g. 0.3.",
    "Not a valid decimal value.": "Write a number, e.g. 0.3.",
    "Number too large.": "Write a smaller number.",
    "Not a valid date.": "Write a date, or pick it from the calendar.",
    "Not a valid date value.": "Write a date, or pick it from the calendar.",
    "Not a valid datetime.": "Write a date and a time.",
    "Not a valid boolean.": "Tick it, or leave it empty.",
    "Not a valid email address.": "Write an email address, e.g. ann@example.com.",
    "Not a valid URL.": "Write a web address, e.g. https://example.com/hook.",
    "Not a valid string.": "Write it as text.",
    "Not a valid list.": "Choose from the list.",
    "Not a valid choice.": "Choose one from the list.",
    "Not a valid choice": "Choose one from the list.",
    "Invalid value.": "This is not one the form takes.",
    "Unknown field.": "This form does not take it.",
    "Invalid type.": "This form does not take it in this shape.",
}
REWORDED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Not a valid date: use YYYY-MM-DD.*$"), "Write a date, or pick it from the calendar."),
    (re.compile(r"^Not a valid date and time: use ISO 8601.*$"), "Write a date and a time."),
    (re.compile(r"^Must be one of: .*$"), "Choose one from the list."),
    (re.compile(r"^Invalid value, must be one of: .*$"), "Choose one from the list."),
    (re.compile(r"^Longer than maximum length (\d+)\.$"), r"Write at most \1 characters."),
    (re.compile(r"^Field cannot be longer than (\d+) characters\.$"), r"Write at most \1 characters."),
    (re.compile(r"^Not a number as JSON writes one.*$"), "Write a number with a point, e.g. 0.3."),
    (
        re.compile(r"^Must be greater than or equal to (-?[\d.]+) and less than or equal to (-?[\d.]+)\.$"),
        r"Write a number from \1 to \2.",
    ),
    (
        re.compile(r"^Must be greater than (-?[\d.]+) and less than or equal to (-?[\d.]+)\.$"),
        r"Write a number above \1, at most \2.",
    ),
    (re.compile(r"^Must be greater than or equal to (-?[\d.]+)\.$"), r"Write \1 or more."),
    (re.compile(r"^Must be less than or equal to (-?[\d.]+)\.$"), r"Write \1 or less."),
    (re.compile(r"^Number must be between (-?[\d.]+) and (-?[\d.]+)\.$"), r"Write a number from \1 to \2."),
    (re.compile(r"^Number must be at least (-?[\d.]+)\.$"), r"Write \1 or more."),
    (re.compile(r"^Length must be between (\d+) and (\d+)\.$"), r"Write \1 to \2 characters."),
    (re.compile(r"^Field must be between (\d+) and (\d+) characters long\.$"), r"Write \1 to \2 characters."),
    (
        re.compile(r"\(a make-up night is kind added, and deleted when it is off\)"),
        "(a make-up night is added, and taken back when it is off)",
    ),
    # The API's words for developers.
    (
        re.compile(r"; the office may override with override_reason"),
        "; only the league office can let them play, with its reason",
    ),
    (re.compile(r": correct it \(PUT\) or use another session number"), ""),
    (re.compile(r"\(no last_day\)"), "(no last day)"),
    (re.compile(r"set the other to null"), "leave the other empty"),
    (re.compile(r"\bto null\b"), "empty"),
    (re.compile(r"\b(\d+)\.\.(\d+)\b"), r"\1 to \2"),
)
# An API field name met in a sentence ("ends_on"), said as `IN_A_SENTENCE` or the form's label says it.
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# A field path as the API names it: `results.3.player_id`, `attendance_bonus.0`, `player.email`.
PATH = re.compile(r"\b[a-z][a-z_]*(?:\.(?:\d+|[a-z][a-z_]*))+\b")
LEADING_RULES = re.compile(r"^(R\d+[a-z]?)(?:, R\d+[a-z]?)*: ")
RULE_IN_WORDS = re.compile(r" ?\((R\d+[a-z]?)\)")
# A timestamp as the API's messages write it ("2026-12-07 21:47:20 UTC", "2026-12-07T21:47:20Z").
INSTANT = re.compile(r"\b(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z| UTC)")
PLAYER_NUMBER = re.compile(r"\b([Pp])layer #?(\d+)\b")
PLAYERS_NUMBERED = re.compile(r"\b([Pp])layers (\d+) and (\d+)\b")


def flat_labels(labels: Mapping[str, Any] | None) -> dict[str, str]:
    """A form's labels by field path, as `phrase` reads them: each field's label (its help left
    out); a list of rows' columns under `name.*.column` when given as `name.*` = (column label,
    …) with their names under `name.*.names`."""
    flat: dict[str, str] = {}
    for name, given in (labels or {}).items():
        if name.endswith(".*") or name.endswith(".names"):
            continue
        flat[name] = label_text(given)
    for name, given in (labels or {}).items():
        if not name.endswith(".*"):
            continue
        names = (labels or {}).get(name + ".names") or ()
        for column, text in zip(names, given if isinstance(given, tuple) else (), strict=False):
            flat[f"{name[:-2]}.*.{column}"] = text
    return flat


def label_of(path: str, labels: Mapping[str, str]) -> str | None:
    """How a form names a field path: its label; a row's cell "Row 2, Nights played"; a path of
    no label of the form, by the words of `IN_A_SENTENCE`, else None."""
    if path in labels:
        return labels[path]
    head, _, rest = path.partition(".")
    number, _, column = rest.partition(".")
    if head in labels and number.isdigit():
        where = f"row {int(number) + 1}"
        if column:
            cell = labels.get(f"{head}.*.{column}") or IN_A_SENTENCE.get(column) or column.replace("_", " ")
            return f"{labels[head]}, {where}, {cell.removeprefix('the ')}"
        return f"{labels[head]}, {where}"
    if number.isdigit():
        tail = f", {label_of(column, labels) or column.replace('_', ' ')}" if column else ""
        what = labels.get(head) or IN_A_SENTENCE.get(head, head.replace("_", " ")).removeprefix("the ")
        return f"{what}, row {int(number) + 1}{tail}"
    if rest:
        return label_of(rest, labels) or label_of(head, labels)
    return IN_A_SENTENCE.get(path)


def _words_for(name: str, labels: Mapping[str, str]) -> str:
    """An API name met inside a sentence, as people read it; what is no API name (a web
    address's "example.com", "e.g", a name a person typed) as it is."""
    if name in IN_A_SENTENCE:
        return IN_A_SENTENCE[name]
    if name in ANY_CODE:
        return ANY_CODE[name]
    if name in labels:
        return f"“{labels[name]}”"
    if "." in name:
        parts = name.split(".")
        known = parts[0] in labels or parts[0] in IN_A_SENTENCE or name in labels
        if known or any(part.isdigit() or "_" in part for part in parts):
            return label_of(name, labels) or name.replace("_", " ")
    return name


def phrase(
    message: str,
    labels: Mapping[str, str] | None = None,
    players: Mapping[int, str] | None = None,
    words: DateWords | None = None,
) -> Said:
    """One of the API's sentences (a refusal's, marshmallow's, WTForms') as a person reads it:
    its API field names and paths as the form's labels, its codes as words, "player 12" by the
    player's name (when `players` names them), its dates in the league's format, no rule id
    leading it (the rule is kept on the result) and one full stop."""
    labels = labels or {}
    text = " ".join(str(message).split())
    rule = None
    leading = LEADING_RULES.match(text)
    if leading:
        rule, text = leading.group(1), text[leading.end() :]
    named = RULE_IN_WORDS.search(text)
    if named:
        rule = rule or named.group(1)
        text = RULE_IN_WORDS.sub("", text)
    text = SENTENCES.get(text, text)
    for pattern, replacement in REWORDED:
        text = pattern.sub(replacement, text)
    text = PATH.sub(lambda found: _words_for(found.group(0), labels), text)
    text = SNAKE.sub(lambda found: _words_for(found.group(0), labels), text)
    if players:
        text = PLAYERS_NUMBERED.sub(
            lambda f: (
                f"{players.get(int(f.group(2)), f'{f.group(1)}layer {f.group(2)}')} and "
                f"{players.get(int(f.group(3)), f'player {f.group(3)}')}"
            ),
            text,
        )
        text = PLAYER_NUMBER.sub(lambda f: players.get(int(f.group(2)), f.group(0)), text)
    if words is not None:
        text = INSTANT.sub(lambda found: _instant(found, words), text)
        text = words.dates_in(text)
    text = text.strip().strip(";").strip()
    if text:
        text = sentence(text[0].upper() + text[1:])
    return Said(text, rule)


def _instant(found: re.Match[str], words: DateWords) -> str:
    """A UTC timestamp of a message on the league's clock, with its zone."""
    try:
        at = datetime.fromisoformat(f"{found.group(1)}T{found.group(2)}")
    except ValueError:
        return found.group(0)
    return words.instant(at.replace(tzinfo=UTC), zone_name=True)


@dataclass
class Told:
    """A refusal as a form's page says it: the lines of its box (what no field of the form is
    blamed for; the refusal's summary when no field says more) and the reasons beside each field."""

    box: list[Said] = field(default_factory=list)
    beside: dict[str, list[Said]] = field(default_factory=dict)
    rule: str | None = None

    @property
    def lines(self) -> list[Said]:
        """Everything, once: the box, then each field's reasons, named by its label."""
        return [*self.box, *(line for lines in self.beside.values() for line in lines)]


def _problems(refusal: Any) -> tuple[str, list[Problem], str | None]:
    """A refusal's summary, its problems and its rule, whatever shape it came in: a LeagueError,
    a Problem or several, or messages by field path (marshmallow's, WTForms', flattened)."""
    if isinstance(refusal, LeagueError):
        return refusal.message, list(refusal.problems), refusal.rule
    if isinstance(refusal, Problem):
        return "", [refusal], refusal.rule
    if isinstance(refusal, str):
        return refusal, [], None
    if isinstance(refusal, Mapping):
        found = [
            Problem("" if path == "body" else str(path), str(message))
            for path, messages in refusal.items()
            for message in (messages if isinstance(messages, list | tuple) else [messages])
        ]
        return "", found, None
    items = list(refusal)
    return "", [item for item in items if isinstance(item, Problem)], None


def box_label(path: str, labels: Mapping[str, str]) -> str:
    """How the box names the field a line is about: the form's label ("Last day"), else the API
    name in words ("Last day" for `ends_on`, "Page"), capitalised; none for the request as a whole."""
    if not path:
        return ""
    label = label_of(path, labels) if path.split(".")[0] in labels else None
    if label is None:
        head = path.split(".")[0]
        label = IN_A_SENTENCE.get(head, head.replace("_", " ")).removeprefix("the ")
    return label[:1].upper() + label[1:]


def summary_of(message: str, problems: Iterable[Problem]) -> str:
    """A refusal's summary without the problems `models.errors.refuse` wrote after it ("…; ends_on:
    Must be …"; "and 3 more"): each is said beside its field, or on its own line, once."""
    text = message.strip()
    for problem in problems:
        part = f"{problem.path or 'body'}: {problem.message.strip().rstrip('.')}"
        text = text.replace(f"; {part}", "").replace(part, "")
    return re.sub(r"; and \d+ more", "", text).strip().strip(";").strip()


def told(
    refusal: Any,
    labels: Mapping[str, Any] | None = None,
    players: Mapping[int, str] | None = None,
    fields: Iterable[str] | None = None,
    words: DateWords | None = None,
    row: str = "Row",
) -> Told:
    """A refusal for a page: each problem beside the form's field it concerns (`fields`, the
    form's field names: `attendance_bonus.0.events` is beside `attendance_bonus`, saying "Row 1,
    Nights played: …"), the rest in the box named by its label ("Last day: …"), the summary first
    unless a field says all it says. Said once each; dates in the league's format (`words`, this
    request's when none is given). `row`: what the form calls a list's row ("Line" of a text
    typed a line a row)."""
    words = words or request_words()
    flat = flat_labels(labels)
    summary, problems, rule = _problems(refusal)
    beside: dict[str, list[Said]] = {}
    box: list[Said] = []
    seen: set[str] = set()
    names = set(fields or ())
    lead = summary_of(summary, problems) if summary else ""
    composite = lead != summary.strip()  # the problems were written after the summary (`refuse`)
    for problem in problems:
        said = phrase(problem.message, flat, players, words)
        said = Said(said, problem.rule or said.rule or rule)
        path = problem.path if problem.path != "body" else ""
        head = path.split(".")[0]
        if head in names:
            rest = path[len(head) + 1 :]
            if rest:
                number, _, column = rest.partition(".")
                where = f"{row} {int(number) + 1}" if number.isdigit() else ""
                cell = flat.get(f"{head}.*.{column}") or (column.replace("_", " ") if column else "")
                prefix = ", ".join(part for part in (where, cell) if part)
                said = Said(f"{prefix}: {said}" if prefix else said, said.rule)
            if said not in beside.get(head, []):
                beside.setdefault(head, []).append(said)
            seen.add(str(problem.message))
            continue
        if str(said) in seen or said in box:
            continue
        seen.add(str(said))
        if not path and summary and not composite:
            continue  # the summary says it (a refusal of one sentence, restated as its problem)
        label = box_label(path, flat) if flat else ""  # a page of a form names its fields
        if label and label.lower().strip("“”") not in str(said).lower():
            said = Said(f"{label}: {said}", said.rule)
        if said not in box:
            box.append(said)
    if lead and lead.rstrip(".") not in {str(p.message).rstrip(".") for p in problems}:
        said_lead = phrase(lead, flat, players, words)
        box.insert(0, Said(said_lead, said_lead.rule or rule))
    return Told(box, beside, rule)


def said_to_people(
    refusal: Any,
    labels: Mapping[str, Any] | None = None,
    players: Mapping[int, str] | None = None,
    words: DateWords | None = None,
) -> list[Said]:
    """A refusal (a LeagueError, a Problem or several, or messages by field path) as the sentences
    a person reads, once each: the summary, then each problem named by its field's label
    (`labels`, a form's of `FORMS`) and its players by name (`players`: id → the name the page
    may show, R19), its dates in the league's format; each sentence's rule on it (`Said.rule`),
    for a page to link ("why?", `why`)."""
    return told(refusal, labels, players, (), words).lines


def problem_said(problem: Mapping[str, Any]) -> list[Said]:
    """A problem+json body (as an error page shows it) in words for people: its detail without
    the rule ids leading it and the field paths after it, then each field's messages named in
    words; the rule on each sentence."""
    errors = problem.get("errors") or {}
    found = [
        Problem("" if path == "body" else str(path), str(message), problem.get("rule"))
        for path, messages in errors.items()
        for message in messages
    ]
    detail = str(problem.get("detail") or "")
    leading = LEADING_RULES.match(detail)
    refusal = LeagueError(
        detail[leading.end() :] if leading else detail, rule=problem.get("rule"), problems=found
    )
    # An error page's fields are what the caller sent (an embed's `?rows=`): named as sent.
    sent = {str(path).split(".")[0] for path in errors}
    return said_to_people(refusal, {name: f"“{name}”" for name in sent})


def request_words() -> DateWords | None:
    """How this request's league says dates (None outside a request: dates stay as written)."""
    if not has_request_context():
        return None
    return people_dates.words()
