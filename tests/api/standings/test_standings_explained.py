"""Explained standings (R11): each row says which step put it below the row above, in JSON and in
a CSV a spreadsheet opens cleanly (BOM, names in the file name and on each line, every field)."""

from __future__ import annotations

import csv
import io

from tests.builders import Scene, days_ago


def test_r11_each_row_says_what_decided_it(scene: Scene) -> None:
    """R11: Ace and Bee are level after every step (tied); Cat is below them on points."""
    ace, bee, cat = scene.players("Ace", "Bee", "Cat")
    fillers = scene.fillers(7)
    scene.report([ace, bee, cat, *fillers], day=days_ago(20))
    scene.report([bee, ace, cat, *fillers], day=days_ago(13))
    rows = {r["player"]["id"]: r for r in scene.rows()}
    assert (rows[ace]["rank"], rows[bee]["rank"], rows[cat]["rank"]) == (1, 1, 3)
    first, second = sorted((ace, bee), key=lambda pid: [r["player"]["id"] for r in scene.rows()].index(pid))
    assert (rows[first]["decided_by"], rows[first]["decided_at_place"]) == (None, None)
    assert rows[second]["decided_by"] == "tied"
    assert rows[cat]["decided_by"] == "points"


def test_r11_countback_names_the_place(scene: Scene) -> None:
    """R11: level on points and wins, Dee has a 2nd place Eve lacks: countback at place 2."""
    dee, eve = scene.players("Dee", "Eve")
    fillers = scene.fillers(9)
    # 10 entrants pay 30, 20, 10. Dee: 1st + 2nd = 50. Eve: 1st + 3rd + 3rd = 50, one win each.
    scene.report([dee, *fillers], day=days_ago(30))
    scene.report([fillers[0], dee, *fillers[1:]], day=days_ago(29))
    scene.report([eve, *fillers], day=days_ago(28))
    scene.report([fillers[0], fillers[1], eve, *fillers[2:]], day=days_ago(27))
    scene.report([fillers[0], fillers[1], eve, *fillers[2:]], day=days_ago(26))
    rows = {r["player"]["id"]: r for r in scene.rows()}
    assert (rows[dee]["points"], rows[eve]["points"]) == (50, 50)
    assert (rows[eve]["decided_by"], rows[eve]["decided_at_place"]) == ("countback", 2)


def test_r11_the_csv_opens_cleanly_and_carries_every_field(scene: Scene) -> None:
    ace, bee = scene.players("Ace", "Bee")
    scene.report([ace, bee, *scene.fillers(8)], day=days_ago(20))
    response = scene.public.get(scene.path() + ".csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    disposition = response.headers["Content-Disposition"]
    assert scene.season["name"].lower().replace(" ", "-") in disposition
    assert scene.venue["name"].lower().replace(" ", "-") in disposition
    lines = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    json_row = scene.rows()[1]
    line = next(li for li in lines if int(li["player_id"]) == json_row["player"]["id"])
    assert (line["season"], line["venue"]) == (scene.season["name"], scene.venue["name"])
    assert (line["best_single"], line["decided_by"]) == (str(json_row["best_single"]), json_row["decided_by"])
    assert set(json_row) - {"player", "tied"} <= set(lines[0])
