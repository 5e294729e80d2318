"""The web console through Flask's test client: a signed-in browser of its own, and a page's
visible words."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

SIGN_IN = "/console/sign-in"


def text_of(response: Any) -> str:
    """A page's visible words, one space apart (a 200 page)."""
    assert response.status_code == 200, response.status_code
    page = response.get_data(as_text=True)
    page = page[page.find("<main>") :] if "<main>" in page else page
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def signed_in(app: Flask, key: str | None) -> FlaskClient:
    """A browser of its own (cookie jar) signed in with the key; under a frozen clock, sign in
    inside the test's travel."""
    browser = app.test_client()
    page = browser.get(SIGN_IN).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]*)"', page)
    assert token is not None and key is not None
    answer = browser.post(SIGN_IN, data={"key": key, "csrf_token": html.unescape(token.group(1))})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return browser
