"""R21 under real concurrency (gunicorn, 4 threaded workers, both databases): sanctions whose
reasons name a player, sent at the same moment as her erasure, leave no plain copy of her
values anywhere: each is stored either before the erasure (and scrubbed by it) or after it (and
stored with "[erased]"), and the audit entries of both read "[erased]"."""

from __future__ import annotations

import json
import uuid

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.api.test_once_only_races import REASON, REPEATS, SANCTIONS, Live, at_once, live  # noqa: F401
from tests.builders import ago, sanction_body

PLAYERS = "/api/v1/players"
RACERS = 6


def plain_copies(url: str, values: list[str]) -> list[str]:
    """Where the sanctions and the audit log hold one of the values in plain text."""
    engine = create_engine(make_url(url))
    found = []
    try:
        with engine.connect() as conn:
            for table, column in (("sanctions", "reason"), ("audit_log", "reason"), ("audit_log", "after")):
                for (stored,) in conn.execute(text(f"SELECT {column} FROM {table}")):
                    shown = stored if isinstance(stored, str) else json.dumps(stored)
                    found += [
                        f"{table}.{column}"
                        for value in values
                        if shown and value.casefold() in shown.casefold()
                    ]
    finally:
        engine.dispose()
    return found


def test_r21_sanctions_racing_the_erasure_leave_no_plain_copy(live: Live) -> None:  # noqa: F811
    """R21: in each of REPEATS rounds, a player's erasure and RACERS sanctions naming her by
    name and email (hers, and another player's) are released together; afterwards neither the
    sanctions nor the audit log holds her name or email in plain text."""
    other = live.player()
    for _ in range(REPEATS):
        surname = f"Q{uuid.uuid4().hex[:10]}"
        name, email = f"Zelda {surname}", f"{surname.lower()}@example.org"
        her = int(live.write("POST", PLAYERS, {"full_name": name, "email": email})["id"])
        reason = f"{name} ({email}) shouted at the dealer."
        requests = [("POST", f"{PLAYERS}/{her}/erase", REASON)]
        for i in range(RACERS):
            body = sanction_body(
                (her, other)[i % 2], "warning", "berating", first_day=ago(2), last_day=ago(2)
            )
            requests.append(("POST", SANCTIONS, {**body, "reason": reason}))
        answers = at_once(live, requests)
        assert [status for status, _ in answers] == [200] + [201] * RACERS, answers
        assert plain_copies(live.url, [name, email, surname]) == []
