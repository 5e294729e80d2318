"""Standings are a list like the others: `page` and `per_page` (default 50, at most 500)
page their rows, which keep the ranks of the whole table (R11), ties across a page's edge
included; the answer says the total; the CSV always holds every row; each page is its own ETag."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.builders import MakeScene, Scene
from tests.support.league import League, assert_problem

# One band for any field: 50, 40, 30, 20, 10 for places 1-5, nothing below.
FIVE_PAID = [{"min_entrants": 1, "max_entrants": None, "points": [50, 40, 30, 20, 10]}]
# The body's fields besides the rows and the paging, the same on every page.
TABLE_FIELDS = ("season_id", "venue_id", "as_of", "tournaments", "entrants", "average_attendance", "total")


def ranked(rows: list[dict[str, Any]]) -> list[tuple[str, int, bool]]:
    """(display name, rank, tied) of each row, in order."""
    return [(row["player"]["display_name"], row["rank"], row["tied"]) for row in rows]


def paging(body: dict[str, Any]) -> tuple[int, int, int, int]:
    """(total, page, per_page, pages) of a standings answer."""
    return body["total"], body["page"], body["per_page"], body["pages"]


def csv_names(response: Any) -> list[str]:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/csv"
    lines = csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff")))
    return [line["display_name"] for line in lines]


@pytest.fixture()
def seven(league: League, make_scene: MakeScene) -> Scene:
    """Seven players, two reports of all seven (FIVE_PAID):

        Ann, Ben, Cal, Dee, Eve, Fay, Gus   -> 50, 40, 30, 20, 10, 0, 0
        Ann, Ben, Dee, Cal, Eve, Fay, Gus   -> 50, 40, 30, 20, 10, 0, 0

    Ann 100 (1), Ben 80 (2), Cal and Dee 50 each, level on every step of R11 (T3, listed by
    name), Eve 20 (5), Fay 0 (6: two 6th places beat Gus's two 7th by countback), Gus 0 (7)."""
    chart = league.chart(kind="bands", bands=FIVE_PAID)
    scene = make_scene(points_chart_id=chart["id"])
    ann, ben, cal, dee, eve, fay, gus = scene.players("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus")
    scene.report([ann, ben, cal, dee, eve, fay, gus])
    scene.report([ann, ben, dee, cal, eve, fay, gus])
    return scene


WHOLE_TABLE = [
    ("Ann", 1, False),
    ("Ben", 2, False),
    ("Cal", 3, True),
    ("Dee", 3, True),
    ("Eve", 5, False),
    ("Fay", 6, False),
    ("Gus", 7, False),
]


def test_pages_keep_the_ranks_of_the_whole_table_and_a_tie_across_their_edge_r11(seven: Scene) -> None:
    """R11: per_page=3 pages the seven rows 3, 3, 1; page 2 opens with Dee's T3, the tie with
    Cal, the last row of page 1; ranks go on (5, 6, then 7 on page 3). Every page says the
    total (7) and carries the table's own fields unchanged."""
    whole = seven.standings("?per_page=500")
    assert ranked(whole["standings"]) == WHOLE_TABLE
    assert paging(whole) == (7, 1, 500, 1)
    pages = [seven.standings(f"?per_page=3&page={page}") for page in (1, 2, 3)]
    assert [ranked(body["standings"]) for body in pages] == [
        WHOLE_TABLE[:3],
        WHOLE_TABLE[3:6],
        WHOLE_TABLE[6:],
    ]
    assert [paging(body) for body in pages] == [(7, 1, 3, 3), (7, 2, 3, 3), (7, 3, 3, 3)]
    # The rows of the pages are the whole table's rows, every field alike (decided_by included).
    assert [row for body in pages for row in body["standings"]] == whole["standings"]
    for body in pages:
        assert {k: body[k] for k in TABLE_FIELDS} == {k: whole[k] for k in TABLE_FIELDS}


def test_a_page_beyond_the_end_has_no_rows_and_says_the_total_r11(seven: Scene) -> None:
    """R11: page 3 of per_page=5 (7 rows) is empty, with the total and the number of pages."""
    body = seven.standings("?per_page=5&page=3")
    assert (body["standings"], paging(body)) == ([], (7, 3, 5, 2))
    assert ranked(seven.standings("?per_page=5&page=2")["standings"]) == WHOLE_TABLE[5:]


def test_as_of_pages_the_table_of_that_day_r11(seven: Scene) -> None:
    """R11: as_of and paging together: the table after the first report (Cal above Dee), paged."""
    first_day = seven.public.get(f"/api/v1/tournaments?venue_id={seven.venue_id}&per_page=2").get_json()
    day = min(report["date"] for report in first_day["items"])
    body = seven.standings(f"?as_of={day}&per_page=2&page=2")
    assert ranked(body["standings"]) == [("Cal", 3, False), ("Dee", 4, False)]
    assert (body["as_of"], paging(body)) == (day, (7, 2, 2, 4))


def test_rank_51_opens_page_2_by_default_r11(scene: Scene) -> None:
    """R11: 52 players of one report, each on a rank of their own: the default page holds ranks
    1-50 (per_page 50), page 2 ranks 51 and 52; per_page=500 holds all 52."""
    scene.report(scene.fillers(52))
    first = scene.standings()
    assert [row["rank"] for row in first["standings"]] == list(range(1, 51))
    assert paging(first) == (52, 1, 50, 2)
    second = scene.standings("?page=2")
    assert [(row["rank"], row["tied"]) for row in second["standings"]] == [(51, False), (52, False)]
    assert paging(second) == (52, 2, 50, 2)
    every = scene.standings("?per_page=500")
    assert [row["rank"] for row in every["standings"]] == list(range(1, 53))
    assert every["standings"] == first["standings"] + second["standings"]


@pytest.mark.parametrize(
    ("query", "field"),
    [("per_page=501", "per_page"), ("per_page=0", "per_page"), ("page=0", "page"), ("page=x", "page")],
)
def test_a_page_out_of_bounds_is_refused_naming_it(scene: Scene, query: str, field: str) -> None:
    """As every list: per_page from 1 to 500, page from 1 (422 naming the field)."""
    assert_problem(scene.public.get(f"{scene.path()}?{query}"), 422, field)
    assert_problem(scene.public.get(f"{scene.path()}?{query}&format=csv"), 422, field)


def test_a_page_given_twice_is_refused_naming_it(scene: Scene) -> None:
    assert_problem(scene.public.get(f"{scene.path()}?page=1&page=2"), 400, "page")


def test_the_csv_holds_every_row_whatever_the_page_r11(seven: Scene) -> None:
    """R11: the CSV (Accept: text/csv or ?format=csv) is the whole table on any page; the CSV's
    own operation (standings.csv) pages nothing and takes no paging parameters (400 naming them)."""
    names = [name for name, _rank, _tied in WHOLE_TABLE]
    path, public = seven.path(), seven.public
    assert csv_names(public.get(f"{path}?per_page=2", headers={"Accept": "text/csv"})) == names
    assert csv_names(public.get(f"{path}?per_page=2&page=3&format=csv")) == names
    assert csv_names(public.get(f"{path}?page=9&format=csv")) == names
    assert csv_names(public.get(f"{path}.csv")) == names
    assert_problem(public.get(f"{path}.csv?per_page=2"), 400, "per_page")


def test_each_page_has_its_own_etag_r11(seven: Scene) -> None:
    """R11: pages are answers of their own: each its ETag, a 304 only for its own."""
    path, public = seven.path(), seven.public
    first = public.get(f"{path}?per_page=3&page=1")
    second = public.get(f"{path}?per_page=3&page=2")
    assert first.headers["ETag"] != second.headers["ETag"]
    assert (
        public.get(f"{path}?per_page=3&page=1", headers={"If-None-Match": first.headers["ETag"]}).status_code
        == 304
    )
    other = public.get(f"{path}?per_page=3&page=2", headers={"If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200
    assert ranked(other.get_json()["standings"]) == WHOLE_TABLE[3:6]
