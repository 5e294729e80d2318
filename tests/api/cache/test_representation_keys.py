"""Cached answers are keyed by what the Accept header decides, not by its text: readers whose
headers differ but mean the same (JSON: none, `*/*`, `application/json`, a browser's list naming
JSON first) share one answer, computed once; CSV and a framed page are answers of their own."""

from __future__ import annotations

from flask import Flask

from tests.builders import Scene


def test_readers_whose_accept_means_json_share_one_answer(app: Flask, scene: Scene) -> None:
    a, b = scene.players("Ann A.", "Bea B.")
    scene.report([a, b])
    path = scene.path()
    first = scene.public.get(path, headers={"Accept": "application/json"})
    assert first.status_code == 200 and first.headers["X-Cache"] == "miss"
    for accept in ("*/*", "application/json, text/plain;q=0.5", None):
        headers = {} if accept is None else {"Accept": accept}
        again = scene.public.get(path, headers=headers)
        assert again.headers["X-Cache"] == "hit", accept
        assert again.get_data() == first.get_data() and again.headers["ETag"] == first.headers["ETag"]
    csv = scene.public.get(path, headers={"Accept": "text/csv"})
    assert csv.headers["X-Cache"] == "miss" and csv.mimetype == "text/csv"
    assert scene.public.get(path + "?format=csv").get_data() == csv.get_data()
