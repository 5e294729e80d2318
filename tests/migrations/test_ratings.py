"""Migration 0019: player_ratings and rating_points (R20). Results already stored are rated by the
migration's own copy of the replay, float for float what the service's rebuild computes (no-shows
left out, a voided report not rated, a report with one rated entrant changing nothing); undone
and redone. Their data-version triggers are proved with every table's in test_data_version.py."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, inspect, text

from models.infra.migrate import alembic_config, downgrade, upgrade
from models.services.ratings.queries import from_scratch, stored
from tests.support.migrations import add_player, add_region, add_report, add_result, add_season


def test_r20_0019_rates_the_results_already_stored_as_a_rebuild_does(
    empty_url: str, empty_engine: Engine
) -> None:
    config = alembic_config(empty_url)
    upgrade(config, "0017")
    with empty_engine.begin() as conn:
        region = add_region(conn, "River Valley")
        season = add_season(conn, "2026-01-01", "2026-03-31")
        ann, bob, cat, dan = (add_player(conn, name) for name in ("Ann A.", "Bob B.", "Cat C.", "Dan D."))
        days = ("2026-01-10", "2026-01-08", "2026-01-09", "2026-01-11", "2026-01-12")
        reports = [add_report(conn, season, region, day) for day in days]
        for report, order in zip(
            reports, ([ann, bob, cat], [cat, dan], [bob, ann, dan, cat], [dan, bob], [ann, cat]), strict=True
        ):
            for place, player in enumerate(order, start=1):
                add_result(conn, report, player, place)
        # A no-show is not rated, a voided report counts nowhere, one rated entrant changes nothing.
        conn.execute(
            text("UPDATE results SET status = 'no_show' WHERE tournament_id = :t AND player_id = :p"),
            {"t": reports[2], "p": dan},
        )
        conn.execute(
            text("UPDATE results SET status = 'no_show' WHERE tournament_id = :t AND player_id = :p"),
            {"t": reports[3], "p": bob},
        )
        conn.execute(
            text("UPDATE tournaments SET voided_at = '2026-02-01 10:00:00' WHERE id = :t"), {"t": reports[4]}
        )
    upgrade(config)
    with empty_engine.connect() as conn:
        ratings, history = stored(conn)
        assert (ratings, history) == from_scratch(conn)
        assert len(history) == 2 + 3 + 3  # reports of Jan 8, 9 and 10; Jan 11's has one rated entrant
        assert {player: row[2] for player, row in ratings.items()} == {ann: 2, bob: 2, cat: 3, dan: 1}


def test_0019_is_undone_and_redone(empty_url: str, empty_engine: Engine) -> None:
    config = alembic_config(empty_url)
    upgrade(config)
    downgrade(config, "0017")
    inspector = inspect(empty_engine)
    assert not set(inspector.get_table_names()) & {"player_ratings", "rating_points"}
    assert "ix_tournaments_rating_order" not in {
        index["name"] for index in inspector.get_indexes("tournaments")
    }
    upgrade(config)
    assert {"player_ratings", "rating_points"} <= set(inspect(empty_engine).get_table_names())


def test_r20_a_rating_row_goes_with_its_player(migrated: Connection) -> None:
    """Derived data: deleting a player (the demo's removal does) takes its rating rows with it."""
    player = add_player(migrated, "Eve E.")
    migrated.execute(
        text(
            "INSERT INTO player_ratings (player_id, mu, sigma, tournaments, last_tournament_id, last_date,"
            " last_session) VALUES (:p, 25.0, 8.0, 1, 1, '2026-01-01', 1)"
        ),
        {"p": player},
    )
    migrated.execute(text("DELETE FROM players WHERE id = :p"), {"p": player})
    assert migrated.execute(text("SELECT count(*) FROM player_ratings")).scalar_one() == 0


def _rating_point_keys(engine: Engine) -> set[str]:
    engine.dispose()  # SQLite: a pooled connection may answer PRAGMA from the table it knew before
    return {key["referred_table"] for key in inspect(engine).get_foreign_keys("rating_points")}


def test_r20_0021_drops_the_points_keys_to_players_and_venues_and_keeps_the_history(
    empty_url: str, empty_engine: Engine
) -> None:
    """R20's per-report cost: 0021 leaves rating_points only its key to the report (which carries
    the cascade), keeps every point float for float (SQLite rebuilds the table), and its indexes
    and data-version triggers; undone, the keys are back and the points still there."""
    config = alembic_config(empty_url)
    upgrade(config, "0018")
    with empty_engine.begin() as conn:
        region = add_region(conn, "River Valley")
        season = add_season(conn, "2026-01-01", "2026-03-31")
        ann, bob, cat = (add_player(conn, name) for name in ("Ann A.", "Bob B.", "Cat C."))
        for day, order in (("2026-01-08", [ann, bob, cat]), ("2026-01-09", [cat, ann])):
            report = add_report(conn, season, region, day)
            for place, player in enumerate(order, start=1):
                add_result(conn, report, player, place)
    upgrade(config, "0019")  # rates the stored results
    upgrade(config, "0020")
    assert _rating_point_keys(empty_engine) == {"players", "tournaments", "venues"}
    from_0019 = _points(empty_engine)
    assert len(from_0019) == 5
    upgrade(config, "0021")
    assert _rating_point_keys(empty_engine) == {"tournaments"}
    assert _points(empty_engine) == from_0019
    assert {index["name"] for index in inspect(empty_engine).get_indexes("rating_points")} >= {
        "ix_rating_points_order",
        "ix_rating_points_player_id",
    }
    with empty_engine.connect() as conn:
        ratings, history = stored(conn)
        assert (ratings, history) == from_scratch(conn)
    downgrade(config, "0020")
    assert _rating_point_keys(empty_engine) == {"players", "tournaments", "venues"}
    assert _points(empty_engine) == from_0019


def _points(engine: Engine) -> set[tuple[object, ...]]:
    with engine.connect() as conn:
        return {tuple(row) for row in conn.execute(text("SELECT * FROM rating_points"))}
