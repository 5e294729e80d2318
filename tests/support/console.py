"""The web console through Flask's test client, as a browser uses it (form posts with their CSRF
tokens, a cookie jar): signing in, a page's visible words and hidden fields, a sheet uploaded,
and a refused sheet's reasons read from under their rows."""

from __future__ import annotations

import html
import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.builders import iso, utc_today

SIGN_IN = "/console/sign-in"


def text_of(response: Any) -> str:
    """A page's visible words, one space apart."""
    page = response.get_data(as_text=True)
    page = page[page.find("<main>") :] if "<main>" in page else page
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def hidden_fields(response: Any) -> dict[str, str]:
    """Every hidden field of a page's forms (the CSRF token, a preview's report)."""
    page = response.get_data(as_text=True)
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', page)
    }


def csrf(response: Any) -> str:
    return hidden_fields(response)["csrf_token"]


def signed_in(app: Flask, key: str | None) -> FlaskClient:
    """A browser of its own (cookie jar) signed in with the key; under a frozen clock, sign in
    inside the test's travel."""
    assert key is not None
    browser = app.test_client()
    page = browser.get(SIGN_IN)
    answer = browser.post(SIGN_IN, data={"key": key, "csrf_token": csrf(page)})
    assert answer.status_code == 302 and answer.headers["Location"] == "/console/", text_of(answer)
    return browser


def sheet(rows: list[tuple[int, Any]]) -> str:
    return "place,player_id\n" + "".join(f"{place},{player}\n" for place, player in rows)


def upload(browser: FlaskClient, venue_id: int, csv: str, day: str | None = None, session: int = 1) -> Any:
    form = browser.get(f"/console/venues/{venue_id}/report")
    assert form.status_code == 200
    data = {
        "csrf_token": csrf(form),
        "date": day or iso(utc_today()),
        "session": str(session),
        "kind": "regular",
        "pasted": csv,
    }
    return browser.post(f"/console/venues/{venue_id}/report", data=data)


def upload_file(browser: FlaskClient, venue_id: int, body: bytes, filename: str, day: str) -> Any:
    """The console's upload form sent with a file (a sheet, or whatever a phone attaches)."""
    form = browser.get(f"/console/venues/{venue_id}/report")
    assert form.status_code == 200
    data = {
        "csrf_token": csrf(form),
        "date": day,
        "session": "1",
        "kind": "regular",
        "sheet": (io.BytesIO(body), filename),
    }
    return browser.post(f"/console/venues/{venue_id}/report", data=data, content_type="multipart/form-data")


def date_field(response: Any) -> str:
    """The value a page's `date` input is given."""
    assert response.status_code == 200, response.status_code
    (tag,) = re.findall(r'<input[^>]*\bname="date"[^>]*>', response.get_data(as_text=True))
    found = re.search(r'\bvalue="([^"]*)"', tag)
    assert found is not None, tag
    return found.group(1)


# A refused sheet's row (its spreadsheet row, place and player), then the row of its reasons.
SHEET_ROW = re.compile(
    r'<tr(?: class="flagged")?><td>(\d+)</td><td>(\d+)</td><th scope="row">([^<]*)</th></tr>\s*'
    r'(?:<tr class="reason"><td colspan="3" class="problem">(.*?)</td></tr>)?',
    re.S,
)


def reasons_by_place(response: Any) -> dict[str, str]:
    """A refused sheet's rows by place: the reasons written under each (empty: none)."""
    found = SHEET_ROW.findall(response.get_data(as_text=True))
    return {
        place: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", reasons)).split())
        for _line, place, _who, reasons in found
    }


def typed_values(response: Any) -> dict[str, str]:
    """What a typed-rows form holds: each row's player and email as typed or picked
    (`player_1`, `email_1`, …), and its status as selected (`status_1`, …)."""
    page = response.get_data(as_text=True)
    values = {
        name: html.unescape(value)
        for name, value in re.findall(r'<input id="((?:player|email)_\d+)"[^>]*\bvalue="([^"]*)"', page)
    }
    for name, options in re.findall(r'<select id="(status_\d+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]+)" selected>', options)
        values[name] = chosen.group(1) if chosen else ""
    return values


def links(response: Any) -> dict[str, str]:
    """A page's links, by their words (the last of the same words wins)."""
    page = response.get_data(as_text=True)
    return {
        " ".join(html.unescape(re.sub(r"<[^>]+>", "", words)).split()): html.unescape(href)
        for href, words in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', page, re.S)
    }


def attribute(tag: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else None


def form_of(response: Any, **changes: str) -> dict[str, list[str]]:
    """What a browser posts of a page's form of an API schema, as the page fills it (ticked boxes,
    chosen options, typed values), with `changes` typed over it."""
    page = response.get_data(as_text=True)
    form = page[page.index('class="api-form"') :]
    form = form[: form.index("</form>")]
    data: dict[str, list[str]] = {}
    for tag in re.findall(r"<input\b[^>]*>", form):
        name = attribute(tag, "name")
        if name is None:
            continue
        if attribute(tag, "type") == "checkbox":
            if " checked" in tag:
                data.setdefault(name, []).append(attribute(tag, "value") or "on")
        else:
            data.setdefault(name, []).append(attribute(tag, "value") or "")
    for name, options in re.findall(r'<select[^>]*\bname="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', options) or re.search(
            r'<option value="([^"]*)"', options
        )
        data[name] = [html.unescape(chosen.group(1))] if chosen else []
    for name, text in re.findall(r'<textarea[^>]*\bname="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = [html.unescape(text)]
    return {**data, **{name: [value] for name, value in changes.items()}}
