"""Words for people: the one place where what the service says to programs becomes what a person
reads, on the console's pages, the league's site, in emails and chat messages. The API's answers
keep their words for programs (problem+json's `errors` by field path, `rule`, codes, ISO dates);
nothing here changes them.

- **Codes as words** (`CODES`, `in_words`): sanction kinds and categories, entrant statuses,
  kinds of night, skip reasons and flags of a qualifier list, event kinds, chart kinds, …:
  `in_words("venue_ban", "sanction_kind")` is "venue ban"; in a template,
  `{{ s.kind|in_words("sanction_kind") }}`.
- **The labels of each form** (`FORMS`), as the form shows them: the console's pages draw their
  labels from here, and a refusal names a field by the same label.
- **A refusal in words** (`said_to_people`, `told`): each field named by its label, each player by
  name, each date in the league's format, each thing said once, what to do in the API's own
  words, no rule id leading it; each sentence carries the rule behind it (`Said.rule`), which a
  page links to its explanation ("why?" → /console/rules#R2, `why`). The night's page calls
  `said_to_people(refusal, FORMS["night"], players)`.
- **Small words**: `plural` ("1 season", "2 seasons"), `sentence` (one full stop after "Wendy P.").

Its parts: `codes.py` (codes and small words), `labels.py` (each form's labels), `refusals.py` (a
refusal said for people); here, what a page uses: the template filters (`said`, `flashed`,
`problem_said`, `in_words`, `plural`, `sentence`), `tell` (flashed sentences) and `why` (the link
to a rule's explanation, api/console/rules.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, flash, has_request_context, url_for
from markupsafe import Markup, escape

from api.words.codes import ANY_CODE, CODES, choices, in_words, plural, sentence
from api.words.labels import FORMS, IN_A_SENTENCE, Label, label_text, venue_labels
from api.words.refusals import (
    Said,
    Told,
    flat_labels,
    label_of,
    phrase,
    problem_said,
    request_words,
    said_to_people,
    summary_of,
    told,
)
from models.rules.ratings import RATING_MEANS, rating_words

__all__ = [
    "ANY_CODE",
    "CODES",
    "FORMS",
    "IN_A_SENTENCE",
    "Label",
    "Said",
    "Told",
    "choices",
    "flat_labels",
    "in_words",
    "label_of",
    "label_text",
    "phrase",
    "plural",
    "problem_said",
    "said_to_people",
    "sentence",
    "summary_of",
    "tell",
    "told",
    "venue_labels",
    "why",
]

KNOWN_RULE = re.compile(r"^R\d+[a-z]?$")


def why(rule: str | None) -> str | None:
    """Where a rule is explained for people (the console's page of the rules), or None."""
    if not rule or not KNOWN_RULE.match(rule):
        return None
    if has_request_context():
        return url_for("console.rules_page", _anchor=rule)
    return f"/console/rules#{rule}"


def said_html(message: Any, labels: Mapping[str, Any] | None = None) -> Markup:
    """A sentence for a page: a `Said` as it is, anything else phrased first; its rule linked
    ("why?")."""
    said = (
        message
        if isinstance(message, Said)
        else phrase(str(message), flat_labels(labels), None, request_words())
    )
    link = why(said.rule)
    shown = escape(str(said))
    if link:
        shown += Markup(' <a class="why" href="{}">why?</a>').format(link)
    return Markup(shown)


def tell(said: Said | str | Iterable[Said | str], first: str = "") -> None:
    """Sentences flashed for the next page, each with its rule (the page links it: "why?");
    `first` before the first of them ("Not merged: ")."""
    lines = [said] if isinstance(said, str) else list(said)
    for number, line in enumerate(lines):
        text = phrase(line) if not isinstance(line, Said) else line
        flash(f"{first}{text}" if number == 0 else str(text), text.rule or "message")


def flashed(message: str, category: str = "message") -> Markup:
    """A flashed message for the page, its rule (flashed as its category by `tell`) linked."""
    said = phrase(message, None, None, request_words())
    return said_html(Said(said, said.rule or (category if KNOWN_RULE.match(category or "") else None)))


def init_app(app: Flask) -> None:
    """The filters, once, for every template: `said` (a refusal's sentence, its rule linked),
    `flashed` (a flashed message), `in_words` (a code), `plural`, `sentence`."""
    app.add_template_filter(said_html, "said")
    app.add_template_filter(flashed, "flashed")
    app.add_template_filter(problem_said, "problem_said")
    app.add_template_filter(in_words, "in_words")
    app.add_template_filter(plural, "plural")
    app.add_template_filter(sentence, "sentence")
    app.add_template_global(rating_words, "rating_words")
    app.jinja_env.globals["RATING_MEANS"] = RATING_MEANS
